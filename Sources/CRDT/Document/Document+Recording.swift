import Foundation

// Recording a replica's history (a base and the steps after it) and restoring it: how a client
// keeps documents between launches.

extension Document {
  /// Starts recording: gives `recorder` a base (the replica's state now) and then every step.
  /// The base and the hand-over happen in one call on the document, so no step falls between.
  ///
  /// - Throws: ``YorkieError`` `actorNotSet` before the replica has an actor, or what the
  ///   recorder throws; nothing is recorded then.
  package func startRecording(with recorder: any ReplicaRecorder) throws {
    try requireActor()
    try recorder.rebase(currentBase(), pendingChanges: localChanges)
    self.recorder = recorder
  }

  /// Gives the recorder a new base, so that the history it keeps starts again from now (a
  /// shorter replay). Nothing when not recording.
  package func rebaseRecording() throws {
    guard let recorder else { return }
    try recorder.rebase(currentBase(), pendingChanges: localChanges)
  }

  /// Goes on recording with `recorder` from the base and records this replica was restored
  /// from (``restore(from:replaying:)``): no new base.
  package func continueRecording(with recorder: any ReplicaRecorder) {
    self.recorder = recorder
  }

  /// Stops recording.
  package func stopRecording() {
    recorder = nil
  }

  /// Makes this document fresh again (empty, no actor, no change, detached), for a client that
  /// found its stored state unusable and attaches it anew. The app keeps its reference; its
  /// subscribers get a ``DocEvent/snapshot`` event (the content is gone) and the status event.
  package func resetToFresh() {
    recorder = nil
    attachmentEnding = nil
    clearReplica()
    var events: [DocEvent] = [.snapshot]
    if status != .detached {
      status = .detached
      events.append(.statusChanged(.detached))
    }
    verifyInvariants(after: "a reset")
    emit(events)
  }

  /// Moves this replica's lamport clock past `lamport` (its own version vector entry with it);
  /// nothing else changes. For a replica that attaches afresh as an actor whose earlier changes,
  /// with lamports up to `lamport`, the server may hold but this replica never received (a
  /// forgotten stored attachment): its next changes then issue tickets above theirs, never
  /// equal ones. Does nothing when the clock is past `lamport` already.
  package func advanceClock(past lamport: Int64) {
    guard lamport > changeID.lamport else { return }
    var vector = changeID.versionVector
    vector.set(changeID.actorID, lamport)
    changeID = ChangeID(
      clientSeq: changeID.clientSeq, serverSeq: changeID.serverSeq, lamport: lamport, actorID: changeID.actorID, versionVector: vector)
  }

  /// The replica's state now, as a base.
  private func currentBase() -> ReplicaBase {
    ReplicaBase(
      actorID: changeID.actorID, checkpoint: checkpoint, localClientSeq: changeID.clientSeq,
      versionVector: changeID.versionVector, snapshot: snapshot())
  }

  /// Empties the content, the clocks, the pending changes and the presences (a fresh replica's
  /// state; the status and the subscribers stay).
  private func clearReplica() {
    root = CRDTRoot()
    changeID = .initial
    checkpoint = .initial
    localChanges = []
    presenceMap = [:]
    onlineClients = []
    lastClientSeq = [:]
    loadedSnapshot = false
    editLog.removeAll()
    history.clear()
    publishHistoryState()
  }

  /// Whether the document never set its actor, made no change and applied none (what
  /// ``restore(from:replaying:)`` takes).
  package var isFresh: Bool {
    changeID == .initial && localChanges.isEmpty && checkpoint == .initial && lastClientSeq.isEmpty && recorder == nil
  }

  /// Rebuilds a recorded replica: loads `base`, then replays `records` in order. Afterwards
  /// this document is that replica (content, clocks, pending changes and checkpoint), still
  /// detached, and its subscribers get one ``DocEvent/snapshot`` event.
  ///
  /// Only for a document that never set its actor, made no change and applied none.
  ///
  /// - Throws: ``YorkieError`` `invalidArgument` for a document that is not fresh;
  ///   `invalidChangePack` when the base does not decode or a record does not follow
  ///   (a local change out of sequence or by another actor, an operation that cannot apply).
  ///   The document stays fresh then.
  package func restore(from base: ReplicaBase, replaying records: [ReplicaRecord]) throws {
    guard isFresh else {
      throw YorkieError(.invalidArgument, "only a document that never set its actor, made no change and applied none can be restored")
    }
    guard base.actorID != .initial else {
      throw YorkieError(.invalidChangePack, "a stored base names the initial actor")
    }
    do {
      try load(base)
      for record in records {
        switch record {
        case .localChange(let change): try replayLocal(change, base: base)
        case .serverPack(let pack): _ = try applyServerPack(pack, recordingTo: nil)
        }
      }
    } catch {
      clearReplica()
      if let error = error as? YorkieError, error.code == .invalidChangePack { throw error }
      throw YorkieError(.invalidChangePack, "a stored document does not replay: \(error)", underlying: error)
    }
    for change in localChanges where !change.operations.isEmpty { editLog.record(change) }
    verifyInvariants(after: "a restore")
    emit([.snapshot])
  }

  /// Loads a base's snapshot and clocks.
  private func load(_ base: ReplicaBase) throws {
    let snapshot = try DocumentSnapshot(data: base.snapshot)
    root = CRDTRoot(object: snapshot.root, treeGarbage: snapshot.treeGarbage)
    root.adopt(snapshot.restores)
    presenceMap = snapshot.presences
    lastClientSeq = [:]
    loadedSnapshot = true
    checkpoint = base.checkpoint
    changeID = ChangeID(
      clientSeq: base.localClientSeq, lamport: base.versionVector[base.actorID] ?? 0, actorID: base.actorID,
      versionVector: base.versionVector)
  }

  /// Replays one recorded local change: one the base's snapshot contains only joins the
  /// pending changes; a later one is applied as the update that made it was.
  private func replayLocal(_ change: Change, base: ReplicaBase) throws {
    guard change.id.actorID == base.actorID else {
      throw YorkieError(.invalidChangePack, "a recorded local change names actor \(change.id.actorID), not \(base.actorID)")
    }
    let expected = (localChanges.last?.id.clientSeq ?? checkpoint.clientSeq) + 1
    if change.id.clientSeq <= checkpoint.clientSeq {
      // Acknowledged before the base was taken; the snapshot holds it.
      return
    }
    guard change.id.clientSeq == expected else {
      throw YorkieError(.invalidChangePack, "recorded local change \(change.id.clientSeq) follows change \(expected - 1)")
    }
    if change.id.clientSeq <= base.localClientSeq {
      localChanges.append(change)
      return
    }
    let replay = Journal()
    try Self.reapply(change, on: root, journal: replay, presences: &presenceMap)
    replay.commit()
    if change.isPresenceOnly {
      changeID.clientSeq += 1
    } else {
      changeID = change.id
    }
    localChanges.append(change)
  }
}
