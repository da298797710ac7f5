/// Whether a document is connected to a server's copy.
public enum DocumentStatus: Sendable, Equatable {
  /// Not attached: edits stay local.
  case detached
  /// Attached to a client: edits sync.
  case attached
  /// Removed from the server: edits are refused.
  case removed
}

/// A peer and its presence.
public struct PeerPresence: Sendable, Equatable {
  /// The peer's actor (client) ID.
  public var actorID: ActorID
  /// The peer's presence.
  public var presence: [String: JSONValue]

  /// Creates a peer entry.
  public init(actorID: ActorID, presence: [String: JSONValue]) {
    self.actorID = actorID
    self.presence = presence
  }
}

/// A change as change listeners see it.
public struct ChangeEvent: Sendable, Equatable {
  /// The author.
  public var actorID: ActorID
  /// The message given to `update`, if any.
  public var message: String?
  /// What the change did, in order.
  public var operations: [OperationInfo]
  /// The author's client sequence number of the change.
  public var clientSeq: UInt32

  /// Creates a change event.
  public init(actorID: ActorID, message: String?, operations: [OperationInfo], clientSeq: UInt32) {
    self.actorID = actorID
    self.message = message
    self.operations = operations
    self.clientSeq = clientSeq
  }
}

/// Something that happened to a document. Delivered in order through ``Document/events()``.
public enum DocEvent: Sendable, Equatable {
  /// A local update changed the document.
  case localChange(ChangeEvent)
  /// A remote change was applied.
  case remoteChange(ChangeEvent)
  /// A snapshot replaced the document's content.
  case snapshot
  /// The document was attached, detached or removed.
  case statusChanged(DocumentStatus)
  /// The watch stream started: the peers online with their presences.
  case initialized([PeerPresence])
  /// A peer came online.
  case watched(PeerPresence)
  /// A peer went offline.
  case unwatched(PeerPresence)
  /// Whether this replica can undo or redo changed (an update, an undo, a redo,
  /// ``Document/clearHistory()``, or a snapshot that cleared the history): what an app's Undo
  /// and Redo buttons follow. Sent after the change's own events; never narrowed to a path.
  case historyChanged(HistoryState)
  /// A peer (or this replica) changed its presence.
  case presenceChanged(PeerPresence)
  /// A remote change replaced or removed an element that held edits of this replica the
  /// change's author had not seen: what this replica showed of it, gone from the document.
  /// Comes right after the ``remoteChange(_:)`` that did it.
  case overwritten(OverwriteNotice)
}

/// An element with this replica's edits in it that a concurrent remote change replaced (a set
/// of the same key, an array set) or removed: the edits are no longer part of the document,
/// on any replica. The app may show them again, or redo them on the new element.
///
/// Two clients that each create a text under the same key (say, "if the note is missing,
/// create it") and type into it: the later creation wins, as in every Yorkie SDK, and the
/// other client gets this event with its typing in ``lostContent``.
public struct OverwriteNotice: Sendable, Equatable {
  /// Where the element was: `$.note`, `$.todos.2` (its index just before).
  public var path: String
  /// The element as this replica showed it just before: plain JSON, a text as its JSON.
  public var lostContent: JSONValue
  /// The author of the change that replaced or removed it.
  public var actorID: ActorID
  /// How: ``OperationInfo/Kind/set`` (the key was set again), ``OperationInfo/Kind/arraySet``
  /// or ``OperationInfo/Kind/remove``.
  public var operation: OperationInfo.Kind

  /// Creates a notice.
  public init(path: String, lostContent: JSONValue, actorID: ActorID, operation: OperationInfo.Kind) {
    self.path = path
    self.lostContent = lostContent
    self.actorID = actorID
    self.operation = operation
  }
}

// MARK: - Descriptions

extension ActorID {
  /// `…` and the last six hex digits: enough to tell clients apart in a log (a server-issued ID
  /// starts with a timestamp, so its tail is what differs).
  package var abbreviated: String { "…" + hex.suffix(6) }
}

extension PeerPresence: CustomStringConvertible {
  /// The abbreviated actor and the presence with its keys sorted: `…a1b2c3 {"name":"ann"}`.
  public var description: String { "\(actorID.abbreviated) \(JSONValue.sortedJSON(presence))" }
}

extension ChangeEvent: CustomStringConvertible {
  /// The abbreviated author, the number of operations, the client sequence number and the
  /// message if any: `actor …a1b2c3, 3 ops, seq 5, "add todo"`. Each operation describes
  /// itself (see ``OperationInfo``).
  public var description: String {
    let count = operations.count
    var text = "actor \(actorID.abbreviated), \(count) op\(count == 1 ? "" : "s"), seq \(clientSeq)"
    if let message { text += ", " + JSONValue.string(message).jsonString }
    return text
  }
}

extension DocEvent: CustomStringConvertible {
  /// The case name with a short payload: `remoteChange(actor …a1b2c3, 3 ops, seq 5)`,
  /// `statusChanged(attached)`, `watched(…a1b2c3 {"name":"ann"})`.
  public var description: String {
    switch self {
    case .localChange(let change): return "localChange(\(change))"
    case .remoteChange(let change): return "remoteChange(\(change))"
    case .snapshot: return "snapshot"
    case .statusChanged(let status): return "statusChanged(\(status))"
    case .initialized(let peers): return "initialized([\(peers.map(\.description).joined(separator: ", "))])"
    case .watched(let peer): return "watched(\(peer))"
    case .unwatched(let peer): return "unwatched(\(peer))"
    case .presenceChanged(let peer): return "presenceChanged(\(peer))"
    case .overwritten(let notice): return "overwritten(\(notice))"
    case .historyChanged(let state): return "historyChanged(canUndo: \(state.canUndo), canRedo: \(state.canRedo))"
    }
  }
}

extension OverwriteNotice: CustomStringConvertible {
  /// `$.note by …a1b2c3 (set), lost ["Hello"]`.
  public var description: String {
    "\(path) by \(actorID.abbreviated) (\(operation)), lost \(lostContent.jsonString)"
  }
}
