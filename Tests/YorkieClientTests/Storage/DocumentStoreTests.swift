import CRDT
import Foundation
import Testing
import YorkieTestSupport

@testable import YorkieClient

/// The document stores on their own: what goes in comes back, across store instances, and a
/// damaged file is never loaded (the previous generation is, and the damage is reported).
@Suite("Document store: generations, pending changes, damage")
struct DocumentStoreTests {
  /// A base whose every field is distinguishable.
  static func base(_ tag: UInt8, actor: ActorID = try! ActorID(hex: "0102030405060708090a0b0c")) -> StoredDocument.Base {
    var vector: [ActorID: Int64] = [actor: Int64(tag) * 10]
    vector[try! ActorID(hex: String(format: "0000000000000000000007%02x", tag))] = -3
    let replica = ReplicaBase(
      actorID: actor, checkpoint: Checkpoint(serverSeq: Int64(tag) * 100, clientSeq: UInt32(tag)), localClientSeq: UInt32(tag) + 3,
      versionVector: VersionVector(vector), snapshot: Data(repeating: tag, count: 40 + Int(tag)))
    return StoredDocument.Base(replica, documentID: tag.isMultiple(of: 2) ? nil : String(format: "%024x", Int(tag) * 7))
  }

  static func change(_ text: String) -> Data { Data(text.utf8) }

  @Test("entries after a base (durable or not) and a new base read back exactly")
  func roundTrip() async throws {
    let folder = temporaryFolder("store-round-trip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try FileDocumentStore(directory: folder)
    defer { store.close() }
    #expect(throws: DocumentStoreError.noBase(key: "doc")) { try store.append("doc", [Self.change("x")], durable: true) }
    #expect(try store.load("doc") == StoreLoad(document: nil, damages: []))

    try store.replaceBase("doc", with: Self.base(1), entries: [Self.change("c1")])
    try store.append("doc", [Self.change("c2"), Self.change("c3")], durable: true)
    try store.append("doc", [Self.change("c4")], durable: false)
    try store.append("doc", [], durable: true)
    let expected = StoredDocument(base: Self.base(1), entries: ["c1", "c2", "c3", "c4"].map(Self.change))
    #expect(try store.load("doc") == StoreLoad(document: expected, damages: []))

    try store.replaceBase("doc", with: Self.base(2, actor: try! ActorID(hex: "0c0b0a090807060504030201")), entries: [])
    #expect(try store.load("doc") == StoreLoad(document: StoredDocument(base: Self.base(2, actor: try! ActorID(hex: "0c0b0a090807060504030201"))), damages: []))
    try store.append("doc", [Self.change("d1")], durable: false)
    #expect(try store.load("doc") == StoreLoad(document: StoredDocument(base: Self.base(2, actor: try! ActorID(hex: "0c0b0a090807060504030201")), entries: [Self.change("d1")]), damages: []))
    #expect(try store.load("other") == StoreLoad(document: nil, damages: []))
    #expect(try store.storedKeys() == ["doc"])
    try store.remove("doc")
    #expect(try store.load("doc") == StoreLoad(document: nil, damages: []))
    #expect(try store.storedKeys() == [])
  }

  @Test("a file store reads back what another instance wrote; keys never collide; two generations stay")
  func reopen() async throws {
    let folder = temporaryFolder("store-reopen")
    defer { try? FileManager.default.removeItem(at: folder) }
    let keys = ["doc", "doc/1", "DOC", "한글-✓", String(repeating: "k", count: 120)]
    do {
      let store = try FileDocumentStore(directory: folder)
      defer { store.close() }
      for (index, key) in keys.enumerated() {
        for generation in 0..<4 {
          try store.replaceBase(key, with: Self.base(UInt8(index * 4 + generation)), entries: [Self.change("\(key)-\(generation)")])
        }
        try store.append(key, [Self.change("\(key)-late")], durable: true)
      }
    }
    let store = try FileDocumentStore(directory: folder)
    for (index, key) in keys.enumerated() {
      let expected = StoredDocument(base: Self.base(UInt8(index * 4 + 3)), entries: [Self.change("\(key)-3"), Self.change("\(key)-late")])
      #expect(try store.load(key) == StoreLoad(document: expected, damages: []), "key \(key)")
    }
    #expect(try store.storedKeys() == keys.sorted())
    store.close()
    let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(folders.count == keys.count)
    for name in folders {
      let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(name).path).sorted()
      #expect(files == ["00000000000000000003.log", "00000000000000000004.log"], "\(name)")
    }
  }

  @Test("the client identity reads back, across instances; a damaged identity file is reported and replaced")
  func identity() throws {
    let folder = temporaryFolder("store-identity")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = StoredIdentity(clientKey: "key-é", clientID: "0123456789abcdef01234567")
    let second = StoredIdentity(clientKey: "key-2", clientID: "76543210fedcba9876543210")
    let store = try FileDocumentStore(directory: folder)
    #expect(try store.loadIdentity() == IdentityLoad(identity: nil, damage: nil))
    try store.saveIdentity(first)
    try store.saveIdentity(second)
    #expect(try store.loadIdentity() == IdentityLoad(identity: second, damage: nil))
    try store.saveIdentity(nil)
    #expect(try store.loadIdentity() == IdentityLoad(identity: nil, damage: nil))
    try store.saveIdentity(first)
    store.close()

    let again = try FileDocumentStore(directory: folder)
    #expect(try again.loadIdentity() == IdentityLoad(identity: first, damage: nil))
    #expect(throws: DocumentStoreError.self) { try FileDocumentStore(directory: folder).loadIdentity() }
    again.close()
    let file = folder.appendingPathComponent("identity.log")
    var bytes = try [UInt8](Data(contentsOf: file))
    bytes[14] ^= 0x5a  // inside the first record: damage, not a torn tail
    try Data(bytes).write(to: file)
    let damaged = try FileDocumentStore(directory: folder)
    defer { damaged.close() }
    let load = try damaged.loadIdentity()
    #expect(load.identity == nil)
    #expect(load.damage?.file == file.path)
    #expect(FileManager.default.fileExists(atPath: file.path + ".damaged"))
    try damaged.saveIdentity(second)
    #expect(try damaged.loadIdentity() == IdentityLoad(identity: second, damage: nil))
  }

  /// Two generations of "doc": the older (base 1, one entry) and the newer (base 2, four
  /// entries, the last not flushed by itself). Returns the states the newer one's record prefixes
  /// describe (index k: its first k+1 records), the older one's state and where the newer one's
  /// records end.
  static func twoGenerations(_ folder: URL) throws -> (newer: [StoredDocument], older: StoredDocument, boundaries: [Int]) {
    let store = try FileDocumentStore(directory: folder)
    defer { store.close() }
    try store.replaceBase("doc", with: base(1), entries: [change("a1")])
    try store.replaceBase("doc", with: base(2), entries: [change("b1")])
    try store.append("doc", [change("b2"), change("b3")], durable: true)
    try store.append("doc", [change("b4")], durable: false)
    let names = ["b1", "b2", "b3", "b4"]
    let records: [StoreRecord] = [.base(base(2))] + names.map { .entry(change($0)) }
    var boundaries = [8]
    for record in records { boundaries.append(boundaries.last! + 8 + record.encoded.count) }
    let prefixes = (0...names.count).map { StoredDocument(base: base(2), entries: names.prefix($0).map(change)) }
    return (prefixes, StoredDocument(base: base(1), entries: [change("a1")]), Array(boundaries.dropFirst()))
  }

  /// What a fresh store finds for "doc" (closed after, so that the next store may open the folder).
  static func loadOnce(_ folder: URL) throws -> StoreLoad {
    let store = try FileDocumentStore(directory: folder)
    defer { store.close() }
    return try store.load("doc")
  }

  static func generationFile(_ folder: URL, _ number: Int) -> URL {
    folder.appendingPathComponent("d-" + "doc".utf8.map { String(format: "%02x", $0) }.joined())
      .appendingPathComponent(String(format: "%020d.log", number))
  }

  @Test("a flipped or truncated byte anywhere is never loaded: a good prefix or the previous generation is, and the damage is reported")
  func damage() throws {
    let seed = UInt64.random(in: 0...UInt64(UInt32.max))
    print("DocumentStoreTests.damage seed \(seed)")
    var random = SplitMix64(seed: seed)
    for round in 0..<150 {
      let folder = temporaryFolder("store-damage")
      defer { try? FileManager.default.removeItem(at: folder) }
      let (newer, older, boundaries) = try Self.twoGenerations(folder)
      let damagesOlder = round % 5 == 0
      let file = Self.generationFile(folder, damagesOlder ? 1 : 2)
      var bytes = try [UInt8](Data(contentsOf: file))
      let truncates = Bool.random(using: &random)
      let offset = Int.random(in: 0..<bytes.count, using: &random)
      if truncates {
        bytes.removeSubrange(offset...)
      } else {
        bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
      }
      try Data(bytes).write(to: file)
      let context = "seed \(seed) round \(round): \(truncates ? "cut at" : "flip at") \(offset) of generation \(damagesOlder ? 1 : 2)"

      var store: FileDocumentStore? = try FileDocumentStore(directory: folder)
      let load = try store!.load("doc")
      if damagesOlder {
        // The newer generation is whole: the older one is not even read.
        #expect(load == StoreLoad(document: newer.last, damages: []), "\(context)")
        store?.close()
        continue
      }
      let loaded = try #require(load.document, "\(context)")
      #expect(newer.contains(loaded) || loaded == older, "\(context): \(loaded)")
      let cutAtBoundary = truncates && boundaries.contains(offset)
      if !cutAtBoundary {
        if truncates && loaded != older {
          // Cut inside a record after the base: a torn tail, cut away; the records before it
          // are used, and it is reported as such, not as damage.
          #expect(load.damages.isEmpty && load.tornTail?.file == file.path, "\(context): \(load)")
        } else {
          // (A flip in the last record's length looks exactly like a torn tail: reported as one.)
          #expect(!load.damages.isEmpty || (!truncates && load.tornTail != nil), "\(context): not reported")
        }
      }
      if loaded == older {
        #expect(FileManager.default.fileExists(atPath: file.path + ".damaged"), "\(context)")
        #expect(!FileManager.default.fileExists(atPath: file.path), "\(context)")
      }
      // The store goes on: a new generation loads whole, and nothing set aside comes back.
      try store!.replaceBase("doc", with: Self.base(9), entries: [Self.change("z")])
      store?.close()  // One store per folder: its files are locked while it is open.
      store = nil
      let again = try Self.loadOnce(folder)
      #expect(again == StoreLoad(document: StoredDocument(base: Self.base(9), entries: [Self.change("z")]), damages: []), "\(context)")
    }
  }

  @Test("a seal reads back with the generation, outlives a new base and many seals, survives a torn tail, and goes with remove")
  func seals() throws {
    let folder = temporaryFolder("store-seal")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try FileDocumentStore(directory: folder)
    #expect(throws: DocumentStoreError.noBase(key: "doc")) { try store.seal("doc", StoreSeal(clientSeq: 1, lamport: 1)) }
    try store.replaceBase("doc", with: Self.base(1), entries: [])
    #expect(try store.load("doc").seal == nil)
    for seq in 1...UInt32(FileDocumentStore.sealsPerFile * 2 + 3) {
      try store.seal("doc", StoreSeal(clientSeq: seq, lamport: Int64(seq) * 10))
    }
    try store.replaceBase("doc", with: Self.base(2), entries: [Self.change("a")])
    store.close()
    let last = StoreSeal(clientSeq: UInt32(FileDocumentStore.sealsPerFile * 2 + 3), lamport: Int64(FileDocumentStore.sealsPerFile * 2 + 3) * 10)
    let sealFile = Self.generationFile(folder, 1).deletingLastPathComponent().appendingPathComponent("seal.log")
    // Rewritten with the latest alone now and then: it stays small.
    let size = try #require(try FileManager.default.attributesOfItem(atPath: sealFile.path)[.size] as? Int)
    #expect(size <= 8 + (8 + 13) * FileDocumentStore.sealsPerFile, "\(size) bytes")
    #expect(try Self.loadOnce(folder) == StoreLoad(document: StoredDocument(base: Self.base(2), entries: [Self.change("a")]), damages: [], seal: last))
    // A seal whose flush never returned (torn) does not count; the one before it does.
    let handle = try FileHandle(forWritingTo: sealFile)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([13, 0, 0, 0, 1, 2]))
    try handle.close()
    #expect(try Self.loadOnce(folder).seal == last)
    let again = try FileDocumentStore(directory: folder)
    _ = try again.load("doc")
    try again.remove("doc")
    try again.replaceBase("doc", with: Self.base(3), entries: [])
    #expect(try again.load("doc").seal == nil)
    again.close()
  }

  @Test("both generations damaged: nothing is loaded and both are reported; an unfinished generation is dropped silently, an empty named one reported")
  func nothingUsable() throws {
    let folder = temporaryFolder("store-nothing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (newer, _, _) = try Self.twoGenerations(folder)
    // A crash while a third generation is written leaves its temporary file: dropped silently.
    let third = Self.generationFile(folder, 3)
    let partial = third.appendingPathExtension("new")
    try Data(try Data(contentsOf: Self.generationFile(folder, 2)).prefix(30)).write(to: partial)
    #expect(try Self.loadOnce(folder) == StoreLoad(document: newer.last, damages: []))
    #expect(!FileManager.default.fileExists(atPath: partial.path))
    // A named generation holding nothing was damaged (it was complete when named).
    try Data(try Data(contentsOf: Self.generationFile(folder, 2)).prefix(8)).write(to: third)
    let emptyNewest = try Self.loadOnce(folder)
    #expect(emptyNewest.document == newer.last)
    #expect(emptyNewest.damages.map(\.reason) == ["the first record is not a base"])
    #expect(FileManager.default.fileExists(atPath: third.path + ".damaged"))

    for number in [1, 2] {
      let file = Self.generationFile(folder, number)
      var bytes = try [UInt8](Data(contentsOf: file))
      bytes[0] ^= 0xFF  // the magic
      try Data(bytes).write(to: file)
    }
    let load = try Self.loadOnce(folder)
    #expect(load.document == nil)
    #expect(load.damages.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["00000000000000000002.log", "00000000000000000001.log"])
  }
}
