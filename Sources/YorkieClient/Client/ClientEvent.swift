import Foundation

/// Whether the Watch stream of an attached document (or channel) is connected.
public enum StreamConnectionStatus: Sendable, Hashable {
  /// The stream is open and initialized.
  case connected
  /// The stream is closed or reconnecting.
  case disconnected
}

/// The outcome of a push-pull.
public enum DocumentSyncStatus: Sendable, Hashable {
  /// Local and remote changes were exchanged.
  case synced
  /// The exchange failed (a ``ClientEvent/retrying(_:)`` or ``ClientEvent/stopped(_:)``
  /// event says what happens next).
  case syncFailed
}

/// What a retry loop works for: a document's push-pull or Watch stream, or a channel.
public enum SyncResource: Sendable, Hashable, CustomStringConvertible {
  /// PushPullChanges of the document with this key.
  case documentSync(String)
  /// The Watch stream of the document with this key.
  case documentWatch(String)
  /// The session (heartbeat and Watch stream) of the channel with this key.
  case channel(String)

  /// `sync of "doc"`, `watch of "doc"`, `channel "room"`.
  public var description: String {
    switch self {
    case .documentSync(let key): return "sync of \"\(key)\""
    case .documentWatch(let key): return "watch of \"\(key)\""
    case .channel(let key): return "channel \"\(key)\""
    }
  }
}

/// A failed attempt that the client will make again.
public struct RetryNotice: Sendable, CustomStringConvertible {
  /// What failed.
  public var resource: SyncResource
  /// Why.
  public var error: YorkieError
  /// Failures in a row so far (1 for the first).
  public var attempt: Int
  /// Seconds until the next attempt.
  public var delay: TimeInterval

  /// `sync of "doc" failed (attempt 2), retrying in 0.73 s: …`.
  public var description: String {
    "\(resource) failed (attempt \(attempt)), retrying in \(String(format: "%.2f", delay)) s: \(error.message)"
  }
}

/// A failure that retrying cannot fix: the client stopped syncing the resource.
public struct StopNotice: Sendable, CustomStringConvertible {
  /// What stopped.
  public var resource: SyncResource
  /// Why.
  public var error: YorkieError
  /// What the app can do about it.
  public var remedy: String

  /// `sync of "doc" stopped: … (remedy)`.
  public var description: String { "\(resource) stopped: \(error.message) (\(remedy))" }
}

/// Something that happened to a client's connection, as ``Client/events()`` delivers it.
/// Document content, presence and peers are ``DocEvent``s of each `Document`.
public enum ClientEvent: Sendable, CustomStringConvertible {
  /// The client was activated or deactivated (by the app or by the server).
  case statusChanged(ClientStatus)
  /// A document's Watch stream connected or disconnected.
  case connectionChanged(document: String, StreamConnectionStatus)
  /// A document's push-pull finished or failed.
  case syncStatusChanged(document: String, DocumentSyncStatus)
  /// A failed call or stream will be retried after a delay.
  case retrying(RetryNotice)
  /// A failure that retrying cannot fix stopped a document's or channel's sync; the notice
  /// says what to do.
  case stopped(StopNotice)
  /// The server refused the credentials even after a fresh token (or the token provider
  /// failed): `reason` is the server's message, `method` the call.
  case authError(reason: String, method: String)

  /// A one-line description for logs.
  public var description: String {
    switch self {
    case .statusChanged(let status): return "statusChanged(\(status))"
    case .connectionChanged(let key, let status): return "connectionChanged(\"\(key)\", \(status))"
    case .syncStatusChanged(let key, let status): return "syncStatusChanged(\"\(key)\", \(status))"
    case .retrying(let notice): return "retrying(\(notice))"
    case .stopped(let notice): return "stopped(\(notice))"
    case .authError(let reason, let method): return "authError(\(method): \(reason))"
    }
  }
}
