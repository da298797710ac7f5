/// Undo records of an object, kept by ``Journal``.
extension CRDTObject {
  package enum Undo {
    /// Undoes a Set in one record: forgets the tombstone the Set registered (reviving the
    /// evicted winner), forgets the new element and its subtree, and gives the key back to the
    /// previous winner. Both elements are named by creation ticket: a Set is the hot path of
    /// objects, and tickets cost no reference counting. They are found again because members
    /// leave an object only by garbage collection, which never runs inside a transaction, and
    /// by the undo of their own Set, which runs after every record made after it.
    case set(element: TimeTicket, previousWinner: TimeTicket?, tombstone: SetTombstone)
    /// Undoes a Set's taking out of the member that held the identity it restores (see
    /// `Operation+Set.swift`): puts the member back, registered as it was. Boxed: rare, and
    /// every record would pay for its size.
    indirect case restoredOver(RestoredHolder)
  }

  /// A member a Set restoring its identity took out of the object, for rollback.
  package struct RestoredHolder {
    package let element: CRDTElement
    package let key: String
    package let wasWinner: Bool
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
    case .set(let createdAt, let previousCreatedAt, let tombstone):
      guard let element = element(createdAt: createdAt), let key = key(of: createdAt) else {
        preconditionFailure("object \(self.createdAt) lost the member \(createdAt) its Set record names")
      }
      var previousWinner: CRDTElement?
      if let previousCreatedAt {
        guard let previous = self.element(createdAt: previousCreatedAt) else {
          preconditionFailure("object \(self.createdAt) lost the member \(previousCreatedAt) its Set record names")
        }
        previousWinner = previous
      }
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
      if element.kind.isRegistered { root.deregister(element) }
      purge(element)
      restoreWinner(key, previousWinner)
    case .restoredOver(let holder):
      reinsert(holder.element, key: holder.key, asWinner: holder.wasWinner)
      root.reattach(holder.element, parent: self)
    }
  }
}
