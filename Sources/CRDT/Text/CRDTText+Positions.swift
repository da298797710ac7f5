// Visible indexes and the positions that name them in a text.
extension CRDTText {
  // MARK: Positions

  /// The position of visible `index` (0...length). A boundary belongs to the piece on its left.
  package func position(at textIndex: Int) -> TextPosition? {
    guard textIndex >= 0, textIndex <= length else { return nil }
    if textIndex == 0 { return TextPosition(id: id(of: CRDTText.head), relativeOffset: 0) }
    if nearEdit.version == index.version {
      // A boundary belongs to the piece on its left: offsets 1...length of a live piece.
      if let position = position(at: textIndex, inPiece: nearEdit.first, startingAt: nearEdit.firstStart) { return position }
      if let position = position(at: textIndex, inPiece: nearEdit.second, startingAt: nearEdit.secondStart) { return position }
    }
    guard let found = index.find(textIndex, inclusiveEnd: true) else { return nil }
    return TextPosition(id: id(of: found.handle), relativeOffset: Int32(found.offset), hint: found.handle)
  }

  /// The position of visible `textIndex` when it falls in the live piece `handle` (which starts
  /// at visible `start`), by the rule of ``position(at:)``.
  @inline(__always) private func position(at textIndex: Int, inPiece handle: Int32, startingAt start: Int) -> TextPosition? {
    guard handle > 0 else { return nil }
    let offset = textIndex - start
    guard offset > 0 && offset <= Int(arena[Int(handle)].length) else { return nil }
    return TextPosition(id: id(of: handle), relativeOffset: Int32(offset), hint: handle)
  }

  /// The visible index of `position`. A position on a piece boundary resolves to the end of the
  /// piece on its left — the piece it names — for both ends of a range, so converting an index
  /// to a position and back always gives the index again. (The JS SDK resolves a range's start
  /// to the piece on the right, which differs when text was inserted between the two halves of a
  /// split piece.)
  package func index(of position: TextPosition, preferLeft: Bool = true) -> Int? {
    let absolute = position.absoluteID
    guard let handle = floorPreferringLeft(absolute) else { return nil }
    if handle == CRDTText.head { return 0 }
    let node = arena[Int(handle)]
    let offset = node.isRemoved ? 0 : Int(absolute.offset - node.offset)
    return index.offset(of: handle) + offset
  }

  /// The piece of the insertion `id.createdAt` whose range starts at or before `id.offset`.
  package func floorPiece(_ id: TextNodeID) -> Int32? {
    if id.createdAt == .initial && id.offset == 0 { return CRDTText.head }
    guard var handle = firstPiece(of: id.createdAt), arena[Int(handle)].offset <= id.offset else { return nil }
    while true {
      let next = arena[Int(handle)].insNext
      if next < 0 || arena[Int(next)].offset > id.offset { return handle }
      handle = next
    }
  }

  /// The piece a position falls in, preferring the piece on the left at a boundary; uses the
  /// position's hint when it still names a piece that holds the offset.
  @inline(__always) func resolve(_ position: TextPosition) -> Int32? {
    let hint = position.hint
    if hint > 0, Int(hint) < arena.count, piece(hint, is: position.id),
      position.relativeOffset > 0, position.relativeOffset <= arena[Int(hint)].length {
      return hint
    }
    return floorPreferringLeft(position.absoluteID)
  }

  /// As ``floorPiece(_:)``, but a position exactly at the start of a split part refers to the
  /// end of the part before it (Yorkie's `findFloorNodePreferToLeft`).
  package func floorPreferringLeft(_ id: TextNodeID) -> Int32? {
    guard let handle = floorPiece(id) else { return nil }
    if id.offset > 0, arena[Int(handle)].offset == id.offset, arena[Int(handle)].insPrev >= 0 {
      return arena[Int(handle)].insPrev
    }
    return handle
  }
}
