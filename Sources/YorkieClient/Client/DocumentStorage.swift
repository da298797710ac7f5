import Foundation

/// Where a ``Client`` keeps its documents, so that they survive a restart or a crash of the
/// app: ``ClientOptions/storage``.
///
/// With ``directory(_:durability:)``, every attached document is kept on disk: its last state
/// (Yorkie's snapshot), the checkpoint it reached, the local changes the server has not
/// acknowledged (stored before they are pushed) and the client's identity. A client started
/// again on the same directory activates as the same client without a round trip, and
/// attaching a stored document shows it at once and asks the server only for what happened
/// since. A directory belongs to one client at a time.
///
/// ```swift
/// let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
///   .appendingPathComponent("yorkie")
/// var options = ClientOptions(apiKey: key)
/// options.storage = .directory(folder)                       // durable per update
/// // options.storage = .directory(folder, durability: .batched(window: 0.2))
/// ```
public struct DocumentStorage: Sendable, Hashable {
  /// Where the documents are kept.
  enum Location: Sendable, Hashable {
    case memory
    case directory(URL)
  }

  /// When a local change is on disk.
  public enum Durability: Sendable, Hashable {
    /// Before the update that made it returns: an update that returned survives a crash.
    /// Each update waits for a flush of the disk.
    case perUpdate
    /// Within `window` seconds, and always before the change is pushed: updates return
    /// without waiting for the disk, and a crash loses at most the last window's changes
    /// (never one the server has).
    case batched(window: TimeInterval)
  }

  /// Where the documents are kept.
  let location: Location
  /// When a local change is on disk.
  public var durability: Durability

  /// In memory (the default): nothing is kept beyond the `Document`s themselves and nothing
  /// is recorded (the sync path pays nothing for storage); a client activated again after
  /// ``Client/close()`` is a new client, and attaches its documents afresh.
  public static let memory = DocumentStorage(location: .memory, durability: .perUpdate)

  /// In `directory` (created if missing), one per client identity.
  public static func directory(_ directory: URL, durability: Durability = .perUpdate) -> DocumentStorage {
    DocumentStorage(location: .directory(directory), durability: durability)
  }

  /// The folder, for a directory storage.
  public var directory: URL? {
    if case .directory(let url) = location { return url }
    return nil
  }
}
