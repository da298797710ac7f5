/// Building trees and subtrees from post-order node lists (snapshots, TreeEdit contents) and
/// from the public ``TreeNode``, and exporting them again.
extension CRDTTree {
  /// Builds a tree from a post-order node list whose last record is the root.
  ///
  /// - Throws: `invalidTreeContent` for a malformed list (see ``buildSubtree(_:)``).
  package convenience init(records: [TreeNodeRecord], createdAt: TimeTicket) throws(YorkieError) {
    let root = try CRDTTree.buildSubtree(records)
    guard !root.isText else { throw YorkieError(.invalidTreeContent, "the root of a tree is an element, not text") }
    self.init(root: root, createdAt: createdAt, nodeCount: records.count)
  }

  /// Builds one detached subtree from a post-order node list (children before their parent,
  /// depths relative to the list's root, the root last at depth 0), in linear time.
  ///
  /// - Throws: `invalidTreeContent` for an empty list, a depth that does not nest, more than one
  ///   root, a text piece with children or without text, or an identity used twice.
  package static func buildSubtree(_ records: [TreeNodeRecord]) throws(YorkieError) -> CRDTTreeNode {
    guard let last = records.last, last.depth == 0 else {
      throw YorkieError(.invalidTreeContent, "a node list ends with its root, at depth 0")
    }
    // Pending nodes with their depth; the children of a node at depth d are the run of
    // entries at depth d + 1 on top of the stack when it arrives.
    var stack: [(node: CRDTTreeNode, depth: Int32)] = []
    var seen = Set<TreeNodeID>()
    seen.reserveCapacity(records.count)
    for (position, record) in records.enumerated() {
      guard record.depth >= 0 else { throw YorkieError(.invalidTreeContent, "node \(position) has a negative depth") }
      guard seen.insert(record.id).inserted else {
        throw YorkieError(.invalidTreeContent, "the node \(record.id) appears twice")
      }
      var start = stack.count
      while start > 0 && stack[start - 1].depth == record.depth + 1 { start -= 1 }
      if start > 0 && stack[start - 1].depth > record.depth + 1 {
        throw YorkieError(.invalidTreeContent, "node \(position) skips a level (depth \(record.depth))")
      }
      let node = try makeNode(record)
      if start < stack.count {
        guard !node.isText else { throw YorkieError(.invalidTreeContent, "the text node \(record.id) has children") }
        node.setChildren(stack[start...].map(\.node))
        stack.removeSubrange(start...)
      }
      stack.append((node, record.depth))
    }
    guard stack.count == 1 else { throw YorkieError(.invalidTreeContent, "a node list has one root, found \(stack.count)") }
    return stack[0].node
  }

  private static func makeNode(_ record: TreeNodeRecord) throws(YorkieError) -> CRDTTreeNode {
    let node: CRDTTreeNode
    if record.isText {
      guard !record.value.isEmpty else { throw YorkieError(.invalidTreeContent, "the text node \(record.id) is empty") }
      guard record.attributes.isEmpty else { throw YorkieError(.invalidTreeContent, "the text node \(record.id) has attributes") }
      node = CRDTTreeNode(id: record.id, text: record.value)
    } else {
      guard !record.type.isEmpty else { throw YorkieError(.invalidTreeContent, "the element \(record.id) has no type") }
      node = CRDTTreeNode(id: record.id, type: record.type, attributes: record.attributes.isEmpty ? nil : TreeAttributes(record.attributes))
    }
    node.removedAt = record.removedAt
    node.insPrevID = record.insPrevID
    node.insNextID = record.insNextID
    node.mergedFrom = record.mergedFrom
    node.mergedAt = record.mergedAt
    node.recomputeSubtree()
    return node
  }

  /// The whole tree as a post-order node list (the snapshot form).
  package func toRecords() -> [TreeNodeRecord] { CRDTTree.records(of: root) }

  /// A subtree as a post-order node list, tombstones included.
  package static func records(of subtree: CRDTTreeNode) -> [TreeNodeRecord] {
    var result: [TreeNodeRecord] = []
    subtree.forEachPostOrder { node, depth in
      result.append(TreeNodeRecord(
        id: node.id, type: node.type, value: node.value, removedAt: node.removedAt, insPrevID: node.insPrevID,
        insNextID: node.insNextID, depth: Int32(depth), attributes: node.attributes?.entries ?? [],
        mergedFrom: node.mergedFrom, mergedAt: node.mergedAt))
    }
    return result
  }

  /// Builds a detached subtree from a public ``TreeNode`` for a local edit: `issue` gives each
  /// node its ticket, parents before children (as Yorkie's JS SDK issues them); attribute
  /// values are stored JSON-encoded.
  ///
  /// - Throws: `invalidTreeContent` for an empty text or an element without a type.
  package static func buildSubtree(_ value: TreeNode, issue: () -> TimeTicket) throws(YorkieError) -> CRDTTreeNode {
    switch value {
    case .text(let text):
      guard !text.isEmpty else { throw YorkieError(.invalidTreeContent, "a text node cannot be empty") }
      return CRDTTreeNode(id: TreeNodeID(createdAt: issue()), text: text)
    case .element(let type, let attributes, let children):
      guard !type.isEmpty, type != TreeNodeRecord.textType else {
        throw YorkieError(.invalidTreeContent, "an element needs a type other than \"text\", got \"\(type)\"")
      }
      let ticket = issue()
      var table: TreeAttributes?
      if !attributes.isEmpty {
        var entries = TreeAttributes()
        // Sorted keys: a dictionary's own order differs between processes.
        for key in attributes.keys.sorted() {
          _ = entries.set(key, TreeJSON.stringify(attributes[key]!), at: ticket)
        }
        table = entries
      }
      let node = CRDTTreeNode(id: TreeNodeID(createdAt: ticket), type: type, attributes: table)
      var built: [CRDTTreeNode] = []
      for child in children { built.append(try buildSubtree(child, issue: issue)) }
      node.setChildren(built)
      node.recomputeSubtree()
      return node
    }
  }
}
