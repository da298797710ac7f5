import CRDT
import Foundation

// The canonical decoder's tree operations (TreeMessages.swift, `Operation.TreeEdit` and
// `Operation.TreeStyle`): read in canonical form only, as CanonicalDecoder.swift reads the
// rest, with the same primitives, so that a push of tree edits does not fall back to the tree.
// Each reader takes the fields the message's `init(json:path:)` takes, under the same names;
// anything else bails out. Like a text edit's, a tree edit's undo fields (`restoreSpans`,
// `restoreMode`, `retombstoneSpans`) go through the tree: they are rare and their rules live
// in one place. A `VALUE_TYPE_TREE` value needs nothing here: it is a JSONElementSimple whose
// bytes are base64 like every other value's.

extension WireJSONParser {
  private mutating func treeNodeID() -> PBTreeNodeID {
    var id = PBTreeNodeID()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return id }
    while let key = nextKey(&first) {
      switch key {
      case "createdAt": mark(&seen, 1); id.createdAt = timeTicket()
      case "offset": mark(&seen, 2); id.offset = int32Value()
      default: bailed = true
      }
    }
    return id
  }

  private mutating func treePos() -> PBTreePos {
    var position = PBTreePos()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return position }
    while let key = nextKey(&first) {
      switch key {
      case "parentId": mark(&seen, 1); position.parentID = treeNodeID()
      case "leftSiblingId": mark(&seen, 2); position.leftSiblingID = treeNodeID()
      default: bailed = true
      }
    }
    return position
  }

  private mutating func nodeAttr() -> PBNodeAttr {
    var attribute = PBNodeAttr()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return attribute }
    while let key = nextKey(&first) {
      switch key {
      case "value": mark(&seen, 1); attribute.value = stringValue()
      case "updatedAt": mark(&seen, 2); attribute.updatedAt = timeTicket()
      case "isRemoved": mark(&seen, 4); attribute.isRemoved = boolValue()
      default: bailed = true
      }
    }
    return attribute
  }

  /// A node's attributes by key; a repeated key bails out (the tree keeps the last).
  private mutating func nodeAttrMap() -> [String: PBNodeAttr] {
    var map: [String: PBNodeAttr] = [:]
    var first = true
    guard beginObject() else { return map }
    while let key = nextKey(&first) {
      if map.updateValue(nodeAttr(), forKey: key) != nil { bailed = true }
    }
    return map
  }

  private mutating func treeNode() -> PBTreeNode {
    var node = PBTreeNode()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return node }
    while let key = nextKey(&first) {
      switch key {
      case "id": mark(&seen, 1); node.id = treeNodeID()
      case "type": mark(&seen, 2); node.type = stringValue()
      case "value": mark(&seen, 4); node.value = stringValue()
      case "removedAt": mark(&seen, 8); node.removedAt = timeTicket()
      case "insPrevId": mark(&seen, 16); node.insPrevID = treeNodeID()
      case "insNextId": mark(&seen, 32); node.insNextID = treeNodeID()
      case "depth": mark(&seen, 64); node.depth = int32Value()
      case "attributes": mark(&seen, 128); node.attributes = nodeAttrMap()
      case "mergedFrom": mark(&seen, 256); node.mergedFrom = treeNodeID()
      case "mergedAt": mark(&seen, 512); node.mergedAt = timeTicket()
      default: bailed = true
      }
    }
    return node
  }

  /// One inserted subtree: its nodes in post-order.
  private mutating func treeNodes() -> PBTreeNodes {
    var nodes = PBTreeNodes()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return nodes }
    while let key = nextKey(&first) {
      switch key {
      case "content":
        mark(&seen, 1)
        var content: [PBTreeNode] = []
        array { d in content.append(d.treeNode()) }
        nodes.content = content
      default: bailed = true
      }
    }
    return nodes
  }

  mutating func treeEditOperation() -> PBOperation.TreeEdit {
    var op = PBOperation.TreeEdit()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "from": mark(&seen, 2); op.from = treePos()
      case "to": mark(&seen, 4); op.to = treePos()
      case "createdAtMapByActor": mark(&seen, 8); op.createdAtMapByActor = ticketMap()
      case "contents":
        mark(&seen, 16)
        var contents: [PBTreeNodes] = []
        array { d in contents.append(d.treeNodes()) }
        op.contents = contents
      case "executedAt": mark(&seen, 32); op.executedAt = timeTicket()
      case "splitLevel": mark(&seen, 64); op.splitLevel = int32Value()
      case "splitTickets":
        mark(&seen, 128)
        var tickets: [WireTimeTicket] = []
        array { d in tickets.append(d.timeTicket()) }
        op.splitTickets = tickets
      default: bailed = true  // restore spans and modes (undo) go through the tree
      }
    }
    return op
  }

  mutating func treeStyleOperation() -> PBOperation.TreeStyle {
    var op = PBOperation.TreeStyle()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "from": mark(&seen, 2); op.from = treePos()
      case "to": mark(&seen, 4); op.to = treePos()
      case "attributes": mark(&seen, 8); op.attributes = stringMap()
      case "executedAt": mark(&seen, 16); op.executedAt = timeTicket()
      case "attributesToRemove": mark(&seen, 32); op.attributesToRemove = strings()
      case "createdAtMapByActor": mark(&seen, 64); op.createdAtMapByActor = ticketMap()
      default: bailed = true
      }
    }
    return op
  }
}
