import YorkieProtocol

// Rebuilding the state from the journal on start.

extension ServiceState {
  /// Applies one durable record, as the step that wrote it left the state.
  ///
  /// - Throws: when the record contradicts the state (a change for an unknown document, a
  ///   serverSeq out of order): the journal is not this server's, or was damaged in a way its
  ///   checksums could not see.
  package mutating func replay(_ record: JournalRecord, now: Double) throws(ServiceError) {
    func broken(_ what: String) -> ServiceError { ServiceError(.dataLoss, "journal: \(what)", metadataCode: nil) }
    switch record {
    case .clientActivated(let id, let key, let project, let metadata):
      clients[id] = ClientRecord(id: id, key: key, project: project, isActive: true, metadata: metadata, documents: [:], lastSeen: now)
    case .clientDeactivated(let id):
      guard clients[id] != nil else { throw broken("deactivation of unknown client \(id.hex)") }
      clients[id]!.isActive = false
    case .documentCreated(let id, let key, let project, let disablePresence):
      documents[id] = DocumentRecord(
        id: id, key: key, project: project, disablePresence: disablePresence, isRemoved: false, changes: [], versionVectors: [:],
        snapshot: nil)
      documentByKey[DocumentKeyPath(project: project, key: key)] = id
    case .documentRemoved(let id):
      guard let document = documents[id] else { throw broken("removal of unknown document \(id.hex)") }
      documents[id]!.isRemoved = true
      let path = DocumentKeyPath(project: document.project, key: document.key)
      if documentByKey[path] == id { documentByKey[path] = nil }
    case .changesStored(let id, let changes):
      guard documents[id] != nil else { throw broken("changes for unknown document \(id.hex)") }
      for change in changes {
        guard let changeID = change.id, let actor = ResourceID(bytes: changeID.actorID),
          changeID.serverSeq == documents[id]!.serverSeq + 1
        else { throw broken("change out of order in document \(id.hex)") }
        documents[id]!.changes.append(StoredChange(
          serverSeq: changeID.serverSeq, actor: actor, clientSeq: changeID.clientSeq, hasOperations: !change.operations.isEmpty, wire: change))
      }
    case .clientDocumentUpdated(let client, let document, let info, let vector):
      guard clients[client] != nil, documents[document] != nil else { throw broken("view of unknown client or document") }
      clients[client]!.documents[document] = info
      switch vector {
      case .unchanged: break
      case .set(let entries): documents[document]!.versionVectors[client] = entries
      case .deleted: documents[document]!.versionVectors[client] = nil
      }
    case .snapshotStored(let id, let serverSeq, let data, let vector):
      guard documents[id] != nil else { throw broken("snapshot of unknown document \(id.hex)") }
      documents[id]!.snapshot = StoredSnapshot(serverSeq: serverSeq, data: data, versionVector: vector)
    }
  }
}
