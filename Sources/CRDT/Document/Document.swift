import Foundation

/// A collaborative JSON document: the unit that replicas edit and synchronize.
///
/// A document is an actor: every edit and every merge runs on it, one at a time, so apps may
/// use it from any task. It works with no client at all (change packs can travel by any
/// transport); attaching it to a `Client` makes it sync with a Yorkie server.
///
/// ```swift
/// let doc = Document(key: "notes")
/// try await doc.update { root, presence in
///   root["title"] = "Groceries"
///   try root.setNewArray("items").append("milk")
///   presence.set(["cursor": 0])
/// }
/// await doc.toJSON()   // {"title":"Groceries","items":["milk"]}
/// ```
public actor Document {
  /// The document's key, unique within a project.
  public nonisolated let key: String
  // @exclusivity(unchecked) on the actor's state: every method of the actor is synchronous (no
  // suspension point), and none holds a modifying access to a property while calling code that
  // could reach it again (the updater runs with proxies, which cannot call the actor; event
  // continuations only buffer). See the invariant on ``CRDTElement``. It pays on small updates:
  // `swift run -c release crdt-bench automerge_paper_per_change` (one update per keystroke)
  // takes 249 ms without it, 226 ms with. The sync bookkeeping added later (`lastClientSeq`,
  // `loadedSnapshot`) showed no difference and keeps the checked form.

  /// Whether the document is detached, attached or removed.
  @exclusivity(unchecked) public internal(set) var status: DocumentStatus = .detached

  @exclusivity(unchecked) package internal(set) var root = CRDTRoot()
  @exclusivity(unchecked) package internal(set) var changeID = ChangeID.initial
  @exclusivity(unchecked) package internal(set) var checkpoint = Checkpoint.initial
  @exclusivity(unchecked) package internal(set) var localChanges: [Change] = []
  @exclusivity(unchecked) package internal(set) var presenceMap: [ActorID: [String: JSONValue]] = [:]
  @exclusivity(unchecked) package internal(set) var onlineClients: Set<ActorID> = []
  /// The client sequence of the last change applied from each remote author: how
  /// ``applyChanges(_:)`` skips a presence-only change it has and notices a gap.
  package internal(set) var lastClientSeq: [ActorID: UInt32] = [:]
  /// Whether a snapshot replaced the content: the authors of the changes inside it are not
  /// in ``lastClientSeq``, so a first change seen from one of them may be a later one.
  var loadedSnapshot = false

  private struct Subscriber {
    let path: String?
    let continuation: AsyncStream<DocEvent>.Continuation
  }
  @exclusivity(unchecked) private var subscribers: [Int: Subscriber] = [:]
  /// Reused by every transaction so that its buffer is not allocated again each time.
  private let journal = Journal()
  @exclusivity(unchecked) private var nextSubscriberID = 0
  /// Called after every update that recorded a change: how a client learns, without a task
  /// hop, that there is something to push.
  private var localChangeObserver: (@Sendable () -> Void)?
  /// Keeps this replica's history durable (Document+Recording.swift); nil when nothing does.
  var recorder: (any ReplicaRecorder)?

  /// Creates an empty, detached document.
  public init(key: String) {
    self.key = key
  }

  // MARK: - Editing

  /// Edits the document atomically and returns what the updater returns.
  ///
  /// The updater receives the root object and this replica's presence. If it throws (or an
  /// invalid input was given to a setter that cannot throw), every edit it made is rolled back,
  /// no change is recorded, and the error is rethrown unchanged. An update that changes nothing
  /// records nothing.
  ///
  /// The updater is a `sending` closure: code on any actor (a `@MainActor` view model, for
  /// instance) can pass it, as long as it does not capture that actor's state. It runs on the
  /// document while the caller waits. To take something out of the update (a caret, a length),
  /// return it: the result must be `Sendable`, which keeps proxies inside.
  ///
  /// ```swift
  /// let caret = try await doc.update { root, _ in
  ///   try root.text("body")?.edit(0, 0, "Hi").0 ?? 0
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - message: a description stored with the change.
  ///   - updater: the edits. Proxies it receives are valid only while it runs.
  /// - Returns: the updater's result (after the change was recorded).
  @discardableResult
  public func update<Result: Sendable>(
    message: String? = nil, _ updater: sending (JSONObject, Presence) throws -> Result
  ) throws -> Result {
    guard status != .removed else {
      throw YorkieError(.documentRemoved, "document \(key) was removed and cannot be edited")
    }
    let context = UpdateContext(root: root, journal: journal, nextID: changeID.next(), wantsInfo: !subscribers.isEmpty)
    let presence = Presence(context: context, data: presenceMap[changeID.actorID] ?? [:])
    let result: Result
    do {
      result = try updater(JSONObject(context: context, object: root.object), presence)
      if let error = context.deferredError { throw error }
    } catch {
      context.isActive = false
      journal.rollBack(root)
      verifyInvariants(after: "a rolled-back update")
      throw error
    }
    context.isActive = false
    guard context.operationCount > 0 || presence.change != nil else {
      journal.commit()
      verifyInvariants(after: "an update")
      return result
    }
    let change: Change
    let presenceOnly = context.operationCount == 0
    if presenceOnly {
      change = Change(id: changeID.nextPresenceOnly(), operations: [], message: message, presenceChange: presence.change)
    } else {
      change = Change(id: context.nextID, operations: context.takeOperations(), message: message, presenceChange: presence.change)
    }
    if let recorder {
      // Recorded before it counts: a change its recorder refused (a full disk) is rolled back,
      // so that what the replica shows is always what it could store.
      do {
        try recorder.record(.localChange(change))
      } catch {
        journal.rollBack(root)
        verifyInvariants(after: "an update its recorder refused")
        throw error
      }
    }
    journal.commit()
    verifyInvariants(after: "an update")
    if presenceOnly {
      changeID.clientSeq += 1
    } else {
      changeID = context.nextID
    }
    let hasOperations = !change.operations.isEmpty
    let (author, clientSeq) = (change.id.actorID, change.id.clientSeq)
    localChanges.append(consume change)
    var events: [DocEvent] = []
    if hasOperations {
      events.append(.localChange(ChangeEvent(actorID: author, message: message, operations: context.infos, clientSeq: clientSeq)))
    }
    if let presenceChange = presence.change, case .put(let data) = presenceChange {
      presenceMap[changeID.actorID] = data
      if status == .attached {
        events.append(.presenceChanged(PeerPresence(actorID: changeID.actorID, presence: data)))
      }
    }
    emit(events)
    localChangeObserver?()
    return result
  }

  /// Sets (or, with nil, removes) the function called after every update that recorded a
  /// change. It runs on the document's executor and must return quickly (a client only wakes
  /// its sync loop there).
  package func setLocalChangeObserver(_ observer: (@Sendable () -> Void)?) {
    localChangeObserver = observer
  }

  /// Records the presence change "clear" that a client sends when it detaches: peers then drop
  /// this replica from their online lists. Records nothing when this replica has no presence.
  package func recordPresenceClear() {
    guard presenceMap[changeID.actorID] != nil else { return }
    let change = Change(id: changeID.nextPresenceOnly(), operations: [], message: nil, presenceChange: .clear)
    changeID.clientSeq += 1
    presenceMap[changeID.actorID] = nil
    localChanges.append(change)
  }

  /// The client sequence number of this replica's last change (0 before any): a change is
  /// acknowledged once ``checkpoint`` reaches it.
  package var lastLocalClientSeq: UInt32 { changeID.clientSeq }

  // MARK: - Reading

  /// The document as JSON, byte for byte as Yorkie's JS SDK prints it (no whitespace, members
  /// in creation order, JS number and string formatting).
  public func toJSON() -> String { root.object.toJSON() }

  /// The document as JSON with object keys sorted (UTF-16 order): the form to compare replicas
  /// with. As in the JS SDK, elements inside arrays are printed with ``toJSON()``.
  public func toSortedJSON() -> String {
    var writer = JSONWriter()
    root.object.writeJSON(into: &writer, sorted: true)
    return writer.output
  }

  /// The root object as a value.
  public var value: JSONValue { root.object.toJSONValue() }

  /// The value at a path such as `$.todos.0.title`, or nil when there is none.
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at the root (`$`).
  public func value(atPath path: String) throws -> JSONValue? {
    try root.object.descendant(atPath: path)?.toJSONValue()
  }

  /// The text at a path such as `$.notes.0.body`, as runs of equal attributes; nil when there is
  /// no element there or it is not a text.
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at the root (`$`).
  public func text(atPath path: String) throws -> TextValue? {
    (try root.object.descendant(atPath: path) as? CRDTText)?.textValue
  }

  /// Whether there are local changes the server has not acknowledged.
  public var hasLocalChanges: Bool { !localChanges.isEmpty }

  /// The document's version vector.
  public var versionVector: VersionVector { changeID.versionVector }

  /// This replica's actor ID (``ActorID/initial`` until ``setActor(_:)``).
  public var actorID: ActorID { changeID.actorID }

  /// The local changes not yet acknowledged, oldest first.
  public var pendingChanges: [Change] { localChanges }

  // MARK: - Garbage collection

  /// Tombstones and dead nodes not yet purged, counted as Yorkie counts them.
  public var garbageLength: Int { root.garbageLength }

  /// Purges every tombstone whose removal all replicas have seen, according to
  /// `minSyncedVersionVector` (an entry for the remover's actor at or past the removal's lamport).
  ///
  /// - Returns: the number of purged elements (with their descendants) and dead nodes.
  @discardableResult
  public func garbageCollect(minSyncedVersionVector: VersionVector) -> Int {
    defer { verifyInvariants(after: "garbage collection") }
    return root.garbageCollect(minSyncedVersionVector)
  }

  /// Sets the clocks to what a fresh replica would have right after loading this replica's own
  /// snapshot with its own version vector (``applyChangePack(_:)`` with a snapshot pack), so
  /// that this replica goes on exactly as that fresh one would. The server keeps a
  /// materialized document after storing its snapshot instead of decoding that snapshot again,
  /// and calls this to make the two interchangeable (the content already is: the snapshot holds
  /// all of it, tombstones and presences included).
  ///
  /// Only for a replica that never set its actor, made no change and has no subscriber.
  ///
  /// - Throws: ``YorkieError`` `invalidArgument` otherwise; nothing changes then.
  package func resetClocksAsLoadedFromOwnSnapshot() throws {
    guard changeID.actorID == .initial, changeID.clientSeq == 0, localChanges.isEmpty, subscribers.isEmpty else {
      throw YorkieError(.invalidArgument, "only a replica that never set its actor, made no change and has no subscriber can reset its clocks")
    }
    changeID = ChangeID.initial.synced(withSnapshotVector: changeID.versionVector)
    lastClientSeq = [:]
    loadedSnapshot = true
  }

  // MARK: - Identity

  /// Sets the actor that issues this replica's tickets. A client calls it when it attaches the
  /// document; replicas that sync by hand call it once, with ``ActorID/random()``, before they
  /// exchange changes.
  ///
  /// - While the replica still writes as ``ActorID/initial``, its local changes are re-issued
  ///   under the new actor (and the content rebuilt from them), so what it sends and what it
  ///   shows name the same tickets.
  /// - Once it has an actor, it may take another only while it has made no change and applied
  ///   none: peers know a replica's changes by its actor and client sequence.
  ///
  /// - Throws: ``YorkieError`` `actorNotSet` when the actor cannot change (see above), or
  ///   `invalidActorID` for ``ActorID/initial``. Nothing changes then.
  public func setActor(_ actorID: ActorID) throws {
    let old = changeID.actorID
    guard old != actorID else { return }
    guard actorID != .initial else {
      throw YorkieError(.invalidActorID, "a replica cannot go back to writing as the initial actor")
    }
    if old == .initial && !localChanges.isEmpty {
      guard checkpoint == .initial && lastClientSeq.isEmpty else {
        throw YorkieError(.actorNotSet, "the replica applied remote changes while writing as the initial actor; its local changes cannot be re-issued under \(actorID)")
      }
      let renamed = localChanges.map { $0.replacingActor(old, with: actorID) }
      let rebuilt = CRDTRoot()
      let replay = Journal()
      do {
        for change in renamed {
          for operation in change.operations {
            _ = try operation.execute(on: rebuilt, journal: replay, wantsInfo: false)
          }
        }
      } catch {
        throw YorkieError(.actorNotSet, "the local changes could not be re-issued under \(actorID)", underlying: error)
      }
      replay.commit()
      localChanges = renamed
      root = rebuilt
      verifyInvariants(after: "setActor")
    } else if old != .initial && (changeID.clientSeq > 0 || !lastClientSeq.isEmpty || checkpoint != .initial) {
      // Peers know this replica's changes by its actor and client sequence, and its version
      // vector names the changes it has: renaming either would make peers and this replica
      // refuse each other's next changes.
      throw YorkieError(.actorNotSet, "the replica already exchanged changes as \(old); it cannot take another actor (make a new Document for \(actorID))")
    }
    if let presence = presenceMap.removeValue(forKey: old) { presenceMap[actorID] = presence }
    changeID = changeID.replacingActor(old, with: actorID)
  }

  /// Marks the document attached, detached or removed, with a ``DocEvent/statusChanged(_:)``
  /// event. A client calls it; a transport of the app's own calls it when its peers are
  /// connected (``myPresence`` and ``presences`` show this replica only while attached).
  public func setStatus(_ newStatus: DocumentStatus) {
    guard status != newStatus else { return }
    status = newStatus
    emit([.statusChanged(newStatus)])
  }

  // MARK: - Presence

  /// This replica's presence; `[:]` while detached, as in Yorkie.
  public var myPresence: [String: JSONValue] {
    guard status == .attached else { return [:] }
    return presenceMap[changeID.actorID] ?? [:]
  }

  /// The presence of an online peer (or of this replica).
  public func presence(of actorID: ActorID) -> [String: JSONValue]? {
    if actorID == changeID.actorID { return myPresence }
    guard onlineClients.contains(actorID) else { return nil }
    return presenceMap[actorID]
  }

  /// This replica and every online peer that has a presence.
  public var presences: [(actorID: ActorID, presence: [String: JSONValue])] {
    var result: [(actorID: ActorID, presence: [String: JSONValue])] = []
    if status == .attached { result.append((changeID.actorID, presenceMap[changeID.actorID] ?? [:])) }
    for actor in onlineClients.sorted() where actor != changeID.actorID {
      if let presence = presenceMap[actor] { result.append((actor, presence)) }
    }
    return result
  }

  /// Replaces the set of online peers (a client does it when its watch stream starts; a
  /// transport of the app's own when it learns who is connected). Only online peers' presences
  /// are visible through ``presence(of:)`` and ``presences``.
  public func setOnlineClients(_ clients: Set<ActorID>) {
    onlineClients = clients
  }

  /// Marks one peer online or offline (a client does it on watched and unwatched events).
  public func setOnline(_ actorID: ActorID, _ online: Bool) {
    if online { onlineClients.insert(actorID) } else { onlineClients.remove(actorID) }
  }

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
    try integrate(changes, checksCausality: true)
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
      try integrate(pack.changes, checksCausality: true)
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
    var events = try integrate(pack.changes, checksCausality: false, emitting: false, recording: recorder.map { ($0, pack) })
    dropAcknowledged(through: pack.checkpoint.clientSeq)
    checkpoint = checkpoint.forwarded(to: pack.checkpoint)
    if let vector = pack.versionVector {
      _ = root.garbageCollect(vector)
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
    if let firstKept = localChanges.firstIndex(where: { $0.id.clientSeq > clientSeq }) {
      localChanges.removeFirst(firstKept)
    } else {
      localChanges.removeAll()
    }
  }

  /// Applies `changes` in order as one transaction, skipping those already integrated.
  /// Returns the events (and emits them unless told not to).
  @discardableResult
  private func integrate(
    _ changes: [Change], checksCausality: Bool, emitting: Bool = true,
    recording: (recorder: any ReplicaRecorder, pack: ChangePack)? = nil
  ) throws -> [DocEvent] {
    let savedChangeID = changeID
    let savedPresence = presenceMap
    let savedOnline = onlineClients
    let savedSeqs = lastClientSeq
    let wantsInfo = !subscribers.isEmpty
    var events: [DocEvent] = []
    do {
      // The causal checks read each author's last sequence, so they write it at once; a
      // server's answer (often a long run of one author's changes) writes it once per run.
      var run: (author: ActorID, clientSeq: UInt32)?
      for change in changes {
        guard try isNew(change, checksCausality: checksCausality) else { continue }
        events.append(contentsOf: try apply(change, journal: journal, wantsInfo: wantsInfo))
        if checksCausality {
          lastClientSeq[change.id.actorID] = change.id.clientSeq
        } else {
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
  private func isNew(_ change: Change, checksCausality: Bool) throws -> Bool {
    let author = change.id.actorID
    if author == .initial {
      throw YorkieError(.actorConflict, "change \(change.id.clientSeq) was made by a replica that never set its actor (ActorID.initial)")
    }
    if author == changeID.actorID {
      guard checksCausality else {
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
    guard checksCausality else { return true }
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
    let newRoot = CRDTRoot(object: snapshot.root)
    let acknowledged = pack.checkpoint.clientSeq
    let kept = localChanges.filter { $0.id.clientSeq > acknowledged }
    var presences = snapshot.presences
    let replay = Journal()
    for change in kept {
      for operation in change.operations {
        _ = try operation.execute(on: newRoot, journal: replay, wantsInfo: false)
      }
      switch change.presenceChange {
      case .put(let data): presences[change.id.actorID] = data
      case .clear: presences[change.id.actorID] = nil
      case nil: break
      }
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
    if pack.isRemoved && status != .removed {
      status = .removed
      events.append(.statusChanged(.removed))
    }
    return events
  }

  /// The document in Yorkie's binary `Snapshot` encoding: the root with its tombstones and every
  /// known presence. A fresh document (or any replica) loads it with a change pack that carries it.
  public func snapshot() -> Data {
    DocumentSnapshot(root: root.object, presences: presenceMap).encoded
  }

  /// The bytes of ``snapshot()``, and the part of them that encodes the root (the snapshot's
  /// first field).
  ///
  /// - Parameter rootField: The root's part from an earlier call, reused as is: only when the
  ///   root has not changed since (no operation applied, no garbage purged, no snapshot
  ///   loaded: presences may have changed). The server's materialized documents pass it
  ///   between attaches that add nothing but a presence.
  package func snapshotBytes(reusingRootField rootField: [UInt8]? = nil) -> (bytes: [UInt8], rootField: [UInt8]) {
    let root = rootField ?? DocumentSnapshot.rootField(self.root.object)
    return (root + DocumentSnapshot(root: self.root.object, presences: presenceMap).presenceFields, root)
  }

  private func apply(_ change: Change, journal: Journal, wantsInfo: Bool) throws -> [DocEvent] {
    var infos: [OperationInfo] = []
    for operation in change.operations {
      let result = try operation.execute(on: root, journal: journal, wantsInfo: wantsInfo, versionVector: change.id.versionVector)
      if wantsInfo { infos.append(contentsOf: result) }
    }
    var events: [DocEvent] = []
    if !change.operations.isEmpty {
      events.append(.remoteChange(ChangeEvent(actorID: change.id.actorID, message: change.message, operations: infos, clientSeq: change.id.clientSeq)))
    }
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

  // MARK: - Events

  /// A stream of everything that happens to this document, in order. Each call makes a new
  /// subscription; cancelling the consuming task ends it. Buffering is unbounded.
  public func events() -> AsyncStream<DocEvent> { subscribe(path: nil) }

  /// Change events whose operations touch `path` or an element below it, with the operations
  /// narrowed to those. An operation's path is its container's path, as in Yorkie.
  public func events(at path: String) -> AsyncStream<DocEvent> { subscribe(path: path) }

  private func subscribe(path: String?) -> AsyncStream<DocEvent> {
    let (stream, continuation) = AsyncStream<DocEvent>.makeStream()
    let id = nextSubscriberID
    nextSubscriberID += 1
    subscribers[id] = Subscriber(path: path, continuation: continuation)
    continuation.onTermination = { [weak self] _ in
      Task { await self?.unsubscribe(id) }
    }
    return stream
  }

  private func unsubscribe(_ id: Int) {
    subscribers[id] = nil
  }

  /// Delivers events to every subscriber (the client uses it for connection and sync events).
  package func emit(_ events: [DocEvent]) {
    guard !events.isEmpty, !subscribers.isEmpty else { return }
    for subscriber in subscribers.values {
      for event in events {
        if let path = subscriber.path {
          if let narrowed = Document.narrow(event, to: path) { subscriber.continuation.yield(narrowed) }
        } else {
          subscriber.continuation.yield(event)
        }
      }
    }
  }

  private static func narrow(_ event: DocEvent, to path: String) -> DocEvent? {
    func matches(_ info: OperationInfo) -> Bool {
      info.path == path || info.path.hasPrefix(path + ".")
    }
    switch event {
    case .localChange(var change):
      change.operations = change.operations.filter(matches)
      return change.operations.isEmpty ? nil : .localChange(change)
    case .remoteChange(var change):
      change.operations = change.operations.filter(matches)
      return change.operations.isEmpty ? nil : .remoteChange(change)
    default:
      return nil
    }
  }

  // MARK: - Checks

  /// Enters every text's pending insertion lookups in its table now (they are otherwise entered
  /// when first needed): benchmarks time this deferred work and report memory after it.
  package func enterPendingTextLookups() {
    root.forEachContainer { ($0 as? CRDTText)?.enterPendingFirstPieces() }
  }

  /// Enters every array's recently linked positions in its lookup table now (they are
  /// otherwise entered when first needed): benchmarks time this with the edits.
  package func enterPendingArrayLookups() {
    root.forEachContainer { ($0 as? CRDTArray)?.enterPendingLookups() }
  }

  /// Bytes held by the texts of the document (benchmarks report it as retained memory).
  package var textMemoryFootprint: Int {
    var total = 0
    root.object.forEachDescendant { if let text = $0 as? CRDTText { total += text.memoryFootprint } }
    return total
  }

  /// ``textMemoryFootprint`` per structure, summed over the texts.
  package var textMemoryBreakdown: [(name: String, bytes: Int)] {
    var total: [(name: String, bytes: Int)] = []
    root.object.forEachDescendant {
      guard let text = $0 as? CRDTText else { return }
      for (i, part) in text.memoryBreakdown.enumerated() {
        if i < total.count { total[i].bytes += part.bytes } else { total.append(part) }
      }
    }
    return total
  }

  /// Bytes held by the document's GC pair store (the garbage bookkeeping for removed text
  /// pieces, attributes and array positions), outside the texts.
  package var gcMemoryFootprint: Int { root.gcPairMemoryFootprint }

  /// A dump of the pieces of the text at `path` (debugging aid for tests).
  package func debugPieces(_ path: String) -> String {
    var current: CRDTElement = root.object
    for part in path.split(separator: ".").dropFirst() {
      guard let object = current as? CRDTObject, let child = object.get(String(part)) else { return "?" }
      current = child
    }
    guard let text = current as? CRDTText else { return "not a text" }
    return text.pieces.map { handle in
      let node = text.nodes[Int(handle)]
      let attrs = text.attributes(of: handle)?.entries.map { "\($0.key)=\($0.value)@\($0.updatedAt)\($0.isRemoved ? "x" : "")" }.joined(separator: ",") ?? ""
      return "[\(node.id) \(text.content(of: handle).debugDescription) r\(node.removedAt.map { "\($0)" } ?? "") {\(attrs)}]"
    }.joined(separator: "\n")
  }

  /// A dump of the positions of the array at `path` (debugging aid for tests).
  package func debugPositions(_ path: String) -> String {
    var current: CRDTElement = root.object
    for part in path.split(separator: ".").dropFirst() {
      guard let object = current as? CRDTObject, let child = object.get(String(part)) else { return "?" }
      current = child
    }
    guard let array = current as? CRDTArray else { return "not an array" }
    return array.allNodes.map { node in
      let element = node.element.map { "\($0.createdAt)\($0.isRemoved ? "x" : "")" } ?? "-"
      return "[\(node.id) \(element) m\(node.movedAt.map { "\($0)" } ?? "") r\(node.removedAt.map { "\($0)" } ?? "")]"
    }.joined(separator: "\n")
  }

  /// With `CRDT_INTERNAL_CHECKS` (tests and CI build with it; release builds never do):
  /// verifies every invariant after a mutation of the document and stops at the first
  /// violation, naming the step. Every public call that mutates the document ends here, on
  /// success and after a rollback.
  @inline(__always) func verifyInvariants(after step: @autoclosure () -> String) {
    #if CRDT_INTERNAL_CHECKS
    if let problem = checkInvariants() {
      preconditionFailure("CRDT invariant broken after \(step()) of document \(key): \(problem)")
    }
    #endif
  }

  /// Verifies the invariants of every array and text in the document, and the text garbage
  /// bookkeeping (`CRDTRoot.checkGarbageInvariants()`); returns the first violation.
  /// Tests call it after every step.
  package func checkInvariants() -> String? {
    var problem: String? = root.object.checkInvariants().map { "root object: \($0)" }
    root.object.forEachDescendant { element in
      guard problem == nil else { return }
      if let array = element as? CRDTArray, let found = array.checkInvariants() {
        problem = "array \(array.createdAt): \(found)"
      }
      if let object = element as? CRDTObject, let found = object.checkInvariants() {
        problem = "object \(object.createdAt): \(found)"
      }
      if let text = element as? CRDTText, let found = text.checkInvariants() {
        problem = "text \(text.createdAt): \(found)"
      }
      if !(element is CRDTPrimitive), root.element(element.createdAt) == nil {
        problem = "element \(element.createdAt) is in the tree but not in the registry"
      }
    }
    return problem ?? root.checkGarbageInvariants()
  }
}
