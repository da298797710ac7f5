@testable import CRDT
import Foundation
import Testing

/// Yorkie's binary Snapshot and JSONElement encodings, and loading a snapshot into a document.
@Suite struct SnapshotTests {
  let alice = try! ActorID(hex: "66c1f0a2b7e4d93a1c2e4f10")

  // MARK: Golden bytes from the protocol notes

  @Test func emptyObjectElementMatchesTheProtocolExample() throws {
    let element = ElementSnapshot.object([], .init(createdAt: TimeTicket(lamport: 3, delimiter: 2, actorID: alice)))
    #expect(element.jsonElementData.base64EncodedString() == "ChQSEggDEAIaDGbB8KK35Nk6HC5PEA==")
    #expect(try ElementSnapshot(jsonElementData: element.jsonElementData) == element)
  }

  @Test func protocolSnapshotExampleDecodes() async throws {
    let data = try #require(Data(base64Encoded: "CjwKOgooCgV0aXRsZRIfGh0IBRIFaGVsbG8aEggBEAEaDGbB8KK35Nk6HC5PEBIOGgwAAAAAAAAAAAAAAAASLQoYNjZjMWYwYTJiN2U0ZDkzYTFjMmU0ZjEwEhEKDwoEbmFtZRIHImFsaWNlIg=="))
    let snapshot = try DocumentSnapshot(data: data)
    #expect(snapshot.presences == [alice: ["name": .string("alice")]])
    let doc = Document(key: "my-doc")
    try await doc.applyChangePack(ChangePack(key: "my-doc", checkpoint: Checkpoint(serverSeq: 5, clientSeq: 0), changes: [],
                                             versionVector: VersionVector([alice: 1]), snapshot: data))
    #expect(await doc.toJSON() == #"{"title":"hello"}"#)
    // Re-encoding gives the same bytes (members and presences are written in a fixed order).
    #expect(await doc.snapshot() == data)
  }

  // MARK: Round trips

  /// A document with every kind of element, tombstones, moves, split and styled text.
  func richDocument() async throws -> Document {
    let doc = Document(key: "rich")
    try await doc.setActor(alice)
    try await doc.update { root, presence in
      root["null"] = .null
      root["bool"] = true
      root["int"] = .integer(-7)
      root["long"] = .long(9_007_199_254_740_993)
      root["double"] = .double(3.25)
      root["string"] = "héllo \"😀\"\n"
      root["bytes"] = .bytes(Data([0, 1, 255]))
      root["date"] = .date(Date(timeIntervalSince1970: 1_700_000_000.123))
      let list = root.setNewArray("list")
      for i in 0..<6 { try list.append(.integer(Int32(i))) }
      try list.move(from: 0, to: 4)
      try list.remove(at: 1)
      try list.set("x", at: 2)
      let nested = list.appendNewObject()
      nested["k"] = "v"
      let text = root.setNewText("text")
      _ = try text.edit(0, 0, "Hello world")
      _ = try text.edit(5, 6, "😀")
      try text.setStyle(0, 3, ["bold": true])
      try text.removeStyle(1, 2, keys: ["bold"])
      root.setNewCounter("cnt", .int(41)).increase(by: 1)
      _ = root.setNewCounter("big", .long(1 << 40))
      root["gone"] = "soon"
      root.remove("gone")
      root["over"] = 1
      root["over"] = 2
      presence.set(["cursor": .integer(3), "name": "alice"])
    }
    return doc
  }

  @Test func snapshotLoadsIntoAFreshDocument() async throws {
    let source = try await richDocument()
    let data = await source.snapshot()
    let target = Document(key: "rich")
    try await target.setActor(try ActorID(hex: "0000000000000000000000bb"))
    try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: await source.versionVector, snapshot: data))
    #expect(await target.toSortedJSON() == source.toSortedJSON())
    #expect(await target.toJSON() == source.toJSON())
    #expect(await target.garbageLength == source.garbageLength)
    #expect(await target.snapshot() == data)
    #expect(await target.checkInvariants() == nil)
    // The clocks moved past the snapshot: the next local ticket is newer than anything in it.
    #expect(await target.versionVector[alice] == source.versionVector[alice])
    #expect(await target.changeID.lamport > source.changeID.lamport)
    // Text internals survive: the split pieces, tombstones and attributes.
    #expect(await target.debugPieces("$.text") == source.debugPieces("$.text"))
    // GC on the loaded copy purges what GC on the source purges.
    let everything = maxVector([alice])
    let purgedSource = await source.garbageCollect(minSyncedVersionVector: everything)
    let purgedTarget = await target.garbageCollect(minSyncedVersionVector: everything)
    #expect(purgedSource == purgedTarget)
    #expect(purgedSource > 0)
    #expect(await target.toSortedJSON() == source.toSortedJSON())
  }

  /// The server's materialized documents: a replica that loaded a snapshot and applied changes
  /// (never setting its actor), once its clocks are reset, is interchangeable with a fresh
  /// replica that loads its snapshot with its version vector.
  @Test func resetClocksMatchLoadingTheOwnSnapshot() async throws {
    let source = try await richDocument()
    let kept = Document(key: "")
    try await kept.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [],
                                              versionVector: await source.versionVector, snapshot: await source.snapshot()))
    // More changes of the source reach the kept replica as a server's answer would bring them.
    try await source.update { root, _ in
      _ = try root.text("text")!.edit(2, 4, "ab")
      try root.array("list")!.move(from: 0, to: 2)
    }
    try await source.update { root, _ in root["over"] = 3 }
    try await kept.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: await source.pendingChanges))
    _ = await kept.garbageCollect(minSyncedVersionVector: VersionVector([alice: 2]))
    let data = await kept.snapshot()
    let fresh = Document(key: "")
    try await fresh.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [], versionVector: await kept.versionVector, snapshot: data))
    #expect(await kept.changeID != fresh.changeID)
    try await kept.resetClocksAsLoadedFromOwnSnapshot()
    #expect(await kept.changeID == fresh.changeID)
    #expect(await kept.snapshot() == fresh.snapshot())
    // Both go on alike.
    try await source.update { root, _ in _ = try root.text("text")!.edit(0, 1, "Z") }
    let next = Array(await source.pendingChanges.suffix(1))
    try await kept.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: next))
    try await fresh.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: next))
    #expect(await kept.snapshot() == fresh.snapshot())
    #expect(await kept.versionVector == fresh.versionVector)
    // Only a replica without an actor of its own, changes or subscribers may reset.
    await #expect(throws: YorkieError.self) { try await source.resetClocksAsLoadedFromOwnSnapshot() }
    _ = await fresh.events()
    await #expect(throws: YorkieError.self) { try await fresh.resetClocksAsLoadedFromOwnSnapshot() }
  }

  @Test func snapshotBytesReuseTheRootFieldWhileOnlyPresencesChange() async throws {
    let doc = try await richDocument()
    let (bytes, rootField) = await doc.snapshotBytes()
    #expect(Data(bytes) == (await doc.snapshot()))
    #expect(Array(bytes.prefix(rootField.count)) == rootField)
    // A presence change leaves the root alone: the reused root gives the fresh bytes.
    try await doc.update { _, presence in presence.set(["cursor": .integer(9)]) }
    let reused = await doc.snapshotBytes(reusingRootField: rootField)
    #expect(Data(reused.bytes) == (await doc.snapshot()))
    #expect(reused.rootField == rootField)
    #expect(reused.bytes != bytes)
  }

  @Test func snapshotKeepsUnacknowledgedLocalChanges() async throws {
    let source = try await richDocument()
    let data = await source.snapshot()
    let bob = try ActorID(hex: "0000000000000000000000bb")
    let target = Document(key: "rich")
    try await target.setActor(bob)
    try await target.update { root, _ in root["first"] = "acknowledged" }
    try await target.update { root, _ in root["second"] = "pending" }
    let events = await target.events()
    // The server has stored the first local change (it is inside the snapshot: the snapshot is
    // built from a replica that saw it), not the second.
    try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 9, clientSeq: 1), changes: [],
                                                versionVector: await source.versionVector, snapshot: data))
    #expect(await target.checkInvariants() == nil)
    let json = await target.toSortedJSON()
    #expect(!json.contains("acknowledged"))
    #expect(json.contains(#""second":"pending""#))
    #expect(await target.pendingChanges.map(\.id.clientSeq) == [2])
    #expect(await target.checkpoint == Checkpoint(serverSeq: 9, clientSeq: 1))
    var iterator = events.makeAsyncIterator()
    let first = await iterator.next()
    guard case .snapshot? = first else {
      Issue.record("expected a snapshot event, got \(String(describing: first))")
      return
    }
  }

  @Test func emptyDocumentRoundTrips() async throws {
    let data = await Document(key: "empty").snapshot()
    let snapshot = try DocumentSnapshot(data: data)
    #expect(snapshot.presences.isEmpty)
    let target = Document(key: "empty")
    try await target.applyChangePack(ChangePack(key: "empty", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [], snapshot: data))
    #expect(await target.toSortedJSON() == "{}")
    #expect(await target.garbageLength == 0)
  }

  /// A position naming a split piece's original insertion resolves through the insertion's
  /// chain of pieces: a loaded copy must resolve it exactly as the source does.
  @Test func splitPiecesKeepTheirInsertionLinks() async throws {
    let source = Document(key: "links")
    try await source.setActor(alice)
    try await source.update { root, _ in _ = try root.setNewText("text").edit(0, 0, "abcdef") }
    try await source.update { root, _ in _ = try root.text("text")!.edit(2, 4, "x") }
    try await source.update { root, _ in _ = try root.text("text")!.edit(1, 2, "yz") }
    let target = Document(key: "links")
    try await target.applyChangePack(ChangePack(key: "links", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: await source.versionVector, snapshot: await source.snapshot()))
    #expect(await target.debugPieces("$.text") == source.debugPieces("$.text"))
    // A peer inserts at (the "abcdef" insertion, offset 0, relative offset 5): inside the piece "f".
    let insertion = TimeTicket(lamport: 1, delimiter: 2, actorID: alice)
    let peer = try ActorID(hex: "0000000000000000000000cc")
    let textID = TimeTicket(lamport: 1, delimiter: 1, actorID: alice)
    let at = TextPosition(createdAt: insertion, offset: 0, relativeOffset: 5)
    let change = Change(
      id: ChangeID(clientSeq: 1, lamport: 10, actorID: peer, versionVector: VersionVector([peer: 10, alice: 3])),
      operations: [.edit(parentCreatedAt: textID, from: at, to: at, content: "!", attributes: nil,
                         executedAt: TimeTicket(lamport: 10, delimiter: 1, actorID: peer))])
    for doc in [source, target] {
      try await doc.applyChangePack(ChangePack(key: "links", checkpoint: Checkpoint(serverSeq: 2, clientSeq: 0), changes: [change]))
    }
    #expect(await source.toJSON() == target.toJSON())
    #expect(try await target.value(atPath: "$.text").map { "\($0)" } == source.value(atPath: "$.text").map { "\($0)" })
    let printed = await target.toJSON()
    #expect(printed == #"{"text":[{"val":"a"},{"val":"yz"},{"val":"x"},{"val":"e"},{"val":"!"},{"val":"f"}]}"#, "\(printed)")
  }

  /// A removed style attribute is a tombstone that must survive the snapshot as one (not as a
  /// live value stamped with the removal's ticket), and stay collectable.
  @Test func tombstonedTextAttributeRoundTrips() async throws {
    let source = Document(key: "attrs")
    try await source.setActor(alice)
    try await source.update { root, _ in _ = try root.setNewText("text").edit(0, 0, "hello") }
    try await source.update { root, _ in try root.text("text")!.setStyle(0, 5, ["bold": true]) }
    try await source.update { root, _ in try root.text("text")!.removeStyle(0, 5, keys: ["bold"]) }
    #expect(await source.toSortedJSON() == #"{"text":[{"val":"hello"}]}"#)
    #expect(await source.garbageLength == 1)
    let target = Document(key: "attrs")
    try await target.applyChangePack(ChangePack(key: "attrs", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: await source.versionVector, snapshot: await source.snapshot()))
    #expect(await target.toSortedJSON() == #"{"text":[{"val":"hello"}]}"#)
    #expect(await target.garbageLength == 1)
    #expect(await target.garbageCollect(minSyncedVersionVector: maxVector([alice])) == 1)
    #expect(await target.garbageLength == 0)
  }

  // MARK: Bad input

  @Test func snapshotOfAnotherDocumentIsRefused() async throws {
    let source = try await richDocument()
    let data = await source.snapshot()
    let target = Document(key: "other")
    await #expect(throws: YorkieError.self) {
      try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [], snapshot: data))
    }
    #expect(await target.toJSON() == "{}")
  }

  @Test func rootThatIsNotTheDocumentRootIsRefused() async throws {
    let notRoot = CRDTObject(createdAt: TimeTicket(lamport: 3, delimiter: 2, actorID: alice))
    var writer = ProtoWriter()
    writer.message(1) { ElementCodec.encode(notRoot, into: &$0) }
    let error = try #require(throws: YorkieError.self) { try DocumentSnapshot(data: writer.data) }
    #expect(error.code == .invalidSnapshot)
    let array = CRDTArray(createdAt: .initial)
    var second = ProtoWriter()
    second.message(1) { ElementCodec.encode(array, into: &$0) }
    #expect(throws: YorkieError.self) { try DocumentSnapshot(data: second.data) }
  }

  @Test func everyTruncationFailsCleanlyAndChangesNothing() async throws {
    let source = try await richDocument()
    let data = await source.snapshot()
    let target = Document(key: "rich")
    try await target.update { root, _ in root["mine"] = 1 }
    let before = await target.toSortedJSON()
    for length in 0..<data.count {
      let prefix = data.prefix(length)
      do {
        try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [], snapshot: Data(prefix)))
        // A prefix that ends exactly between two top-level fields is a valid, smaller snapshot
        // only when it holds the whole root; then the local change was replayed on top.
        #expect(await target.toSortedJSON().contains(#""mine":1"#), "prefix \(length)")
        try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [], snapshot: data))
      } catch let error as YorkieError {
        #expect([.invalidWireData, .invalidSnapshot].contains(error.code), "prefix \(length): \(error)")
        if await target.toSortedJSON() != before && length == 0 { Issue.record("prefix 0 changed the document") }
      }
    }
    #expect(await target.checkInvariants() == nil)
  }

  @Test func randomCorruptionNeverCrashes() async throws {
    let source = try await richDocument()
    let data = await source.snapshot()
    let seed = UInt64(ProcessInfo.processInfo.environment["CRDT_SEED"] ?? "") ?? 20261124
    var random = SeededRandom(seed: seed)
    var loaded = 0
    for _ in 0..<2_000 {
      var bytes = [UInt8](data)
      for _ in 0..<1 + Int.random(in: 0..<3, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: Int.random(in: 0..<256, using: &random))
        case 1: bytes.remove(at: at)
        default: bytes.insert(UInt8(truncatingIfNeeded: Int.random(in: 0..<256, using: &random)), at: at)
        }
      }
      let target = Document(key: "rich")
      do {
        try await target.applyChangePack(ChangePack(key: "rich", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [], snapshot: Data(bytes)))
        loaded += 1
        _ = await target.toJSON()
      } catch is YorkieError {
        #expect(await target.toJSON() == "{}", "seed \(seed): a failed load changed the document")
      }
    }
    #expect(loaded < 2_000, "seed \(seed): corruption was never detected")
  }

  @Test("object members that share a creation ticket are refused")
  func repeatedMemberTicketsAreRefused() throws {
    // Found by the CRDT_INTERNAL_CHECKS run of randomCorruptionNeverCrashes: a mutated byte
    // gave two members one ticket, which broke the object's order invariant after loading.
    // Encode two members created at delimiters 2 and 3, then make the second ticket's delimiter
    // 2 in the bytes (field 2 of a TimeTicket, a varint: 0x10 0x03 -> 0x10 0x02).
    let object = CRDTObject(createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: alice))
    object.insertDecoded("a", CRDTPrimitive(.integer(1), createdAt: TimeTicket(lamport: 1, delimiter: 2, actorID: alice)))
    object.insertDecoded("b", CRDTPrimitive(.integer(2), createdAt: TimeTicket(lamport: 1, delimiter: 3, actorID: alice)))
    var writer = ProtoWriter(capacity: 64)
    ElementCodec.encode(object, into: &writer)
    var bytes = [UInt8](writer.data)
    #expect(throws: Never.self) { try ElementCodec.decode(Data(bytes)) }
    let at = try #require((0..<bytes.count - 1).last { bytes[$0] == 0x10 && bytes[$0 + 1] == 0x03 })
    bytes[at + 1] = 0x02
    do {
      _ = try ElementCodec.decode(Data(bytes))
      Issue.record("an object with a repeated member ticket was decoded")
    } catch let error as YorkieError {
      #expect(error.code == .invalidWireData)
      #expect(error.message.contains("repeats the creation ticket"))
    }
  }

  @Test func deepNestingIsRefused() throws {
    var element = ElementSnapshot.array([], .init(createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: alice)))
    for depth in 2...1_000 {
      element = .array([.init(element: element)], .init(createdAt: TimeTicket(lamport: 1, delimiter: UInt32(depth), actorID: alice)))
    }
    let error = try #require(throws: YorkieError.self) { try ElementSnapshot(jsonElementData: element.jsonElementData) }
    #expect(error.code == .invalidWireData)
  }

  @Test func primitivePayloadsAreCheckedForSize() throws {
    #expect(throws: YorkieError.self) { try PrimitiveValue(wireType: .integer, bytes: [1]) }
    #expect(throws: YorkieError.self) { try PrimitiveValue(wireType: .double, bytes: [1, 2, 3]) }
    #expect(throws: YorkieError.self) { try PrimitiveValue(wireType: .string, bytes: [0xff, 0xfe]) }
    #expect(throws: YorkieError.self) { try PrimitiveValue(wireType: .jsonObject, bytes: []) }
    for value: PrimitiveValue in [.null, .bool(true), .bool(false), .integer(.min), .integer(.max), .long(.min), .long(.max),
                                  .double(-0.5), .double(1.5e300), .string(""), .string("😀 한"), .bytes(Data()), .bytes(Data([9, 8])), .date(-1), .date(1_700_000_000_123)] {
      #expect(try PrimitiveValue(wireType: value.wireType, bytes: value.wireBytes) == value)
    }
  }

  @Test func varintsAreBoundsChecked() throws {
    // Eleven continuation bytes, a ten-byte varint whose last byte overflows, a length past the end.
    for bytes: [UInt8] in [[0x08] + [UInt8](repeating: 0xff, count: 11), [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
                           [0x0a, 0x05, 0x01], [0x0a], [0x00, 0x01], [0x0b, 0x00]] {
      #expect(throws: YorkieError.self, "\(bytes)") {
        try ProtoReader.withReader(Data(bytes), context: "test") { r in
          while let (_, type) = try r.nextField() { try r.skip(type) }
        }
      }
    }
    // Negative int32 values are sign-extended to ten bytes.
    var writer = ProtoWriter()
    writer.int32(1, -2)
    #expect(writer.bytes.count == 11)
    let decoded = try ProtoReader.withReader(writer.data, context: "test") { r -> Int32 in
      _ = try r.nextField()
      return try r.int32()
    }
    #expect(decoded == -2)
  }

  /// Nested messages of every length class (one-byte prefixes, prefixes written at once, and
  /// long ones whose prefixes are inserted when the bytes are read) give the bytes a direct
  /// encoding gives: tag, minimal varint length, body.
  @Test func nestedMessageLengthsAtEverySize() {
    func varint(_ value: Int) -> [UInt8] {
      var value = UInt64(value)
      var out: [UInt8] = []
      while value >= 0x80 {
        out.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
      }
      return out + [UInt8(value)]
    }
    func field(_ number: Int, _ body: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(body.count) + body }
    let sizes = [0, 1, 127, 128, 129, 4_000, 4_095, 4_096, 4_097, 16_383, 16_384, 70_000, 2_097_152]
    for size in sizes {
      let leaf = [UInt8](repeating: 0x61, count: size)
      // Three levels: outer(1) { middle(2) { leaf bytes(3) }, a second small field(4) }, then
      // a sibling message(5) after the outer one, and a varint field to close.
      var writer = ProtoWriter()
      writer.message(1) { w in
        w.message(2) { w in w.bytes(3, leaf) }
        w.message(4) { w in w.int64(1, 7) }
      }
      writer.message(5) { w in
        w.message(6) { w in w.bytes(3, leaf) }
      }
      writer.int64(7, 9)
      let middle = field(2, size == 0 ? [] : field(3, leaf))
      let expected = field(1, middle + field(4, [0x08, 0x07])) + field(5, field(6, size == 0 ? [] : field(3, leaf))) + [0x38, 0x09]
      #expect(writer.bytes == expected, "leaf of \(size) bytes")
      #expect(writer.data == Data(expected))
    }
  }
}
