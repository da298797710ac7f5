import CRDT
import Foundation
import Testing

/// A recorder that keeps the history in memory, and can be told to refuse.
final class MemoryRecorder: ReplicaRecorder {
  struct History {
    var base: ReplicaBase?
    var records: [ReplicaRecord] = []
    var refuses = false
    var rebases = 0
  }
  let history = Locked(History())

  struct Refused: Error {}

  func rebase(_ base: ReplicaBase, pendingChanges: [Change]) throws {
    try history.withLock { history in
      if history.refuses { throw Refused() }
      history.base = base
      history.records = pendingChanges.map { .localChange($0) }
      history.rebases += 1
    }
  }

  func record(_ record: ReplicaRecord) throws {
    try history.withLock { history in
      if history.refuses { throw Refused() }
      history.records.append(record)
    }
  }

  /// A fresh document rebuilt from the history.
  func restored(key: String = "doc") async throws -> Document {
    let (base, records) = history.withLock { ($0.base, $0.records) }
    let document = Document(key: key)
    try await document.restore(from: try #require(base), replaying: records)
    return document
  }
}

/// Recording a replica's history and restoring it: a restored replica is the recorded one
/// (content, clocks, pending changes, checkpoint) after any mix of local edits, server answers
/// (changes, acknowledgements, snapshots, garbage collection) and new bases.
@Suite("Recording and restoring a replica")
struct RecordingTests {
  /// The parts of a replica that a restore must reproduce.
  static func state(_ doc: Document) async -> String {
    let pack = try? await doc.createChangePack()
    return """
      \(await doc.toSortedJSON())
      changeID \(await doc.changeID)
      checkpoint \(await doc.checkpoint)
      pending \(pack?.changes.map { "\($0.id.clientSeq)" }.joined(separator: ",") ?? "-")
      presence \(await doc.presenceMap.sorted { $0.key.hex < $1.key.hex }.map { "\($0.key.hex.suffix(4))=\($0.value)" })
      """
  }

  @Test("after every step of random editing and syncing, a restore is the recorded replica", arguments: SeededRandom.seeds(8))
  func randomHistory(seed: UInt64) async throws {
    print("RecordingTests seed \(seed)")
    var random = SeededRandom(seed: seed)
    let docs = try await makeReplicas(3)
    let log = ChangeLog(actors: await docs.asyncMap { await $0.actorID }, snapshotThreshold: seed % 2 == 1 ? 3 : nil)
    try await docs[0].update { root, _ in
      root["list"] = [0, 1, 2, 3, 4]
      root["obj"] = ["l": ["x", "y"], "k": 1]
      root.setNewCounter("cnt", .int(0))
      try root.setNewText("txt").edit(0, 0, "hello")
    }
    let recorder = MemoryRecorder()
    let recorded = docs[0]
    try await recorded.startRecording(with: recorder)
    for step in 0..<80 {
      let doc = docs[Int.random(in: 0..<docs.count, using: &random)]
      let action = Int.random(in: 0..<12, using: &random)
      if action < 6 {
        try await doc.update { root, presence in
          for _ in 0..<Int.random(in: 1...3, using: &random) { try ConvergenceTests.randomEdit(root, &random) }
          if Bool.random(using: &random) { presence.set(["step": .integer(Int32(step))]) }
        }
      } else if action < 10 {
        try await log.sync(doc, collectGarbage: Bool.random(using: &random))
      } else if action == 10 {
        try await log.sync(doc, pushOnly: true)
      } else {
        try await recorded.rebaseRecording()
      }
      let restored = try await recorder.restored()
      let expected = await Self.state(recorded)
      let actual = await Self.state(restored)
      #expect(actual == expected, "seed \(seed), step \(step)")
      #expect(await restored.checkInvariants() == nil, "seed \(seed), step \(step)")
      guard actual == expected else { return }
    }
    // A restored replica goes on as the recorded one would: the same next change, and it
    // converges with the others.
    let restored = try await recorder.restored()
    await recorded.stopRecording()
    try await recorded.update { root, _ in root["after"] = "restart" }
    try await restored.update { root, _ in root["after"] = "restart" }
    #expect(await Self.state(restored) == Self.state(recorded), "seed \(seed)")
    let replacing = [restored] + docs.dropFirst()
    for doc in replacing { try await log.sync(doc) }
    for doc in replacing { try await log.sync(doc) }
    let expected = await replacing[1].toSortedJSON()
    for doc in replacing { #expect(await doc.toSortedJSON() == expected, "seed \(seed)") }
  }

  @Test("a step the recorder refuses does not happen: the update or the pack throws and nothing changes")
  func refusal() async throws {
    let (a, b) = await makeReplicas()
    let recorder = MemoryRecorder()
    try await a.startRecording(with: recorder)
    try await a.update { root, _ in root["k"] = 1 }
    try await b.update { root, _ in root["from-b"] = true }
    let answer = ChangePack(key: "test-doc", checkpoint: Checkpoint(serverSeq: 2, clientSeq: 1), changes: try await b.createChangePack().changes)
    let before = await Self.state(a)
    recorder.history.withLock { $0.refuses = true }
    await #expect(throws: MemoryRecorder.Refused.self) {
      try await a.update { root, presence in
        root["k"] = 2
        try root.setNewText("t").edit(0, 0, "lost")
        presence.set(["p": 1])
      }
    }
    await #expect(throws: MemoryRecorder.Refused.self) { try await a.applyChangePack(answer) }
    #expect(await Self.state(a) == before)
    #expect(await a.checkInvariants() == nil)
    recorder.history.withLock { $0.refuses = false }
    try await a.update { root, _ in root["k"] = 3 }
    try await a.applyChangePack(answer)
    #expect(await a.toSortedJSON() == #"{"from-b":true,"k":3}"#)
    #expect(await a.checkpoint == Checkpoint(serverSeq: 2, clientSeq: 1))
    #expect(await Self.state(try await recorder.restored()) == Self.state(a))
  }

  @Test("a record that does not follow is refused and the document stays fresh")
  func badHistory() async throws {
    let (a, b) = await makeReplicas()
    let recorder = MemoryRecorder()
    try await a.startRecording(with: recorder)
    try await a.update { root, _ in root["k"] = 1 }
    try await a.update { root, _ in root["k"] = 2 }
    try await b.update { root, _ in root["b"] = 1 }
    let (base, records) = recorder.history.withLock { ($0.base!, $0.records) }
    let foreign = try await b.createChangePack().changes
    let cases: [(String, ReplicaBase, [ReplicaRecord])] = [
      ("a change of another actor", base, records + foreign.map { .localChange($0) }),
      ("a gap in the sequence", base, Array(records.dropFirst())),
      ("a change twice", base, records + records.suffix(1)),
      ("a base that does not decode", ReplicaBase(actorID: base.actorID, checkpoint: base.checkpoint, localClientSeq: 0, versionVector: base.versionVector, snapshot: Data([1, 2, 3])), records),
    ]
    for (name, base, records) in cases {
      let doc = Document(key: "doc")
      await #expect(throws: YorkieError.self, "\(name)") { try await doc.restore(from: base, replaying: records) }
      #expect(await doc.isFresh, "\(name)")
      #expect(await doc.toJSON() == "{}", "\(name)")
    }
    let used = Document(key: "doc")
    try await used.update { root, _ in root["x"] = 1 }
    await #expect(throws: YorkieError.self) { try await used.restore(from: base, replaying: records) }
  }
}
