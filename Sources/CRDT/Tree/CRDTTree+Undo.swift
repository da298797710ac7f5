/// Undo records of a tree, kept by ``Journal`` and by the ordering log: each reverses one step
/// of an edit or style exactly, its size too (``sizeTally``: a rewind inside an operation
/// changes the tree, and the operation charges the difference) (the treap's shape may differ afterwards; the order, sums and
/// links do not), and undoing one returns the record that reverses the undo (how a rewind of
/// the ordering log is itself journaled).
extension CRDTTree {
  package enum Undo {
    /// Joins the split-off text piece `right` back into `left`, which held `leftValue`.
    case splitText(left: CRDTTreeNode, right: CRDTTreeNode, leftValue: String)
    /// Splits `left` again (it holds `leftValue` then), `right` going back right after it: the
    /// reverse of undoing ``splitText(left:right:leftValue:)``.
    case joinedText(left: CRDTTreeNode, right: CRDTTreeNode, leftValue: String)
    /// Unlinks a node (and its subtree) that the transaction inserted, and unregisters it.
    case inserted(CRDTTreeNode)
    /// Links an unlinked node (and its subtree) back into `parent` after `after` (first when
    /// nil), registering it: the reverse of undoing ``inserted(_:)``.
    case unlinked(CRDTTreeNode, parent: CRDTTreeNode?, after: CRDTTreeNode?)
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
    /// Undoes a change of the ordering log (never kept in the log itself).
    case order(OrderUndo)
  }

  /// Applies one undo record, returning the record that reverses what it did.
  @discardableResult
  package func undo(_ record: Undo) -> Undo {
    switch record {
    case .splitText(let left, let right, let leftValue):
      let inverse = Undo.joinedText(left: left, right: right, leftValue: left.value)
      right.parent?.removeChild(right)
      unregister(right)
      tallying(left) {
        left.value = leftValue
        left.length = leftValue.utf16.count
      }
      left.propagateSizeChange()
      return inverse
    case .joinedText(let left, let right, let leftValue):
      let inverse = Undo.splitText(left: left, right: right, leftValue: left.value)
      tallying(left) {
        left.value = leftValue
        left.length = leftValue.utf16.count
      }
      left.parent!.insertChild(right, after: left)
      CRDTTreeNode.recomputeUp(from: left)
      register(right)
      return inverse
    case .inserted(let node):
      let parent = node.parent
      let after = node.previousSibling
      if let parent {
        parent.removeChild(node)
        parent.propagateSizeChange()
      }
      node.forEachPostOrder { descendant, _ in self.unregister(descendant) }
      return .unlinked(node, parent: parent, after: after)
    case .unlinked(let node, let parent, let after):
      if let parent {
        parent.insertChild(node, after: after)
        parent.propagateSizeChange()
      }
      node.forEachPostOrder { descendant, _ in self.register(descendant) }
      return .inserted(node)
    case .moved(let node, let source, let previous, let mergedFrom, let mergedAt):
      let inverse = Undo.moved(node, from: node.parent!, after: node.previousSibling, mergedFrom: node.mergedFrom, mergedAt: node.mergedAt)
      if let parent = node.parent {
        parent.removeChild(node)
        parent.propagateSizeChange()
      }
      source.insertChild(node, after: previous)
      source.propagateSizeChange()
      node.mergedFrom = mergedFrom
      node.mergedAt = mergedAt
      return inverse
    case .removedAt(let node, let removedAt):
      let inverse = Undo.removedAt(node, node.removedAt)
      tallying(node) { node.removedAt = removedAt }
      node.propagateSizeChange()
      return inverse
    case .attributes(let node, let attributes):
      let inverse = Undo.attributes(node, node.attributes)
      tallying(node) { node.attributes = attributes }
      return inverse
    case .insLinks(let node, let previous, let next):
      let inverse = Undo.insLinks(node, previous: node.insPrevID, next: node.insNextID)
      node.insPrevID = previous
      node.insNextID = next
      return inverse
    case .mergedInto(let node, let target):
      let inverse = Undo.mergedInto(node, node.mergedInto)
      node.mergedInto = target
      return inverse
    case .order(let change):
      undoOrder(change)
      return record  // never reversed: the ordering log is only rolled back
    }
  }
}
