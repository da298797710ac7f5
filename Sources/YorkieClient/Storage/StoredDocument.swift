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

/// An unfinished last record cut away from the end of a file: the normal trace of a crash or
/// a power loss during an append, not damage. The records before it read back whole and are
/// used; what was cut had not been made durable (a durable append is flushed before it
/// returns), so no update that returned under per-update durability is in it.
package struct StoreTornTail: Sendable, Equatable, CustomStringConvertible {
  /// The file whose tail was cut.
  package var file: String
  /// What was cut, such as `torn tail at offset 1234: 17 bytes dropped (…)`.
  package var reason: String

  /// `"<file>: <reason>"`.
  package var description: String { "\(file): \(reason)" }
}

/// The outcome of ``DocumentStore/load(_:)``: the newest good state, if any, the damaged
/// generations passed over to find it (newest first), and the torn tail cut from the
/// generation used.
package struct StoreLoad: Sendable, Equatable {
  /// The newest generation that read back whole, with its pending changes; nil when nothing
  /// usable is stored.
  package var document: StoredDocument?
  /// The generations found damaged and set aside.
  package var damages: [StoreDamage]
  /// The unfinished last record cut from ``document``'s generation, if there was one
  /// (information: the document is whole without it).
  package var tornTail: StoreTornTail?
  /// The last client sequence this client sent the server for the stored attachment (see
  /// ``DocumentStore/seal(_:_:)``); nil when it sent none.
  package var seal: StoreSeal?

  /// A load with the given parts.
  package init(document: StoredDocument?, damages: [StoreDamage], tornTail: StoreTornTail? = nil, seal: StoreSeal? = nil) {
    self.document = document
    self.damages = damages
    self.tornTail = tornTail
    self.seal = seal
  }
}

/// How far a stored attachment reached the server: the client sequence and the lamport of the
/// last change this client sent for it. Kept apart from the generations (see
/// ``DocumentStore/seal(_:_:)``), so that a generation that lost records the server may have
/// (cut at a record boundary, rolled back) is told from a whole one: its last change comes
/// before the seal.
package struct StoreSeal: Sendable, Equatable {
  /// The client sequence of the last change sent.
  package var clientSeq: UInt32
  /// Its lamport (every change this client sent has one at most this high).
  package var lamport: Int64

  /// A seal with the given parts.
  package init(clientSeq: UInt32, lamport: Int64) {
    self.clientSeq = clientSeq
    self.lamport = lamport
  }
}
