/// Undo records of the root's bookkeeping (the registry and the garbage), kept by ``Journal``.
extension CRDTRoot {
  package enum Undo {
    /// Forgets an element (and everything below it) that the transaction registered.
    case deregister(CRDTElement)
    /// Forgets the tombstone created at this ticket that the transaction registered.
    case unregisterRemoved(TimeTicket)
    /// Forgets the GC pair of a dead array position (kept inline).
    case unregisterPositionGCPair(CRDTElement, TimeTicket)
    /// Forgets any other GC pair. Boxed: a key is 72 bytes, and every record would pay for it.
    indirect case unregisterGCPair(GCPairKey)
    /// Puts back a GC pair that a newer one replaced (rare; boxed like `unregisterGCPair`).
    indirect case restoreGCPair(GCPair)
    /// Gives the document back the size it had before the transaction's first change of it
    /// (see ``Journal/noteSizeChange(_:)``).
    case size(DocSize)
    /// Gives a restored copy's entry back what it was (see `CRDTRoot+RestoredCopies.swift`).
    case restoredCopy(TimeTicket, TimeTicket?)
    /// Gives a skipped creation's entry back what it was (see `CRDTRoot+RestoredCopies.swift`).
    case skippedCreation(TimeTicket, TimeTicket?)
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo) {
    switch record {
    case .deregister(let element):
      deregister(element)
    case .unregisterRemoved(let createdAt):
      unregisterRemoved(createdAt)
    case .unregisterPositionGCPair(let array, let id):
      unregisterGCPair(GCPairKey(parent: array.createdAt, child: .arrayPosition(id)))
    case .unregisterGCPair(let key):
      unregisterGCPair(key)
    case .restoreGCPair(let pair):
      registerGCPair(pair)
    case .size(let size):
      self.size = size
    case .restoredCopy(let copy, let placedAt):
      restoredCopies[copy] = placedAt
    case .skippedCreation(let createdAt, let placedAt):
      skippedCreations[createdAt] = placedAt
    }
  }
}
