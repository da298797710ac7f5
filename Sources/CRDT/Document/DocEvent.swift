/// Whether a document is connected to a server's copy.
public enum DocumentStatus: Sendable, Equatable {
  /// Not attached: edits stay local.
  case detached
  /// Attached to a client: edits sync.
  case attached
  /// Removed from the server: edits are refused.
  case removed
}

/// Whether the watch stream of an attached document is connected.
public enum StreamConnectionStatus: Sendable, Equatable {
  /// The stream is open.
  case connected
  /// The stream is closed or reconnecting.
  case disconnected
}

/// The outcome of a push-pull.
public enum DocumentSyncStatus: Sendable, Equatable {
  /// Local and remote changes were exchanged.
  case synced
  /// The exchange failed; it will be retried.
  case syncFailed
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
  /// The watch stream connected or disconnected.
  case connectionChanged(StreamConnectionStatus)
  /// A push-pull finished.
  case syncStatusChanged(DocumentSyncStatus)
  /// The watch stream started: the peers online with their presences.
  case initialized([PeerPresence])
  /// A peer came online.
  case watched(PeerPresence)
  /// A peer went offline.
  case unwatched(PeerPresence)
  /// A peer (or this replica) changed its presence.
  case presenceChanged(PeerPresence)
  /// A broadcast arrived.
  case broadcast(topic: String, payload: JSONValue, publisher: ActorID?)
  /// The server refused the credentials.
  case authError(reason: String, method: String)
}
