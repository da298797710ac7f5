import Foundation

/// A ``DocumentStore`` in memory: documents last as long as the store (the client's default,
/// where nothing survives the client).
package final class MemoryDocumentStore: DocumentStore {
  /// What is stored.
  private struct Contents {
    var documents: [String: StoredDocument] = [:]
    var identity: StoredIdentity?
  }
  private let contents = Locked(Contents())

  /// An empty store.
  package init() {}

  package func load(_ key: String) -> StoreLoad {
    StoreLoad(document: contents.withLock { $0.documents[key] }, damages: [])
  }

  package func replaceBase(_ key: String, with base: StoredDocument.Base, entries: [Data]) {
    contents.withLock { $0.documents[key] = StoredDocument(base: base, entries: entries) }
  }

  package func append(_ key: String, _ entries: [Data], durable: Bool) throws {
    try contents.withLock { contents in
      guard contents.documents[key] != nil else { throw DocumentStoreError.noBase(key: key) }
      contents.documents[key]!.entries.append(contentsOf: entries)
    }
  }

  package func remove(_ key: String) {
    contents.withLock { $0.documents[key] = nil }
  }

  package func storedKeys() -> [String] {
    contents.withLock { $0.documents.keys.sorted() }
  }

  package func loadIdentity() -> IdentityLoad {
    IdentityLoad(identity: contents.withLock { $0.identity }, damage: nil)
  }

  package func saveIdentity(_ identity: StoredIdentity?) {
    contents.withLock { $0.identity = identity }
  }

  package func close() {}
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
