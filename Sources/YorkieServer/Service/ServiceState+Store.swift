import YorkieProtocol

// Storing changes in a document's history: the one place serverSeqs are assigned.

extension ServiceState {
  /// Appends `changes` to `document`'s history with the next serverSeqs; returns the journal
  /// record (and a due snapshot when the document passed the interval).
  static func store(_ changes: [WireChange], in document: inout DocumentRecord, settings: ServiceSettings) -> ServiceEffects {
    var effects = ServiceEffects()
    guard !changes.isEmpty else { return effects }
    var stored: [WireChange] = []
    stored.reserveCapacity(changes.count)
    for change in changes {
      var change = change
      let serverSeq = document.serverSeq + 1
      change.id?.serverSeq = serverSeq
      let id = change.id!
      document.changes.append(StoredChange(
        serverSeq: serverSeq, actor: ResourceID(bytes: id.actorID)!, clientSeq: id.clientSeq,
        hasOperations: !change.operations.isEmpty, wire: change))
      stored.append(change)
    }
    effects.journal.append(.changesStored(document: document.id, changes: stored))
    let lastSnapshot = document.snapshot?.serverSeq ?? 0
    if document.serverSeq - lastSnapshot >= settings.snapshotInterval {
      effects.snapshotsDue.append(document.id)
    }
    return effects
  }
}
