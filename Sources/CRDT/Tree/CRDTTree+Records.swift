/// Building trees and subtrees from post-order node lists (snapshots, TreeEdit contents) and
/// from the public ``TreeNode``, and exporting them again.
extension CRDTTree {
  /// Builds a tree from a post-order node list whose last record is the root (a
  /// ``TreeLoader`` checks it against the wire's list rules while building).
  ///
  /// - Throws: `invalidTreeContent` for a list that breaks a rule of
  ///   ``TreeNodeRecord/checkPostOrder(_:seen:)``, an empty text, or a text root.
  package convenience init(records: [TreeNodeRecord], createdAt: TimeTicket) throws(YorkieError) {
    var loader = TreeLoader(expectedCount: records.count)
    let nodes: TreeLoader.Nodes
    do throws(TreeLoader.Failure) {
      for record in records { try loader.add(record) }
      nodes = try loader.finish()
    } catch {
      throw error.treeContentError
    }
    self.init(loaded: nodes, createdAt: createdAt)
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
      // In Int: a depth of Int32.max plus one would trap.
      let childDepth = Int(record.depth) + 1
      var start = stack.count
      while start > 0 && Int(stack[start - 1].depth) == childDepth { start -= 1 }
      if start > 0 && Int(stack[start - 1].depth) > childDepth {
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

  static func makeNode(_ record: TreeNodeRecord) throws(YorkieError) -> CRDTTreeNode {
    let node: CRDTTreeNode
    if record.isText {
      guard !record.value.isEmpty else { throw YorkieError(.invalidTreeContent, "the text node \(record.id) is empty") }
      guard record.attributes.isEmpty else { throw YorkieError(.invalidTreeContent, "the text node \(record.id) has attributes") }
      node = CRDTTreeNode(id: record.id, text: record.value)
    } else {
      guard !record.type.isEmpty else { throw YorkieError(.invalidTreeContent, "the element \(record.id) has no type") }
      node = CRDTTreeNode(id: record.id, type: record.type, attributes: record.attributes.isEmpty ? nil : TreeAttributes(record.attributes))
    }
    node.takeRecordedState(of: record)
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

extension CRDTTreeNode {
  /// Takes a record's removal and its split and merge links: what a node made just now from
  /// the record's identity, type, text and attributes still lacks (its own are all nil).
  ///
  /// Only the links a record has are written: the link fields are checked for exclusive
  /// access at run time, and writing nil over nil cost 6% of loading a tree of 60,001 nodes
  /// (`crdt-bench tree_snapshot_30000`, perf), where few records have any.
  func takeRecordedState(of record: TreeNodeRecord) {
    removedAt = record.removedAt
    if let id = record.insPrevID { insPrevID = id }
    if let id = record.insNextID { insNextID = id }
    if let id = record.mergedFrom { mergedFrom = id }
    if let ticket = record.mergedAt { mergedAt = ticket }
  }
}
