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
  /// Whether the document is detached, attached or removed.
  @exclusivity(unchecked) public private(set) var status: DocumentStatus = .detached

  @exclusivity(unchecked) package private(set) var root = CRDTRoot()
  @exclusivity(unchecked) package private(set) var changeID = ChangeID.initial
  @exclusivity(unchecked) package private(set) var checkpoint = Checkpoint.initial
  @exclusivity(unchecked) package private(set) var localChanges: [Change] = []
  @exclusivity(unchecked) package private(set) var presenceMap: [ActorID: [String: JSONValue]] = [:]
  @exclusivity(unchecked) package private(set) var onlineClients: Set<ActorID> = []

  private struct Subscriber {
    let path: String?
    let continuation: AsyncStream<DocEvent>.Continuation
  }
  @exclusivity(unchecked) private var subscribers: [Int: Subscriber] = [:]
  /// Reused by every transaction so that its buffer is not allocated again each time.
  private let journal = Journal()
  @exclusivity(unchecked) private var nextSubscriberID = 0

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
      throw error
    }
    context.isActive = false
    journal.commit()
    guard context.operationCount > 0 || presence.change != nil else { return result }

    let change: Change
    if context.operationCount == 0 {
      change = Change(id: changeID.nextPresenceOnly(), operations: [], message: message, presenceChange: presence.change)
      changeID.clientSeq += 1
    } else {
      change = Change(id: context.nextID, operations: context.takeOperations(), message: message, presenceChange: presence.change)
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
    return result
  }

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
  public func value(atPath path: String) -> JSONValue? {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.first == "$" else { return nil }
    var current: CRDTElement = root.object
    for part in parts.dropFirst() {
      if let object = current as? CRDTObject {
        guard let child = object.get(String(part)) else { return nil }
        current = child
      } else if let array = current as? CRDTArray {
        guard let index = Int(part), index >= 0, let child = array.element(at: index) else { return nil }
        current = child
      } else {
        return nil
      }
    }
    return current.toJSONValue()
  }

  /// The text at a path such as `$.notes.0.body`, as runs of equal attributes; nil when there is
  /// no element there or it is not a text.
  public func text(atPath path: String) -> TextValue? {
    (root.object.descendant(atPath: path) as? CRDTText)?.textValue
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
    root.garbageCollect(minSyncedVersionVector)
  }

  // MARK: - Identity

  /// Sets the actor that issues this replica's tickets. The client calls it on attach; tests
  /// use it to make replicas.
  ///
  /// Local changes made before (as ``ActorID/initial``) are re-issued under the new actor, so
  /// the pushed changes and this replica's content name the same tickets.
  public func setActor(_ actorID: ActorID) {
    let old = changeID.actorID
    guard old != actorID else { return }
    if !localChanges.isEmpty && checkpoint == .initial {
      localChanges = localChanges.map { $0.replacingActor(old, with: actorID) }
      let rebuilt = CRDTRoot()
      let journal = Journal()
      for change in localChanges {
        for operation in change.operations {
          _ = try? operation.execute(on: rebuilt, journal: journal, wantsInfo: false)
        }
      }
      root = rebuilt
    }
    if let presence = presenceMap.removeValue(forKey: old) { presenceMap[actorID] = presence }
    changeID = changeID.replacingActor(old, with: actorID)
  }

  /// Marks the document attached, detached or removed (the client calls it).
  package func setStatus(_ newStatus: DocumentStatus) {
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

  /// Replaces the set of online peers (the watch stream's initialization).
  package func setOnlineClients(_ clients: Set<ActorID>) {
    onlineClients = clients
  }

  /// Adds or removes one online peer (watched / unwatched events).
  package func setOnline(_ actorID: ActorID, _ online: Bool) {
    if online { onlineClients.insert(actorID) } else { onlineClients.remove(actorID) }
  }

  // MARK: - Sync

  /// The local changes not yet acknowledged, with the checkpoint and version vector to send.
  public func createChangePack() -> ChangePack {
    let cp = Checkpoint(serverSeq: checkpoint.serverSeq, clientSeq: checkpoint.clientSeq + UInt32(localChanges.count))
    return ChangePack(key: key, checkpoint: cp, changes: localChanges, versionVector: changeID.versionVector)
  }

  /// Applies remote changes, acknowledges local changes up to the pack's checkpoint, forwards
  /// the checkpoint and collects garbage with the pack's version vector.
  ///
  /// Atomic: if any change cannot be applied (it names an element this replica does not have),
  /// nothing of the pack is applied and the error is thrown. Events are emitted after the
  /// whole pack has been applied, in apply order.
  public func applyChangePack(_ pack: ChangePack) throws {
    guard pack.key.isEmpty || pack.key == key else {
      throw YorkieError(.invalidChangePack, "a change pack of document \"\(pack.key)\" cannot be applied to document \"\(key)\"")
    }
    if let snapshot = pack.snapshot, !snapshot.isEmpty {
      try applySnapshot(snapshot, of: pack)
      return
    }
    let savedChangeID = changeID
    let savedPresence = presenceMap
    let savedOnline = onlineClients
    let wantsInfo = !subscribers.isEmpty
    var events: [DocEvent] = []
    do {
      for change in pack.changes {
        events.append(contentsOf: try apply(change, journal: journal, wantsInfo: wantsInfo))
      }
    } catch {
      journal.rollBack(root)
      changeID = savedChangeID
      presenceMap = savedPresence
      onlineClients = savedOnline
      throw error
    }
    journal.commit()
    let acknowledged = pack.checkpoint.clientSeq
    if let firstKept = localChanges.firstIndex(where: { $0.id.clientSeq > acknowledged }) {
      localChanges.removeFirst(firstKept)
    } else {
      localChanges.removeAll()
    }
    checkpoint = checkpoint.forwarded(to: pack.checkpoint)
    if let vector = pack.versionVector {
      _ = root.garbageCollect(vector)
    }
    if pack.isRemoved && status != .removed {
      status = .removed
      events.append(.statusChanged(.removed))
    }
    emit(events)
  }

  /// Replaces the content with a snapshot (Yorkie's snapshot path): the root and the presences
  /// are replaced, local changes the snapshot already holds are dropped and the others are
  /// applied again on top, the clocks advance past the snapshot's vector, and no garbage is
  /// collected. Nothing changes when the snapshot cannot be decoded or a local change cannot be
  /// applied on top of it.
  private func applySnapshot(_ data: Data, of pack: ChangePack) throws {
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
    replay.commit()
    root = newRoot
    localChanges = kept
    presenceMap = presences
    changeID = changeID.synced(withSnapshotVector: pack.versionVector ?? VersionVector())
    checkpoint = checkpoint.forwarded(to: pack.checkpoint)
    var events: [DocEvent] = [.snapshot]
    if pack.isRemoved && status != .removed {
      status = .removed
      events.append(.statusChanged(.removed))
    }
    emit(events)
  }

  /// The document in Yorkie's binary `Snapshot` encoding: the root with its tombstones and every
  /// known presence. A fresh document (or any replica) loads it with a change pack that carries it.
  public func snapshot() -> Data {
    DocumentSnapshot(root: root.object, presences: presenceMap).encoded
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
    switch change.presenceChange {
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
