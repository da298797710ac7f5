import Foundation
import YorkieProtocol

// PushPull, the step shared by AttachDocument, PushPullChanges, DetachDocument and
// RemoveDocument (yorkie-protocol.md section 5.3; the numbers below are its steps).

/// What a PushPull was asked to do.
struct PushPullInput {
  /// The client.
  var client: ResourceID
  /// The pack of the request.
  var pack: WireChangePack
  /// Its checkpoint (required).
  var checkpoint: WireCheckpoint
  /// Store but pull nothing.
  var pushOnly = false
  /// The client does not take part in garbage collection.
  var disableGC = false
  /// The client's status for the document once the step is done.
  var target: AttachmentStatus = .attached
}

/// A snapshot to build outside the lock: the document materialized at a serverSeq of its
/// history (for a pull, after the request's changes were stored) and garbage collected with
/// the minimum version vector.
package struct SnapshotJob: Sendable {
  /// The document.
  package var document: ResourceID
  /// The stored snapshot to start from, if any.
  package var base: StoredSnapshot?
  /// The stored changes after `base`, in order, through the job's serverSeq.
  package var changes: [WireChange]
  /// The minimum synced version vector to collect garbage with, or `nil` not to collect.
  package var minVersionVector: [String: Int64]?
  /// Whether the document drops presences.
  package var disablePresence: Bool
}

/// The answer of a PushPull, before a snapshot (if any) is built.
struct PushPullOutcome {
  /// The response pack (without the snapshot's bytes and version vector when `snapshotJob` is set).
  var pack: WireChangePack
  /// The snapshot to build and put in `pack`, or `nil`.
  var snapshotJob: SnapshotJob?
  /// For a snapshot response with `disableGC`: the client whose entry carries the snapshot's
  /// largest lamport, which is then the whole version vector.
  var disableGCClient: ResourceID?
  /// The client's view of the document afterwards.
  var info: ClientDocumentInfo
  /// What happened to the client's version-vector row.
  var versionVectorChange: VersionVectorRowChange
  /// Whether anything was stored or the document was removed (watchers hear of it).
  var changedDocument: Bool
  /// The effects (journal, snapshots due).
  var effects: ServiceEffects
}

extension ServiceState {
  /// Runs PushPull for `input` on `document`, in place, from the client's stored view `before`.
  ///
  /// Every check comes first and the document changes only after the last one, so a step that
  /// throws has changed nothing. (The document is changed in place rather than copied: a copy of
  /// its history on every push would cost time in proportion to the history.)
  static func pushPull(_ input: PushPullInput, document: inout DocumentRecord, before: ClientDocumentInfo, settings: ServiceSettings)
    throws(ServiceError) -> PushPullOutcome
  {
    // 0. clientSeq continuity: retransmitted changes are skipped, the rest must follow on.
    var pushables: [ChangeIntake.Checked] = []
    var nextSeq = before.clientSeq
    for (index, change) in input.pack.changes.enumerated() {
      let clientSeq = change.id?.clientSeq ?? 0
      if clientSeq <= before.clientSeq { continue }
      guard clientSeq == nextSeq + 1 else { throw .clientSeqGap }
      nextSeq = clientSeq
      pushables.append(try ChangeIntake.check(change, path: "changePack.changes[\(index)]"))
    }
    // 1. A presenceless document drops presence from what it stores.
    if document.disablePresence {
      pushables = pushables.compactMap { checked in
        var checked = checked
        checked.wire.presenceChange = nil
        return checked.wire.operations.isEmpty ? nil : checked
      }
    }
    // The checks of steps 2 and 3, before anything changes.
    let initialSeq = document.serverSeq
    let requested = input.checkpoint.serverSeq
    let pushes = !pushables.isEmpty || input.pack.isRemoved
    if pushes {
      guard requested <= initialSeq else { throw .checkpointAhead }
    }
    if !input.pushOnly {
      guard initialSeq >= requested else { throw .invalidServerSeq(requested, initialSeq) }
    }
    // 2. Push.
    var effects = ServiceEffects()
    var clientSeqAfterPush = before.clientSeq
    let pushedSeqs = input.pack.changes.compactMap { $0.id?.clientSeq }.filter { $0 > before.clientSeq }
    if let last = pushedSeqs.last { clientSeqAfterPush = max(clientSeqAfterPush, last) }
    var changedDocument = false
    if pushes {
      effects.append(ServiceState.store(pushables.map(\.wire), in: &document, settings: settings))
      if input.pack.isRemoved && !document.isRemoved {
        document.isRemoved = true
        effects.journal.append(.documentRemoved(id: document.id))
      }
      changedDocument = true
    }
    // 3. Pull.
    var pack = WireChangePack(documentKey: input.pack.documentKey)
    var snapshotJob: SnapshotJob?
    if input.pushOnly {
      pack.checkpoint = WireCheckpoint(serverSeq: requested, clientSeq: clientSeqAfterPush)
    } else {
      pack.checkpoint = WireCheckpoint(serverSeq: document.serverSeq, clientSeq: clientSeqAfterPush)
      if initialSeq - requested >= settings.snapshotThreshold {
        // The pushed changes are stored by now: the job is the history through them.
        snapshotJob = ServiceState.makeSnapshotJob(document, through: document.serverSeq)
      } else {
        pack.changes = pulledChanges(document, after: requested, through: initialSeq, client: input.client, ownThrough: clientSeqAfterPush)
      }
    }
    if document.isRemoved { pack.isRemoved = true }
    // 4. The client's view afterwards.
    var info = before
    if input.target == .attached {
      info.status = .attached
      info.serverSeq = pack.checkpoint!.serverSeq
      info.clientSeq = clientSeqAfterPush
    } else {
      info = ClientDocumentInfo(status: input.target, serverSeq: 0, clientSeq: 0)
    }
    // 5. Version vectors.
    var rowChange = VersionVectorRowChange.unchanged
    var disableGCClient: ResourceID?
    let requestVector = input.pack.versionVector?.vector ?? [:]
    if input.disableGC {
      if snapshotJob == nil {
        pack.versionVector = WireVersionVector()
      } else {
        disableGCClient = input.client
      }
    } else {
      if input.target == .attached {
        document.versionVectors[input.client] = requestVector
        rowChange = .set(requestVector)
      } else {
        document.versionVectors[input.client] = nil
        rowChange = .deleted
      }
      let minimum = Self.minimumVersionVector(Array(document.versionVectors.values) + [requestVector])
      if input.pushOnly {
        // Where Yorkie diverges, on purpose: Yorkie sends the minimum with a push-only answer
        // too, but that client has not pulled the changes stored since its checkpoint, and one
        // of them may insert next to a tombstone the minimum lets it collect (a client that
        // inserted concurrently with the removal, then detached, no longer holds the minimum
        // back). Collecting then, and pulling that insert later, loses its anchor. An empty
        // vector collects nothing; the next full pull brings the minimum with the changes.
        pack.versionVector = WireVersionVector()
      } else if snapshotJob == nil {
        pack.versionVector = WireVersionVector(vector: minimum)
      } else {
        snapshotJob!.minVersionVector = minimum
      }
    }
    return PushPullOutcome(
      pack: pack, snapshotJob: snapshotJob, disableGCClient: disableGCClient, info: info, versionVectorChange: rowChange,
      changedDocument: changedDocument, effects: effects)
  }

  /// The stored changes in `(after, through]`, without the client's own changes up to
  /// `ownThrough` (never echoed).
  static func pulledChanges(_ document: DocumentRecord, after: Int64, through: Int64, client: ResourceID, ownThrough: UInt32) -> [WireChange] {
    guard through > after else { return [] }
    return document.changes[Int(after)..<Int(through)].compactMap { stored in
      stored.actor == client && stored.clientSeq <= ownThrough ? nil : stored.wire
    }
  }

  /// The job that materializes `document` at `through` (its stored history up to there).
  static func makeSnapshotJob(_ document: DocumentRecord, through: Int64) -> SnapshotJob {
    let base = document.snapshot.flatMap { $0.serverSeq <= through ? $0 : nil }
    let start = Int(base?.serverSeq ?? 0)
    let changes = document.changes[start..<Int(through)].map(\.wire)
    return SnapshotJob(document: document.id, base: base, changes: changes, minVersionVector: nil, disablePresence: document.disablePresence)
  }

  /// The element-wise minimum of `vectors`: every actor any of them names, an absent entry
  /// counting as 0 (Yorkie's rule, so that a client that has seen nothing of an actor holds
  /// back the collection of that actor's tombstones).
  static func minimumVersionVector(_ vectors: [[String: Int64]]) -> [String: Int64] {
    guard let first = vectors.first else { return [:] }
    var result = first
    for vector in vectors.dropFirst() {
      for (actor, lamport) in result where (vector[actor] ?? 0) < lamport { result[actor] = vector[actor] ?? 0 }
      for actor in vector.keys where result[actor] == nil { result[actor] = 0 }
    }
    return result
  }
}
