import CRDT
import Foundation

/// An in-process stand-in for the server: a log of changes in server order, and per replica
/// the pushed client sequence, the pulled server sequence and the last reported version
/// vector. A sync is a push-pull exactly as Yorkie's server answers it: own changes are never
/// echoed, and the response carries the minimum of all replicas' vectors for GC.
actor ChangeLog {
  private(set) var changes: [Change] = []
  private var pushed: [ActorID: UInt32] = [:]
  private var pulled: [ActorID: Int] = [:]
  private var reported: [ActorID: VersionVector] = [:]

  /// When set, a replica that is more than this many changes behind receives a snapshot of
  /// the server's own copy instead of the changes, as Yorkie's server does past its snapshot
  /// threshold.
  private let snapshotThreshold: Int?
  /// The server's copy: every change applied in log order (actor zero, never collected).
  private let serverCopy = Document(key: "doc")
  private(set) var snapshotsSent = 0

  init(actors: [ActorID], snapshotThreshold: Int? = nil) {
    self.snapshotThreshold = snapshotThreshold
    for actor in actors { reported[actor] = VersionVector() }
  }

  /// The element-wise minimum of the reported vectors (a missing entry counts as 0).
  var minimumVector: VersionVector {
    var keys = Set<ActorID>()
    for vector in reported.values { keys.formUnion(vector.actors) }
    var entries: [ActorID: Int64] = [:]
    for key in keys {
      entries[key] = reported.values.map { $0[key] ?? 0 }.min() ?? 0
    }
    return VersionVector(entries)
  }

  /// Push-pull for one replica. With `pushOnly`, nothing is pulled.
  func sync(_ doc: Document, pushOnly: Bool = false, collectGarbage: Bool = true) async throws {
    let actor = await doc.actorID
    let pack = try await doc.createChangePack()
    var lastPushed = pushed[actor] ?? 0
    for change in pack.changes where change.id.clientSeq > lastPushed {
      changes.append(change)
      lastPushed = change.id.clientSeq
      if snapshotThreshold != nil {
        try await serverCopy.applyChangePack(ChangePack(key: pack.key, checkpoint: .initial, changes: [change]))
      }
    }
    pushed[actor] = lastPushed
    reported[actor] = pack.versionVector ?? VersionVector()
    let from = pulled[actor] ?? 0
    if !pushOnly, let threshold = snapshotThreshold, changes.count - from > threshold {
      pulled[actor] = changes.count
      snapshotsSent += 1
      try await doc.applyChangePack(ChangePack(
        key: pack.key, checkpoint: Checkpoint(serverSeq: Int64(changes.count), clientSeq: lastPushed), changes: [],
        versionVector: await serverCopy.versionVector, snapshot: await serverCopy.snapshot()))
      return
    }
    let incoming = pushOnly ? [] : changes[from...].filter { $0.id.actorID != actor }
    if !pushOnly { pulled[actor] = changes.count }
    let response = ChangePack(
      key: pack.key,
      checkpoint: Checkpoint(serverSeq: Int64(pushOnly ? from : changes.count), clientSeq: lastPushed),
      changes: Array(incoming),
      // A push-only answer brings nothing new, so the replica may still lack changes that refer
      // to tombstones the minimum vector would let it purge: no GC then (see README).
      versionVector: collectGarbage && !pushOnly ? minimumVector : nil)
    try await doc.applyChangePack(response)
  }
}

/// Syncs every replica through `log` `rounds` times, each round in a new random order drawn
/// from `rng` (what the history suites' `converge` helpers do before comparing replicas).
func syncInRandomOrder(_ docs: [Document], through log: ChangeLog, rounds: Int = 2, using rng: inout SeededRandom,
                       collectGarbage: Bool) async throws {
  for _ in 0..<rounds {
    for doc in docs.shuffled(using: &rng) { try await log.sync(doc, collectGarbage: collectGarbage) }
  }
}

/// Makes `count` detached replicas with actors 000…001, 000…002, …
func makeReplicas(_ count: Int, key: String = "doc") async throws -> [Document] {
  var docs: [Document] = []
  for index in 1...count {
    let doc = Document(key: key)
    try await doc.setActor(try ActorID(hex: String(format: "%024x", index)))
    docs.append(doc)
  }
  return docs
}
