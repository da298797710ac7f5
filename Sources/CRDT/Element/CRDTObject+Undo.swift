/// Undo records of an object, kept by ``Journal``.
extension CRDTObject {
  package enum Undo {
    /// Undoes a Set in one record: forgets the tombstone the Set registered (reviving the
    /// evicted winner), forgets the new element and its subtree, and gives the key back to the
    /// previous winner.
    case set(key: String, element: CRDTElement, previousWinner: CRDTElement?, tombstone: SetTombstone)
  }

  /// Which element an object Set turned into a tombstone.
  package enum SetTombstone: UInt8 {
    /// None: the key was free, or its winner was already removed.
    case none
    /// The previous winner, which the new element evicted.
    case previousWinner
    /// The new element itself, which lost to a newer concurrent Set.
    case element
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo, root: CRDTRoot) {
    switch record {
    case .set(let key, let element, let previousWinner, let tombstone):
      switch tombstone {
      case .none:
        break
      case .previousWinner:
        if let previousWinner {
          root.unregisterRemoved(previousWinner.createdAt)
          previousWinner.removedAt = nil
        }
      case .element:
        root.unregisterRemoved(element.createdAt)
      }
      if !(element is CRDTPrimitive) { root.deregister(element) }
      purge(element)
      restoreWinner(key, previousWinner)
    }
  }
}
