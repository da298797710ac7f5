import YorkieProtocol

// The records the service keeps (yorkie-protocol.md section 5.1). Plain values: the service
// mutates them under its lock, the persistence layer writes them out.

/// Where a client stands with one document.
package enum AttachmentStatus: String, Sendable {
  /// Attached: pushes and pulls are allowed.
  case attached
  /// Detached by the client (the document object cannot attach again).
  case detached
  /// Removed by this client.
  case removed
}

/// A client's server-side view of one document: its status and checkpoint.
package struct ClientDocumentInfo: Sendable, Equatable {
  /// Attached, detached or removed.
  package var status: AttachmentStatus
  /// The last serverSeq the client has pulled.
  package var serverSeq: Int64
  /// The last clientSeq of this client the server has stored.
  package var clientSeq: UInt32
}

/// A registered client.
package struct ClientRecord: Sendable {
  /// Its id (also its actor).
  package let id: ResourceID
  /// The key it activated with.
  package let key: String
  /// The project it belongs to.
  package let project: String
  /// Whether it is activated.
  package var isActive: Bool
  /// Its metadata.
  package var metadata: [String: String]
  /// Its view of each document it ever attached.
  package var documents: [ResourceID: ClientDocumentInfo]
  /// When it was last heard from (seconds of the service clock).
  package var lastSeen: Double

  /// The documents it has attached now.
  package var attachedDocuments: [ResourceID] {
    documents.filter { $0.value.status == .attached }.map(\.key).sorted()
  }
}

/// One stored change of a document.
package struct StoredChange: Sendable {
  /// Its position in the document's history (1, 2, 3, …).
  package let serverSeq: Int64
  /// Its author.
  package let actor: ResourceID
  /// The author's sequence number.
  package let clientSeq: UInt32
  /// Whether it has operations (not only a presence change).
  package let hasOperations: Bool
  /// The change as pulled: `id.serverSeq` set, re-encoded canonically.
  package let wire: WireChange
}

/// A document.
package struct DocumentRecord: Sendable {
  /// Its id.
  package let id: ResourceID
  /// Its key.
  package let key: String
  /// The project it belongs to.
  package let project: String
  /// Whether presence is dropped from its changes (fixed on creation).
  package let disablePresence: Bool
  /// Whether it was removed (its key then names a new document on the next attach).
  package var isRemoved: Bool
  /// Its changes; `changes[i].serverSeq == i + 1`.
  package var changes: [StoredChange]
  /// The version vector each attached client last reported (keys: base64 actors).
  package var versionVectors: [ResourceID: [String: Int64]]
  /// The latest stored snapshot, if any.
  package var snapshot: StoredSnapshot?

  /// The number of stored changes.
  package var serverSeq: Int64 { Int64(changes.count) }
}

/// A materialized document at some serverSeq.
package struct StoredSnapshot: Sendable {
  /// The serverSeq it reflects.
  package let serverSeq: Int64
  /// The binary `Snapshot`.
  package let data: [UInt8]
  /// Its version vector (keys: base64 actors).
  package let versionVector: [String: Int64]
}
