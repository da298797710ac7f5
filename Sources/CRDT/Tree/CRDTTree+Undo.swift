/// Undo records of a tree, kept by ``Journal``: each reverses one step of an edit or style
/// exactly (the treap's shape may differ afterwards; the order, sums and links do not).
extension CRDTTree {
  package enum Undo {
    /// Joins the split-off text piece `right` back into `left`, which held `leftValue`.
    case splitText(left: CRDTTreeNode, right: CRDTTreeNode, leftValue: String)
    /// Unlinks a node (and its subtree) that the transaction inserted, and unregisters it.
    case inserted(CRDTTreeNode)
    /// Puts a moved node back into `from` after `after` (first when nil), with its merge marks.
    case moved(CRDTTreeNode, from: CRDTTreeNode, after: CRDTTreeNode?, mergedFrom: TreeNodeID?, mergedAt: TimeTicket?)
    /// Gives a node back its removal ticket.
    case removedAt(CRDTTreeNode, TimeTicket?)
    /// Gives an element back its attribute table.
    case attributes(CRDTTreeNode, TreeAttributes?)
    /// Gives a node back its split-chain links.
    case insLinks(CRDTTreeNode, previous: TreeNodeID?, next: TreeNodeID?)
    /// Gives a merge source back its forwarding pointer.
    case mergedInto(CRDTTreeNode, TreeNodeID?)
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo) {
    switch record {
    case .splitText(let left, let right, let leftValue):
      right.parent?.removeChild(right)
      unregister(right)
      left.value = leftValue
      left.length = leftValue.utf16.count
      left.propagateSizeChange()
    case .inserted(let node):
      if let parent = node.parent {
        parent.removeChild(node)
        parent.propagateSizeChange()
      }
      node.forEachPostOrder { descendant, _ in self.unregister(descendant) }
    case .moved(let node, let source, let previous, let mergedFrom, let mergedAt):
      if let parent = node.parent {
        parent.removeChild(node)
        parent.propagateSizeChange()
      }
      source.insertChild(node, after: previous)
      source.propagateSizeChange()
      node.mergedFrom = mergedFrom
      node.mergedAt = mergedAt
    case .removedAt(let node, let removedAt):
      node.removedAt = removedAt
      node.propagateSizeChange()
    case .attributes(let node, let attributes):
      node.attributes = attributes
    case .insLinks(let node, let previous, let next):
      node.insPrevID = previous
      node.insNextID = next
    case .mergedInto(let node, let target):
      node.mergedInto = target
    }
  }
}
