import CRDT
import DurableStorage
import Foundation

/// A ``DocumentStore`` on the local file system: one folder per document under ``directory``
/// (which should be one per client identity), one `DurableLog` file per generation.
///
/// ```
/// <directory>/identity.log                                         the client's identity
/// <directory>/d-<key as hex UTF-8>/00000000000000000007.log        the current generation
///                                  00000000000000000006.log        the previous one
///                                  00000000000000000005.log.damaged set aside by a load
/// ```
///
/// A generation's first record is its base, the others its entries (``StoreRecord``); every
/// record carries a CRC-32C. A durable append is flushed before ``append(_:_:durable:)``
/// returns. A new generation is written and flushed in full before the
/// older ones (all but the previous) are deleted, so a crash at any instant leaves a generation
/// that reads back whole.
///
/// Loading reads the newest generation first. A file whose records fail their checksums, or
/// whose first record is no base, is renamed `….damaged` and reported, and the previous
/// generation is tried; an unfinished last record (the trace of a crash during an append) is cut
/// away and reported, and the rest is used. A generation is written under a temporary name
/// (`….log.new`) and renamed once flushed whole; a leftover temporary file (a crash while
/// writing it) is deleted on load.
///
/// Thread safety: every call runs under one lock (file calls block; a store is meant for one
/// client, whose documents sync one change pack at a time).
package final class FileDocumentStore: DocumentStore {
  /// The folder holding one folder per document.
  package let directory: URL
  /// The open generation of each document loaded or written since the store was made.
  private let open = Locked<[String: Generation]>([:])
  /// The identity file, once read.
  private let identityLog = Locked<DurableLog?>(nil)

  /// The current generation of a document: its number and its log.
  private struct Generation {
    var number: Int
    var log: DurableLog
  }

  /// A store in `directory`, created if missing.
  package init(directory: URL) throws {
    self.directory = directory
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw DocumentStoreError.storage("cannot create \(directory.path): \(error)")
    }
  }

  deinit {
    close()
  }

  /// Closes every open file (and releases its lock, so that another store may open the
  /// folder); a later call on a document opens its files again, through ``load(_:)``.
  package func close() {
    open.withLock { generations in
      for generation in generations.values { generation.log.close() }
      generations = [:]
    }
    identityLog.withLock { log in
      log?.close()
      log = nil
    }
  }

  package func storedKeys() throws -> [String] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw DocumentStoreError.storage("cannot list \(directory.path): \(error)")
    }
    return names.compactMap(Self.key(ofFolder:)).sorted()
  }

  package func loadIdentity() throws -> IdentityLoad {
    try identityLog.withLock { (current: inout DurableLog?) throws -> IdentityLoad in
      current?.close()
      current = nil
      let url = directory.appendingPathComponent("identity.log")
      var damage: StoreDamage?
      var records: [[UInt8]] = []
      do throws(StorageError) {
        let (log, recovery) = try DurableLog.open(at: url)
        if let tail = recovery.tornTail { damage = StoreDamage(file: log.path, reason: tail.description) }
        current = log
        records = recovery.records
      } catch {
        guard case .corrupt(let file, let offset, let reason) = error else { throw DocumentStoreError.storage("\(error)") }
        damage = setAside(url, file: file, reason: "\(reason) at offset \(offset)")
      }
      var identity: StoredIdentity?
      for payload in records {
        guard case .identity(let stored)? = try? StoreRecord.decode(payload) else {
          current?.close()
          current = nil
          return IdentityLoad(identity: nil, damage: setAside(url, file: url.path, reason: "a record that is no identity"))
        }
        identity = stored
      }
      return IdentityLoad(identity: identity, damage: damage)
    }
  }

  package func saveIdentity(_ identity: StoredIdentity?) throws {
    if identityLog.withLock({ $0 == nil }) { _ = try loadIdentity() }
    try identityLog.withLock { log in
      if log == nil {
        // The file was set aside as damaged: a new one takes its place.
        do { log = try DurableLog.open(at: directory.appendingPathComponent("identity.log")).0 } catch {
          throw DocumentStoreError.storage("\(error)")
        }
      }
      guard let log else { return }
      do {
        try log.sync(through: try log.append([StoreRecord.identity(identity).encoded]))
      } catch {
        throw DocumentStoreError.storage("\(error)")
      }
    }
  }

  package func load(_ key: String) throws -> StoreLoad {
    try open.withLock { (generations: inout [String: Generation]) throws -> StoreLoad in
      generations.removeValue(forKey: key)?.log.close()
      var damages: [StoreDamage] = []
      // What a crash in the middle of writing a generation leaves: never complete, never used.
      for number in try generationNumbers(key, suffix: ".log.new") {
        try? FileManager.default.removeItem(at: fileURL(key, number).appendingPathExtension("new"))
      }
      for number in try generationNumbers(key).reversed() {
        let url = fileURL(key, number)
        let opened: (DurableLog, DurableLog.Recovery)
        do throws(StorageError) {
          opened = try DurableLog.open(at: url)
        } catch {
          guard case .corrupt(let file, let offset, let reason) = error else { throw DocumentStoreError.storage("\(error)") }
          damages.append(setAside(url, file: file, reason: "\(reason) at offset \(offset)"))
          continue
        }
        let (log, recovery) = opened
        if let tail = recovery.tornTail {
          damages.append(StoreDamage(file: log.path, reason: tail.description))
        }
        do throws(StoreRecord.Malformed) {
          let document = try Self.replay(recovery.records)
          generations[key] = Generation(number: number, log: log)
          return StoreLoad(document: document, damages: damages)
        } catch {
          log.close()
          damages.append(setAside(url, file: log.path, reason: error.description))
        }
      }
      return StoreLoad(document: nil, damages: damages)
    }
  }

  package func replaceBase(_ key: String, with base: StoredDocument.Base, entries: [Data]) throws {
    try open.withLock { generations in
      let existing = try generationNumbers(key)
      let number = max(existing.last ?? 0, generations[key]?.number ?? 0) + 1
      try FileManager.default.createDirectory(at: folderURL(key), withIntermediateDirectories: true)
      let records = [StoreRecord.base(base).encoded] + entries.map { StoreRecord.entry($0).encoded }
      // Written whole under a temporary name, then renamed: a generation file with a name is
      // complete, so one that reads back empty or short is damage, never an interrupted write.
      let final = fileURL(key, number)
      let temporary = final.appendingPathExtension("new")
      let log: DurableLog
      do {
        _ = try FileIO.removeIfPresent(temporary.path)
        let (written, _) = try DurableLog.open(at: temporary)
        try written.sync(through: try written.append(records))
        written.close()
        try FileIO.rename(temporary.path, over: final.path)
        try FileIO.syncDirectory(containing: final.path)
        log = try DurableLog.open(at: final).0
      } catch {
        throw DocumentStoreError.storage("\(error)")
      }
      generations.removeValue(forKey: key)?.log.close()
      generations[key] = Generation(number: number, log: log)
      // The new generation is durable: all but the previous one may go.
      for old in existing where old < number - 1 {
        try? FileManager.default.removeItem(at: fileURL(key, old))
      }
    }
  }

  package func append(_ key: String, _ entries: [Data], durable: Bool) throws {
    try open.withLock { generations in
      guard let log = generations[key]?.log else { throw DocumentStoreError.noBase(key: key) }
      do {
        let position = try log.append(entries.map { StoreRecord.entry($0).encoded })
        if durable { try log.sync(through: position) }
      } catch {
        throw DocumentStoreError.storage("\(error)")
      }
    }
  }

  package func remove(_ key: String) throws {
    try open.withLock { generations in
      generations.removeValue(forKey: key)?.log.close()
      let folder = folderURL(key)
      if FileManager.default.fileExists(atPath: folder.path) {
        do {
          try FileManager.default.removeItem(at: folder)
        } catch {
          throw DocumentStoreError.storage("cannot remove \(folder.path): \(error)")
        }
      }
    }
  }

  // MARK: - Steps

  /// The document a generation's records describe.
  private static func replay(_ records: [[UInt8]]) throws(StoreRecord.Malformed) -> StoredDocument {
    guard let first = records.first, case .base(let base) = try StoreRecord.decode(first) else {
      throw StoreRecord.Malformed(description: "the first record is not a base")
    }
    var entries: [Data] = []
    for payload in records.dropFirst() {
      guard case .entry(let entry) = try StoreRecord.decode(payload) else {
        throw StoreRecord.Malformed(description: "a record after the base that is no entry")
      }
      entries.append(entry)
    }
    return StoredDocument(base: base, entries: entries)
  }

  /// Renames a damaged generation so that no load tries it again, and says so.
  private func setAside(_ url: URL, file: String, reason: String) -> StoreDamage {
    let aside = url.appendingPathExtension("damaged")
    try? FileManager.default.removeItem(at: aside)
    try? FileManager.default.moveItem(at: url, to: aside)
    return StoreDamage(file: file, reason: reason)
  }

  /// The generation numbers of the files of `key` named with `suffix`, ascending.
  private func generationNumbers(_ key: String, suffix: String = ".log") throws -> [Int] {
    let folder = folderURL(key)
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw DocumentStoreError.storage("cannot list \(folder.path): \(error)")
    }
    return names.compactMap { name -> Int? in
      guard name.hasSuffix(suffix), name.count == 20 + suffix.count else { return nil }
      return Int(name.prefix(20))
    }.sorted()
  }

  /// The key whose folder is named `name`; nil for any other name.
  private static func key(ofFolder name: String) -> String? {
    guard name.hasPrefix("d-") else { return nil }
    let hex = Array(name.utf8.dropFirst(2))
    guard hex.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: hex.count, by: 2) {
      guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
      bytes.append(byte)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The folder of `key`: its UTF-8 bytes in hex, so that any key is a safe, distinct name.
  private func folderURL(_ key: String) -> URL {
    directory.appendingPathComponent("d-" + key.utf8.map { String(format: "%02x", $0) }.joined(), isDirectory: true)
  }

  /// The file of generation `number` of `key`.
  private func fileURL(_ key: String, _ number: Int) -> URL {
    let digits = String(number)
    return folderURL(key).appendingPathComponent(String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".log")
  }
}
