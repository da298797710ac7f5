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
  /// The session (attach, heartbeat and Watch stream) of the channel with this key.
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
  /// What the client can do about it when asked, if anything (see ``Recovery``).
  public var recovery: Recovery? = nil

  /// A recovery the client performs when the app asks for it.
  public enum Recovery: Sendable, Hashable {
    /// ``Client/reattach(_:)`` attaches the document afresh from the server's content: a
    /// ``ClientEvent/documentReset(_:)`` reports what it held (its unsent edits included),
    /// and the same `Document` then shows the server's document and syncs again.
    case reattach
  }

  /// `sync of "doc" stopped: … (remedy)`.
  public var description: String { "\(resource) stopped: \(error.message) (\(remedy))" }
}

/// What reading a file of the client's store found wrong, by ``kind``:
///
/// - ``Kind/damaged``: the file failed its checks (a checksum mismatch inside its records, a
///   record that does not decode). The store rolled back to the last good state, renamed the
///   file with a `.damaged` suffix so that it is not tried again, and the document is attached
///   afresh (a ``ClientEvent/documentReset(_:)`` follows when it held unsent edits).
/// - ``Kind/tornTail``: the file ended inside its last record, the normal trace of a crash or
///   power loss during a write. The unfinished record was cut away and everything before it is
///   used: the document resumes (no reset). Under per-update durability no update that had
///   returned is lost this way (each is on disk before it returns); this is information.
public struct StoreDamageNotice: Sendable, Hashable, CustomStringConvertible {
  /// What was found.
  public enum Kind: Sendable, Hashable {
    /// The file failed its checks: it was set aside, and the state before it is used.
    case damaged
    /// The file's last record was unfinished: it was cut away, and the rest is used.
    case tornTail
  }

  /// The key of the document whose file it is; nil for the client's identity file.
  public var document: String?
  /// The file's path.
  public var file: String
  /// What was wrong, such as a checksum mismatch at an offset, or where the tail was cut.
  public var reason: String
  /// Damage, or only a torn tail.
  public var kind: Kind = .damaged

  /// `store file … of "doc" damaged: …`, or `… had a torn tail: …`.
  public var description: String {
    let what = kind == .damaged ? "damaged" : "had a torn tail"
    return "store file \(file)\(document.map { " of \"\($0)\"" } ?? "") \(what): \(reason)"
  }
}

/// A stored document could not be resumed (the server compacted or removed it, forgot this
/// client, or the stored state was damaged or belonged to an earlier identity): the client
/// attached it afresh, and the same `Document` now shows the server's content. Local edits
/// the server may not have are listed here so that the app can show them or apply them again.
public struct DocumentResetNotice: Sendable, CustomStringConvertible {
  /// The document's key.
  public var document: String
  /// Why it could not be resumed.
  public var reason: YorkieError
  /// The document as the user last saw it (JSON), unsent edits included.
  public var lastContent: String
  /// How many local changes the server had not acknowledged when the client found the
  /// attachment gone. (A removed document acknowledges what it receives, and its content is
  /// gone all the same: ``lastContent`` is what the user last saw.)
  public var unsentChanges: Int

  /// `document "doc" reset (3 unsent changes): …`.
  public var description: String {
    "document \"\(document)\" reset (\(unsentChanges) unsent change\(unsentChanges == 1 ? "" : "s")): \(reason.message)"
  }
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
  /// A stored file failed its checks on load and the store rolled back, or only its torn
  /// tail was cut away (the notice's ``StoreDamageNotice/kind`` says which).
  case storeDamaged(StoreDamageNotice)
  /// A stored document could not be resumed and was attached afresh (see the notice).
  case documentReset(DocumentResetNotice)
  /// The channel with this key, whose ``Client/attach(_:)-(Channel)`` returned while the
  /// server was unreachable (``ChannelStatus/pending``), is now attached: counted by the
  /// server, its stream up.
  case channelAttached(String)

  /// A one-line description for logs.
  public var description: String {
    switch self {
    case .statusChanged(let status): return "statusChanged(\(status))"
    case .connectionChanged(let key, let status): return "connectionChanged(\"\(key)\", \(status))"
    case .syncStatusChanged(let key, let status): return "syncStatusChanged(\"\(key)\", \(status))"
    case .retrying(let notice): return "retrying(\(notice))"
    case .stopped(let notice): return "stopped(\(notice))"
    case .authError(let reason, let method): return "authError(\(method): \(reason))"
    case .storeDamaged(let notice): return "storeDamaged(\(notice))"
    case .documentReset(let notice): return "documentReset(\(notice))"
    case .channelAttached(let key): return "channelAttached(\"\(key)\")"
    }
  }
}
