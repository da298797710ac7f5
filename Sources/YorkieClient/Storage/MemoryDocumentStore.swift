import Foundation

/// A ``DocumentStore`` in memory: documents last as long as the store (the client's default,
/// where nothing survives the process).
package actor MemoryDocumentStore: DocumentStore {
  /// What is stored, by document key.
  private var documents: [String: StoredDocument] = [:]

  /// An empty store.
  package init() {}

  package func load(_ key: String) -> StoreLoad {
    StoreLoad(document: documents[key], damages: [])
  }

  package func replaceBase(_ key: String, with base: StoredDocument.Base, pendingChanges: [Data]) {
    documents[key] = StoredDocument(base: base, pendingChanges: pendingChanges)
  }

  package func appendChanges(_ key: String, _ changes: [Data]) throws {
    guard documents[key] != nil else { throw DocumentStoreError.noBase(key: key) }
    documents[key]!.pendingChanges.append(contentsOf: changes)
  }

  package func acknowledge(_ key: String, count: Int) throws {
    guard let stored = documents[key] else { throw DocumentStoreError.noBase(key: key) }
    documents[key]!.pendingChanges.removeFirst(min(max(count, 0), stored.pendingChanges.count))
  }

  package func remove(_ key: String) {
    documents[key] = nil
  }
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
