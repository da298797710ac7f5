import CRDT
import Foundation

// Yorkie's resource messages (yorkie/v1/resources.proto) in their JSON form: clocks, changes,
// change packs, values, presence. Field names and numbers: yorkie-protocol.md section 4.

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

/// `Presence`: JSON-encoded values by key.
package struct WirePresence: WireMessage {
  package var data: [String: String]

  package init(data: [String: String] = [:]) { self.data = data }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(data: try ProtoJSONReader(json, path: path).stringMap("data"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.stringMap("data", data)
    return w.json
  }
}

/// `PresenceChange.ChangeType`.
extension WirePresenceChange {
  package enum Kind: Int32, ProtoEnum {
    case unspecified = 0, put = 1, delete = 2, clear = 3

    package var protoName: String {
      switch self {
      case .unspecified: return "CHANGE_TYPE_UNSPECIFIED"
      case .put: return "CHANGE_TYPE_PUT"
      case .delete: return "CHANGE_TYPE_DELETE"
      case .clear: return "CHANGE_TYPE_CLEAR"
      }
    }
  }
}

/// `PresenceChange`.
package struct WirePresenceChange: WireMessage {
  package var type: WirePresenceChange.Kind
  package var presence: WirePresence?

  package init(type: WirePresenceChange.Kind = .unspecified, presence: WirePresence? = nil) {
    self.type = type
    self.presence = presence
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), presence: try r.message("presence"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.enumValue("type", type)
    w.message("presence", presence)
    return w.json
  }
}

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

/// `ValueType`: what a `JSONElementSimple` holds.
package enum PBValueType: Int32, ProtoEnum {
  case null = 0, boolean, integer, long, double, string, bytes, date, jsonObject, jsonArray, text, integerCnt, longCnt, tree,
    integerDedupCnt

  package var protoName: String {
    switch self {
    case .null: return "VALUE_TYPE_NULL"
    case .boolean: return "VALUE_TYPE_BOOLEAN"
    case .integer: return "VALUE_TYPE_INTEGER"
    case .long: return "VALUE_TYPE_LONG"
    case .double: return "VALUE_TYPE_DOUBLE"
    case .string: return "VALUE_TYPE_STRING"
    case .bytes: return "VALUE_TYPE_BYTES"
    case .date: return "VALUE_TYPE_DATE"
    case .jsonObject: return "VALUE_TYPE_JSON_OBJECT"
    case .jsonArray: return "VALUE_TYPE_JSON_ARRAY"
    case .text: return "VALUE_TYPE_TEXT"
    case .integerCnt: return "VALUE_TYPE_INTEGER_CNT"
    case .longCnt: return "VALUE_TYPE_LONG_CNT"
    case .tree: return "VALUE_TYPE_TREE"
    case .integerDedupCnt: return "VALUE_TYPE_INTEGER_DEDUP_CNT"
    }
  }
}

/// `JSONElementSimple`: the value of a Set, Add, ArraySet or Increase.
package struct PBJSONElementSimple: WireMessage {
  package var createdAt: WireTimeTicket?
  package var movedAt: WireTimeTicket?
  package var removedAt: WireTimeTicket?
  package var type: PBValueType
  package var value: Data

  package init(createdAt: WireTimeTicket? = nil, movedAt: WireTimeTicket? = nil, removedAt: WireTimeTicket? = nil,
               type: PBValueType = .null, value: Data = Data()) {
    self.createdAt = createdAt
    self.movedAt = movedAt
    self.removedAt = removedAt
    self.type = type
    self.value = value
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(createdAt: try r.message("createdAt"), movedAt: try r.message("movedAt"), removedAt: try r.message("removedAt"),
              type: try r.enumValue("type"), value: try r.bytes("value"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("createdAt", createdAt)
    w.message("movedAt", movedAt)
    w.message("removedAt", removedAt)
    w.enumValue("type", type)
    w.bytes("value", value)
    return w.json
  }
}

/// `TextNodePos`: a piece of text (createdAt, offset) and an offset inside it.
package struct PBTextNodePos: WireMessage {
  package var createdAt: WireTimeTicket?
  package var offset: Int32
  package var relativeOffset: Int32

  package init(createdAt: WireTimeTicket? = nil, offset: Int32 = 0, relativeOffset: Int32 = 0) {
    self.createdAt = createdAt
    self.offset = offset
    self.relativeOffset = relativeOffset
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(createdAt: try r.message("createdAt"), offset: try r.int32("offset"), relativeOffset: try r.int32("relativeOffset"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("createdAt", createdAt)
    w.int32("offset", offset)
    w.int32("relativeOffset", relativeOffset)
    return w.json
  }
}

/// `Operation.Edit.RestoreMode` (undo/redo of Yorkie v0.7.13+).
package enum PBRestoreMode: Int32, ProtoEnum {
  case unspecified = 0, restore = 1, retombstone = 2

  package var protoName: String {
    switch self {
    case .unspecified: return "RESTORE_MODE_UNSPECIFIED"
    case .restore: return "RESTORE_MODE_RESTORE"
    case .retombstone: return "RESTORE_MODE_RETOMBSTONE"
    }
  }
}

/// `RestoreSpan`: text an undo revives or removes again, by its original identity.
package struct PBRestoreSpan: WireMessage {
  package var createdAt: WireTimeTicket?
  package var start: Int32
  package var end: Int32
  package var content: String
  package var attributes: [String: String]

  package init(createdAt: WireTimeTicket? = nil, start: Int32 = 0, end: Int32 = 0, content: String = "", attributes: [String: String] = [:]) {
    self.createdAt = createdAt
    self.start = start
    self.end = end
    self.content = content
    self.attributes = attributes
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(createdAt: try r.message("createdAt"), start: try r.int32("start"), end: try r.int32("end"),
              content: try r.string("content"), attributes: try r.stringMap("attributes"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("createdAt", createdAt)
    w.int32("start", start)
    w.int32("end", end)
    w.string("content", content)
    w.stringMap("attributes", attributes)
    return w.json
  }
}
