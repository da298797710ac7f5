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
///                                  seal.log                        how far sends went
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
/// away and reported as a torn tail (information, not damage), and the rest is used.
///
/// `seal.log` holds a ``StoreSeal`` record per send that went further than the last one (the
/// latest counts; it is rewritten with the latest alone every ``sealsPerFile`` records). It is
/// a file of its own because the point of a seal is to outlive records lost from a generation.
/// It costs a flush per push-pull that carries new changes, never one per update: what matters
/// is what the server may have, and only a send gives it anything. A generation is written under a temporary name
/// (`….log.new`) and renamed once flushed whole; a leftover temporary file (a crash while
/// writing it) is deleted on load.
///
/// Thread safety: every call runs under one lock (file calls block; a store is meant for one
/// client, whose documents sync one change pack at a time).
package final class FileDocumentStore: DocumentStore {
  /// The folder holding one folder per document.
  package let directory: URL
  /// The open files of each document loaded or written since the store was made.
  private let open = Locked<OpenFiles>(OpenFiles())
  /// The identity file, once read.
  private let identityLog = Locked<DurableLog?>(nil)

  /// The current generation of a document: its number and its log.
  private struct Generation {
    var number: Int
    var log: DurableLog
  }

  /// A document's seal file, its last seal, and how many records it holds.
  private struct SealFile {
    var log: DurableLog
    var last: StoreSeal?
    var records: Int
  }

  /// The open files, by document key.
  private struct OpenFiles {
    var generations: [String: Generation] = [:]
    var seals: [String: SealFile] = [:]

    /// Closes the files of `key`.
    mutating func close(_ key: String) {
      generations.removeValue(forKey: key)?.log.close()
      seals.removeValue(forKey: key)?.log.close()
    }
  }

  /// How many seal records a seal file holds before it is rewritten with the latest alone.
  static let sealsPerFile = 64

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
    open.withLock { files in
      for key in Array(files.generations.keys) + Array(files.seals.keys) { files.close(key) }
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
      var tornTail: StoreTornTail?
      var records: [[UInt8]] = []
      do throws(StorageError) {
        let (log, recovery) = try DurableLog.open(at: url)
        if let tail = recovery.tornTail { tornTail = StoreTornTail(file: log.path, reason: tail.description) }
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
      return IdentityLoad(identity: identity, damage: damage, tornTail: tornTail)
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
    try open.withLock { (files: inout OpenFiles) throws -> StoreLoad in
      files.close(key)
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
        let document: StoredDocument
        do throws(StoreRecord.Malformed) {
          document = try Self.replay(recovery.records)
        } catch {
          log.close()
          let reason = recovery.tornTail.map { "\(error.description) (after a \($0))" } ?? error.description
          damages.append(setAside(url, file: log.path, reason: reason))
          continue
        }
        files.generations[key] = Generation(number: number, log: log)
        let tornTail = recovery.tornTail.map { StoreTornTail(file: log.path, reason: $0.description) }
        var load = StoreLoad(document: document, damages: damages, tornTail: tornTail)
        try openSeal(key, into: &files, for: &load)
        return load
      }
      return StoreLoad(document: nil, damages: damages)
    }
  }

  package func replaceBase(_ key: String, with base: StoredDocument.Base, entries: [Data]) throws {
    try open.withLock { files in
      let existing = try generationNumbers(key)
      let number = max(existing.last ?? 0, files.generations[key]?.number ?? 0) + 1
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
      files.generations.removeValue(forKey: key)?.log.close()
      files.generations[key] = Generation(number: number, log: log)
      // The new generation is durable: all but the previous one may go.
      for old in existing where old < number - 1 {
        try? FileManager.default.removeItem(at: fileURL(key, old))
      }
    }
  }

  package func append(_ key: String, _ entries: [Data], durable: Bool) throws {
    try open.withLock { files in
      guard let log = files.generations[key]?.log else { throw DocumentStoreError.noBase(key: key) }
      do {
        let position = try log.append(entries.map { StoreRecord.entry($0).encoded })
        if durable { try log.sync(through: position) }
      } catch {
        throw DocumentStoreError.storage("\(error)")
      }
    }
  }

  package func seal(_ key: String, _ seal: StoreSeal) throws {
    try open.withLock { files in
      guard files.generations[key] != nil else { throw DocumentStoreError.noBase(key: key) }
      do {
        var file: SealFile
        if let opened = files.seals[key] {
          file = opened
        } else {
          file = SealFile(log: try DurableLog.open(at: sealURL(key)).0, last: nil, records: 0)
        }
        let record = StoreRecord.seal(seal).encoded
        if file.records >= Self.sealsPerFile {
          try file.log.rewrite(with: [record])
          file.records = 1
        } else {
          try file.log.sync(through: try file.log.append([record]))
          file.records += 1
        }
        file.last = seal
        files.seals[key] = file
      } catch {
        throw DocumentStoreError.storage("\(error)")
      }
    }
  }

  package func remove(_ key: String) throws {
    try open.withLock { files in
      files.close(key)
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

  /// Reads the seal file of `key`, if there is one, into `load` and keeps it open. A torn
  /// tail there is a seal whose flush never returned, so whose send never happened: the last
  /// whole record counts. A damaged file is set aside and reported: how far sends went is
  /// unknown then, which the client treats as damage.
  private func openSeal(_ key: String, into files: inout OpenFiles, for load: inout StoreLoad) throws {
    let url = sealURL(key)
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do throws(StorageError) {
      let (log, recovery) = try DurableLog.open(at: url)
      var last: StoreSeal?
      for payload in recovery.records {
        guard case .seal(let seal)? = try? StoreRecord.decode(payload) else {
          log.close()
          load.damages.append(setAside(url, file: url.path, reason: "a record that is no seal"))
          return
        }
        last = seal
      }
      load.seal = last
      files.seals[key] = SealFile(log: log, last: last, records: recovery.records.count)
    } catch {
      guard case .corrupt(let file, let offset, let reason) = error else { throw DocumentStoreError.storage("\(error)") }
      load.damages.append(setAside(url, file: file, reason: "\(reason) at offset \(offset)"))
    }
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

  /// The seal file of `key`.
  private func sealURL(_ key: String) -> URL {
    folderURL(key).appendingPathComponent("seal.log")
  }

  /// The file of generation `number` of `key`.
  private func fileURL(_ key: String, _ number: Int) -> URL {
    let digits = String(number)
    return folderURL(key).appendingPathComponent(String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".log")
  }
}
