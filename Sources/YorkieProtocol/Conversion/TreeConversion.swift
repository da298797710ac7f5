import CRDT
import Foundation

// Tree messages between the wire and the CRDT model: node identities, positions, attributes,
// nodes and node lists, restore spans, TreeEdit and TreeStyle, and the binary tree a
// VALUE_TYPE_TREE value carries. Decoding checks what the tree relies on and names the field
// that was wrong (`….treeEdit.contents[0].content[2].depth`); encoding cannot fail.

extension PBTreeNodeID {
  /// The wire form of a node identity.
  package init(_ id: TreeNodeID) {
    self.init(createdAt: WireTimeTicket(id.createdAt), offset: id.offset)
  }

  /// The identity: `createdAt` is required and the offset must not be negative.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeNodeID {
    guard offset >= 0 else { throw wireDataError(path() + ".offset", "must not be negative (\(offset))") }
    return TreeNodeID(createdAt: try createdAt.required(path() + ".createdAt"), offset: offset)
  }
}

extension Optional where Wrapped == PBTreeNodeID {
  /// The identity, which must be present.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeNodeID {
    guard let id = self else { throw wireDataError(path(), "is required") }
    return try id.model(path())
  }

  /// The identity, when present.
  package func optional(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeNodeID? {
    guard let id = self else { return nil }
    return try id.model(path())
  }
}

extension PBTreePos {
  /// The wire form of a tree position.
  package init(_ position: CRDTTreePos) {
    self.init(parentID: PBTreeNodeID(position.parentID), leftSiblingID: PBTreeNodeID(position.leftSiblingID))
  }
}

extension Optional where Wrapped == PBTreePos {
  /// The position, which must be present with both identities.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> CRDTTreePos {
    guard let position = self else { throw wireDataError(path(), "is required") }
    return CRDTTreePos(parentID: try position.parentID.required(path() + ".parentId"),
                       leftSiblingID: try position.leftSiblingID.required(path() + ".leftSiblingId"))
  }
}

extension PBNodeAttr {
  /// The wire form of an attribute (its key is the map's).
  package init(_ attribute: TreeAttributeRecord) {
    self.init(value: attribute.value, updatedAt: WireTimeTicket(attribute.updatedAt), isRemoved: attribute.isRemoved)
  }

  /// The attribute named `key`; `updatedAt` is required (Yorkie refuses an attribute without it).
  package func model(key: String, _ path: @autoclosure () -> String) throws(YorkieError) -> TreeAttributeRecord {
    TreeAttributeRecord(key: key, value: value, updatedAt: try updatedAt.required(path() + ".updatedAt"), isRemoved: isRemoved)
  }
}

/// The wire form of attributes: a map by key.
private func wireAttributes(_ attributes: [TreeAttributeRecord]) -> [String: PBNodeAttr] {
  var map: [String: PBNodeAttr] = [:]
  for attribute in attributes { map[attribute.key] = PBNodeAttr(attribute) }
  return map
}

/// Attributes from a wire map, in key order (a map has no order of its own; key order makes
/// every replica build the same records).
private func modelAttributes(_ map: [String: PBNodeAttr], _ path: () -> String) throws(YorkieError) -> [TreeAttributeRecord] {
  var attributes: [TreeAttributeRecord] = []
  attributes.reserveCapacity(map.count)
  for key in map.keys.sorted() {
    attributes.append(try map[key]!.model(key: key, "\(path()).attributes[\"\(key)\"]"))
  }
  return attributes
}

extension PBTreeNode {
  /// The wire form of one node of a post-order list.
  package init(_ record: TreeNodeRecord) {
    self.init(id: PBTreeNodeID(record.id), type: record.type, value: record.value, removedAt: record.removedAt.map(WireTimeTicket.init),
              insPrevID: record.insPrevID.map(PBTreeNodeID.init), insNextID: record.insNextID.map(PBTreeNodeID.init),
              depth: record.depth, attributes: wireAttributes(record.attributes),
              mergedFrom: record.mergedFrom.map(PBTreeNodeID.init), mergedAt: record.mergedAt.map(WireTimeTicket.init))
  }

  /// The node on its own; its place in the list is checked by ``PBTreeNodes/model(_:seen:)``.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeNodeRecord {
    TreeNodeRecord(id: try id.required(path() + ".id"), type: type, value: value, removedAt: try removedAt?.model(path() + ".removedAt"),
                   insPrevID: try insPrevID.optional(path() + ".insPrevId"), insNextID: try insNextID.optional(path() + ".insNextId"),
                   depth: depth, attributes: try modelAttributes(attributes, path),
                   mergedFrom: try mergedFrom.optional(path() + ".mergedFrom"), mergedAt: try mergedAt?.model(path() + ".mergedAt"))
  }
}

extension PBTreeNodes {
  /// The wire form of one subtree as a post-order list.
  package init(_ records: [TreeNodeRecord]) {
    self.init(content: records.map(PBTreeNode.init))
  }

  /// The subtree, checked as a whole (``TreeNodeRecord/checkPostOrder(_:seen:)``); `seen` holds
  /// the identities of the edit's earlier subtrees, which it must not repeat.
  package func model(_ path: @autoclosure () -> String, seen: inout Set<TreeNodeID>) throws(YorkieError) -> [TreeNodeRecord] {
    var records: [TreeNodeRecord] = []
    records.reserveCapacity(content.count)
    for (index, node) in content.enumerated() {
      records.append(try node.model("\(path()).content[\(index)]"))
    }
    do {
      try TreeNodeRecord.checkPostOrder(records, seen: &seen)
    } catch {
      throw wireDataError(error.path(in: path() + ".content"), error.reason)
    }
    return records
  }
}

extension PBTreeRestoreSpan {
  /// The wire form of a restore span.
  package init(_ span: TreeRestoreSpanRecord) {
    self.init(id: PBTreeNodeID(span.id), nodeType: span.nodeType, isText: span.isText, length: span.length, value: span.value,
              attributes: wireAttributes(span.attributes), parentID: span.parentID.map(PBTreeNodeID.init),
              leftSiblingID: span.leftSiblingID.map(PBTreeNodeID.init), rightSiblingID: span.rightSiblingID.map(PBTreeNodeID.init))
  }

  /// The span: an identity, `isText` agreeing with the node type, a text's `length` equal to
  /// its value's UTF-16 length, no text on an element, attributes with their tickets (Yorkie's
  /// `ErrInvalidRestoreSpan` cases).
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeRestoreSpanRecord {
    let id = try self.id.required(path() + ".id")
    guard !nodeType.isEmpty else { throw wireDataError(path() + ".nodeType", "is required") }
    guard isText == (nodeType == TreeNodeRecord.textType) else {
      throw wireDataError(path() + ".isText", "is \(isText) for a node of type \"\(nodeType)\"")
    }
    if isText {
      guard Int(length) == value.utf16.count else {
        throw wireDataError(path() + ".length", "\(length) is not the value's \(value.utf16.count) UTF-16 units")
      }
    } else {
      guard value.isEmpty else { throw wireDataError(path() + ".value", "an element node (\(nodeType)) cannot have text") }
      guard length >= 0 else { throw wireDataError(path() + ".length", "must not be negative (\(length))") }
    }
    return TreeRestoreSpanRecord(id: id, nodeType: nodeType, isText: isText, length: length, value: value,
                                 attributes: try modelAttributes(attributes, path), parentID: try parentID.optional(path() + ".parentId"),
                                 leftSiblingID: try leftSiblingID.optional(path() + ".leftSiblingId"),
                                 rightSiblingID: try rightSiblingID.optional(path() + ".rightSiblingId"))
  }
}

extension PBOperation.TreeEdit {
  /// The wire form of a TreeEdit (the deprecated `createdAtMapByActor` stays empty, as Yorkie
  /// v0.7 SDKs leave it).
  package init(_ edit: TreeEditPayload) {
    self.init(parentCreatedAt: WireTimeTicket(edit.parentCreatedAt), from: PBTreePos(edit.from), to: PBTreePos(edit.to),
              contents: edit.contents.map(PBTreeNodes.init), executedAt: WireTimeTicket(edit.executedAt), splitLevel: edit.splitLevel,
              restoreSpans: edit.restoreSpans.map(PBTreeRestoreSpan.init),
              restoreMode: PBRestoreMode(rawValue: edit.restoreMode.rawValue) ?? .unspecified,
              retombstoneSpans: edit.retombstoneSpans.map(PBTreeRestoreSpan.init),
              splitTickets: edit.splitTickets.map(WireTimeTicket.init))
  }

  /// The edit; `path` names this message (`….operations[0].treeEdit`). Required tickets and
  /// positions, a split level of at least 0 (`invalidSplitLevel`, Yorkie's `ErrInvalidSplitLevel`), well-formed
  /// subtrees whose nodes appear once, and restore spans only with a restore mode (and the
  /// reverse). The deprecated `createdAtMapByActor` is ignored.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeEditPayload {
    let parentCreatedAt = try self.parentCreatedAt.required(path() + ".parentCreatedAt")
    let from = try self.from.required(path() + ".from")
    let to = try self.to.required(path() + ".to")
    let executedAt = try self.executedAt.required(path() + ".executedAt")
    guard splitLevel >= 0 else {
      let field = path() + ".splitLevel"
      throw YorkieError(.invalidSplitLevel, "\(field): must not be negative (\(splitLevel))", field: field)
    }
    if restoreMode != .unspecified || !restoreSpans.isEmpty || !retombstoneSpans.isEmpty {
      // As for text: Yorkie's server refuses spans without a mode and a mode without spans.
      guard restoreMode != .unspecified, !(restoreSpans.isEmpty && retombstoneSpans.isEmpty) else {
        throw wireDataError(path() + ".restoreMode", "restore spans and a restore mode must come together")
      }
    }
    var seen = Set<TreeNodeID>()
    var contents: [[TreeNodeRecord]] = []
    contents.reserveCapacity(self.contents.count)
    for (index, subtree) in self.contents.enumerated() {
      contents.append(try subtree.model("\(path()).contents[\(index)]", seen: &seen))
    }
    var splitTickets: [TimeTicket] = []
    splitTickets.reserveCapacity(self.splitTickets.count)
    for (index, ticket) in self.splitTickets.enumerated() {
      splitTickets.append(try ticket.model("\(path()).splitTickets[\(index)]"))
    }
    return TreeEditPayload(parentCreatedAt: parentCreatedAt, from: from, to: to, contents: contents, splitLevel: splitLevel,
                           executedAt: executedAt, splitTickets: splitTickets,
                           restoreSpans: try Self.spans(restoreSpans, path() + ".restoreSpans"),
                           restoreMode: RestoreMode(rawValue: restoreMode.rawValue) ?? .unspecified,
                           retombstoneSpans: try Self.spans(retombstoneSpans, path() + ".retombstoneSpans"))
  }

  private static func spans(_ spans: [PBTreeRestoreSpan], _ path: String) throws(YorkieError) -> [TreeRestoreSpanRecord] {
    var result: [TreeRestoreSpanRecord] = []
    result.reserveCapacity(spans.count)
    for (index, span) in spans.enumerated() { result.append(try span.model("\(path)[\(index)]")) }
    return result
  }
}

extension PBOperation.TreeStyle {
  /// The wire form of a TreeStyle.
  package init(_ style: TreeStylePayload) {
    self.init(parentCreatedAt: WireTimeTicket(style.parentCreatedAt), from: PBTreePos(style.from), to: PBTreePos(style.to),
              attributes: style.attributes, executedAt: WireTimeTicket(style.executedAt), attributesToRemove: style.attributesToRemove)
  }

  /// The style; `path` names this message (`….operations[0].treeStyle`). Tickets and positions
  /// are required; the deprecated `createdAtMapByActor` is ignored.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TreeStylePayload {
    TreeStylePayload(parentCreatedAt: try parentCreatedAt.required(path() + ".parentCreatedAt"), from: try from.required(path() + ".from"),
                     to: try to.required(path() + ".to"), attributes: attributes, attributesToRemove: attributesToRemove,
                     executedAt: try executedAt.required(path() + ".executedAt"))
  }
}

extension PBJSONElementSimple {
  /// The wire form of a new tree a Set or Add carries: `VALUE_TYPE_TREE` with the whole tree as
  /// a binary JSONElement.
  package init(tree: DecodedTree) {
    let meta = tree.meta
    self.init(createdAt: WireTimeTicket(meta.createdAt), movedAt: meta.movedAt.map(WireTimeTicket.init),
              removedAt: meta.removedAt.map(WireTimeTicket.init), type: .tree, value: TreeCodec.jsonElementData(tree))
  }

  /// The tree a `VALUE_TYPE_TREE` value carries (`path` names this value, `….set.value`): the
  /// payload is required and must be a JSONElement holding a well-formed tree created at the
  /// value's own `createdAt`. Errors from the binary name their field below `path.value`.
  package func treeModel(_ path: @autoclosure () -> String) throws(YorkieError) -> DecodedTree {
    let createdAt = try self.createdAt.required(path() + ".createdAt")
    guard type == .tree else { throw wireDataError(path() + ".type", "is \(type), not a tree") }
    guard !value.isEmpty else { throw wireDataError(path() + ".value", "a tree value must carry its tree") }
    let tree: DecodedTree
    do {
      tree = try TreeCodec.decodeTree(jsonElementData: value)
    } catch {
      // The codec names its field below the JSONElement; place it below this value.
      guard let error = error as? YorkieError else { throw wireDataError(path() + ".value", "\(error)") }
      let field = error.field.map { path() + ".value." + $0 } ?? path() + ".value"
      throw YorkieError(.invalidWireData, "\(field): \(error.message)", field: field, underlying: error)
    }
    guard tree.meta.createdAt == createdAt else {
      throw wireDataError(path() + ".value.tree.createdAt", "\(tree.meta.createdAt) differs from the value's createdAt \(createdAt)")
    }
    return tree
  }
}
