@testable import CRDT
import Foundation
import Testing

// # Model-based fuzzing of the editing API
//
// Two seeded fuzzers drive the public editing API of `Document` at random and check every
// outcome against a model. Files:
//
// - FuzzModel.swift: the model (objects, arrays, texts as UTF-16 units with per-unit
//   attributes, counters), the setters' validation rules, and the comparison with
//   `Document.value`.
// - FuzzSession.swift: what runs inside `Document.update`.
// - EditingFuzzTests.swift (this file): one replica against a persistent model.
// - FuzzHistory.swift: undo and redo between steps, against a model of the two stacks.
// - ReplicaFuzzTests.swift: three replicas exchanging changes by hand.
//
// ## What is generated
//
// Each step of the one-replica fuzzer is one `update` making 1–5 random calls, each through
// a proxy chosen among: a fresh proxy for a random container, reached from the root through
// the typed getters; a proxy handed out earlier in the same update (possibly for a container
// removed since, whose edits must succeed and stay invisible, or a rejected proxy from a
// setter given a bad key); an expired proxy kept from an earlier update (or from another
// replica's update); or the presence (current or expired). Calls: object subscript set and
// remove, `remove`, every `setNew…`; array `append`, `insert(at:)`, `insert(after:)`,
// `set(at:)`, `remove(at:)`, `remove(id:)`, `move(from:to:)`, `moveBefore`, `moveAfter`,
// `moveToFront`, `moveToEnd`, every `appendNew…`; text `edit` (with and without attributes),
// `delete`, `setStyle`, `removeStyle`, `indexRangeToPosRange`/`posRangeToIndexRange`; counter
// `increase(by:)` and `add(_:)`; and every read. Arguments are mostly valid, and sometimes not:
// keys containing ".", NaN and infinities (also nested in arrays and objects), indexes out of
// range, reversed ranges, text offsets inside a surrogate pair (texts hold emoji, flags,
// combining marks), IDs of removed, purged or unknown elements, `increase` on a deduplicating
// counter and `add` on a plain one, dates NaN or past JavaScript's range, `Int.min` and
// `Int.max`; keys and strings hold quotes, NUL, control characters and U+2028. Some calls
// write a value just read from the document (it must read back the same). Some updates throw
// a `FuzzAbort` of their own halfway, and some pass an expected `YorkieError` on instead of
// catching it. Between steps, expired proxies
// are used outside any update, snapshots are loaded into fresh documents, and garbage is
// collected. Half the seeds edit as `ActorID.initial` first and then call `setActor`, which
// re-issues the pending changes and rebuilds the content from them.
//
// ## What is checked
//
// - Every call does what the model predicts: a valid call succeeds (and a text edit returns
//   the caret after the inserted units), an invalid throwing call throws the expected
//   `YorkieError.code` (`invalidKey`, `invalidNumber`, `indexOutOfBounds`, `elementRemoved`,
//   `elementNotFound`, `typeMismatch`, `proxyExpired`, or a rejected proxy's setter error);
//   reads through a rejected or expired proxy answer as for an absent element.
// - The update ends as its calls require: it throws the updater's own error, else the first
//   error a non-throwing setter recorded (an expired proxy's setter records into its own,
//   finished update and changes nothing), else it succeeds.
// - A failed update leaves `toJSON()`, `snapshot()`, `pendingChanges.count` and
//   `garbageLength` exactly as before; a successful one records at most one change, and none
//   when no call edited.
// - After every step, `Document.value` equals the model (key order included; text unit by unit
//   with attributes; a date read at millisecond precision is the stored millisecond),
//   `toJSON()` prints it (numbers as JavaScript does, bytes in base64, dates in ISO-8601),
//   and `checkInvariants()` is nil; now and then the content read back through the proxies
//   equals the model too.
// - A snapshot loaded into a fresh document gives the same `toJSON()`, `toSortedJSON()`, value,
//   snapshot bytes and garbage length (not counting garbage outside the tree, such as the
//   inner garbage of a purged container, which a snapshot does not carry); collecting garbage
//   with the replica's vector at its maximum changes nothing visible, leaves no garbage, and
//   turns removed array elements' `elementRemoved` into `elementNotFound`.
//
// ReplicaFuzzTests.swift describes the exchange between replicas.
//
// ## Running and replaying
//
// `swift test --filter Fuzz` runs four fixed seeds of 300 steps in each fuzzer, about 3 s in
// a debug build (each seed is printed as `fuzz seed N` when it starts, with what it covered
// when it ends). `CRDT_LONG_TESTS=20` runs twenty times as many seeds; `CRDT_SEED=N` runs
// seed N alone: a failure names its seed and step and lists the latest calls (24 of them;
// `CRDT_FUZZ_TRAIL=N` keeps N, and `CRDT_FUZZ_TRAIL_FILE=path` writes problems and calls to a
// file, whole: a long message is cut short in the test output). In the three-replica fuzzer,
// `CRDT_FUZZ_DEBUG=1` prints the operations of a delivery that failed and the pieces of the
// texts they name (after a divergence: every author's latest changes), and
// `CRDT_FUZZ_GC=together|never` changes when replicas collect garbage.
// FuzzRegressionTests.swift keeps minimal reproductions of what the fuzzers found.

/// Records the session's problems as one issue naming the seed and step; true when there were any.
func reportFuzzProblems(_ session: FuzzSession, step: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
  guard !session.problems.isEmpty else { return false }
  if let path = ProcessInfo.processInfo.environment["CRDT_FUZZ_TRAIL_FILE"] {
    try? (session.problems + ["latest calls:"] + session.trail).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }
  let message = """
    fuzz seed \(session.seed), step \(step): \(session.problems.joined(separator: "\n"))
    replay: CRDT_SEED=\(session.seed) swift test --filter Fuzz
    latest calls:
    \(session.trail.joined(separator: "\n"))
    """
  Issue.record("\(message)", sourceLocation: sourceLocation)
  return true
}

/// Loads `doc`'s snapshot into a fresh document and notes every difference.
func checkSnapshotRoundTrip(_ doc: Document, _ session: FuzzSession) async {
  let data = await doc.snapshot()
  let fresh = Document(key: doc.key)
  do {
    try await fresh.setActor(ActorID.random(using: &session.rng))
    try await fresh.applyChangePack(ChangePack(key: doc.key, checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                               versionVector: await doc.versionVector, snapshot: data))
  } catch {
    session.problem("loading a snapshot into a fresh document threw \(error)")
    return
  }
  let (json, freshJSON) = (await doc.toJSON(), await fresh.toJSON())
  if json != freshJSON { session.problem("a snapshot loads as \(freshJSON), the replica shows \(json)") }
  if await doc.toSortedJSON() != fresh.toSortedJSON() { session.problem("a snapshot loads with another sorted JSON") }
  if await doc.value != fresh.value { session.problem("a snapshot loads with another value") }
  // Garbage left outside the tree (inner garbage of a purged container, which keeps counting
  // until collected, as in Yorkie) does not travel in a snapshot: the rest must.
  if await doc.garbageLengthInTree != fresh.garbageLength {
    session.problem("a snapshot loads with garbage length \(await fresh.garbageBreakdown), the replica has \(await doc.garbageBreakdown)")
  }
  if await fresh.snapshot() != data { session.problem("a loaded snapshot encodes to other bytes") }
  if let problem = await fresh.checkInvariants() { session.problem("a loaded snapshot breaks an invariant: \(problem)") }
}

@Suite("Fuzz: editing API against a model")
struct EditingFuzzTests {
  static let steps = 300

  @Test("random updates on one replica agree with a model of its content")
  func oneReplica() async throws {
    for seed in SeededRandom.seeds(4, base: 0xF022) {
      print("fuzz seed \(seed) (one replica)")
      try await run(seed: seed)
    }
  }

  private func run(seed: UInt64) async throws {
    let session = FuzzSession(seed: seed, readsModelBack: false)
    let doc = Document(key: "fuzz")
    let newActor = ActorID.random(using: &session.rng)
    // Half the seeds edit as the initial actor first, then take an actor, which re-issues the
    // pending changes and rebuilds the content from them: it must not change.
    let takesActorAt = session.chance(0.5) ? session.int(1..<(EditingFuzzTests.steps / 2)) : 0
    var actor = ActorID.initial
    let history = HistoryModel()
    for step in 0..<EditingFuzzTests.steps {
      if step == takesActorAt {
        await takeActor(newActor, doc, session)
        actor = newActor
        // Re-issuing the pending changes under the new actor empties the stacks.
        if await doc.historyDepths == (0, 0) { history.clear() }
        FuzzHistory.checkDepths(await doc.historyDepths, history, session)
        if reportFuzzProblems(session, step: step) { return }
      }
      let json = await doc.toJSON(), snapshot = await doc.snapshot(), pending = await doc.pendingChanges.count
      let garbage = await doc.garbageLength
      let backup = session.model.copy()
      session.beginUpdate()
      var thrown: (any Error)?
      do {
        try await doc.update { root, presence in try session.run(root, presence) }
      } catch {
        thrown = error
      }
      session.endUpdate()
      if reportFuzzProblems(session, step: step) { return }
      let mustFail = session.checkOutcome(thrown)
      if mustFail || thrown != nil {
        session.model = backup
        if await doc.toJSON() != json { session.problem("a failed update changed the JSON to \(await doc.toJSON())") }
        let snapshotAfter = await doc.snapshot()
        if snapshotAfter != snapshot {
          session.problem("a failed update changed the snapshot: \(snapshotDifference(snapshot, snapshotAfter) ?? "same content, other bytes")")
        }
        if await doc.pendingChanges.count != pending { session.problem("a failed update recorded a change") }
        if await doc.garbageLength != garbage { session.problem("a failed update changed the garbage length") }
      } else {
        if let mismatch = ModelCompare.mismatch(.object(session.model), await doc.value, path: "$") {
          session.problem("after the update: \(mismatch)")
        }
        let json = await doc.toJSON()
        if let mismatch = ModelCompare.jsonMismatch(.object(session.model), JSONValueParser.parse(json), path: "$") {
          session.problem("after the update, toJSON \(json): \(mismatch)")
        }
        let now = await doc.pendingChanges.count
        if now > pending + 1 || (!session.edited && now != pending) {
          session.problem("the update took pending changes from \(pending) to \(now) (edited: \(session.edited))")
        }
        if now == pending + 1, let change = await doc.pendingChanges.last, !change.isPresenceOnly {
          history.recordUpdate(HistoryModel.Step(before: FuzzHistory.canonical(.object(backup)),
                                                 after: FuzzHistory.canonical(.object(session.model)), epoch: 0))
        }
      }
      FuzzHistory.checkDepths(await doc.historyDepths, history, session)
      if let problem = await doc.checkInvariants() { session.problem("invariant: \(problem)") }
      if reportFuzzProblems(session, step: step) { return }

      if session.chance(0.06) {
        let before = await doc.snapshot()
        try session.probeExpired()
        if await doc.snapshot() != before { session.problem("using expired proxies changed the document") }
      }
      if session.chance(0.1) { try await replayHistory(doc, history, session) }
      if reportFuzzProblems(session, step: step) { return }
      if session.chance(0.04) { await checkSnapshotRoundTrip(doc, session) }
      if session.chance(0.04) { await collectGarbage(doc, actor, session) }
      if reportFuzzProblems(session, step: step) { return }
    }
    await checkSnapshotRoundTrip(doc, session)
    await collectGarbage(doc, actor, session)
    _ = reportFuzzProblems(session, step: EditingFuzzTests.steps)
    print("fuzz seed \(seed) (one replica) done: \(session.statsLine); final JSON \(await doc.toJSON().utf8.count) bytes")
  }

  /// Undoes or redoes a few steps (one replica: no peer change ever, so each must give the
  /// model's content back), then reads the model back from the document: key order and the
  /// elements' identities are the document's after an undo.
  private func replayHistory(_ doc: Document, _ history: HistoryModel, _ session: FuzzSession) async throws {
    let kind: FuzzHistory.Kind = session.chance(0.6) ? .undo : .redo
    for _ in 0..<(session.chance(0.25) ? session.int(2...8) : 1) where session.problems.isEmpty {
      _ = await FuzzHistory.replay(kind, doc, history, session, epoch: 0)
      if let problem = await doc.checkInvariants() { session.problem("invariant after \(kind.rawValue)(): \(problem)") }
    }
    try await doc.update { root, _ in session.model = ModelReader.read(root) }
  }

  /// Sets the actor and checks that the content (rebuilt from the pending changes when there
  /// are some) is the model's still.
  private func takeActor(_ actor: ActorID, _ doc: Document, _ session: FuzzSession) async {
    let json = await doc.toJSON(), pending = await doc.pendingChanges.count
    session.note("setActor(\(actor)) with \(pending) pending changes")
    do {
      try await doc.setActor(actor)
    } catch {
      return session.problem("setActor(\(actor)) threw \(error)")
    }
    if await doc.toJSON() != json { session.problem("setActor changed the JSON to \(await doc.toJSON())") }
    if let mismatch = ModelCompare.mismatch(.object(session.model), await doc.value, path: "$") {
      session.problem("after setActor: \(mismatch)")
    }
    let changes = await doc.pendingChanges
    if changes.count != pending || changes.contains(where: { $0.id.actorID != actor }) {
      session.problem("setActor left \(changes.count) pending changes (of \(pending)), by \(Set(changes.map(\.id.actorID)))")
    }
    if let problem = await doc.checkInvariants() { session.problem("invariant after setActor: \(problem)") }
    // The removed elements' IDs named the initial actor: they name nothing now.
    func forget(_ node: ModelNode) {
      switch node {
      case .object(let object): object.members.forEach { forget($0.node) }
      case .array(let array):
        array.purgedIDs += array.tombstoneIDs
        array.tombstoneIDs = []
        array.items.forEach(forget)
      default: break
      }
    }
    forget(.object(session.model))
  }

  /// Collects every piece of garbage (a one-replica document: its vector at the maximum).
  private func collectGarbage(_ doc: Document, _ actor: ActorID, _ session: FuzzSession) async {
    session.note("garbageCollect")
    let json = await doc.toJSON()
    await doc.garbageCollect(minSyncedVersionVector: maxVector([actor]))
    if await doc.toJSON() != json { session.problem("garbage collection changed the JSON to \(await doc.toJSON())") }
    if await doc.garbageLength != 0 { session.problem("garbage length \(await doc.garbageLength) after collecting everything") }
    if let problem = await doc.checkInvariants() { session.problem("invariant after garbage collection: \(problem)") }
    func purge(_ node: ModelNode) {
      switch node {
      case .object(let object): object.members.forEach { purge($0.node) }
      case .array(let array):
        array.purgedIDs += array.tombstoneIDs
        array.tombstoneIDs = []
        array.items.forEach(purge)
      default: break
      }
    }
    purge(.object(session.model))
  }
}
