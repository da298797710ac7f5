/// Undo records of a text, kept by ``Journal``: they name pieces by handle, which stays valid
/// while the transaction runs (a handle is reused only after garbage collection or after the
/// record that freed it was undone).
extension CRDTText {
  package enum Undo {
    /// Merges the piece `right` back into `left`, which it was split off.
    case split(left: Int32, right: Int32)
    /// Gives a piece back the removal ticket it had.
    case removal(Int32, TimeTicket?)
    /// Unlinks the pieces `first...last`, inserted in that order with nothing else recorded in
    /// between (typing: one record per run of insertions).
    case unlinkInserted(first: Int32, last: Int32)
    /// Gives a piece back the attributes it had.
    case attributes(Int32, TextAttributes?)
    /// Undoes the recreation of a purged piece by a restore: unlinks it from the text and from
    /// its insertion's chain.
    case recreated(Int32)
    /// Gives a piece back the liveness steps it had (CRDTText+Liveness.swift).
    case liveness(Int32, [LivenessStep]?)
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo) {
    switch record {
    case .split(let left, let right):
      undoSplit(left, right)
    case .removal(let handle, let removedAt):
      restoreRemoved(handle, removedAt)
    case .unlinkInserted(let first, let last):
      var handle = last
      while handle >= first {
        undoInsert(handle)
        handle -= 1
      }
    case .attributes(let handle, let attributes):
      restoreAttributes(handle, attributes)
    case .recreated(let handle):
      purge(handle)
    case .liveness(let handle, let steps):
      restoreLivenessSteps(handle, steps)
    }
  }

  /// Merges a split back (rollback only): `right` must be `left`'s split-off part.
  private func undoSplit(_ left: Int32, _ right: Int32) {
    let rightNode = arena[Int(right)]
    arena[Int(left)].length += rightNode.length
    arena[Int(left)].insNext = rightNode.insNext
    if rightNode.insNext >= 0 { arena[Int(rightNode.insNext)].insPrev = left }
    releaseAttributes(rightNode.attributes)
    unlink(right)
    if !arena[Int(left)].isRemoved { index.setWeight(left, Int(arena[Int(left)].length)) }
  }

  /// Removes an inserted piece (rollback only).
  private func undoInsert(_ handle: Int32) {
    let node = arena[Int(handle)]
    if firstPiece(of: node.createdAt) == handle { removeFirstPiece(node.createdAt) }
    releaseAttributes(node.attributes)
    unlink(handle)
  }

  /// Restores a piece's removal state (rollback only).
  private func restoreRemoved(_ handle: Int32, _ removedAt: TimeTicket?) {
    setRemovedAt(handle, removedAt)
    index.setWeight(handle, removedAt == nil ? Int(arena[Int(handle)].length) : 0)
  }

  /// Restores a piece's attributes (rollback only).
  private func restoreAttributes(_ handle: Int32, _ attributes: TextAttributes?) {
    if let attributes {
      setAttributes(handle, attributes)
    } else {
      releaseAttributes(arena[Int(handle)].attributes)
      arena[Int(handle)].attributes = -1
    }
  }
}
