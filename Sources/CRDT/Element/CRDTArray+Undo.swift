/// Undo records of an array, kept by ``Journal``.
extension CRDTArray {
  package enum Undo {
    /// Gives an element back the removal ticket it had, and its weight in the index.
    case restoreElement(CRDTElement, removedAt: TimeTicket?)
    /// Unlinks a node the transaction inserted (the element stays registered).
    case unlink(CRDTElement)
    /// Undoes an insertion: unlinks the element and forgets it (and its subtree). The element
    /// is named by creation ticket (an append is the hot path of arrays, and a ticket costs no
    /// reference counting); it is found again because an element leaves an array only by
    /// garbage collection, never inside a transaction, or by this undo.
    case insert(TimeTicket)
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
    case .insert(let createdAt):
      guard let element = element(createdAt: createdAt) else {
        preconditionFailure("array \(self.createdAt) lost the element \(createdAt) its insert record names")
      }
      root.deregister(element)
      purge(element)
    case .move(let result):
      undoMove(result)
    }
  }
}
