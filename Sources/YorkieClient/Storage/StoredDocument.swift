import CRDT
import Foundation

/// What a ``DocumentStore`` keeps of one document: a base (a snapshot with its checkpoint and
/// clocks) and the entries recorded after it, which the client replays on the base.
///
/// Attaching such a document loads the snapshot, replays the entries and asks the server only
/// for what happened after the checkpoint they reach; the local changes not acknowledged are
/// pushed again (the server skips the client sequences it already stored, so each counts once).
package struct StoredDocument: Sendable, Equatable {
  /// Where the history starts.
  package var base: Base
  /// What happened after the base, oldest first, each in the encoding the client chose (opaque
  /// to the store).
  package var entries: [Data]

  /// A stored document.
  package init(base: Base, entries: [Data] = []) {
    self.base = base
    self.entries = entries
  }

  /// Where the history starts: the replica's base (snapshot, checkpoint, clocks), and the
  /// server's document it is attached to.
  package struct Base: Sendable, Equatable {
    /// The snapshot and the clocks that go with it (CRDT's form).
    package var replica: ReplicaBase
    /// The server's ID of the document this client is attached to; nil while a deferred
    /// attach has not reached the server.
    package var documentID: String?

    /// A base with the given parts.
    package init(_ replica: ReplicaBase, documentID: String?) {
      self.replica = replica
      self.documentID = documentID
    }
  }
}

/// Who a client was on the server: kept by a ``DocumentStore`` so that a client started again
/// on the same store goes on as the same client (its documents stay attached on the server, and
/// the server skips the changes it already stored when they are pushed again).
package struct StoredIdentity: Sendable, Equatable {
  /// The client key it activated with.
  package var clientKey: String
  /// The client ID the server gave it (24 hex digits).
  package var clientID: String

  /// An identity with the given parts.
  package init(clientKey: String, clientID: String) {
    self.clientKey = clientKey
    self.clientID = clientID
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
