import CRDT
import Foundation

/// What a ``DocumentStore`` keeps of one document: the state the server last confirmed (a
/// snapshot with its checkpoint and version vector) and the local changes made since, which the
/// server has not acknowledged yet.
///
/// Attaching such a document loads the snapshot, replays the pending changes on top and asks
/// the server only for what happened after ``checkpoint``; the pending changes are pushed again
/// (the server skips the client sequences it already stored, so each counts once).
package struct StoredDocument: Sendable, Equatable {
  /// The state the server last confirmed.
  package var base: Base
  /// The local changes not acknowledged when they were stored, oldest first, each in the
  /// encoding the client chose (opaque to the store).
  package var pendingChanges: [Data]

  /// A stored document.
  package init(base: Base, pendingChanges: [Data] = []) {
    self.base = base
    self.pendingChanges = pendingChanges
  }

  /// A snapshot of the document and where it stands with the server.
  package struct Base: Sendable, Equatable {
    /// The actor the document edits as; nil before its first attachment.
    package var actorID: ActorID?
    /// How far the document had synchronized.
    package var checkpoint: Checkpoint
    /// The document's version vector when the snapshot was taken.
    package var versionVector: VersionVector
    /// `Document.snapshot()`: Yorkie's binary snapshot of the root and the presences.
    package var snapshot: Data
    /// The client's own presence, encoded by the client (opaque to the store); nil for none.
    package var presence: Data?

    /// A base with the given parts.
    package init(actorID: ActorID?, checkpoint: Checkpoint, versionVector: VersionVector, snapshot: Data, presence: Data? = nil) {
      self.actorID = actorID
      self.checkpoint = checkpoint
      self.versionVector = versionVector
      self.snapshot = snapshot
      self.presence = presence
    }
  }
}

/// A stored generation that could not be used, and why: reported by ``DocumentStore/load(_:)``
/// when it rolls back to an older generation.
package struct StoreDamage: Sendable, Equatable, CustomStringConvertible {
  /// The damaged file (renamed with a `.damaged` suffix so that it is never tried again).
  package var file: String
  /// What was wrong with it, such as a checksum mismatch at an offset.
  package var reason: String

  /// `"<file>: <reason>"`.
  package var description: String { "\(file): \(reason)" }
}

/// The outcome of ``DocumentStore/load(_:)``: the newest good state, if any, and the damaged
/// generations passed over to find it (newest first).
package struct StoreLoad: Sendable, Equatable {
  /// The newest generation that read back whole, with its pending changes; nil when nothing
  /// usable is stored.
  package var document: StoredDocument?
  /// The generations found damaged and set aside.
  package var damages: [StoreDamage]
}
