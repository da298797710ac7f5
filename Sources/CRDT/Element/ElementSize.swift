// The sizes of the element kinds that hold no nodes of their own (``ElementCapabilities/ownSize()``);
// texts and trees count theirs in `CRDTText+Size.swift` and `CRDTTree+Size.swift`.

extension CRDTObject {
  /// Its tickets: its members are elements of their own.
  package func ownSize() -> DocSize { DocSize(live: ticketsSize) }
}

extension CRDTArray {
  /// Its tickets, and the dead positions moves left behind (garbage: a position's id and its
  /// removal, as Yorkie's `RGATreeListNode.getDataSize`). Live positions cost nothing: their
  /// element's tickets stand for them.
  package func ownSize() -> DocSize {
    var size = DocSize(live: ticketsSize)
    for handle in deadPositions { size.gc += deadPositionSize(handle) }
    return size
  }

  /// What the dead position `handle` costs: its id, and its removal when it has one.
  package func deadPositionSize(_ handle: Int32) -> DataSize {
    DataSize(meta: DataSize.ticket * (nodes[Int(handle)].removedAt == nil ? 1 : 2))
  }
}

extension CRDTCounter {
  /// Its tickets and its value: 4 bytes for an Integer, 8 for a Long (a deduplicating counter
  /// counts the same: Yorkie counts the value, not the registers).
  package func ownSize() -> DocSize {
    var size = ticketsSize
    switch value {
    case .int: size.data = 4
    case .long: size.data = 8
    }
    return DocSize(live: size)
  }
}
