/// The identity of a piece of text: the ticket of the edit that inserted it and the UTF-16
/// offset of the piece within that insertion (splitting an insertion makes pieces with
/// increasing offsets).
package struct TextNodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
  package var createdAt: TimeTicket
  package var offset: Int32

  package init(createdAt: TimeTicket, offset: Int32) {
    self.createdAt = createdAt
    self.offset = offset
  }

  package static func < (lhs: TextNodeID, rhs: TextNodeID) -> Bool {
    lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : lhs.offset < rhs.offset
  }

  package var description: String { "\(createdAt):\(offset)" }
}

/// A place in a text that survives concurrent edits: a piece of text and an offset inside it.
///
/// Shared cursors and selections travel as positions: convert a local index range with
/// ``JSONText/indexRangeToPosRange(_:)`` and back with ``JSONText/posRangeToIndexRange(_:)``.
public struct TextPosition: Hashable, Sendable, CustomStringConvertible {
  package var id: TextNodeID
  package var relativeOffset: Int32
  /// The arena handle of the piece `id` when this replica made the position: a hint checked
  /// before use, never encoded and ignored by equality.
  package var hint: Int32 = -1

  package init(id: TextNodeID, relativeOffset: Int32, hint: Int32 = -1) {
    self.id = id
    self.relativeOffset = relativeOffset
    self.hint = hint
  }

  /// Positions are equal when they name the same piece and offset.
  public static func == (lhs: TextPosition, rhs: TextPosition) -> Bool {
    lhs.id == rhs.id && lhs.relativeOffset == rhs.relativeOffset
  }

  /// Hashes the piece and offset.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(relativeOffset)
  }

  /// Creates a position from its wire parts (`TextNodePos`: createdAt, offset, relativeOffset).
  public init(createdAt: TimeTicket, offset: Int32, relativeOffset: Int32) {
    self.init(id: TextNodeID(createdAt: createdAt, offset: offset), relativeOffset: relativeOffset)
  }

  /// The ticket of the insertion the position points into.
  public var createdAt: TimeTicket { id.createdAt }
  /// The offset of the piece within that insertion.
  public var offset: Int32 { id.offset }

  /// The position in absolute terms: the offset inside the original insertion.
  package var absoluteID: TextNodeID {
    TextNodeID(createdAt: id.createdAt, offset: id.offset + relativeOffset)
  }

  /// Yorkie's test notation: `lamport:actor:delimiter:offset:relativeOffset`.
  public var description: String { "\(id.createdAt):\(id.offset):\(relativeOffset)" }
}
