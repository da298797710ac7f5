import Foundation

// Exchanging changes: change packs for a server, changes for a transport of the app's own,
// and how remote changes are integrated (in order, once, atomically).

extension Document {
  // MARK: - Sync

  /// The local changes not yet acknowledged, with the checkpoint and version vector to send to
  /// a server. The pack's ``ChangePack/role`` is ``ChangePack/Role/request``: applied to
  /// another replica, it acknowledges nothing.
  ///
  /// - Throws: ``YorkieError`` `actorNotSet` while the replica writes as ``ActorID/initial``:
  ///   its changes would collide with every other replica that never set an actor.
  public func createChangePack() throws -> ChangePack {
    try requireActor()
    let cp = Checkpoint(serverSeq: checkpoint.serverSeq, clientSeq: checkpoint.clientSeq + UInt32(localChanges.count))
    return ChangePack(key: key, checkpoint: cp, changes: localChanges, versionVector: changeID.versionVector, role: .request)
  }

  /// The oldest local changes in a pack, and how many were left out of it.
  package struct LimitedChangePack: Sendable {
    /// The pack to send.
    package var pack: ChangePack
    /// The local changes after the pack's, to send in later ones.
    package var leftOut: Int
  }

  /// ``createChangePack()`` with only the oldest `limit` local changes (all of them when there
  /// are no more), for a server that takes a long backlog in several packs.
  ///
  /// The version vector of a pack that leaves changes out is the one the first of them with
  /// operations was made with, not the replica's: a server stores a pack's vector as what this
  /// replica has seen, and lets every replica purge the tombstones all such vectors cover.
  /// A change left out may anchor on a piece that was live when it was made and that a remote
  /// change applied since removed; were the replica's vector sent, peers could purge that
  /// piece before the change reaches them, and then fail to apply it (`elementNotFound`). The
  /// vector of that change covers only what was applied before it was made, and every later
  /// change was made later still.
  package func createChangePack(atMost limit: Int) throws -> LimitedChangePack {
    let limit = max(limit, 0)
    var pack = try createChangePack()
    let leftOut = pack.changes.count - limit
    guard leftOut > 0 else { return LimitedChangePack(pack: pack, leftOut: 0) }
    if let firstLeftOut = pack.changes[limit...].first(where: { !$0.isPresenceOnly }) {
      pack.versionVector = firstLeftOut.id.versionVector
    }
    // A copy of the first changes only (removing the rest would copy the whole backlog first).
    pack.changes = Array(pack.changes.prefix(limit))
    pack.checkpoint.clientSeq -= UInt32(leftOut)
    return LimitedChangePack(pack: pack, leftOut: leftOut)
  }

  /// The local changes not yet acknowledged that a replica whose version vector is `peer` may
  /// lack, oldest first: what a transport of the app's own sends to that peer. Sending more
  /// than needed is harmless (``applyChanges(_:)`` skips what it has), so when in doubt this
  /// includes a change.
  ///
  /// - Throws: ``YorkieError`` `actorNotSet` while the replica writes as ``ActorID/initial``.
  public func changes(since peer: VersionVector) throws -> [Change] {
    try requireActor()
    let seen = peer[changeID.actorID] ?? 0
    // A change with operations is known to the peer when its lamport is covered. A
    // presence-only change keeps the lamport of what came before it, so it is sent unless the
    // peer has seen a later change with operations (which it could only apply after this one).
    return localChanges.filter { $0.isPresenceOnly ? $0.id.lamport >= seen : $0.id.lamport > seen }
  }

  /// Applies changes that another replica made (a transport of the app's own calls it with
  /// what ``changes(since:)`` or ``createChangePack()`` gave on the other side).
  ///
  /// - Idempotent: a change this replica has already integrated is skipped (the version vector
  ///   tells for a change with operations; the author's last client sequence for a
  ///   presence-only one), so resending unacknowledged changes is safe.
  /// - Causal: a change must come after its author's previous change and after every change
  ///   its version vector has seen; otherwise the call throws `changeNotReady` and the
  ///   transport delivers the missing changes first.
  /// - Acknowledges nothing: the author drops its changes when the transport tells it to,
  ///   with ``acknowledgeChanges(through:)``.
  ///
  /// Atomic: on any error nothing is applied. Events follow in apply order.
  ///
  /// - Throws: ``YorkieError`` `changeNotReady`; `actorConflict` for a change that claims this
  ///   replica's actor but that it did not make, or that was made as ``ActorID/initial``;
  ///   `invalidChangePack` when an operation cannot be applied.
  public func applyChanges(_ changes: [Change]) throws {
    try integrate(changes, from: .peer)
  }

  /// Drops the local changes up to and including `clientSeq`: the transport's statement that
  /// every peer that needs them has them. (A server's answer does this through
  /// ``applyChangePack(_:)``.)
  ///
  /// - Throws: ``YorkieError`` `invalidArgument` when `clientSeq` is past the last change this
  ///   replica made. Nothing changes then.
  public func acknowledgeChanges(through clientSeq: UInt32) throws {
    guard clientSeq <= changeID.clientSeq else {
      throw YorkieError(.invalidArgument, "clientSeq \(clientSeq) is past this replica's last change (\(changeID.clientSeq))")
    }
    dropAcknowledged(through: clientSeq)
    checkpoint = checkpoint.forwarded(to: Checkpoint(serverSeq: checkpoint.serverSeq, clientSeq: clientSeq))
  }

  /// Applies a change pack.
  ///
  /// A server's answer (``ChangePack/Role/response``): applies the remote changes, drops the
  /// local changes its checkpoint acknowledges, forwards the checkpoint, and collects garbage
  /// with its version vector (the minimum of all replicas'); or, when it carries a snapshot,
  /// loads it. The server sends changes in causal order, so they are applied as they come;
  /// changes already integrated are skipped.
  ///
  /// Another replica's pack (``ChangePack/Role/request``, from its ``createChangePack()``):
  /// the same as ``applyChanges(_:)`` with its changes; its checkpoint and version vector are
  /// the sender's and are ignored.
  ///
  /// Atomic: if any change cannot be applied, nothing of the pack is applied and the error is
  /// thrown. Events are emitted after the whole pack has been applied, in apply order.
  public func applyChangePack(_ pack: ChangePack) throws {
    guard pack.key.isEmpty || pack.key == key else {
      throw YorkieError(.invalidChangePack, "a change pack of document \"\(pack.key)\" cannot be applied to document \"\(key)\"")
    }
    if pack.role == .request {
      guard pack.snapshot?.isEmpty ?? true else {
        throw YorkieError(.invalidChangePack, "a replica's pack (role request) cannot carry a snapshot")
      }
      try integrate(pack.changes, from: .peer)
      return
    }
    emit(try applyServerPack(pack, recordingTo: recorder))
  }

  /// Applies a server's answer (see ``applyChangePack(_:)``) and returns the events, which it
  /// does not emit. With a recorder, the pack is recorded once it applied and before it counts:
  /// a pack the recorder refuses is not applied.
  func applyServerPack(_ pack: ChangePack, recordingTo recorder: (any ReplicaRecorder)?) throws -> [DocEvent] {
    if let snapshot = pack.snapshot, !snapshot.isEmpty {
      return try applySnapshot(snapshot, of: pack, recordingTo: recorder)
    }
    var events = try integrate(pack.changes, from: .server, emitting: false, recording: recorder.map { ($0, pack) })
    dropAcknowledged(through: pack.checkpoint.clientSeq)
    checkpoint = checkpoint.forwarded(to: pack.checkpoint)
    if let vector = pack.versionVector {
      editLog.forget(seenThrough: vector[changeID.actorID] ?? 0)
      _ = collectGarbage(vector)
      verifyInvariants(after: "garbage collection of a change pack")
    }
    if pack.isRemoved && status != .removed {
      status = .removed
      events.append(.statusChanged(.removed))
    }
    return events
  }

  func requireActor() throws {
    guard changeID.actorID != .initial else {
      throw YorkieError(.actorNotSet, "the replica still writes as the initial actor: call setActor(_:) (ActorID.random() for a transport of your own) before exchanging changes")
    }
  }

  private func dropAcknowledged(through clientSeq: UInt32) {
    let dropped = localChanges.firstIndex(where: { $0.id.clientSeq > clientSeq }) ?? localChanges.endIndex
    guard dropped > 0 else { return }
    // Keystrokes on the undo stack read their operation from these changes until now.
    history.adoptKeystrokes(leaving: localChanges[..<dropped])
    localChanges.removeFirst(dropped)
  }

  /// Applies `changes` in order as one transaction, skipping those already integrated.
  /// Returns the events (and emits them unless told not to).
  @discardableResult
  private func integrate(
    _ changes: [Change], from delivery: ChangeDelivery, emitting: Bool = true,
    recording: (recorder: any ReplicaRecorder, pack: ChangePack)? = nil
  ) throws -> [DocEvent] {
    let savedChangeID = changeID
    let savedPresence = presenceMap
    let savedOnline = onlineClients
    let savedSeqs = lastClientSeq
    let describing = hasSubscribers
    var events: [DocEvent] = []
    do {
      // The causal checks read each author's last sequence, so they write it at once; a
      // server's answer (often a long run of one author's changes) writes it once per run.
      var run: (author: ActorID, clientSeq: UInt32)?
      for change in changes {
        guard try isNew(change, from: delivery) else { continue }
        events.append(contentsOf: try apply(change, journal: journal, describing: describing))
        switch delivery {
        case .peer:
          lastClientSeq[change.id.actorID] = change.id.clientSeq
        case .server:
          if let done = run, done.author != change.id.actorID { lastClientSeq[done.author] = done.clientSeq }
          run = (change.id.actorID, change.id.clientSeq)
        }
      }
      if let done = run { lastClientSeq[done.author] = done.clientSeq }
      if let recording { try recording.recorder.record(.serverPack(recording.pack)) }
    } catch {
      journal.rollBack(root)
      changeID = savedChangeID
      presenceMap = savedPresence
      onlineClients = savedOnline
      lastClientSeq = savedSeqs
      verifyInvariants(after: "a rolled-back set of remote changes")
      throw error
    }
    journal.commit()
    verifyInvariants(after: "applying remote changes")
    if emitting { emit(events) }
    return events
  }

  /// Whether `change` is still to be applied: false for a change already integrated; throws
  /// for a change that must not be applied (see ``applyChanges(_:)``).
  private func isNew(_ change: Change, from delivery: ChangeDelivery) throws -> Bool {
    let author = change.id.actorID
    if author == .initial {
      throw YorkieError(.actorConflict, "change \(change.id.clientSeq) was made by a replica that never set its actor (ActorID.initial)")
    }
    if author == changeID.actorID {
      guard delivery == .peer else {
        // A server never echoes this attachment's changes (it skips the author's changes up to
        // the pushed checkpoint), so a change of this actor in its answer was made by an
        // earlier attachment of the same client to this document (detached, then a new
        // Document attached): its operations are content this replica lacks; its presence is
        // that earlier life's and is skipped in `apply`.
        return !change.isPresenceOnly
      }
      // This replica's own change coming back from a peer.
      if change.id.clientSeq <= changeID.clientSeq { return false }
      throw YorkieError(.actorConflict, "change \(change.id.clientSeq) claims this replica's actor \(author), but this replica made only \(changeID.clientSeq) change(s): two replicas share the actor")
    }
    if !change.isPresenceOnly && change.id.lamport <= versionVector[author] ?? 0 { return false }
    // A server sends changes once, in causal order, and restarts an author's client sequence
    // when it attaches again; only peers' deliveries are checked against the sequence.
    guard delivery == .peer else { return true }
    guard let last = lastClientSeq[author] else {
      // The first change of this author here must be its first, unless a snapshot brought
      // this replica changes whose authors' sequences it does not know.
      if change.id.clientSeq > 1 && !loadedSnapshot {
        throw YorkieError(.changeNotReady, "change \(change.id.clientSeq) of \(author) is the first this replica sees of its author: apply its changes 1 to \(change.id.clientSeq - 1) first")
      }
      return try isCausallyReady(change)
    }
    if change.isPresenceOnly && change.id.clientSeq <= last { return false }
    if change.id.clientSeq > last + 1 {
      throw YorkieError(.changeNotReady, "change \(change.id.clientSeq) of \(author) comes before its change \(last + 1): apply the author's earlier changes first")
    }
    return try isCausallyReady(change)
  }

  /// True when this replica has applied every change that `change`'s version vector has seen
  /// (other than its author's own, which the client sequence checks); throws otherwise.
  private func isCausallyReady(_ change: Change) throws -> Bool {
    let author = change.id.actorID
    for (actor, lamport) in change.id.versionVector.storage where actor != author && actor != .initial {
      if lamport > (versionVector[actor] ?? 0) {
        throw YorkieError(.changeNotReady, "change \(change.id.clientSeq) of \(author) has seen changes of \(actor) up to lamport \(lamport) that this replica has not applied")
      }
    }
    return true
  }

  /// Replaces the content with a snapshot (Yorkie's snapshot path): the root and the presences
  /// are replaced, local changes the snapshot already holds are dropped and the others are
  /// applied again on top, the clocks advance past the snapshot's vector, and no garbage is
  /// collected. Nothing changes when the snapshot cannot be decoded or a local change cannot be
  /// applied on top of it.
  private func applySnapshot(_ data: Data, of pack: ChangePack, recordingTo recorder: (any ReplicaRecorder)?) throws -> [DocEvent] {
    let snapshot = try DocumentSnapshot(data: data)
    let newRoot = CRDTRoot(object: snapshot.root, treeGarbage: snapshot.treeGarbage)
    newRoot.adopt(snapshot.restores)
    let acknowledged = pack.checkpoint.clientSeq
    let kept = localChanges.filter { $0.id.clientSeq > acknowledged }
    var presences = snapshot.presences
    let replay = Journal()
    for change in kept {
      try Self.reapply(change, on: newRoot, journal: replay, presences: &presences)
    }
    try recorder?.record(.serverPack(pack))
    replay.commit()
    root = newRoot
    verifyInvariants(after: "loading a snapshot")
    localChanges = kept
    presenceMap = presences
    lastClientSeq = [:]
    loadedSnapshot = true
    changeID = changeID.synced(withSnapshotVector: pack.versionVector ?? VersionVector())
    checkpoint = checkpoint.forwarded(to: pack.checkpoint)
    var events: [DocEvent] = [.snapshot]
    // The steps name elements of the content the snapshot replaced (Yorkie clears them too).
    history.clear()
    publishHistoryState()
    if pack.isRemoved && status != .removed {
      status = .removed
      events.append(.statusChanged(.removed))
    }
    return events
  }

  /// Executes this replica's own `change` again on `root` (its operations, without infos) and
  /// its presence change on `presences`: how a snapshot keeps the pending local changes, and how
  /// a restore replays the recorded ones. The caller commits or drops `journal`.
  static func reapply(
    _ change: Change, on root: CRDTRoot, journal: Journal, presences: inout [ActorID: [String: JSONValue]]
  ) throws {
    root.ownChangeVector = change.id.versionVector
    for operation in change.operations {
      _ = try operation.execute(on: root, journal: journal, mode: .replay)
    }
    switch change.presenceChange {
    case .put(let data): presences[change.id.actorID] = data
    case .clear: presences[change.id.actorID] = nil
    case nil: break
    }
  }

  private func apply(_ change: Change, journal: Journal, describing: Bool) throws -> [DocEvent] {
    var infos: [OperationInfo] = []
    // Overwrites are looked for only when someone listens and this replica has edits the
    // change had not seen (most remote changes have seen them all: one comparison).
    let horizon = change.id.versionVector[changeID.actorID] ?? 0
    let watchesOverwrites = describing && editLog.newestLamport > horizon
    let mode = ExecutionMode.remote(versionVector: change.id.versionVector, describing: describing)
    var overwrites: [OverwriteNotice] = []
    for operation in change.operations {
      let candidate = watchesOverwrites ? overwriteCandidate(of: operation, horizon: horizon) : nil
      let result = try operation.execute(on: root, journal: journal, mode: mode)
      if describing { infos.append(contentsOf: result) }
      if let candidate, candidate.element.isRemoved {
        overwrites.append(
          OverwriteNotice(path: candidate.path, lostContent: candidate.content, actorID: change.id.actorID, operation: candidate.operation))
      }
    }
    var events: [DocEvent] = []
    if !change.operations.isEmpty {
      events.append(.remoteChange(ChangeEvent(actorID: change.id.actorID, message: change.message, operations: infos, clientSeq: change.id.clientSeq)))
    }
    events.append(contentsOf: overwrites.map(DocEvent.overwritten))
    let author = change.id.actorID
    // An earlier attachment's change of this actor (see `isNew`) leaves this presence alone.
    let presenceChange = author == changeID.actorID ? nil : change.presenceChange
    switch presenceChange {
    case .put(let data):
      let known = presenceMap[author] != nil
      presenceMap[author] = data
      if onlineClients.contains(author) {
        // A peer that was online without a presence becomes visible now.
        let peer = PeerPresence(actorID: author, presence: data)
        events.append(known ? .presenceChanged(peer) : .watched(peer))
      }
    case .clear:
      let old = presenceMap.removeValue(forKey: author)
      if onlineClients.remove(author) != nil {
        events.append(.unwatched(PeerPresence(actorID: author, presence: old ?? [:])))
      }
    case nil:
      break
    }
    changeID = changeID.synced(with: change.id)
    return events
  }
}
