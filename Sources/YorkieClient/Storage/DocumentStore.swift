import CRDT
import Foundation

/// Where a client keeps its documents between launches (issue 14): per document, the last state
/// the server confirmed and the local changes not yet acknowledged.
///
/// The client stores a change before it pushes it (``appendChanges(_:_:)`` returns once the
/// changes are durable), records acknowledgements as they come, and from time to time replaces
/// everything with a new base (``replaceBase(_:with:pendingChanges:)``), which starts a new
/// generation. ``load(_:)`` never returns anything half-written: a damaged newest generation is
/// set aside and reported, and the previous one is used.
///
/// Implementations: ``FileDocumentStore`` (one folder per client identity) and
/// ``MemoryDocumentStore`` (the default: nothing survives the process).
package protocol DocumentStore: Sendable {
  /// The newest good state stored for `key`, and the damaged generations passed over.
  func load(_ key: String) async throws -> StoreLoad
  /// Starts a new generation for `key`: `base` and the `pendingChanges` not yet acknowledged.
  /// Durable on return; older generations but the previous one are deleted.
  func replaceBase(_ key: String, with base: StoredDocument.Base, pendingChanges: [Data]) async throws
  /// Adds local changes of `key` after those stored; durable on return. Throws when nothing is
  /// stored for `key` (a base comes first).
  func appendChanges(_ key: String, _ changes: [Data]) async throws
  /// Records that the server acknowledged the pending changes of `key` up to the
  /// `count`-th (they are dropped from later loads). Not flushed: lost, it only means the
  /// changes are pushed again, and the server skips them.
  func acknowledge(_ key: String, count: Int) async throws
  /// Forgets everything stored for `key`.
  func remove(_ key: String) async throws
}
