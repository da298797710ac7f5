import Foundation
import YorkieProtocol

// ActivateClient and DeactivateClient (yorkie-protocol.md sections 3.1, 3.2).

extension ServiceState {
  /// Registers a new client (every call makes a new id, even for a key seen before).
  package mutating func activateClient(key: String, metadata: [String: String], project: String, now: Double)
    throws(ServiceError) -> (ResourceID, ServiceEffects)
  {
    guard !key.isEmpty else { throw .invalidClientKey }
    let id = newClientID()
    clients[id] = ClientRecord(id: id, key: key, project: project, isActive: true, metadata: metadata, documents: [:], lastSeen: now)
    var effects = ServiceEffects()
    effects.journal.append(.clientActivated(id: id, key: key, project: project, metadata: metadata))
    return (id, effects)
  }

  /// A fresh id not used by any client.
  private mutating func newClientID() -> ResourceID {
    while true {
      let id = ids.next()
      if clients[id] == nil { return id }
    }
  }

  /// Deactivates `id`: for each document it still has attached, stores a presence CLEAR on its
  /// behalf (push-only) and detaches it; then ends its channel sessions and marks it deactivated.
  ///
  /// Like Yorkie, the CLEAR continues the client's latest change in that document; a client that
  /// attached with an empty pack and never pushed has none, and the call fails with `not_found`
  /// "change not found" (metadata code empty) before anything changes — SDKs never meet this,
  /// since their attach always carries a presence.
  package mutating func deactivateClient(_ id: ResourceID, project: String, now: Double) throws(ServiceError) -> ServiceEffects {
    let client = try activeClient(id, project: project, now: now)
    // Check every document first, so that a failure changes nothing.
    var clears: [(document: ResourceID, change: WireChange)] = []
    for documentID in client.attachedDocuments {
      guard let document = documents[documentID] else { continue }
      guard let latest = document.changes.last(where: { $0.actor == id }) else {
        throw ServiceError(.notFound, "not_found: change not found", metadataCode: "")
      }
      let clientSeq = max(latest.clientSeq, client.documents[documentID]?.clientSeq ?? 0) + 1
      let lamport = (latest.wire.id?.lamport ?? 0) + 1
      let clear = WireChange(
        id: WireChangeID(clientSeq: clientSeq, lamport: lamport, actorID: Data(id.bytes), versionVector: WireVersionVector()),
        presenceChange: WirePresenceChange(type: .clear))
      clears.append((documentID, clear))
    }
    var effects = ServiceEffects()
    for (documentID, clear) in clears {
      let stored = documents[documentID]!.disablePresence ? [] : [clear]
      effects.append(Self.store(stored, in: &documents[documentID]!, settings: settings))
      var info = clients[id]!.documents[documentID]!
      info.status = .detached
      info.serverSeq = 0
      info.clientSeq = 0
      clients[id]!.documents[documentID] = info
      documents[documentID]!.versionVectors[id] = nil
      effects.journal.append(.clientDocumentUpdated(client: id, document: documentID, info: info, versionVector: .deleted))
      effects.documentEvents.append(DocumentEvent(document: documentID, type: .documentChanged, publisher: id))
    }
    effects.channelEvents += channels.detachAll(of: id)
    clients[id]!.isActive = false
    effects.journal.append(.clientDeactivated(id: id))
    return effects
  }
}
