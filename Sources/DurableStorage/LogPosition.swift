extension DurableLog {
  /// A point in a log: the end of the records written by one ``DurableLog/append(_:)`` call, to hand
  /// to ``DurableLog/sync(through:)``.
  ///
  /// Positions are ordered by ``generation`` first, then ``offset``. Each
  /// ``DurableLog/rewrite(with:)`` starts a new generation, whose file is durable in full when the
  /// rewrite returns: every position of an earlier generation is therefore already covered.
  package struct Position: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// How many rewrites the log had gone through when the position was taken (since it was
    /// opened).
    package var generation: Int
    /// The byte offset in the file just after the records.
    package var offset: Int

    /// The position `offset` in generation `generation`.
    package init(generation: Int, offset: Int) {
      self.generation = generation
      self.offset = offset
    }

    /// Whether `lhs` comes before `rhs`: an earlier generation, or the same one and a smaller
    /// offset.
    package static func < (lhs: Position, rhs: Position) -> Bool {
      (lhs.generation, lhs.offset) < (rhs.generation, rhs.offset)
    }

    /// `"3@1234"`: generation, then offset.
    package var description: String { "\(generation)@\(offset)" }
  }
}
