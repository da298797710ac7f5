import YorkieProtocol

/// The settings of the service that Yorkie keeps per project or per server.
package struct ServiceSettings: Sendable {
  /// A client this many changes behind receives a snapshot instead of changes.
  package var snapshotThreshold: Int64 = 500
  /// A snapshot is stored every this many changes.
  package var snapshotInterval: Int64 = 500
  /// At most this much memory (bytes, as ``MaterializedDocuments`` counts it) holds the last
  /// materialized state of recently built documents, from which the next snapshot builds
  /// start; 0 keeps none.
  package var materializedDocumentsBudget = 256 << 20
  /// Clients idle this long (seconds) are deactivated by housekeeping.
  package var clientDeactivateThreshold: Double = 24 * 3600
  /// Channel sessions not refreshed for this long (seconds) expire.
  package var channelSessionTTL: Double = 15

  /// Yorkie's defaults.
  package init() {}
}

/// Everything the service knows, and the steps that change it: a pure state machine.
///
/// Each step validates first and mutates only once nothing can fail any more (a step that throws
/// has changed nothing a client can observe: at most its client's last-seen time and the id
/// generator moved), then reports what the outside must do in ``ServiceEffects``: records to
/// make durable before answering, events to publish, snapshots to build. The owner
/// (``YorkieService``) runs one step at a time under its lock; I/O happens outside.
package struct ServiceState: Sendable {
  /// The settings.
  package var settings: ServiceSettings
  /// Makes ids for clients, documents and sessions.
  package var ids: ResourceIDGenerator
  /// Every client ever activated.
  package var clients: [ResourceID: ClientRecord] = [:]
  /// Every document ever created.
  package var documents: [ResourceID: DocumentRecord] = [:]
  /// The live (not removed) document of each key, per project.
  package var documentByKey: [DocumentKeyPath: ResourceID] = [:]
  /// The channel sessions.
  package var channels = ChannelRegistry()

  /// A state with no clients or documents.
  package init(settings: ServiceSettings, ids: ResourceIDGenerator) {
    self.settings = settings
    self.ids = ids
  }

  /// The activated client `id` of `project`, marked as seen at `now`.
  mutating func activeClient(_ id: ResourceID, project: String, now: Double) throws(ServiceError) -> ClientRecord {
    guard let client = clients[id], client.project == project else { throw .clientNotFound(id.hex) }
    guard client.isActive else { throw .clientNotActivated(id.hex) }
    clients[id]!.lastSeen = now
    return client
  }
}

/// A document key within its project.
package struct DocumentKeyPath: Hashable, Sendable {
  /// The project's public key.
  package var project: String
  /// The document key.
  package var key: String
}

/// What the outside must do after a step of ``ServiceState``.
package struct ServiceEffects: Sendable {
  /// Records to make durable before the answer goes out (in order).
  package var journal: [JournalRecord] = []
  /// Document events to publish (after the journal is durable).
  package var documentEvents: [DocumentEvent] = []
  /// Channel events to publish.
  package var channelEvents: [ChannelEvent] = []
  /// Documents that should store a new snapshot.
  package var snapshotsDue: [ResourceID] = []

  /// No effects.
  package init() {}

  /// Appends the effects of another step.
  package mutating func append(_ other: ServiceEffects) {
    journal += other.journal
    documentEvents += other.documentEvents
    channelEvents += other.channelEvents
    snapshotsDue += other.snapshotsDue
  }
}

/// A change of a document that its watchers hear about.
package struct DocumentEvent: Sendable, Equatable {
  /// The document.
  package var document: ResourceID
  /// Changed, watched or unwatched.
  package var type: WireDocEvent.Kind
  /// The client that caused it (never told of it).
  package var publisher: ResourceID
}

/// An event of a channel.
package struct ChannelEvent: Sendable, Equatable {
  /// The channel key.
  package var channel: String
  /// The project of the channel.
  package var project: String
  /// Presence (a new count) or broadcast.
  package var event: WireChannelEvent
  /// The client whose streams must not receive it (broadcasts), or `nil`.
  package var excluded: ResourceID?
}

/// One durable fact of the service, replayed in order on start (see ``JournalCodec``).
package enum JournalRecord: Sendable {
  /// A client was activated.
  case clientActivated(id: ResourceID, key: String, project: String, metadata: [String: String])
  /// A client was deactivated.
  case clientDeactivated(id: ResourceID)
  /// A document was created.
  case documentCreated(id: ResourceID, key: String, project: String, disablePresence: Bool)
  /// A document was removed.
  case documentRemoved(id: ResourceID)
  /// Changes were stored (their serverSeqs continue the document's).
  case changesStored(document: ResourceID, changes: [WireChange])
  /// A client's view of a document changed, and with it perhaps its version-vector row.
  case clientDocumentUpdated(client: ResourceID, document: ResourceID, info: ClientDocumentInfo, versionVector: VersionVectorRowChange)
  /// A snapshot was stored.
  case snapshotStored(document: ResourceID, serverSeq: Int64, data: [UInt8], versionVector: [String: Int64])
}

/// What a step did to a client's version-vector row of a document.
package enum VersionVectorRowChange: Sendable, Equatable {
  /// Nothing (the client opted out of garbage-collection tracking).
  case unchanged
  /// The row now holds this vector.
  case set([String: Int64])
  /// The row was deleted (the client detached or removed the document).
  case deleted
}
