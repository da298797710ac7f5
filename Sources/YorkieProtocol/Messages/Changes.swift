import CRDT
import Foundation

// Changes and change packs on the wire (yorkie/v1/resources.proto).

/// `Change`.
package struct WireChange: WireMessage {
  package var id: WireChangeID?
  package var message: String
  package var operations: [PBOperation]
  package var presenceChange: WirePresenceChange?

  package init(id: WireChangeID? = nil, message: String = "", operations: [PBOperation] = [], presenceChange: WirePresenceChange? = nil) {
    self.id = id
    self.message = message
    self.operations = operations
    self.presenceChange = presenceChange
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.message("id"), message: try r.string("message"), operations: try r.repeated("operations"),
              presenceChange: try r.message("presenceChange"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("id", id)
    w.string("message", message)
    w.repeated("operations", operations)
    w.message("presenceChange", presenceChange)
    return w.json
  }
}

/// `ChangePack`.
package struct WireChangePack: WireMessage {
  package var documentKey: String
  package var checkpoint: WireCheckpoint?
  package var snapshot: Data
  package var changes: [WireChange]
  package var minSyncedTicket: WireTimeTicket?
  package var isRemoved: Bool
  package var versionVector: WireVersionVector?

  package init(documentKey: String = "", checkpoint: WireCheckpoint? = nil, snapshot: Data = Data(), changes: [WireChange] = [],
               minSyncedTicket: WireTimeTicket? = nil, isRemoved: Bool = false, versionVector: WireVersionVector? = nil) {
    self.documentKey = documentKey
    self.checkpoint = checkpoint
    self.snapshot = snapshot
    self.changes = changes
    self.minSyncedTicket = minSyncedTicket
    self.isRemoved = isRemoved
    self.versionVector = versionVector
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentKey: try r.string("documentKey"), checkpoint: try r.message("checkpoint"), snapshot: try r.bytes("snapshot"),
              changes: try r.repeated("changes"), minSyncedTicket: try r.message("minSyncedTicket"),
              isRemoved: try r.bool("isRemoved"), versionVector: try r.message("versionVector"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("documentKey", documentKey)
    w.message("checkpoint", checkpoint)
    w.bytes("snapshot", snapshot)
    w.repeated("changes", changes)
    w.message("minSyncedTicket", minSyncedTicket)
    w.bool("isRemoved", isRemoved)
    w.message("versionVector", versionVector)
    return w.json
  }
}
