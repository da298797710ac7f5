// The size of a tree as Yorkie counts it (``ElementCapabilities/ownSize()``), and the tally its
// edits keep of how they change it.
//
// A node costs its id, its removal when removed, and a text node 2 bytes per UTF-16 code unit;
// each attribute its key and value and its update ticket (``DataSize/attribute(key:value:)``).
// A live node is live with its live attributes, a removed one garbage with all of them; a
// removed attribute is garbage wherever it sits. Every registered node counts, the root
// element included, and a detached tombstone until garbage collection purges it.
extension CRDTTree {
  /// Its tickets and its nodes.
  package func ownSize() -> DocSize {
    var size = DocSize(live: ticketsSize)
    for node in nodesByID.values { size += CRDTTree.nodeSize(node) }
    return size
  }

  /// What `node` costs, attributes included.
  package static func nodeSize(_ node: CRDTTreeNode) -> DocSize {
    let removed = node.isRemoved
    var own = DataSize(data: node.isText ? node.value.utf16.count * 2 : 0, meta: removed ? 2 * DataSize.ticket : DataSize.ticket)
    var garbage = DataSize.zero
    for entry in node.attributes?.entries ?? [] {
      let size = DataSize.attribute(key: entry.key, value: entry.value)
      if entry.isRemoved { garbage += size } else { own += size }
    }
    return removed ? DocSize(live: .zero, gc: own + garbage) : DocSize(live: own, gc: garbage)
  }

  /// What the tombstone of attribute `key` of `node` costs, if it is removed at `removedAt`
  /// (garbage collection purges exactly that one).
  package static func attributeTombstoneSize(of node: CRDTTreeNode, key: String, removedAt: TimeTicket) -> DataSize? {
    guard let entry = node.attributes?.entry(key), entry.isRemoved, entry.updatedAt == removedAt else { return nil }
    return DataSize.attribute(key: entry.key, value: entry.value)
  }

  /// Runs `change`, which changes `node` in place (its removal, its text, its attributes), and
  /// adds what that did to the node's size to ``sizeTally``.
  @inline(__always) func tallying(_ node: CRDTTreeNode, _ change: () -> Void) {
    let before = CRDTTree.nodeSize(node)
    change()
    sizeTally += CRDTTree.nodeSize(node) - before
  }
}
