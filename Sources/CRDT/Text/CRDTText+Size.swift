// The size of a text as Yorkie counts it (``ElementCapabilities/ownSize()``), and the tally its
// edits keep of how they change it.
//
// A piece costs 2 bytes per UTF-16 code unit, its id, and its removal when removed; each of its
// style attributes its key and value and its update ticket (``DataSize/attribute(key:value:)``).
// A live piece is live with its live attributes, a removed one garbage with all of them; a
// removed attribute is garbage wherever it sits. The head piece is no content and costs nothing.
extension CRDTText {
  /// Its tickets and its pieces.
  package func ownSize() -> DocSize {
    var size = DocSize(live: ticketsSize)
    var handle = arena[Int(CRDTText.head)].next
    while handle >= 0 {
      let piece = arena[Int(handle)]
      size += pieceSize(piece)
      handle = piece.next
    }
    return size
  }

  /// What `piece` costs, attributes included.
  @inline(__always) func pieceSize(_ piece: Piece) -> DocSize {
    var own = DataSize(data: Int(piece.length) &* 2, meta: piece.isRemoved ? 2 * DataSize.ticket : DataSize.ticket)
    var garbage = DataSize.zero
    if piece.attributes >= 0 {
      for entry in attributeSets[Int(piece.attributes)].entries {
        let size = DataSize.attribute(key: entry.key, value: entry.value)
        if entry.isRemoved { garbage += size } else { own += size }
      }
    }
    return piece.isRemoved ? DocSize(live: .zero, gc: own + garbage) : DocSize(live: own, gc: garbage)
  }

  /// What piece `handle` costs (garbage collection takes it out of the document's size).
  package func pieceSize(_ handle: Int32) -> DocSize { pieceSize(arena[Int(handle)]) }

  /// What the tombstone of attribute `key` of piece `handle` costs, if it is removed at
  /// `removedAt` (garbage collection purges exactly that one).
  package func attributeTombstoneSize(_ handle: Int32, key: String, removedAt: TimeTicket) -> DataSize? {
    guard let entry = attributes(of: handle)?.entries.first(where: { $0.key == key }),
      entry.isRemoved, entry.updatedAt == removedAt else { return nil }
    return DataSize.attribute(key: entry.key, value: entry.value)
  }
}
