/// Undo records of an array, kept by ``Journal``.
extension CRDTArray {
  package enum Undo {
    /// Gives an element back the removal ticket it had, and its weight in the index.
    case restoreElement(CRDTElement, removedAt: TimeTicket?)
    /// Unlinks a node the transaction inserted (the element stays registered).
    case unlink(CRDTElement)
    /// Undoes an insertion: unlinks the element and forgets it (and its subtree).
    case insert(CRDTElement)
    /// Undoes a move.
    case move(MoveResult)
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo, root: CRDTRoot) {
    switch record {
    case .restoreElement(let element, let old):
      restore(element, removedAt: old)
    case .unlink(let element):
      purge(element)
    case .insert(let element):
      root.deregister(element)
      purge(element)
    case .move(let result):
      undoMove(result)
    }
  }
}
