/// Garbage collection of a tree: removed nodes and removed attributes, purged once every
/// replica has seen their removal (the caller decides, with its version vectors).
extension CRDTTree {
  /// Every tombstone of the tree (Yorkie's `getGCPairs`), for registering them after a
  /// snapshot load.
  package func gcPairs() -> [TreeGCPair] {
    var pairs: [TreeGCPair] = []
    root.forEachPostOrder { node, _ in
      if node.isRemoved { pairs.append(.node(node)) }
      for entry in node.attributes?.entries ?? [] where entry.isRemoved {
        pairs.append(.attribute(node, key: entry.key, removedAt: entry.updatedAt))
      }
    }
    return pairs
  }

  /// Purges a removed node physically (Yorkie's `purge`): it leaves its parent and the
  /// registry, and its split-chain neighbours are linked to each other. Its own children stay
  /// with it (each is a tombstone purged by its own pair).
  ///
  /// - Returns: false when the node is live or no longer registered (nothing changes).
  @discardableResult
  package func purge(_ node: CRDTTreeNode) -> Bool {
    guard node.isRemoved, nodesByID[node.id] === node else { return false }
    // Its children wait for their own pairs without a parent: `parent` is unowned, and nothing
    // keeps the purged node alive (purging a child later read the freed node and crashed).
    node.forEachChild { $0.parent = nil }
    node.parent?.removeChild(node)
    unregister(node)
    let previousID = node.insPrevID
    let nextID = node.insNextID
    if let previousID, let previous = floorNode(previousID) { previous.insNextID = nextID }
    if let nextID, let next = floorNode(nextID) { next.insPrevID = previousID }
    node.insPrevID = nil
    node.insNextID = nil
    return true
  }

  /// Purges the tombstone of attribute `key` of `node` removed at `removedAt`.
  ///
  /// - Returns: false when the entry is no longer that tombstone (a newer style replaced it).
  @discardableResult
  package func purgeAttribute(of node: CRDTTreeNode, key: String, removedAt: TimeTicket) -> Bool {
    guard var table = node.attributes, table.purge(key, removedAt: removedAt) else { return false }
    node.attributes = table
    return true
  }
}
