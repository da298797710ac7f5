// The shape rules of a post-order tree node list, shared by the binary codec (a tree in a
// snapshot or a Set value) and the Connect JSON conversions (the subtrees of a TreeEdit), so
// both refuse the same input and name the same field.

/// What is wrong with a post-order node list: the record, its field and why.
package struct TreeNodeListDefect: Error, Hashable, Sendable {
  /// The offending record's index, or nil when the list as a whole is wrong (it is empty).
  package var index: Int?
  /// The record's field (`"depth"`, `"type"`, `"value"`, `"attributes"`, `"id"`).
  package var field: String?
  /// What is wrong, for humans.
  package var reason: String

  /// The defect's path below a list named `list`: `nodes[3].depth`, or `nodes` itself.
  package func path(in list: String) -> String {
    guard let index else { return list }
    return field.map { "\(list)[\(index)].\($0)" } ?? "\(list)[\(index)]"
  }
}

extension TreeNodeRecord {
  /// Checks that `records` is a well-formed tree in post order, as Yorkie writes it: the root
  /// last and the only node at depth 0, each node at most one level deeper than the node after
  /// it (its parent or its right sibling's subtree), no child under a text node, text without
  /// attributes, elements without text, a type on every node, no identity twice.
  ///
  /// `seen` holds identities met before (an edit's earlier subtrees); the list's own are added.
  /// Read backwards, a post-order list with these depths is a pre-order walk that visits the
  /// last child first, which is why each rule compares a node with the one after it.
  ///
  /// - Complexity: O(*n*) in the number of records and their attributes.
  package static func checkPostOrder(_ records: [TreeNodeRecord], seen: inout Set<TreeNodeID>) throws(TreeNodeListDefect) {
    guard let root = records.last else { throw emptyList }
    let last = records.count - 1
    try checkRoot(depth: root.depth, at: last)
    for (index, record) in records.enumerated() {
      try checkNode(record, at: index)
      guard seen.insert(record.id).inserted else { throw duplicate(record.id, at: index) }
      guard index < last else { break }
      let next = records[index + 1]
      try checkNeighbours(depth: record.depth, at: index, next: next)
    }
  }

  /// The defect of a list without nodes.
  static let emptyList = TreeNodeListDefect(index: nil, field: nil, reason: "a node list must not be empty")

  /// The rule for the last node, at `index`: it is the root, at depth 0.
  static func checkRoot(depth: Int32, at index: Int) throws(TreeNodeListDefect) {
    guard depth == 0 else {
      throw TreeNodeListDefect(index: index, field: "depth", reason: "the last node is the root and must have depth 0, not \(depth)")
    }
  }

  /// The rules between the node at `index` (not the last) and the node after it: only the last
  /// node is at depth 0, a node is at most one level below the next, and the next is not a
  /// text node with this one as its child.
  static func checkNeighbours(depth: Int32, at index: Int, next: TreeNodeRecord) throws(TreeNodeListDefect) {
    guard depth >= 1 else {
      throw TreeNodeListDefect(index: index, field: "depth", reason: "only the last node (the root) may have depth \(depth)")
    }
    // In Int: a depth of Int32.max plus one would trap.
    guard Int(depth) <= Int(next.depth) + 1 else {
      throw TreeNodeListDefect(index: index, field: "depth",
                               reason: "depth \(depth) is more than one level below the next node's \(next.depth)")
    }
    if Int(depth) == Int(next.depth) + 1, next.isText {
      throw TreeNodeListDefect(index: index + 1, field: "type", reason: "a text node cannot have children (node \(index) is one)")
    }
  }

  /// The defect of an identity met before, at `index`.
  static func duplicate(_ id: TreeNodeID, at index: Int) -> TreeNodeListDefect {
    TreeNodeListDefect(index: index, field: "id", reason: "node \(id) appears twice")
  }

  /// The rules for one node on its own.
  static func checkNode(_ record: TreeNodeRecord, at index: Int) throws(TreeNodeListDefect) {
    guard !record.type.isEmpty else { throw TreeNodeListDefect(index: index, field: "type", reason: "a node needs a type") }
    guard record.id.offset >= 0 else {
      throw TreeNodeListDefect(index: index, field: "id.offset", reason: "an offset must not be negative (\(record.id.offset))")
    }
    if record.isText {
      guard record.attributes.isEmpty else {
        throw TreeNodeListDefect(index: index, field: "attributes", reason: "a text node cannot have attributes")
      }
    } else {
      guard record.value.isEmpty else {
        throw TreeNodeListDefect(index: index, field: "value", reason: "an element node (\(record.type)) cannot have text")
      }
    }
    var keys = Set<String>()
    for attribute in record.attributes where !keys.insert(attribute.key).inserted {
      throw TreeNodeListDefect(index: index, field: "attributes", reason: "attribute \"\(attribute.key)\" appears twice")
    }
  }
}
