import Foundation

/// Where an attached document stands with the server, as ``Client/syncState(of:)`` reads it:
/// what a view shows when it appears (a connection badge, a "saved" mark), before any event
/// arrives. ``Client/events()`` says when it changes: ``stream`` is what the document's last
/// ``ClientEvent/connectionChanged(document:_:)`` said, ``lastSync`` what its last
/// ``ClientEvent/syncStatusChanged(document:_:)`` said.
///
/// ```swift
/// if let state = await client.syncState(of: doc) {
///   badge = state.stream == .connected ? "live" : "offline"
///   saved = state.isSaved
/// }
/// ```
public struct DocumentSyncState: Sendable, Hashable {
  /// The sync mode.
  public var mode: SyncMode
  /// Whether the Watch stream is connected; nil in a mode without one (``SyncMode/manual``,
  /// ``SyncMode/polling(interval:)``). A realtime document is `disconnected` until its stream
  /// answered, and while it reconnects.
  public var stream: StreamConnectionStatus?
  /// The outcome of the last exchange of changes with the server: the attach, then each
  /// push-pull. Nil before the first for a document that is not confirmed on the server yet
  /// (resumed from the store, or attached while the server was unreachable).
  public var lastSync: DocumentSyncStatus?
  /// Local changes (edits and presence updates) the server has not acknowledged yet.
  public var unacknowledgedChanges: Int

  /// A state with the given values.
  public init(mode: SyncMode, stream: StreamConnectionStatus?, lastSync: DocumentSyncStatus?, unacknowledgedChanges: Int) {
    self.mode = mode
    self.stream = stream
    self.lastSync = lastSync
    self.unacknowledgedChanges = unacknowledgedChanges
  }

  /// Whether the server has every change made so far: the last exchange succeeded and no
  /// local change waits for its acknowledgement ("saved").
  public var isSaved: Bool { lastSync == .synced && unacknowledgedChanges == 0 }
}
