/// A run of characters of one text insertion, named by identity for a restore (Yorkie's undo/redo edit):
/// the UTF-16 offsets `start..<end` inside the insertion created at `createdAt`, with a copy
/// of the content (and attributes) so that a piece garbage collection purged can be recreated.
package struct RestoreSpan: Sendable, Equatable {
  /// The ticket of the insertion the characters belong to.
  package var createdAt: TimeTicket
  /// The first UTF-16 offset inside the insertion.
  package var start: Int32
  /// The UTF-16 offset past the last character (`end - start` is the content's UTF-16 length).
  package var end: Int32
  /// The characters, as they were inserted.
  package var content: String
  /// The attributes to give a recreated piece (JSON-encoded values, as on the wire).
  package var attributes: [String: String]

  /// Creates a span.
  package init(createdAt: TimeTicket, start: Int32, end: Int32, content: String, attributes: [String: String] = [:]) {
    self.createdAt = createdAt
    self.start = start
    self.end = end
    self.content = content
    self.attributes = attributes
  }
}
