import CRDT
import Foundation

// Yorkie's Tree messages. The SDK has no Tree element yet; these decode and re-encode what a
// server or another SDK sends, so that such traffic is understood and reported precisely.

/// `TreeNodeID`.
package struct PBTreeNodeID: WireMessage, ProtoJSONMessage {
  package var createdAt: WireTimeTicket?
  package var offset: Int32

  package init(createdAt: WireTimeTicket? = nil, offset: Int32 = 0) {
    self.createdAt = createdAt
    self.offset = offset
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(createdAt: try r.message("createdAt"), offset: try r.int32("offset"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("createdAt", createdAt)
    w.int32("offset", offset)

  }
}

/// `TreePos`: a parent and the left sibling (the parent itself: first child).
package struct PBTreePos: WireMessage, ProtoJSONMessage {
  package var parentID: PBTreeNodeID?
  package var leftSiblingID: PBTreeNodeID?

  package init(parentID: PBTreeNodeID? = nil, leftSiblingID: PBTreeNodeID? = nil) {
    self.parentID = parentID
    self.leftSiblingID = leftSiblingID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(parentID: try r.message("parentId"), leftSiblingID: try r.message("leftSiblingId"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("parentId", parentID)
    w.message("leftSiblingId", leftSiblingID)

  }
}

/// `NodeAttr`: an attribute value with its LWW ticket.
package struct PBNodeAttr: WireMessage, ProtoJSONMessage {
  package var value: String
  package var updatedAt: WireTimeTicket?
  package var isRemoved: Bool

  package init(value: String = "", updatedAt: WireTimeTicket? = nil, isRemoved: Bool = false) {
    self.value = value
    self.updatedAt = updatedAt
    self.isRemoved = isRemoved
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(value: try r.string("value"), updatedAt: try r.message("updatedAt"), isRemoved: try r.bool("isRemoved"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("value", value)
    w.message("updatedAt", updatedAt)
    w.bool("isRemoved", isRemoved)

  }
}

/// `TreeNode`, one node of a post-order node list.
package struct PBTreeNode: WireMessage, ProtoJSONMessage {
  package var id: PBTreeNodeID?
  package var type: String
  package var value: String
  package var removedAt: WireTimeTicket?
  package var insPrevID: PBTreeNodeID?
  package var insNextID: PBTreeNodeID?
  package var depth: Int32
  package var attributes: [String: PBNodeAttr]
  package var mergedFrom: PBTreeNodeID?
  package var mergedAt: WireTimeTicket?

  package init(id: PBTreeNodeID? = nil, type: String = "", value: String = "", removedAt: WireTimeTicket? = nil,
               insPrevID: PBTreeNodeID? = nil, insNextID: PBTreeNodeID? = nil, depth: Int32 = 0,
               attributes: [String: PBNodeAttr] = [:], mergedFrom: PBTreeNodeID? = nil, mergedAt: WireTimeTicket? = nil) {
    self.id = id
    self.type = type
    self.value = value
    self.removedAt = removedAt
    self.insPrevID = insPrevID
    self.insNextID = insNextID
    self.depth = depth
    self.attributes = attributes
    self.mergedFrom = mergedFrom
    self.mergedAt = mergedAt
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.message("id"), type: try r.string("type"), value: try r.string("value"), removedAt: try r.message("removedAt"),
              insPrevID: try r.message("insPrevId"), insNextID: try r.message("insNextId"), depth: try r.int32("depth"),
              attributes: try r.messageMap("attributes"), mergedFrom: try r.message("mergedFrom"), mergedAt: try r.message("mergedAt"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("id", id)
    w.string("type", type)
    w.string("value", value)
    w.message("removedAt", removedAt)
    w.message("insPrevId", insPrevID)
    w.message("insNextId", insNextID)
    w.int32("depth", depth)
    w.messageMap("attributes", attributes)
    w.message("mergedFrom", mergedFrom)
    w.message("mergedAt", mergedAt)

  }
}

/// `TreeNodes`: one inserted subtree.
package struct PBTreeNodes: WireMessage, ProtoJSONMessage {
  package var content: [PBTreeNode]

  package init(content: [PBTreeNode] = []) { self.content = content }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(content: try ProtoJSONReader(json, path: path).repeated("content"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.repeated("content", content)

  }
}

/// `TreeRestoreSpan` (tree undo/redo, Yorkie v0.7.14+).
package struct PBTreeRestoreSpan: WireMessage, ProtoJSONMessage {
  package var id: PBTreeNodeID?
  package var nodeType: String
  package var isText: Bool
  package var length: Int32
  package var value: String
  package var attributes: [String: PBNodeAttr]
  package var parentID: PBTreeNodeID?
  package var leftSiblingID: PBTreeNodeID?
  package var rightSiblingID: PBTreeNodeID?

  package init(id: PBTreeNodeID? = nil, nodeType: String = "", isText: Bool = false, length: Int32 = 0, value: String = "",
               attributes: [String: PBNodeAttr] = [:], parentID: PBTreeNodeID? = nil, leftSiblingID: PBTreeNodeID? = nil,
               rightSiblingID: PBTreeNodeID? = nil) {
    self.id = id
    self.nodeType = nodeType
    self.isText = isText
    self.length = length
    self.value = value
    self.attributes = attributes
    self.parentID = parentID
    self.leftSiblingID = leftSiblingID
    self.rightSiblingID = rightSiblingID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.message("id"), nodeType: try r.string("nodeType"), isText: try r.bool("isText"), length: try r.int32("length"),
              value: try r.string("value"), attributes: try r.messageMap("attributes"), parentID: try r.message("parentId"),
              leftSiblingID: try r.message("leftSiblingId"), rightSiblingID: try r.message("rightSiblingId"))
  }

  package var json: WireJSON { protoJSON }


  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("id", id)
    w.string("nodeType", nodeType)
    w.bool("isText", isText)
    w.int32("length", length)
    w.string("value", value)
    w.messageMap("attributes", attributes)
    w.message("parentId", parentID)
    w.message("leftSiblingId", leftSiblingID)
    w.message("rightSiblingId", rightSiblingID)

  }
}
