import CRDT
import Foundation

// The values and text positions that operations carry (yorkie/v1/resources.proto); package
// only: they travel inside a WireChange, which converts them to and from the CRDT model.

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
package struct PBJSONElementSimple: WireMessage, ProtoJSONMessage {
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

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("createdAt", createdAt)
    w.message("movedAt", movedAt)
    w.message("removedAt", removedAt)
    w.enumValue("type", type)
    w.bytes("value", value)

  }
}

/// `TextNodePos`: a piece of text (createdAt, offset) and an offset inside it.
package struct PBTextNodePos: WireMessage, ProtoJSONMessage {
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

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("createdAt", createdAt)
    w.int32("offset", offset)
    w.int32("relativeOffset", relativeOffset)

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
package struct PBRestoreSpan: WireMessage, ProtoJSONMessage {
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

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("createdAt", createdAt)
    w.int32("start", start)
    w.int32("end", end)
    w.string("content", content)
    w.stringMap("attributes", attributes)

  }
}
