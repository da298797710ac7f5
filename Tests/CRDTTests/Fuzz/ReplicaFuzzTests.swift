@testable import CRDT
import Foundation
import Testing

// # Fuzzing the exchange of changes between three replicas
//
// (EditingFuzzTests.swift documents the fuzzers as a whole, and how to replay a seed.)
//
// Three replicas with random actors (`ActorID.random(using:)`) start from a shared text,
// array, object and counter, edit and exchange changes by hand. Each step is one of:
//
// - a local update on one replica (or on all three, one after the other), made as in the
//   one-replica fuzzer, against a model read back through the proxies at the start of the
//   update (remote changes arrive between updates), and checked against `Document.value` and
//   `toJSON()` after it; the change it records joins its author's log;
// - a delivery to one replica through `applyChanges(_:)`: an author's next changes in order,
//   sometimes after a replay of ones already applied; one change out of causal order; a
//   shuffled batch from several authors; a replay of applied changes (own ones included);
//   what `changes(since:)` of the author gives for the receiver's version vector; or the
//   author's `createChangePack()` through `applyChangePack(_:)`;
// - an acknowledgement (`acknowledgeChanges(through:)`) of changes every peer has, or one past
//   the author's last change (`invalidArgument`);
// - a full exchange until every replica has every change, then equal `toJSON()` and
//   `toSortedJSON()` everywhere, and often garbage collection on some replicas with the
//   minimum of the three version vectors (safe then: nothing is in flight), which must leave
//   no garbage at all;
// - garbage collection, with the minimum of the three vectors, on a replica brought up to date
//   while the others may lag (their later changes may then name what it purged);
// - a snapshot of a replica loaded into a fresh document (same JSON, value, bytes), or into a
//   follower that then receives, with the replica, the changes the replica lacks (both must
//   keep showing the same JSON);
// - an undo or redo on one replica (FuzzHistory.swift: when no peer change arrived since the
//   update, the content before or after it; the stacks' depths always), whose change joins
//   its author's log. `CRDT_FUZZ_HISTORY=0` makes these steps updates instead (the seeds then
//   run as before undo existed). `CRDT_LONG_TESTS=50` (200 seeds) passes on every seed; the
//   seeds that once failed run in every test run (`formerDivergences`).
// - `setActor` calls that must be refused (`invalidActorID`, `actorNotSet`) or do nothing;
// - expired proxies used outside any update.
//
// A tracker knows each author's changes and, per replica, how many of each author's changes
// it applied. It predicts every delivery: applied (skipping changes already integrated), or
// refused with `changeNotReady` (an author's change before its predecessor, or one whose
// version vector has seen changes the receiver lacks), in which case toJSON, snapshot,
// pending changes, version vector and garbage length must be unchanged; a delivery of only
// changes already applied must change nothing either. After every step: `checkInvariants()`
// is nil on each replica; each replica's version vector has, for every other author, exactly
// the lamport of the last change with operations of that author it applied; replicas that
// applied the same changes show the same `toJSON()` and hold the same presences;
// `changes(since:)` includes every pending change the receiver lacks; a peer's pack
// acknowledges none of the receiver's changes.

/// Which changes exist and which replica applied which: predicts deliveries.
final class ExchangeTracker {
  let actors: [ActorID]
  /// Every change each author made, in order (index = clientSeq - 1).
  var log: [[Change]]
  /// `applied[r][a]`: how many of author `a`'s changes replica `r` applied (always a prefix).
  var applied: [[Int]]
  /// How many of each author's changes it has acknowledged.
  var acknowledged: [Int]

  init(actors: [ActorID]) {
    self.actors = actors
    log = actors.map { _ in [] }
    applied = actors.map { _ in actors.map { _ in 0 } }
    acknowledged = actors.map { _ in 0 }
  }

  func author(of change: Change) -> Int? { actors.firstIndex(of: change.id.actorID) }

  /// The lamport a replica that applied the first `count` changes of `author` knows for it:
  /// that of the last one with operations (presence-only changes carry no clocks).
  func knownLamport(_ author: Int, _ count: Int) -> Int64 {
    log[author][..<count].last { !$0.isPresenceOnly }?.id.lamport ?? 0
  }

  enum Verdict: CustomStringConvertible {
    case applies([Int])
    case notReady(String)

    var description: String {
      switch self {
      case .applies(let row): return "applies → \(row)"
      case .notReady(let why): return "not ready: \(why)"
      }
    }
  }

  /// Applies `change` to the row of replica `replica`; false when it is not ready.
  func advance(_ row: inout [Int], _ replica: Int, _ change: Change) -> String? {
    guard let author = author(of: change) else { return "unknown author" }
    let seq = Int(change.id.clientSeq)
    if seq <= row[author] { return nil }
    if seq != row[author] + 1 { return "change \(seq) of r\(author) after \(row[author])" }
    for (actor, lamport) in change.id.versionVector.entries where actor != change.id.actorID {
      guard let other = actors.firstIndex(of: actor), other != replica else { continue }
      if lamport > knownLamport(other, row[other]) {
        return "change \(seq) of r\(author) has seen r\(other) at \(lamport), r\(replica) knows \(knownLamport(other, row[other]))"
      }
    }
    row[author] = seq
    return nil
  }

  func verdict(_ replica: Int, _ batch: [Change]) -> Verdict {
    var row = applied[replica]
    for change in batch {
      if let why = advance(&row, replica, change) { return .notReady(why) }
    }
    return .applies(row)
  }

  /// The longest prefix of `author`'s changes that `replica` lacks and could apply now.
  func readyPrefix(_ replica: Int, _ author: Int) -> [Change] {
    var row = applied[replica]
    var ready: [Change] = []
    for change in log[author][applied[replica][author]...] {
      guard advance(&row, replica, change) == nil else { break }
      ready.append(change)
    }
    return ready
  }

  var isQuiescent: Bool {
    applied.allSatisfy { row in row.indices.allSatisfy { row[$0] == log[$0].count } }
  }

  func describe(_ changes: [Change]) -> String {
    changes.map { "r\(author(of: $0) ?? -1):\($0.id.clientSeq)\($0.isPresenceOnly ? "p" : "")" }.joined(separator: " ")
  }
}

@Suite("Fuzz: three replicas exchanging changes")
struct ReplicaFuzzTests {
  /// Undo and redo steps, unless `CRDT_FUZZ_HISTORY=0` (see the comment at the top).
  static let replaysHistory = ProcessInfo.processInfo.environment["CRDT_FUZZ_HISTORY"] != "0"

  /// When replicas collect garbage: as the seed draws it (default), `CRDT_FUZZ_GC=together`
  /// (every replica at every full exchange, never one ahead of the others) or `never`: to tell
  /// a divergence that garbage collection causes from one it does not.
  enum Collection: String { case asDrawn, together, never }
  static let collection = Collection(rawValue: ProcessInfo.processInfo.environment["CRDT_FUZZ_GC"] ?? "") ?? .asDrawn

  /// `CRDT_FUZZ_DEBUG=1`: print the operations of a failed delivery, and after a divergence
  /// the latest changes of each author (`CRDT_FUZZ_DEBUG_CHANGES=N`: the latest N, 8 unless
  /// set) and the pieces of `$.t` on each replica; with `CRDT_FUZZ_DEBUG_RESTORES=1` also the
  /// pieces (liveness steps and purge notes included) of a text before a restore reaches it.
  static let debugs = ProcessInfo.processInfo.environment["CRDT_FUZZ_DEBUG"] != nil
  static let debugChanges = ProcessInfo.processInfo.environment["CRDT_FUZZ_DEBUG_CHANGES"].flatMap(Int.init) ?? 8

  /// The latest changes of every author, operation by operation, and the pieces of the texts
  /// they edit or style, on each replica.
  private func printLatestChanges(_ run: Run) async {
    var texts: [TimeTicket] = []
    for (author, log) in run.tracker.log.enumerated() {
      for change in log.suffix(ReplicaFuzzTests.debugChanges) {
        for op in change.operations {
          print("DEBUG r\(author):\(change.id.clientSeq) L\(change.id.lamport) \(change.id.versionVector): \(op)")
          if let value = op.createdValue { print("DEBUG   value \(value.snapshot)") }
          switch op {
          case .edit, .style, .restoreEdit:
            if !texts.contains(op.parentCreatedAt) { texts.append(op.parentCreatedAt) }
          default: break
          }
        }
      }
    }
    for text in texts {
      for r in 0..<3 { print("DEBUG r\(r) text \(text):\n\(await run.docs[r].debugPieces(createdAt: text))") }
    }
  }

  static let steps = 300

  @Test("three replicas edit, exchange in any causal order, collect garbage and agree")
  func threeReplicas() async throws {
    for seed in SeededRandom.seeds(4, base: 0x5EED) {
      print("fuzz seed \(seed) (three replicas)")
      try await run(seed: seed)
    }
  }

  /// Seeds of the long run (`CRDT_LONG_TESTS=20`) that diverged or failed: recreated text
  /// placed on the wrong side of a peer's text (348980, before the purge notes), two restores
  /// recreating at one place in arrival order (206438), a run of one insertion placed before
  /// another insertion's run that this restore had put between its two runs (301466), a
  /// peer's Set inside an object it had created in a container whose replacement a concurrent
  /// undo reverted, refused where the creation arrived before the undo (1584344), a rollback
  /// that left a text the batch had brought counted as garbage (1378450), characters of a
  /// purged run restored after a later part of it, placed before the text typed after the
  /// run's left neighbour (974581), and a style concurrent with a revival coloured the revived
  /// text where it was kept, not where it was purged and recreated (903310), characters
  /// purged as several pieces recreated as one (1338855, 919148, 1077528), snapshot followers
  /// without the purge notes (2376244, 3920449, 4522293) and an undo that restored a text beside
  /// its re-created copy, two elements with one ticket (3643284), and characters whose purge
  /// note was dropped placed after the later part of their insertion (4514374) or recreated as
  /// one piece with it (5298355), and an undo's copy of an object that lost the value a key
  /// showed (7483999), and revived text placed on the other side of a neighbour where its
  /// purge notes were dropped past eight per piece (6034822, 6224878, 8553064), characters
  /// purged as two pieces recreated as one where their note lay past the insertion's next
  /// surviving piece (12282913), an undo that left an element in an array it brought back
  /// (14278501), and a revival of characters live there (their deletion skipped inside a
  /// restored copy) that left no step, so an older concurrent deletion removed them on that
  /// replica alone (11649393). Kept in every run.
  @Test("seeds that once diverged or failed converge",
        arguments: [UInt64(348_980), 206_438, 301_466, 1_584_344, 1_378_450, 974_581, 903_310, 1_338_855, 919_148, 1_077_528,
                    2_376_244, 3_920_449, 4_522_293, 3_643_284, 4_514_374, 7_483_999, 5_298_355, 6_034_822, 6_224_878,
                    8_553_064, 12_282_913, 14_278_501, 11_649_393])
  func formerDivergences(seed: UInt64) async throws {
    print("fuzz seed \(seed) (three replicas, a former divergence)")
    try await run(seed: seed)
  }

  private final class Run {
    let session: FuzzSession
    let docs: [Document]
    let tracker: ExchangeTracker
    /// Each replica's undo and redo stacks as expected (FuzzHistory.swift).
    let histories = [HistoryModel(), HistoryModel(), HistoryModel()]
    /// How many deliveries that applied something new each replica received.
    var epochs = [0, 0, 0]

    init(session: FuzzSession, docs: [Document], tracker: ExchangeTracker) {
      self.session = session
      self.docs = docs
      self.tracker = tracker
    }
  }

  private func run(seed: UInt64) async throws {
    let session = FuzzSession(seed: seed, readsModelBack: true)
    var actors: [ActorID] = []
    while actors.count < 3 {
      let actor = ActorID.random(using: &session.rng)
      if actor != .initial && !actors.contains(actor) && actor != session.foreignActor { actors.append(actor) }
    }
    var docs: [Document] = []
    for actor in actors {
      let doc = Document(key: "fuzz")
      try await doc.setActor(actor)
      docs.append(doc)
    }
    let run = Run(session: session, docs: docs, tracker: ExchangeTracker(actors: actors))
    // A shared start, so that the replicas' edits meet in the same containers.
    try await docs[0].update { root, _ in
      try root.setNewText("t").edit(0, 0, "Hello 😀 world")
      let list = root.setNewArray("list")
      for item in ["a", "b", "c", "d"] as [JSONValue] { try list.append(item) }
      list.appendNewText()
      root.setNewObject("obj")["k"] = 1
      root.setNewCounter("n", .int(0))
    }
    // The shared start is no step to undo: every replica starts with empty stacks.
    await docs[0].clearHistory()
    run.tracker.log[0] = await docs[0].pendingChanges
    run.tracker.applied[0][0] = 1
    session.sharedKeys = ["t", "list", "obj", "n"]
    await exchangeAll(run, collect: false)
    for step in 0..<ReplicaFuzzTests.steps {
      let r = session.int(0..<3)
      let others = (0..<3).filter { $0 != r }
      switch session.int(0..<100) {
      case 0..<31: await localUpdate(run, r)
      case 31..<36:
        if ReplicaFuzzTests.replaysHistory { await replayHistory(run, r) } else { await localUpdate(run, r) }
      case 36..<42:
        // A burst: every replica edits before anything travels, so the edits are concurrent.
        for other in (0..<3).shuffled(using: &session.rng) where session.problems.isEmpty { await localUpdate(run, other) }
      case 42..<56: await deliverInOrder(run, to: r, from: session.pick(others))
      case 56..<61: await deliverOutOfOrder(run, to: r, from: session.pick(others))
      case 61..<67: await deliverShuffled(run, to: r)
      case 67..<71: await deliverReplay(run, to: r)
      case 71..<78: await deliverSince(run, to: r, from: session.pick(others))
      case 78..<82: await deliverPack(run, to: r, from: session.pick(others))
      case 82..<87: await acknowledge(run, r)
      case 87..<90: await exchangeAll(run, collect: session.chance(0.7))
      case 90..<93: await collectOnUpToDate(run, r)
      case 93..<94: await checkSnapshotRoundTrip(docs[r], session)
      case 94..<95: await snapshotFollower(run, r)
      case 95..<98: await setActorProbes(run, r)
      default:
        try session.probeExpired()
      }
      await checkAll(run)
      if reportFuzzProblems(session, step: step) { return }
    }
    await exchangeAll(run, collect: true)
    for doc in docs { await checkSnapshotRoundTrip(doc, session) }
    await checkAll(run)
    if reportFuzzProblems(session, step: ReplicaFuzzTests.steps) { return }
    let sizes = await docs[0].toJSON().utf8.count
    print("fuzz seed \(seed) (three replicas) done: \(session.statsLine); changes \(run.tracker.log.map(\.count)), final JSON \(sizes) bytes")
  }

  // MARK: Steps

  private func localUpdate(_ run: Run, _ r: Int) async {
    let (session, doc, tracker) = (run.session, run.docs[r], run.tracker)
    session.label = "r\(r): "
    defer { session.label = "" }
    let json = await doc.toJSON(), snapshot = await doc.snapshot(), pending = await doc.pendingChanges.count
    let garbage = await doc.garbageLength
    let contentBefore = await FuzzHistory.content(of: doc, session)
    session.beginUpdate()
    var thrown: (any Error)?
    do {
      try await doc.update { root, presence in try session.run(root, presence) }
    } catch {
      thrown = error
    }
    session.endUpdate()
    guard session.problems.isEmpty else { return }
    if session.checkOutcome(thrown) || thrown != nil {
      if await doc.toJSON() != json { session.problem("a failed update changed the JSON to \(await doc.toJSON())") }
      let snapshotAfter = await doc.snapshot()
      if snapshotAfter != snapshot {
        session.problem("a failed update changed the snapshot: \(snapshotDifference(snapshot, snapshotAfter) ?? "same content, other bytes")")
      }
      if await doc.pendingChanges.count != pending { session.problem("a failed update recorded a change") }
      if await doc.garbageLength != garbage { session.problem("a failed update changed the garbage length") }
      return
    }
    if let mismatch = ModelCompare.mismatch(.object(session.model), await doc.value, path: "$") {
      session.problem("after the update on r\(r): \(mismatch)")
    }
    let jsonAfter = await doc.toJSON()
    if let mismatch = ModelCompare.jsonMismatch(.object(session.model), JSONValueParser.parse(jsonAfter), path: "$") {
      session.problem("after the update on r\(r), toJSON \(jsonAfter): \(mismatch)")
    }
    let changes = await doc.pendingChanges
    guard let last = changes.last, Int(last.id.clientSeq) > tracker.log[r].count else {
      if session.edited && changes.count != pending { session.problem("pending changes went from \(pending) to \(changes.count)") }
      return
    }
    if Int(last.id.clientSeq) != tracker.log[r].count + 1 || changes.count != pending + 1 {
      session.problem("r\(r) recorded change \(last.id.clientSeq) after \(tracker.log[r].count), pending \(pending) → \(changes.count)")
    }
    tracker.log[r].append(last)
    tracker.applied[r][r] = tracker.log[r].count
    session.note("r\(r) recorded change \(last.id.clientSeq)\(last.isPresenceOnly ? " (presence only)" : "") lamport \(last.id.lamport)")
    if !last.isPresenceOnly {
      run.histories[r].recordUpdate(HistoryModel.Step(before: contentBefore, after: FuzzHistory.canonical(.object(session.model)),
                                                      epoch: run.epochs[r]))
    }
  }

  /// Undoes or redoes on replica `r` (FuzzHistory.swift checks it against the replica's model);
  /// the change it records joins the replica's log like an update's.
  private func replayHistory(_ run: Run, _ r: Int) async {
    let (session, doc, tracker) = (run.session, run.docs[r], run.tracker)
    let kind: FuzzHistory.Kind = session.chance(0.6) ? .undo : .redo
    guard await FuzzHistory.replay(kind, doc, run.histories[r], session, epoch: run.epochs[r], label: "r\(r): ") else { return }
    guard let last = await doc.pendingChanges.last, Int(last.id.clientSeq) == tracker.log[r].count + 1 else {
      return session.problem("r\(r)'s \(kind.rawValue)() recorded no change after \(tracker.log[r].count)")
    }
    tracker.log[r].append(last)
    tracker.applied[r][r] = tracker.log[r].count
    session.note("r\(r) recorded \(kind.rawValue) change \(last.id.clientSeq) lamport \(last.id.lamport)")
  }

  /// Applies `batch` to replica `r` through `apply`, checking the outcome against the tracker.
  private func deliver(_ run: Run, _ batch: [Change], to r: Int, _ how: String,
                       _ apply: (Document) async throws -> Void) async {
    let (session, doc, tracker) = (run.session, run.docs[r], run.tracker)
    let verdict = tracker.verdict(r, batch)
    session.note("deliver \(how) to r\(r): [\(tracker.describe(batch))] \(verdict)")
    let json = await doc.toJSON(), snapshot = await doc.snapshot(), pending = await doc.pendingChanges.count
    let vector = await doc.versionVector, garbage = await doc.garbageLength
    var failure: (any Error)?
    if ReplicaFuzzTests.debugs, ProcessInfo.processInfo.environment["CRDT_FUZZ_DEBUG_RESTORES"] != nil {
      for change in batch { for op in change.operations { if case .restoreEdit = op {
        print("DEBUG before restore r\(r) \(change.id.clientSeq)@\(change.id.actorID) \(op)\n\(await doc.debugPieces(createdAt: op.parentCreatedAt))")
      } } }
    }
    do {
      try await apply(doc)
    } catch {
      failure = error
    }
    switch (verdict, failure) {
    case (.applies(let row), nil):
      if row == tracker.applied[r] {
        session.count("delivery of nothing new")
        let (jsonAfter, snapshotAfter) = (await doc.toJSON(), await doc.snapshot())
        if jsonAfter != json || snapshotAfter != snapshot {
          session.problem("delivering only changes r\(r) had applied changed it: \(snapshotDifference(snapshot, snapshotAfter) ?? "same content, other bytes")")
        }
      } else {
        session.count("delivery applied")
        run.epochs[r] += 1
      }
      tracker.applied[r] = row
    case (.applies, let error?):
      session.problem("a causally ready delivery to r\(r) failed: \(error)")
      if ReplicaFuzzTests.debugs {
        await printLatestChanges(run)
        for change in batch { for op in change.operations { print("DEBUG change \(change.id.clientSeq)@\(change.id.actorID): \(op)") } }
        for change in batch { for op in change.operations {
          print("DEBUG r\(r) pieces of \(op.parentCreatedAt):\n\(await doc.debugPieces(createdAt: op.parentCreatedAt))")
        } }
      }
    case (.notReady(let why), nil):
      session.problem("r\(r) applied a delivery that is not causally ready (\(why))")
    case (.notReady, let error?):
      session.count("delivery refused")
      if (error as? YorkieError)?.code != .changeNotReady { session.problem("a delivery out of causal order threw \(error), expected changeNotReady") }
      if await doc.toJSON() != json { session.problem("a refused delivery changed r\(r)'s JSON") }
      let snapshotAfter = await doc.snapshot()
      if snapshotAfter != snapshot {
        session.problem("a refused delivery changed r\(r)'s snapshot: \(snapshotDifference(snapshot, snapshotAfter) ?? "same content, other bytes")")
      }
      if await doc.pendingChanges.count != pending { session.problem("a refused delivery changed r\(r)'s pending changes") }
      if await doc.versionVector != vector { session.problem("a refused delivery changed r\(r)'s version vector") }
      if await doc.garbageLength != garbage { session.problem("a refused delivery changed r\(r)'s garbage length") }
    }
  }

  private func deliverInOrder(_ run: Run, to r: Int, from a: Int) async {
    let (session, tracker) = (run.session, run.tracker)
    let start = tracker.applied[r][a]
    let replay = start > 0 && session.chance(0.3) ? Array(tracker.log[a][(start - session.int(1...min(2, start)))..<start]) : []
    let rest = tracker.log[a][start...]
    let next = Array(rest.prefix(session.int(1...3)))
    await deliver(run, replay + next, to: r, "in order") { try await $0.applyChanges(replay + next) }
  }

  private func deliverOutOfOrder(_ run: Run, to r: Int, from a: Int) async {
    let (session, tracker) = (run.session, run.tracker)
    let start = tracker.applied[r][a]
    let remaining = tracker.log[a].count - start
    guard remaining >= 2 else { return await deliverInOrder(run, to: r, from: a) }
    let change = tracker.log[a][start + session.int(1..<remaining)]
    await deliver(run, [change], to: r, "skipping ahead") { try await $0.applyChanges([change]) }
  }

  private func deliverShuffled(_ run: Run, to r: Int) async {
    let (session, tracker) = (run.session, run.tracker)
    var batch: [Change] = []
    for a in 0..<3 where a != r {
      let start = tracker.applied[r][a]
      batch += tracker.log[a][start...].prefix(session.int(0...2))
      if start > 0 && session.chance(0.3) { batch.append(tracker.log[a][session.int(0..<start)]) }
    }
    batch.shuffle(using: &session.rng)
    await deliver(run, batch, to: r, "shuffled") { try await $0.applyChanges(batch) }
  }

  private func deliverReplay(_ run: Run, to r: Int) async {
    let (session, tracker) = (run.session, run.tracker)
    var batch: [Change] = []
    for a in 0..<3 where tracker.applied[r][a] > 0 && session.chance(0.6) {
      let count = tracker.applied[r][a]
      let from = session.int(0..<count)
      batch += tracker.log[a][from..<min(count, from + session.int(1...3))]
    }
    await deliver(run, batch, to: r, "replay") { try await $0.applyChanges(batch) }
  }

  private func deliverSince(_ run: Run, to r: Int, from a: Int) async {
    let (session, tracker) = (run.session, run.tracker)
    let batch: [Change]
    do {
      batch = try await run.docs[a].changes(since: await run.docs[r].versionVector)
    } catch {
      session.problem("r\(a).changes(since:) threw \(error)")
      return
    }
    // Every change r lacks that a still holds must be there.
    let lacking = tracker.log[a][max(tracker.applied[r][a], tracker.acknowledged[a])...].map(\.id.clientSeq)
    let sent = Set(batch.map(\.id.clientSeq))
    if let missing = lacking.first(where: { !sent.contains($0) }) {
      session.problem("r\(a).changes(since: r\(r)'s vector) leaves out change \(missing), which r\(r) lacks")
    }
    await deliver(run, batch, to: r, "changes(since:) of r\(a)") { try await $0.applyChanges(batch) }
  }

  private func deliverPack(_ run: Run, to r: Int, from a: Int) async {
    let pack: ChangePack
    do {
      pack = try await run.docs[a].createChangePack()
    } catch {
      run.session.problem("r\(a).createChangePack() threw \(error)")
      return
    }
    let ownBefore = await run.docs[r].pendingChanges.count
    await deliver(run, pack.changes, to: r, "pack of r\(a)") { try await $0.applyChangePack(pack) }
    if await run.docs[r].pendingChanges.count != ownBefore { run.session.problem("a peer's pack acknowledged changes of r\(r)") }
  }

  private func acknowledge(_ run: Run, _ a: Int) async {
    let (session, tracker, doc) = (run.session, run.tracker, run.docs[a])
    let before = await doc.pendingChanges.map(\.id.clientSeq)
    if session.chance(0.15) {
      let through = UInt32(tracker.log[a].count + session.int(1...3))
      session.note("r\(a).acknowledgeChanges(through: \(through)) → invalidArgument")
      do {
        try await doc.acknowledgeChanges(through: through)
        session.problem("r\(a) acknowledged through \(through), past its \(tracker.log[a].count) changes")
      } catch {
        if (error as? YorkieError)?.code != .invalidArgument { session.problem("an acknowledgement past the last change threw \(error)") }
      }
      if await doc.pendingChanges.map(\.id.clientSeq) != before { session.problem("a refused acknowledgement dropped changes") }
      return
    }
    let everyone = (0..<3).filter { $0 != a }.map { tracker.applied[$0][a] }.min() ?? 0
    let through = session.int(0...everyone)
    session.note("r\(a).acknowledgeChanges(through: \(through))")
    do {
      try await doc.acknowledgeChanges(through: UInt32(through))
    } catch {
      session.problem("r\(a).acknowledgeChanges(through: \(through)) threw \(error)")
      return
    }
    tracker.acknowledged[a] = max(tracker.acknowledged[a], through)
    let expected = tracker.log[a][tracker.acknowledged[a]...].map(\.id.clientSeq)
    if await doc.pendingChanges.map(\.id.clientSeq) != expected {
      session.problem("after acknowledging through \(through), r\(a) holds \(await doc.pendingChanges.map(\.id.clientSeq)), expected \(expected)")
    }
  }

  /// Delivers everything everywhere, checks that the replicas agree, and maybe collects garbage
  /// with the minimum of their vectors.
  private func exchangeAll(_ run: Run, collect: Bool) async {
    let (session, tracker, docs) = (run.session, run.tracker, run.docs)
    var progress = true
    while progress && session.problems.isEmpty {
      progress = false
      for r in 0..<3 {
        for a in 0..<3 where a != r {
          let ready = tracker.readyPrefix(r, a)
          guard !ready.isEmpty else { continue }
          progress = true
          await deliver(run, ready, to: r, "exchange") { try await $0.applyChanges(ready) }
        }
      }
    }
    guard session.problems.isEmpty else { return }
    if !tracker.isQuiescent { session.problem("a full exchange left changes undelivered: \(tracker.applied)") }
    let json = await docs[0].toJSON(), sorted = await docs[0].toSortedJSON()
    for r in 1..<3 {
      if await docs[r].toJSON() != json {
        session.problem("after a full exchange r\(r) shows \(printable(await docs[r].toJSON())), r0 \(printable(json))")
        if ReplicaFuzzTests.debugs { await printLatestChanges(run) }
      }
      if await docs[r].toSortedJSON() != sorted { session.problem("after a full exchange r\(r)'s sorted JSON differs from r0's") }
    }
    guard collect, session.problems.isEmpty else { return }
    var vectors: [VersionVector] = []
    for doc in docs { vectors.append(await doc.versionVector) }
    let minimum = vectors.dropFirst().reduce(vectors[0]) { $0.minimum(with: $1) }
    let gc = ReplicaFuzzTests.collection
    for r in 0..<3 where (session.chance(0.7) || gc == .together) && gc != .never {
      session.note("r\(r).garbageCollect(\(minimum))")
      let before = await docs[r].toJSON()
      let purged = await docs[r].garbageCollect(minSyncedVersionVector: minimum)
      session.count("garbage collections purging \(purged > 0 ? "some" : "none")")
      if await docs[r].toJSON() != before { session.problem("garbage collection changed r\(r)'s JSON") }
      // Every replica has seen every removal and every insertion: nothing may stay.
      if await docs[r].garbageLength != 0 { session.problem("r\(r) keeps garbage \(await docs[r].garbageBreakdown) after collecting at quiescence") }
    }
  }

  /// Collects garbage on replica `r` with the minimum of the three vectors when `r` has
  /// applied every change (the others may lag, and their later changes may name what `r`
  /// purges): Yorkie's clients collect at different times in the same way.
  private func collectOnUpToDate(_ run: Run, _ r: Int) async {
    let (session, tracker, docs) = (run.session, run.tracker, run.docs)
    // Bring r up to date first (every change exists on its author, so all can be delivered).
    var progress = true
    while progress && session.problems.isEmpty {
      progress = false
      for a in 0..<3 where a != r {
        let ready = tracker.readyPrefix(r, a)
        guard !ready.isEmpty else { continue }
        progress = true
        await deliver(run, ready, to: r, "catching up") { try await $0.applyChanges(ready) }
      }
    }
    guard session.problems.isEmpty, ReplicaFuzzTests.collection == .asDrawn else { return }
    guard (0..<3).allSatisfy({ tracker.applied[r][$0] == tracker.log[$0].count }) else {
      return session.problem("r\(r) could not catch up: \(tracker.applied[r]) of \(tracker.log.map(\.count))")
    }
    var vectors: [VersionVector] = []
    for doc in docs { vectors.append(await doc.versionVector) }
    let minimum = vectors.dropFirst().reduce(vectors[0]) { $0.minimum(with: $1) }
    session.note("r\(r) (up to date) garbageCollect(\(minimum))")
    let before = await docs[r].toJSON()
    let purged = await docs[r].garbageCollect(minSyncedVersionVector: minimum)
    session.count("garbage collections ahead of the others purging \(purged > 0 ? "some" : "none")")
    if await docs[r].toJSON() != before { session.problem("garbage collection changed r\(r)'s JSON") }
  }

  /// Loads replica `r`'s snapshot into a fresh document, then delivers the changes `r` lacks to
  /// both, in causal order, one author at a time: they must keep showing the same JSON.
  private func snapshotFollower(_ run: Run, _ r: Int) async {
    let (session, tracker, doc) = (run.session, run.tracker, run.docs[r])
    let follower = Document(key: doc.key)
    do {
      try await follower.setActor(ActorID.random(using: &session.rng))
      try await follower.applyChangePack(ChangePack(key: doc.key, checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                    versionVector: await doc.versionVector, snapshot: await doc.snapshot()))
    } catch {
      session.problem("loading r\(r)'s snapshot threw \(error)")
      if ReplicaFuzzTests.debugs { await printLatestChanges(run) }
      return
    }
    session.note("r\(r)'s snapshot loaded into a follower")
    var progress = true
    while progress && session.problems.isEmpty {
      progress = false
      for a in (0..<3).shuffled(using: &session.rng) where a != r {
        let ready = tracker.readyPrefix(r, a)
        guard !ready.isEmpty else { continue }
        let batch = Array(ready.prefix(session.int(1...ready.count)))
        progress = true
        await deliver(run, batch, to: r, "to r\(r) and its follower") { try await $0.applyChanges(batch) }
        do {
          try await follower.applyChanges(batch)
        } catch {
          session.problem("the follower of r\(r) refused [\(tracker.describe(batch))]: \(error)")
          return
        }
        let (expected, found) = (await doc.toJSON(), await follower.toJSON())
        if expected != found { session.problem("r\(r) shows \(printable(expected)), its snapshot follower \(printable(found))") }
        if let problem = await follower.checkInvariants() { session.problem("the follower of r\(r) breaks an invariant: \(problem)") }
      }
    }
  }

  private func setActorProbes(_ run: Run, _ r: Int) async {
    let (session, doc) = (run.session, run.docs[r])
    let actor = run.tracker.actors[r]
    let json = await doc.snapshot()
    session.note("r\(r).setActor probes")
    do {
      try await doc.setActor(actor)
    } catch {
      session.problem("setting r\(r)'s own actor again threw \(error)")
    }
    do {
      try await doc.setActor(.initial)
      session.problem("r\(r) went back to the initial actor")
    } catch {
      if (error as? YorkieError)?.code != .invalidActorID { session.problem("setActor(.initial) threw \(error)") }
    }
    if await !doc.pendingChanges.isEmpty {
      do {
        try await doc.setActor(ActorID.random(using: &session.rng))
        session.problem("r\(r) took another actor with pending changes")
      } catch {
        if (error as? YorkieError)?.code != .actorNotSet { session.problem("setActor with pending changes threw \(error)") }
      }
    }
    if await doc.actorID != actor { session.problem("r\(r)'s actor changed") }
    if await doc.snapshot() != json { session.problem("refused setActor calls changed r\(r)") }
  }

  // MARK: Checks after every step

  private func checkAll(_ run: Run) async {
    let (session, tracker, docs) = (run.session, run.tracker, run.docs)
    var jsons: [String] = []
    var presences: [[ActorID: [String: JSONValue]]] = []
    for (r, doc) in docs.enumerated() {
      if let problem = await doc.checkInvariants() { session.problem("r\(r) invariant: \(problem)") }
      FuzzHistory.checkDepths(await doc.historyDepths, run.histories[r], session, label: "r\(r): ")
      let vector = await doc.versionVector
      for a in 0..<3 where a != r {
        let expected = tracker.knownLamport(a, tracker.applied[r][a])
        if (vector[tracker.actors[a]] ?? 0) != expected {
          session.problem("r\(r)'s vector has \(vector[tracker.actors[a]] ?? 0) for r\(a), which it knows up to lamport \(expected)")
        }
      }
      jsons.append(await doc.toJSON())
      presences.append(await doc.presenceMap)
    }
    for r1 in 0..<3 {
      for r2 in (r1 + 1)..<3 where tracker.applied[r1] == tracker.applied[r2] {
        if jsons[r1] != jsons[r2] {
          session.problem("r\(r1) and r\(r2) applied the same changes \(tracker.applied[r1]) but show \(printable(jsons[r1])) and \(printable(jsons[r2]))")
          if ReplicaFuzzTests.debugs { await printLatestChanges(run) }
        }
        if presences[r1] != presences[r2] {
          session.problem("r\(r1) and r\(r2) applied the same changes but hold the presences \(presences[r1]) and \(presences[r2])")
        }
      }
    }
  }
}

/// `json` with its control characters escaped (toJSON writes them raw, as the JS SDK does), so a
/// message quoting it is not cut at a NUL.
private func printable(_ json: String) -> String {
  var result = ""
  for scalar in json.unicodeScalars {
    if scalar.value < 0x20 { result += String(format: "\\u%04x", scalar.value) } else { result.unicodeScalars.append(scalar) }
  }
  return result
}
