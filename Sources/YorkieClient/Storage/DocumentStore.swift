import CRDT
import Foundation

/// Where a client keeps its documents between launches: per document, a base (a snapshot with
/// the clocks and checkpoint that go with it) and the entries recorded after it (the client's
/// encoding of its local changes and of the server's answers), and the client's identity.
///
/// The client stores a local change before it pushes it (``append(_:_:durable:)`` with
/// `durable` returns once it is on disk), and from time to time replaces everything with a new
/// base (``replaceBase(_:with:entries:)``), which starts a new generation. ``load(_:)`` never
/// returns anything half-written: a damaged newest generation is set aside and reported, and
/// the previous one is used; an unfinished last record (a crash during an append) is cut away
/// and reported as a torn tail, and the records before it are used.
///
/// Before the client sends changes to the server it seals how far they go (``seal(_:_:)``),
/// durably and apart from the generations: a generation that later reads back whole yet ends
/// before the seal lost records the server may have (a file cut at a record boundary, a
/// generation rolled back), which no checksum can tell.
///
/// The implementation is ``FileDocumentStore`` (one folder per client identity); with
/// `DocumentStorage.memory` (the default) a client has no store and records nothing.
///
/// Calls are synchronous and may block on the disk: the client makes them where the order of
/// events demands it (a change is stored inside the update that made it, under per-update
/// durability), which an asynchronous call could not guarantee.
package protocol DocumentStore: AnyObject, Sendable {
  /// The newest good state stored for `key`, and the damaged generations passed over.
  func load(_ key: String) throws -> StoreLoad
  /// Starts a new generation for `key`: `base` and the first `entries` after it. Durable on
  /// return; older generations but the previous one are deleted.
  func replaceBase(_ key: String, with base: StoredDocument.Base, entries: [Data]) throws
  /// Adds entries of `key` after those stored, on disk before returning when `durable` (which
  /// also makes every earlier entry durable; no entries and `durable` only does that). Throws
  /// when nothing is stored for `key` (a base comes first).
  func append(_ key: String, _ entries: [Data], durable: Bool) throws
  /// Records, durably, that changes of `key` up to `seal` are about to be sent to the server
  /// (``load(_:)`` returns the last seal). Throws when nothing is stored for `key`.
  func seal(_ key: String, _ seal: StoreSeal) throws
  /// Forgets everything stored for `key` (its seal too).
  func remove(_ key: String) throws
  /// The keys of the documents stored.
  func storedKeys() throws -> [String]
  /// The client identity stored, and the damage found reading it (nil when there is none).
  func loadIdentity() throws -> IdentityLoad
  /// Replaces the stored identity (nil forgets it); durable on return.
  func saveIdentity(_ identity: StoredIdentity?) throws
  /// Releases the store's files: another store may open its folder then.
  func close()
}

/// What ``DocumentStore/loadIdentity()`` found.
package struct IdentityLoad: Sendable, Equatable {
  /// The identity stored last; nil when none is (or none reads back).
  package var identity: StoredIdentity?
  /// The damage found in the identity's file, if any (the file is set aside).
  package var damage: StoreDamage?
  /// The unfinished last record cut from the identity's file, if any (the last whole record
  /// is used).
  package var tornTail: StoreTornTail?
}

/// Why a ``DocumentStore`` call failed.
package enum DocumentStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Changes or an acknowledgement came for a document with no stored base.
  case noBase(key: String)
  /// The store's files could not be read or written (the underlying error, with its file).
  case storage(String)

  /// A sentence for logs.
  package var description: String {
    switch self {
    case .noBase(let key): "nothing is stored for document \"\(key)\" (a base must come first)"
    case .storage(let message): message
    }
  }
}

/// Runs a store call; any failure but a `YorkieError` becomes a ``YorkieError`` `storageFailed`
/// that says `what` failed (what apps see of the store's errors).
func storing<T>(_ what: @autoclosure () -> String, _ call: () throws -> T) throws -> T {
  do {
    return try call()
  } catch let error as YorkieError {
    throw error
  } catch {
    throw YorkieError(.storageFailed, "\(what()): \(error)", underlying: error)
  }
}
