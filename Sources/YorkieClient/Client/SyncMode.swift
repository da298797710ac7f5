import Foundation

/// How an attached document exchanges changes with the server (Yorkie's five sync modes).
/// A document can switch at any time with ``Client/changeSyncMode(_:to:)``.
public enum SyncMode: Sendable, Hashable {
  /// Push local changes at once and pull when the server says the document changed (a Watch
  /// stream keeps the peers and their presences current).
  case realtime
  /// Push local changes at once but pull nothing; the Watch stream stays open. Switching
  /// back to ``realtime`` pulls what arrived meanwhile.
  case realtimePushOnly
  /// Keep the Watch stream (peers, presences) but exchange no changes.
  case realtimeSyncOff
  /// Exchange changes only when the app calls ``Client/sync(_:)``; no stream.
  case manual
  /// Push and pull every `interval` seconds, without a stream: for networks that break
  /// long-lived connections.
  case polling(interval: TimeInterval)

  /// Whether the mode pushes a local change as soon as it is made.
  var pushesAtOnce: Bool {
    switch self {
    case .realtime, .realtimePushOnly: return true
    case .realtimeSyncOff, .manual, .polling: return false
    }
  }

  /// Whether the mode keeps a Watch stream open.
  var watches: Bool {
    switch self {
    case .realtime, .realtimePushOnly, .realtimeSyncOff: return true
    case .manual, .polling: return false
    }
  }
}

/// Whether a client is activated on its server.
public enum ClientStatus: Sendable, Hashable {
  /// Not activated (new, deactivated, or deactivated by the server).
  case deactivated
  /// Activated: documents and channels can be attached.
  case activated
}
