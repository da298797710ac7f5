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
  // continuations only buffer; a ``ReplicaRecorder`` is called with values, not with inout
  // access, and can reach the document only by awaiting it, which it cannot do from its
  // synchronous call). The setters are `internal` so that this type's extension files
  // (Document+Sync, Document+Recording, …) can write the state; the rule binds them the same
  // way, and their paths run under AddressSanitizer with every invariant checked after each step
  // in `.ci/run` (CRDTTests, RecordingTests among them). See the invariant on ``CRDTElement``. It pays on small updates:
  // `swift run -c release crdt-bench automerge_paper_per_change` (one update per keystroke)
  // takes 249 ms without it, 226 ms with (re-measured 26 Nov after issue 14, three runs each of
  // the case's median of 3, same host, all ten attributes removed for the comparison: 225.0–230.3
  // ms without, 218.0–220.2 ms with). The sync bookkeeping added later (`lastClientSeq`,
  // `loadedSnapshot`) showed no difference and keeps the checked form.

  /// Whether the document is detached, attached or removed.
  @exclusivity(unchecked) public internal(set) var status: DocumentStatus = .detached
  /// Why the client's attachment ended (see ``endAttachment(_:removed:)``): while set, updates
  /// are refused. Nil for a document never attached, or attached now.
  var attachmentEnding: String?

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

  /// Whether anyone listens to events: what decides whether a step builds their infos.
  var hasSubscribers: Bool { !subscribers.isEmpty }

  private struct Subscriber {
    let path: String?
    let continuation: AsyncStream<DocEvent>.Continuation
  }
  @exclusivity(unchecked) private var subscribers: [Int: Subscriber] = [:]
  /// Reused by every transaction so that its buffer is not allocated again each time.
  let journal = Journal()
  @exclusivity(unchecked) private var nextSubscriberID = 0
  /// Called after every update that recorded a change: how a client learns, without a task
  /// hop, that there is something to push.
  private var localChangeObserver: (@Sendable () -> Void)?
  /// Keeps this replica's history durable (Document+Recording.swift); nil when nothing does.
  var recorder: (any ReplicaRecorder)?
  /// What this replica's recent changes edited, for ``DocEvent/overwritten(_:)``.
  var editLog = LocalEditLog()
  #if CRDT_INTERNAL_CHECKS
  /// The undo and redo stacks (Document+History.swift), with every access checked at run time:
  /// the build `.ci/run` tests under AddressSanitizer enforces the invariant stated below.
  var history = History()
  #else
  /// The undo and redo stacks (Document+History.swift). An update accesses them once
  /// (``History/recordUpdate(operations:recording:)``), and that access is not checked at run
  /// time (a thread-local lookup per access: `history_interleaved` in Benchmarks/history.md).
  /// Invariant, as for the elements (see ``CRDTElement``): the document's actor owns them, no
  /// ``History`` method calls code outside it (the closures it takes are its own callers', which
  /// never touch the history: pruning's visit, the removed-text reader), and an undo reads them
  /// from its closures only while no modifying access is open. The build with
  /// `CRDT_INTERNAL_CHECKS` checks every access, and `.ci/run` runs the suites in it, under
  /// AddressSanitizer: an access that broke the invariant there stops the run.
  @exclusivity(unchecked) var history = History()
  #endif
  /// Whether updates record undo steps: always, but for benchmarks that compare against no
  /// history (``init(key:recordingHistory:)``). A constant: read per update without an access check.
  let recordsHistory: Bool
  /// Who follows ``historyStates()``.
  var historySubscribers: [Int: AsyncStream<HistoryState>.Continuation] = [:]

  /// Creates an empty, detached document.
  public init(key: String) {
    self.key = key
    recordsHistory = true
  }

  /// Creates an empty, detached document that records no undo steps when `recordingHistory`
  /// is false: only for benchmarks measuring what the history costs (``undo()`` then always
  /// throws `nothingToUndo`).
  package init(key: String, recordingHistory: Bool) {
    self.key = key
    recordsHistory = recordingHistory
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
    if let ending = attachmentEnding {
      throw YorkieError(
        .documentDetached,
        "document \"\(key)\" is no longer attached (\(ending)): an edit would reach no one; attach a new Document with this key")
    }
    let context = UpdateContext(root: root, journal: journal, nextID: changeID.next(), describing: !subscribers.isEmpty,
                                recordsHistory: recordsHistory)
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
    try commitLocal(context, presence: presence, message: message, kind: .update)
    return result
  }

  /// What a local change is, for the history: an update (its step goes on the undo stack and
  /// empties the redo stack), an undo (its step goes on the redo stack) or a redo (back on
  /// the undo stack, the redo stack kept).
  enum LocalChangeKind {
    case update, undo, redo
  }

  /// Records the change that `context` executed (with the presence `presence` set), or rolls
  /// it back when its recorder refuses it; emits its events. Nothing is recorded for a context
  /// that changed nothing.
  /// Returns whether a change was recorded.
  @discardableResult
  func commitLocal(_ context: UpdateContext, presence: Presence, message: String?, kind: LocalChangeKind) throws -> Bool {
    context.isActive = false
    guard context.operationCount > 0 || presence.change != nil else {
      journal.commit()
      verifyInvariants(after: "an update")
      return false
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
    if hasOperations, let first = context.firstEdited {
      editLog.record(lamport: change.id.lamport, first: first.createdAt, later: context.laterEdited)
    }
    let historyState = recordHistory(of: change, context: context, kind: kind)
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
    if let historyState { publish(historyState) }
    localChangeObserver?()
    return true
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
          rebuilt.ownChangeVector = change.id.versionVector
          for operation in change.operations {
            _ = try operation.execute(on: rebuilt, journal: replay, mode: .replay)
          }
        }
      } catch {
        throw YorkieError(.actorNotSet, "the local changes could not be re-issued under \(actorID)", underlying: error)
      }
      replay.commit()
      localChanges = renamed
      editLog.removeAll()
      for change in renamed where !change.operations.isEmpty { editLog.record(change) }
      root = rebuilt
      // The steps name the old actor's tickets: they cannot be undone on the rebuilt content.
      history.clear()
      publishHistoryState()
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
  /// Marking it attached lifts the refusal of edits that ``endAttachment(_:)`` began.
  public func setStatus(_ newStatus: DocumentStatus) {
    if newStatus == .attached { attachmentEnding = nil }
    guard status != newStatus else { return }
    status = newStatus
    emit([.statusChanged(newStatus)])
  }

  /// Ends the document's attachment to its client, saying why (`"the client was
  /// deactivated"`): the status becomes `detached` (or `removed`, with `removed`), and from now
  /// on ``update(message:_:)`` throws `documentDetached` instead of applying edits that would
  /// reach no one. Reading goes on; ``setStatus(_:)`` with `attached` (a new attachment) lifts
  /// the refusal, and so does a reset to a fresh document.
  package func endAttachment(_ reason: String, removed: Bool = false) {
    attachmentEnding = reason
    setStatus(removed ? .removed : .detached)
  }

  /// Accepts edits again after ``endAttachment(_:removed:)``: a client attaches the document
  /// anew (one whose earlier attachment never reached a server), and its edits will sync.
  package func reopenForAttach() {
    attachmentEnding = nil
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
    let id = nextSubscriptionID()
    subscribers[id] = Subscriber(path: path, continuation: continuation)
    continuation.onTermination = { [weak self] _ in
      Task { await self?.unsubscribe(id) }
    }
    return stream
  }

  /// A subscription number no other subscription of this document has.
  func nextSubscriptionID() -> Int {
    defer { nextSubscriberID += 1 }
    return nextSubscriberID
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
    case .overwritten(let notice):
      // The lost element is at or below the path, or the path was inside it.
      let related = notice.path == path || notice.path.hasPrefix(path + ".") || path.hasPrefix(notice.path + ".")
      return related ? event : nil
    case .snapshot, .statusChanged, .initialized, .watched, .unwatched, .presenceChanged:
      return nil
    }
  }
}
