import Foundation
import Testing
import CRDT

// Deduplicating counters (Yorkie's VALUE_TYPE_INTEGER_DEDUP_CNT, v0.7.5+): a HyperLogLog of
// 2^14 registers over the XXH64 of each counted actor.
//
// Sources of the cases: the recorded fixture 07-attach-counter.json (Yorkie v0.7.17 server, Go
// SDK writer; its expected goYSON holds the registers); Go pkg/document/crdt/hll_test.go
// (TestHLL) and counter_test.go (TestCounterDedup); Go test/integration counter_dedup_test.go
// (TestCounterDedup, two clients; crossSync stands in for the server); published XXH64 test vectors (the xxHash
// reference values for "", "a", "abc", and those of the Go xxHash64 package's tests).

/// The registers of the deduplicating counter at `key`, read back from the document's snapshot.
private func registers(_ doc: Document, _ key: String) async throws -> [UInt8]? {
  let snapshot = try DocumentSnapshot(data: await doc.snapshot())
  return (snapshot.root.get(key) as? CRDTCounter)?.registers
}

/// Registers that are zero except at the given indexes.
private func sparse(_ entries: [Int: UInt8]) -> [UInt8] {
  var registers = [UInt8](repeating: 0, count: HyperLogLog.registerCount)
  for (index, value) in entries { registers[index] = value }
  return registers
}

private func counterOf(_ actors: [String]) -> CRDTCounter {
  let counter = CRDTCounter(deduplicatingWith: [], createdAt: .initial)
  for actor in actors { _ = counter.count(actor) }
  return counter
}

@Suite("Deduplicating counters")
struct DedupCounterTests {
  // MARK: XXH64

  @Test("XXH64 matches the published test vectors")
  func xxhashVectors() {
    #expect(XXHash64.hash("") == 0xEF46_DB37_51D8_E999)
    #expect(XXHash64.hash("a") == 0xD24E_C4F1_A98C_6E5B)
    #expect(XXHash64.hash("abc") == 0x44BC_2CF5_AD77_0999)
    #expect(XXHash64.hash("Hello, World!") == 0xC49A_ACF8_080F_E47F)
    #expect(XXHash64.hash("Hello, World!", seed: 42) == 0xC2E0_FE28_B251_2846)
    #expect(XXHash64.hash(String(repeating: "a", count: 32)) == 0x856E_8432_98F9_9AD7)
    #expect(XXHash64.hash(String(repeating: "a", count: 33)) == 0x18F3_FF0C_21E3_B24B)
    #expect(XXHash64.hash(String(repeating: "abc", count: 999)) == 0x933E_B856_1397_6467)
    #expect(XXHash64.hash(String(repeating: "abcd", count: 1000)) == 0x2052_19D3_8E88_98BC)
    // Strings hash as their UTF-8 bytes.
    #expect(XXHash64.hash("héllo") == XXHash64.hash(Array("héllo".utf8)))
  }

  // MARK: Go TestHLL

  @Test("a new HyperLogLog counts zero; one value counts one; a duplicate changes nothing")
  func hllBasics() {
    #expect(HyperLogLog.estimate(sparse([:])) == 0)
    let counter = CRDTCounter(deduplicatingWith: [], createdAt: .initial)
    #expect(counter.value == .int(0))
    #expect(counter.count("user-1") != nil)
    #expect(counter.value == .int(1))
    #expect(counter.count("user-1") == nil)
    #expect(counter.value == .int(1))
  }

  @Test("100000 distinct values are estimated within 5%")
  func hllManyValues() {
    var registers = sparse([:])
    let n = 100_000
    for i in 0..<n {
      let (index, rank) = HyperLogLog.slot(of: "user-\(i)")
      registers[index] = max(registers[index], rank)
    }
    let count = Double(HyperLogLog.estimate(registers))
    #expect(abs(count - Double(n)) / Double(n) < 0.05)
  }

  @Test("registers merged by maximum count the union; merging is idempotent")
  func hllMerge() {
    let a = counterOf(["user-1", "user-2"]).registers!
    let b = counterOf(["user-2", "user-3"]).registers!
    #expect(HyperLogLog.estimate(zip(a, b).map { max($0, $1) }) == 3)
    let c = counterOf(["user-1"]).registers!
    #expect(HyperLogLog.estimate(zip(c, c).map { max($0, $1) }) == 1)
  }

  @Test("registers serialize as 16384 bytes and restore to the same count")
  func hllSerialize() {
    let counter = counterOf(["user-1", "user-2", "user-3"])
    #expect(counter.registers?.count == 1 << 14)
    let restored = CRDTCounter(deduplicatingWith: counter.registers!, createdAt: .initial)
    #expect(restored.value == counter.value)
    #expect(restored.value == .int(3))
  }

  // MARK: Go TestCounterDedup

  @Test("dedup counters count distinct actors through the document API")
  func countsDistinctActors() async throws {
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let counter = root.setNewDedupCounter("visitors")
      #expect(counter.isDeduplicating)
      #expect(counter.value == .int(0))
    }
    #expect(await doc.toJSON() == #"{"visitors":0}"#)
    try await doc.update { root, _ in root.counter("visitors")?.add("user-1") }
    #expect(await doc.toJSON() == #"{"visitors":1}"#)
    try await doc.update { root, _ in root.counter("visitors")?.add("user-1") }
    #expect(await doc.toJSON() == #"{"visitors":1}"#)
    try await doc.update { root, _ in
      root.counter("visitors")?.add("user-2")
      root.counter("visitors")?.add("user-3")
    }
    #expect(await doc.toJSON() == #"{"visitors":3}"#)
    #expect(try await doc.value(atPath: "$.visitors") == .integer(3))
    #expect(await doc.checkInvariants() == nil)
    // Every increase was recorded, the duplicate too (a replica cannot know it is one).
    #expect(await doc.pendingChanges.count == 4)

    // In an array too.
    try await doc.update { root, _ in
      let list = root.setNewArray("list")
      list.appendNewDedupCounter().add("a")
      list.counter(at: 0)?.add("b")
    }
    #expect(await doc.toJSON() == #"{"visitors":3,"list":[2]}"#)
  }

  @Test("a deep copy keeps the registers and is independent of the original")
  func deepCopyIndependent() throws {
    let counter = counterOf(["user-1", "user-2"])
    let copy = counter.deepCopy()
    #expect(copy.isDeduplicating)
    #expect(copy.value == .int(2))
    _ = counter.count("user-3")
    #expect(counter.value == .int(3))
    #expect(copy.value == .int(2))
  }

  // MARK: The recorded fixture

  @Test("the recorded counter changes of fixture 07-attach-counter count 3 visitors with Yorkie's registers")
  func recordedFixture() async throws {
    // exchanges[1].response.changePack.changes of /work/shared/fixtures/wire/07-attach-counter.json,
    // rebuilt operation by operation (actor awJjSX63Cjb0rDvC = 6b0263497eb70a36f4ac3bc2).
    let writer = try ActorID(hex: "6b0263497eb70a36f4ac3bc2")
    func t(_ lamport: Int64, _ delimiter: UInt32) -> TimeTicket { TimeTicket(lamport: lamport, delimiter: delimiter, actorID: writer) }
    func id(_ seq: UInt32, _ lamport: Int64) -> ChangeID {
      ChangeID(clientSeq: seq, serverSeq: Int64(seq), lamport: lamport, actorID: writer,
               versionVector: lamport == 0 ? VersionVector() : VersionVector([writer: lamport]))
    }
    func set(_ key: String, _ value: ElementSnapshot, _ at: TimeTicket) -> CRDT.Operation {
      .set(parentCreatedAt: .initial, key: key, value: value, executedAt: at)
    }
    func meta(_ at: TimeTicket) -> ElementSnapshot.Meta { ElementSnapshot.Meta(createdAt: at) }
    let visitors = t(5, 1)
    func count(_ actor: String, _ at: TimeTicket) -> CRDT.Operation {
      .dedupIncrease(parentCreatedAt: visitors, value: .integer(1), actor: actor, executedAt: at)
    }
    let changes = [
      Change(id: id(1, 0), operations: [], presenceChange: .put([:])),
      Change(id: id(2, 1), operations: [
        set("intCnt", .counter(.int(0), meta(t(1, 1))), t(1, 1)),
        set("longCnt", .counter(.long(9_000_000_000), meta(t(1, 2))), t(1, 2)),
        set("negStart", .counter(.int(-5), meta(t(1, 3))), t(1, 3)),
      ], message: "create counters"),
      Change(id: id(3, 2), operations: [
        .increase(parentCreatedAt: t(1, 1), value: .integer(1), executedAt: t(2, 1)),
        .increase(parentCreatedAt: t(1, 1), value: .integer(10), executedAt: t(2, 2)),
      ], message: "increase int"),
      Change(id: id(4, 3), operations: [
        .increase(parentCreatedAt: t(1, 1), value: .integer(-3), executedAt: t(3, 1)),
        .increase(parentCreatedAt: t(1, 3), value: .integer(2), executedAt: t(3, 2)),
      ], message: "decrease int"),
      Change(id: id(5, 4), operations: [
        .increase(parentCreatedAt: t(1, 2), value: .long(5_000_000_000), executedAt: t(4, 1)),
        .increase(parentCreatedAt: t(1, 2), value: .long(-1), executedAt: t(4, 2)),
      ], message: "increase long"),
      Change(id: id(6, 5), operations: [
        set("visitors", .dedupCounter([], meta(visitors)), visitors),
        count("user-a", t(5, 2)),
        count("user-b", t(5, 3)),
      ], message: "dedup counter"),
      Change(id: id(7, 6), operations: [count("user-a", t(6, 1)), count("user-c", t(6, 2))], message: "dedup counter again"),
      Change(id: id(8, 0), operations: [], presenceChange: .clear),
    ]
    let doc = Document(key: "fx1795318601-counter")
    for (i, change) in changes.enumerated() {
      try await doc.applyChangePack(ChangePack(key: "fx1795318601-counter", checkpoint: Checkpoint(serverSeq: Int64(i + 1), clientSeq: 0),
                                               changes: [change], versionVector: VersionVector()))
      #expect(await doc.checkInvariants() == nil)
    }
    // expected.goMarshal (its keys happen to be in creation order too).
    #expect(await doc.toJSON() == #"{"intCnt":8,"longCnt":13999999999,"negStart":-3,"visitors":3}"#)
    // expected.goYSON: DedupCounter(Int(3), "<base64 registers>"), whose only non-zero registers
    // are 1183 = 2, 13887 = 3 and 15562 = 4.
    let expected = sparse([1183: 2, 13887: 3, 15562: 4])
    #expect(try await registers(doc, "visitors") == expected)
    // Where the fixture file is at hand, compare with its base64 verbatim.
    let path = "/work/shared/fixtures/wire/07-attach-counter.json"
    if let data = FileManager.default.contents(atPath: path),
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let goYSON = (json["expected"] as? [String: Any])?["goYSON"] as? String,
      let start = goYSON.range(of: #""visitors":DedupCounter(Int(3),""#) {
      let base64 = goYSON[start.upperBound...].prefix { $0 != "\"" }
      #expect(Data(base64Encoded: String(base64)).map(Array.init) == expected)
    }
  }

  // MARK: Snapshots

  @Test("dedup counters round-trip through snapshots and JSONElement bytes, registers included")
  func snapshotRoundTrip() async throws {
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let counter = root.setNewDedupCounter("visitors")
      for user in ["user-a", "user-b", "user-c", "user-d"] { counter.add(user) }
      root.setNewCounter("plain", .int(7))
    }
    let original = try #require(try await registers(doc, "visitors"))
    let loaded = Document(key: "test-doc")
    try await loaded.applyChangePack(ChangePack(key: "test-doc", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: VersionVector(), snapshot: await doc.snapshot()))
    #expect(await loaded.toJSON() == #"{"visitors":4,"plain":7}"#)
    #expect(try await registers(loaded, "visitors") == original)
    #expect(await loaded.snapshot() == doc.snapshot())
    // The loaded counter keeps counting.
    try await loaded.update { root, _ in
      #expect(root.counter("visitors")?.isDeduplicating == true)
      #expect(root.counter("plain")?.isDeduplicating == false)
      root.counter("visitors")?.add("user-a")
      root.counter("visitors")?.add("user-e")
    }
    #expect(await loaded.toJSON() == #"{"visitors":5,"plain":7}"#)

    // As the JSONElement of an operation: type 14, the count, registers in field 7.
    let element = ElementSnapshot.dedupCounter(original, ElementSnapshot.Meta(createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: actor(1))))
    let bytes = element.jsonElementData
    #expect(try ElementSnapshot(jsonElementData: bytes) == element)
    // A fresh counter (no registers on the wire) counts nobody, whatever its value says.
    let fresh = ElementSnapshot.dedupCounter([], ElementSnapshot.Meta(createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: actor(1))))
    let decodedFresh = try ElementSnapshot(jsonElementData: fresh.jsonElementData)
    guard case .dedupCounter(let freshRegisters, _) = decodedFresh else {
      Issue.record("not a dedup counter: \(decodedFresh)")
      return
    }
    #expect(freshRegisters == sparse([:]))
  }

  @Test("registers of the wrong size are refused")
  func wrongRegisterSize() throws {
    var w = ProtoWriter(capacity: 64)
    w.message(6) { w in
      w.int32(1, WireValueType.integerDedupCounter.rawValue)
      w.bytes(2, [3, 0, 0, 0])
      w.ticket(3, TimeTicket(lamport: 1, delimiter: 1, actorID: actor(1)))
      w.bytes(7, [UInt8](repeating: 1, count: 100))
    }
    do {
      _ = try ElementSnapshot(jsonElementData: w.data)
      Issue.record("100 registers were accepted")
    } catch let error as YorkieError {
      #expect(error.code == .invalidWireData)
    }
  }

  // MARK: Errors and rollback

  @Test("a dedup counter refuses plain increases and operands other than 1; a plain counter adds the operand")
  func operandRules() async throws {
    let writer = actor(9)
    func t(_ lamport: Int64, _ delimiter: UInt32 = 1) -> TimeTicket { TimeTicket(lamport: lamport, delimiter: delimiter, actorID: writer) }
    let doc = Document(key: "test-doc")
    func apply(_ lamport: Int64, _ operations: [CRDT.Operation]) async throws {
      try await doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [
        Change(id: ChangeID(clientSeq: UInt32(lamport), lamport: lamport, actorID: writer, versionVector: VersionVector()), operations: operations),
      ]))
    }
    try await apply(1, [
      .set(parentCreatedAt: .initial, key: "d", value: .dedupCounter([], ElementSnapshot.Meta(createdAt: t(1, 1))), executedAt: t(1, 1)),
      .set(parentCreatedAt: .initial, key: "p", value: .counter(.int(0), ElementSnapshot.Meta(createdAt: t(1, 2))), executedAt: t(1, 2)),
    ])
    for bad: CRDT.Operation in [
      .increase(parentCreatedAt: t(1, 1), value: .integer(1), executedAt: t(2)),
      .dedupIncrease(parentCreatedAt: t(1, 1), value: .integer(2), actor: "u", executedAt: t(2)),
      .dedupIncrease(parentCreatedAt: t(1, 1), value: .double(1), actor: "u", executedAt: t(2)),
    ] {
      do {
        try await apply(2, [bad])
        Issue.record("\(bad) was accepted")
      } catch let error as YorkieError {
        #expect(error.code == .typeMismatch)
      }
    }
    #expect(await doc.toJSON() == #"{"d":0,"p":0}"#)
    // Yorkie: an increase with an actor on a plain counter adds its operand; an empty actor is
    // a plain increase (refused by a dedup counter).
    try await apply(2, [.dedupIncrease(parentCreatedAt: t(1, 2), value: .integer(1), actor: "u", executedAt: t(2))])
    try await apply(3, [.dedupIncrease(parentCreatedAt: t(1, 1), value: .long(1), actor: "u", executedAt: t(3))])
    await #expect(throws: YorkieError.self) {
      try await apply(4, [.dedupIncrease(parentCreatedAt: t(1, 1), value: .integer(1), actor: "", executedAt: t(4))])
    }
    #expect(await doc.toJSON() == #"{"d":1,"p":1}"#)

    // The local API refuses the wrong kind of increase: the update fails and changes nothing.
    await #expect(throws: YorkieError.self) {
      try await doc.update { root, _ in root.counter("d")?.increase(by: 1) }
    }
    await #expect(throws: YorkieError.self) {
      try await doc.update { root, _ in root.counter("p")?.add("u") }
    }
    await #expect(throws: YorkieError.self) {
      try await doc.update { root, _ in root.counter("d")?.add("") }
    }
    #expect(await doc.toJSON() == #"{"d":1,"p":1}"#)
    #expect(await doc.pendingChanges.isEmpty)
  }

  @Test("a change whose second operation fails leaves the counter and its registers as they were")
  func rollback() async throws {
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root.setNewDedupCounter("d").add("user-1") }
    let before = try await registers(doc, "d")
    let writer = actor(9)
    let counterID = try #require(await doc.pendingChanges.first?.operations.first?.executedAt)
    let change = Change(id: ChangeID(clientSeq: 1, lamport: 5, actorID: writer, versionVector: VersionVector()), operations: [
      .dedupIncrease(parentCreatedAt: counterID, value: .integer(1), actor: "user-2", executedAt: TimeTicket(lamport: 5, delimiter: 1, actorID: writer)),
      .dedupIncrease(parentCreatedAt: counterID, value: .integer(1), actor: "user-3", executedAt: TimeTicket(lamport: 5, delimiter: 2, actorID: writer)),
      .dedupIncrease(parentCreatedAt: counterID, value: .integer(7), actor: "user-4", executedAt: TimeTicket(lamport: 5, delimiter: 3, actorID: writer)),
    ])
    await #expect(throws: YorkieError.self) {
      try await doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [change]))
    }
    #expect(await doc.toJSON() == #"{"d":1}"#)
    #expect(try await registers(doc, "d") == before)
    // A failing update rolls back the same way.
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        root.counter("d")?.add("user-5")
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"d":1}"#)
    #expect(try await registers(doc, "d") == before)
  }

  // MARK: Replicas

  @Test("replicas counting overlapping actors concurrently converge on the same registers")
  func replicasConverge() async throws {
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in _ = root.setNewDedupCounter("visitors") }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      for user in ["ann", "bob", "cat"] { root.counter("visitors")?.add(user) }
    }
    try await d2.update { root, _ in
      for user in ["bob", "cat", "dan", "eve"] { root.counter("visitors")?.add(user) }
    }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"visitors":5}"#)
    #expect(await d2.toJSON() == d1.toJSON())
    #expect(try await registers(d1, "visitors") == registers(d2, "visitors"))
    #expect(await d1.checkInvariants() == nil)
  }

  @Test("a duplicate actor counted on another replica is ignored; a new one is counted")
  func acrossReplicas() async throws {
    // Go integration TestCounterDedup: "ignores duplicate actors across clients" and "counts
    // distinct actors".
    for (first, second, expected) in [(["user-1"], "user-1", 1), (["user-1", "user-2"], "user-3", 3)] {
      let (d1, d2) = await makeReplicas()
      try await d1.update { root, _ in
        let counter = root.setNewDedupCounter("uv")
        for user in first { counter.add(user) }
      }
      #expect(await d1.toJSON() == "{\"uv\":\(first.count)}")
      try await crossSync(d1, d2)
      try await d2.update { root, _ in root.counter("uv")?.add(second) }
      try await crossSync(d1, d2)
      #expect(await d1.toJSON() == "{\"uv\":\(expected)}")
      #expect(await d2.toJSON() == "{\"uv\":\(expected)}")
    }
  }

  @Test("counting reports an increase event with the operand")
  func events() async throws {
    let doc = Document(key: "test-doc")
    let stream = await doc.events()
    try await doc.update { root, _ in root.setNewDedupCounter("visitors").add("u") }
    var iterator = stream.makeAsyncIterator()
    guard case .localChange(let change)? = await iterator.next() else {
      Issue.record("no local change event")
      return
    }
    #expect(change.operations == [
      OperationInfo(type: .set, path: "$", key: "visitors"),
      OperationInfo(type: .increase, path: "$.visitors", value: .integer(1)),
    ])
  }
}
