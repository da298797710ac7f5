/// A fixed-size set of small integers, one bit each.
struct BitSet: Sendable, Hashable {
  /// The bits, 64 to a word.
  private var words: [UInt64]

  /// An empty set for the integers `0..<count`.
  init(count: Int) {
    words = [UInt64](repeating: 0, count: (count + 63) / 64)
  }

  /// Adds `index`.
  mutating func insert(_ index: Int) {
    words[index >> 6] |= 1 << UInt64(index & 63)
  }

  /// Whether `index` is in the set.
  func contains(_ index: Int) -> Bool {
    words[index >> 6] & (1 << UInt64(index & 63)) != 0
  }
}
