import CRDT
import Foundation

// Yorkie's logical clocks on the wire (yorkie/v1/resources.proto): tickets, version vectors,
// checkpoints and change IDs. Field names and numbers: yorkie-protocol.md section 4.

/// `TimeTicket`: lamport, delimiter, 12-byte actor.
package struct WireTimeTicket: WireMessage {
  package var lamport: Int64
  package var delimiter: UInt32
  package var actorID: Data

  package init(lamport: Int64 = 0, delimiter: UInt32 = 0, actorID: Data = Data()) {
    self.lamport = lamport
    self.delimiter = delimiter
    self.actorID = actorID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(lamport: try r.int64("lamport"), delimiter: try r.uint32("delimiter"), actorID: try r.bytes("actorId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("lamport", lamport)
    w.uint32("delimiter", delimiter)
    w.bytes("actorId", actorID)
    return w.json
  }
}

/// `VersionVector`: actor (base64) → lamport.
package struct WireVersionVector: WireMessage {
  package var vector: [String: Int64]

  package init(vector: [String: Int64] = [:]) { self.vector = vector }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(vector: try ProtoJSONReader(json, path: path).int64Map("vector"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64Map("vector", vector)
    return w.json
  }
}

/// `Checkpoint`: how far client and server have synchronized.
package struct WireCheckpoint: WireMessage {
  package var serverSeq: Int64
  package var clientSeq: UInt32

  package init(serverSeq: Int64 = 0, clientSeq: UInt32 = 0) {
    self.serverSeq = serverSeq
    self.clientSeq = clientSeq
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(serverSeq: try r.int64("serverSeq"), clientSeq: try r.uint32("clientSeq"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("serverSeq", serverSeq)
    w.uint32("clientSeq", clientSeq)
    return w.json
  }
}

/// `ChangeID`.
package struct WireChangeID: WireMessage {
  package var clientSeq: UInt32
  package var serverSeq: Int64
  package var lamport: Int64
  package var actorID: Data
  package var versionVector: WireVersionVector?

  package init(clientSeq: UInt32 = 0, serverSeq: Int64 = 0, lamport: Int64 = 0, actorID: Data = Data(), versionVector: WireVersionVector? = nil) {
    self.clientSeq = clientSeq
    self.serverSeq = serverSeq
    self.lamport = lamport
    self.actorID = actorID
    self.versionVector = versionVector
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientSeq: try r.uint32("clientSeq"), serverSeq: try r.int64("serverSeq"), lamport: try r.int64("lamport"),
              actorID: try r.bytes("actorId"), versionVector: try r.message("versionVector"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.uint32("clientSeq", clientSeq)
    w.int64("serverSeq", serverSeq)
    w.int64("lamport", lamport)
    w.bytes("actorId", actorID)
    w.message("versionVector", versionVector)
    return w.json
  }
}
