import CRDT
import Foundation

/// `Operation`: a oneof of every operation kind (yorkie-protocol.md 4.6).
package enum PBOperation: WireMessage, ProtoJSONMessage {
  case set(Set)
  case add(Add)
  case move(Move)
  case remove(Remove)
  case edit(Edit)
  case style(Style)
  case increase(Increase)
  case treeEdit(TreeEdit)
  case treeStyle(TreeStyle)
  case arraySet(ArraySet)

  private static let members = ["set", "add", "move", "remove", "edit", "style", "increase", "treeEdit", "treeStyle", "arraySet"]

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    guard let member = try r.oneof(PBOperation.members) else {
      throw wireDataError(path, "an operation without a body (one of \(PBOperation.members.joined(separator: ", ")))")
    }
    let body = r.value(member)!
    let p = "\(path).\(member)"
    switch member {
    case "set": self = .set(try Set(json: body, path: p))
    case "add": self = .add(try Add(json: body, path: p))
    case "move": self = .move(try Move(json: body, path: p))
    case "remove": self = .remove(try Remove(json: body, path: p))
    case "edit": self = .edit(try Edit(json: body, path: p))
    case "style": self = .style(try Style(json: body, path: p))
    case "increase": self = .increase(try Increase(json: body, path: p))
    case "treeEdit": self = .treeEdit(try TreeEdit(json: body, path: p))
    case "treeStyle": self = .treeStyle(try TreeStyle(json: body, path: p))
    default: self = .arraySet(try ArraySet(json: body, path: p))
    }
  }

  package var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    switch self {
    case .set(let op): w.message("set", op)
    case .add(let op): w.message("add", op)
    case .move(let op): w.message("move", op)
    case .remove(let op): w.message("remove", op)
    case .edit(let op): w.message("edit", op)
    case .style(let op): w.message("style", op)
    case .increase(let op): w.message("increase", op)
    case .treeEdit(let op): w.message("treeEdit", op)
    case .treeStyle(let op): w.message("treeStyle", op)
    case .arraySet(let op): w.message("arraySet", op)
    }
  }

  /// `Operation.Set`: assign an object member.
  package struct Set: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var key: String
    package var value: PBJSONElementSimple?
    package var executedAt: WireTimeTicket?

    package init(parentCreatedAt: WireTimeTicket? = nil, key: String = "", value: PBJSONElementSimple? = nil, executedAt: WireTimeTicket? = nil) {
      self.parentCreatedAt = parentCreatedAt
      self.key = key
      self.value = value
      self.executedAt = executedAt
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), key: try r.string("key"), value: try r.message("value"),
                executedAt: try r.message("executedAt"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.string("key", key)
      w.message("value", value)
      w.message("executedAt", executedAt)

    }
  }

  /// `Operation.Add`: insert into an array after a position.
  package struct Add: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var prevCreatedAt: WireTimeTicket?
    package var value: PBJSONElementSimple?
    package var executedAt: WireTimeTicket?

    package init(parentCreatedAt: WireTimeTicket? = nil, prevCreatedAt: WireTimeTicket? = nil, value: PBJSONElementSimple? = nil,
                 executedAt: WireTimeTicket? = nil) {
      self.parentCreatedAt = parentCreatedAt
      self.prevCreatedAt = prevCreatedAt
      self.value = value
      self.executedAt = executedAt
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), prevCreatedAt: try r.message("prevCreatedAt"),
                value: try r.message("value"), executedAt: try r.message("executedAt"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("prevCreatedAt", prevCreatedAt)
      w.message("value", value)
      w.message("executedAt", executedAt)

    }
  }

  /// `Operation.Move`: move an array element after a position.
  package struct Move: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var prevCreatedAt: WireTimeTicket?
    package var createdAt: WireTimeTicket?
    package var executedAt: WireTimeTicket?

    package init(parentCreatedAt: WireTimeTicket? = nil, prevCreatedAt: WireTimeTicket? = nil, createdAt: WireTimeTicket? = nil,
                 executedAt: WireTimeTicket? = nil) {
      self.parentCreatedAt = parentCreatedAt
      self.prevCreatedAt = prevCreatedAt
      self.createdAt = createdAt
      self.executedAt = executedAt
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), prevCreatedAt: try r.message("prevCreatedAt"),
                createdAt: try r.message("createdAt"), executedAt: try r.message("executedAt"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("prevCreatedAt", prevCreatedAt)
      w.message("createdAt", createdAt)
      w.message("executedAt", executedAt)

    }
  }

  /// `Operation.Remove`: remove an object member or array element.
  package struct Remove: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var createdAt: WireTimeTicket?
    package var executedAt: WireTimeTicket?

    package init(parentCreatedAt: WireTimeTicket? = nil, createdAt: WireTimeTicket? = nil, executedAt: WireTimeTicket? = nil) {
      self.parentCreatedAt = parentCreatedAt
      self.createdAt = createdAt
      self.executedAt = executedAt
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), createdAt: try r.message("createdAt"),
                executedAt: try r.message("executedAt"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("createdAt", createdAt)
      w.message("executedAt", executedAt)

    }
  }

  /// `Operation.Edit`: replace a range of a text (and, with restore spans, undo/redo).
  package struct Edit: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var from: PBTextNodePos?
    package var to: PBTextNodePos?
    package var createdAtMapByActor: [String: WireTimeTicket]
    package var content: String
    package var executedAt: WireTimeTicket?
    package var attributes: [String: String]
    package var restoreSpans: [PBRestoreSpan]
    package var restoreMode: PBRestoreMode
    package var retombstoneSpans: [PBRestoreSpan]

    package init(parentCreatedAt: WireTimeTicket? = nil, from: PBTextNodePos? = nil, to: PBTextNodePos? = nil,
                 createdAtMapByActor: [String: WireTimeTicket] = [:], content: String = "", executedAt: WireTimeTicket? = nil,
                 attributes: [String: String] = [:], restoreSpans: [PBRestoreSpan] = [], restoreMode: PBRestoreMode = .unspecified,
                 retombstoneSpans: [PBRestoreSpan] = []) {
      self.parentCreatedAt = parentCreatedAt
      self.from = from
      self.to = to
      self.createdAtMapByActor = createdAtMapByActor
      self.content = content
      self.executedAt = executedAt
      self.attributes = attributes
      self.restoreSpans = restoreSpans
      self.restoreMode = restoreMode
      self.retombstoneSpans = retombstoneSpans
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), from: try r.message("from"), to: try r.message("to"),
                createdAtMapByActor: try r.messageMap("createdAtMapByActor"), content: try r.string("content"),
                executedAt: try r.message("executedAt"), attributes: try r.stringMap("attributes"),
                restoreSpans: try r.repeated("restoreSpans"), restoreMode: try r.enumValue("restoreMode"),
                retombstoneSpans: try r.repeated("retombstoneSpans"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("from", from)
      w.message("to", to)
      w.messageMap("createdAtMapByActor", createdAtMapByActor)
      w.string("content", content)
      w.message("executedAt", executedAt)
      w.stringMap("attributes", attributes)
      w.repeated("restoreSpans", restoreSpans)
      w.enumValue("restoreMode", restoreMode)
      w.repeated("retombstoneSpans", retombstoneSpans)

    }
  }

  /// `Operation.Style`: set and remove attributes on a range of a text.
  package struct Style: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var from: PBTextNodePos?
    package var to: PBTextNodePos?
    package var attributes: [String: String]
    package var executedAt: WireTimeTicket?
    package var createdAtMapByActor: [String: WireTimeTicket]
    package var attributesToRemove: [String]

    package init(parentCreatedAt: WireTimeTicket? = nil, from: PBTextNodePos? = nil, to: PBTextNodePos? = nil,
                 attributes: [String: String] = [:], executedAt: WireTimeTicket? = nil,
                 createdAtMapByActor: [String: WireTimeTicket] = [:], attributesToRemove: [String] = []) {
      self.parentCreatedAt = parentCreatedAt
      self.from = from
      self.to = to
      self.attributes = attributes
      self.executedAt = executedAt
      self.createdAtMapByActor = createdAtMapByActor
      self.attributesToRemove = attributesToRemove
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), from: try r.message("from"), to: try r.message("to"),
                attributes: try r.stringMap("attributes"), executedAt: try r.message("executedAt"),
                createdAtMapByActor: try r.messageMap("createdAtMapByActor"), attributesToRemove: try r.strings("attributesToRemove"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("from", from)
      w.message("to", to)
      w.stringMap("attributes", attributes)
      w.message("executedAt", executedAt)
      w.messageMap("createdAtMapByActor", createdAtMapByActor)
      w.strings("attributesToRemove", attributesToRemove)

    }
  }

  /// `Operation.Increase`: add to a counter (`actor` only for deduplicating counters).
  package struct Increase: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var value: PBJSONElementSimple?
    package var executedAt: WireTimeTicket?
    package var actor: String

    package init(parentCreatedAt: WireTimeTicket? = nil, value: PBJSONElementSimple? = nil, executedAt: WireTimeTicket? = nil, actor: String = "") {
      self.parentCreatedAt = parentCreatedAt
      self.value = value
      self.executedAt = executedAt
      self.actor = actor
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), value: try r.message("value"), executedAt: try r.message("executedAt"),
                actor: try r.string("actor"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("value", value)
      w.message("executedAt", executedAt)
      w.string("actor", actor)

    }
  }

  /// `Operation.ArraySet`: replace the array element `createdAt`.
  package struct ArraySet: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var createdAt: WireTimeTicket?
    package var value: PBJSONElementSimple?
    package var executedAt: WireTimeTicket?

    package init(parentCreatedAt: WireTimeTicket? = nil, createdAt: WireTimeTicket? = nil, value: PBJSONElementSimple? = nil,
                 executedAt: WireTimeTicket? = nil) {
      self.parentCreatedAt = parentCreatedAt
      self.createdAt = createdAt
      self.value = value
      self.executedAt = executedAt
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), createdAt: try r.message("createdAt"), value: try r.message("value"),
                executedAt: try r.message("executedAt"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("createdAt", createdAt)
      w.message("value", value)
      w.message("executedAt", executedAt)

    }
  }

  /// `Operation.TreeEdit` (decoded and re-encoded; the SDK has no Tree yet).
  package struct TreeEdit: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var from: PBTreePos?
    package var to: PBTreePos?
    package var createdAtMapByActor: [String: WireTimeTicket]
    package var contents: [PBTreeNodes]
    package var executedAt: WireTimeTicket?
    package var splitLevel: Int32
    package var restoreSpans: [PBTreeRestoreSpan]
    package var restoreMode: PBRestoreMode
    package var retombstoneSpans: [PBTreeRestoreSpan]
    package var splitTickets: [WireTimeTicket]

    package init(parentCreatedAt: WireTimeTicket? = nil, from: PBTreePos? = nil, to: PBTreePos? = nil,
                 createdAtMapByActor: [String: WireTimeTicket] = [:], contents: [PBTreeNodes] = [], executedAt: WireTimeTicket? = nil,
                 splitLevel: Int32 = 0, restoreSpans: [PBTreeRestoreSpan] = [], restoreMode: PBRestoreMode = .unspecified,
                 retombstoneSpans: [PBTreeRestoreSpan] = [], splitTickets: [WireTimeTicket] = []) {
      self.parentCreatedAt = parentCreatedAt
      self.from = from
      self.to = to
      self.createdAtMapByActor = createdAtMapByActor
      self.contents = contents
      self.executedAt = executedAt
      self.splitLevel = splitLevel
      self.restoreSpans = restoreSpans
      self.restoreMode = restoreMode
      self.retombstoneSpans = retombstoneSpans
      self.splitTickets = splitTickets
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), from: try r.message("from"), to: try r.message("to"),
                createdAtMapByActor: try r.messageMap("createdAtMapByActor"), contents: try r.repeated("contents"),
                executedAt: try r.message("executedAt"), splitLevel: try r.int32("splitLevel"),
                restoreSpans: try r.repeated("restoreSpans"), restoreMode: try r.enumValue("restoreMode"),
                retombstoneSpans: try r.repeated("retombstoneSpans"), splitTickets: try r.repeated("splitTickets"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("from", from)
      w.message("to", to)
      w.messageMap("createdAtMapByActor", createdAtMapByActor)
      w.repeated("contents", contents)
      w.message("executedAt", executedAt)
      w.int32("splitLevel", splitLevel)
      w.repeated("restoreSpans", restoreSpans)
      w.enumValue("restoreMode", restoreMode)
      w.repeated("retombstoneSpans", retombstoneSpans)
      w.repeated("splitTickets", splitTickets)

    }
  }

  /// `Operation.TreeStyle` (decoded and re-encoded; the SDK has no Tree yet).
  package struct TreeStyle: WireMessage, ProtoJSONMessage {
    package var parentCreatedAt: WireTimeTicket?
    package var from: PBTreePos?
    package var to: PBTreePos?
    package var attributes: [String: String]
    package var executedAt: WireTimeTicket?
    package var attributesToRemove: [String]
    package var createdAtMapByActor: [String: WireTimeTicket]

    package init(parentCreatedAt: WireTimeTicket? = nil, from: PBTreePos? = nil, to: PBTreePos? = nil, attributes: [String: String] = [:],
                 executedAt: WireTimeTicket? = nil, attributesToRemove: [String] = [], createdAtMapByActor: [String: WireTimeTicket] = [:]) {
      self.parentCreatedAt = parentCreatedAt
      self.from = from
      self.to = to
      self.attributes = attributes
      self.executedAt = executedAt
      self.attributesToRemove = attributesToRemove
      self.createdAtMapByActor = createdAtMapByActor
    }

    package init(json: WireJSON, path: String) throws(YorkieError) {
      let r = try ProtoJSONReader(json, path: path)
      self.init(parentCreatedAt: try r.message("parentCreatedAt"), from: try r.message("from"), to: try r.message("to"),
                attributes: try r.stringMap("attributes"), executedAt: try r.message("executedAt"),
                attributesToRemove: try r.strings("attributesToRemove"), createdAtMapByActor: try r.messageMap("createdAtMapByActor"))
    }

    package var json: WireJSON { protoJSON }


    package func writeFields(to w: inout ProtoJSONWriter) {
      w.message("parentCreatedAt", parentCreatedAt)
      w.message("from", from)
      w.message("to", to)
      w.stringMap("attributes", attributes)
      w.message("executedAt", executedAt)
      w.strings("attributesToRemove", attributesToRemove)
      w.messageMap("createdAtMapByActor", createdAtMapByActor)

    }
  }
}
