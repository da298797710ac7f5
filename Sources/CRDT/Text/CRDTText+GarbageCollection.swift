// Garbage collection of a text: which removed pieces every replica has seen, and purging them.
extension CRDTText {
  // MARK: Garbage collection

  /// The removed pieces, for rebuilding the GC registry after a snapshot.
  package var removedPieces: [Int32] { pieces.filter { arena[Int($0)].isRemoved } }

  /// The piece with this id, exactly. `hint` is a handle it may be at.
  package func piece(withID id: TextNodeID, hint: Int32 = -1) -> Int32? {
    if hint > 0, Int(hint) < arena.count, piece(hint, is: id) { return hint }
    guard let handle = floorPiece(id), handle != CRDTText.head, arena[Int(handle)].offset == id.offset else { return nil }
    return handle
  }

  /// Whether purging piece `handle` cannot change where a future insertion lands (see
  /// ``CRDTArray/isSafeToPurge(_:_:allCovered:)``: the run of newer pieces after it must be
  /// known to every replica).
  package func isSafeToPurge(_ handle: Int32, _ minSyncedVersionVector: VersionVector) -> Bool {
    let createdAt = arena[Int(handle)].createdAt
    var next = arena[Int(handle)].next
    while next >= 0 && isAfter(arena[Int(next)].createdAt, createdAt) {
      if !minSyncedVersionVector.covers(unpack(arena[Int(next)].createdAt)) { return false }
      next = arena[Int(next)].next
    }
    return true
  }

  /// ``isSafeToPurge(_:_:)`` for every piece at once, indexed by handle: one pass over the
  /// list instead of one walk per piece (a walk can cross the whole text when it was typed in
  /// order). A piece's run ends at the first later piece whose ticket is not newer (next
  /// smaller-or-equal, by a stack); it is safe when no uncovered piece comes before that end.
  /// Purging pieces does not change the answer for the others: a purged piece's creation is
  /// known to every replica, since its removal is.
  package func safeToPurge(_ minSyncedVersionVector: VersionVector) -> [Bool] {
    var order: [Int32] = []
    var handle = arena[Int(CRDTText.head)].next
    while handle >= 0 {
      order.append(handle)
      handle = arena[Int(handle)].next
    }
    let n = order.count
    var result = [Bool](repeating: false, count: arena.count)
    var firstUncovered = n  // the first uncovered position after the one being looked at
    var stack: [Int] = []   // positions to the right, tickets increasing from bottom to top... popped while newer
    for i in stride(from: n - 1, through: 0, by: -1) {
      let ticket = arena[Int(order[i])].createdAt
      while let top = stack.last, isAfter(arena[Int(order[top])].createdAt, ticket) { stack.removeLast() }
      let runEnd = stack.last ?? n
      result[Int(order[i])] = firstUncovered >= runEnd
      stack.append(i)
      if !minSyncedVersionVector.covers(unpack(ticket)) { firstUncovered = i }
    }
    return result
  }

  /// Physically deletes a removed piece.
  package func purge(_ handle: Int32) {
    let node = arena[Int(handle)]
    if node.insPrev >= 0 { arena[Int(node.insPrev)].insNext = node.insNext }
    if node.insNext >= 0 { arena[Int(node.insNext)].insPrev = node.insPrev }
    if firstPiece(of: node.createdAt) == handle {
      if node.insNext >= 0 { setFirstPiece(node.createdAt, node.insNext) } else { removeFirstPiece(node.createdAt) }
    }
    releaseAttributes(node.attributes)
    unlink(handle)
  }

  /// Deletes an attribute tombstone.
  package func purgeAttribute(_ handle: Int32, key: String, removedAt: TimeTicket) -> Bool {
    let set = arena[Int(handle)].attributes
    guard set >= 0 else { return false }
    return attributeSets[Int(set)].purge(key, removedAt: removedAt)
  }
}
