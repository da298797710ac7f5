/// A key of a ``PieceTable``: equality plus a well-mixed 32-bit hash.
package protocol PieceTableKey: Equatable {
  /// The key's hash; the table keeps it as the slot's tag.
  var pieceTableTag: UInt32 { get }
}

/// The first piece of every insertion of a text: insertion ticket → piece handle.
///
/// A text holds one entry per insertion (a keystroke is one), so this table is as large as the
/// text's arena. It keeps 8 bytes a slot — a 32-bit hash tag and the handle — instead of the
/// ticket: the key is the ticket of the piece the handle names, read from the arena (through
/// `keyOf`) only when a tag matches. Home slots and rehashing use the tag alone, so growing
/// never touches the arena. Linear probing with backward-shift removal, load at most 13/16 (a
/// probe compares tags alone, so longer probes stay cheap, and the table is a large part of a
/// text's memory); past 4,096 entries the table splits into 64 by the tag's top bits, so that growing rehashes a
/// 64th of the entries at a time (no long stall on one edit).
///
/// Invariant (the caller's): every entry's key is `keyOf(handle)`, and an entry is removed
/// before its piece leaves the arena.
package struct PieceTable<Key: PieceTableKey> {
  private struct Shard {
    /// `tag << 32 | (handle + 1)`; 0 is an empty slot.
    var slots: [UInt64]
    var count = 0

    init(capacity: Int) { slots = Array(repeating: 0, count: capacity) }

    @inline(__always) var mask: Int { slots.count - 1 }
  }

  private var shards: [Shard] = [Shard(capacity: 8)]
  private var isSplit = false

  package init() {}

  /// A table sized for `expectedCount` entries from the start (a snapshot's text fills it at
  /// once: no rehashing on the way).
  package init(expectedCount: Int) {
    func capacity(for count: Int) -> Int {
      var capacity = 8
      while capacity * 7 < count * 10 { capacity <<= 1 }
      return capacity
    }
    if expectedCount >= 1 << 12 {
      isSplit = true
      shards = (0..<64).map { _ in Shard(capacity: capacity(for: expectedCount / 64 + 1)) }
    } else {
      shards = [Shard(capacity: capacity(for: expectedCount))]
    }
  }

  /// The number of entries.
  package var count: Int { shards.reduce(0) { $0 + $1.count } }

  /// Bytes held by the slots.
  package var memoryFootprint: Int { shards.reduce(0) { $0 + $1.slots.capacity * 8 } }

  @inline(__always) private static func tag(_ key: Key) -> UInt32 { key.pieceTableTag }

  @inline(__always) private func shardIndex(_ tag: UInt32) -> Int { isSplit ? Int(tag >> 26) : 0 }

  @inline(__always) private static func pack(_ tag: UInt32, _ handle: Int32) -> UInt64 {
    UInt64(tag) << 32 | UInt64(UInt32(bitPattern: handle &+ 1))
  }

  @inline(__always) private static func handle(_ slot: UInt64) -> Int32 {
    Int32(bitPattern: UInt32(truncatingIfNeeded: slot)) &- 1
  }

  /// The slot holding `key`, or the empty slot where it would go.
  ///
  /// This and the writes below index a shard's slots through unsafe buffer pointers (no bounds
  /// check in release builds). Safe by the shard's invariants, set up only where its slots are
  /// allocated: the slot count is a power of two, so `& mask` is always an index, and the load
  /// stays at most 1/2 (insertions grow first), so every probe meets an empty slot (0) and ends.
  /// The PieceTable tests run under AddressSanitizer in CI.
  @inline(__always) private func find(_ key: Key, _ tag: UInt32, in shard: Int,
                                      _ keyOf: (Int32) -> Key) -> (slot: Int, found: Bool) {
    shards[shard].slots.withUnsafeBufferPointer { slots in
      let mask = slots.count - 1
      var index = Int(tag) & mask
      while true {
        let slot = slots[index]
        if slot == 0 { return (index, false) }
        if UInt32(truncatingIfNeeded: slot >> 32) == tag && keyOf(Self.handle(slot)) == key { return (index, true) }
        index = (index + 1) & mask
      }
    }
  }

  /// The handle stored for `key`.
  package func value(_ key: Key, keyOf: (Int32) -> Key) -> Int32? {
    let tag = Self.tag(key)
    let shard = shardIndex(tag)
    let (slot, found) = find(key, tag, in: shard, keyOf)
    return found ? Self.handle(shards[shard].slots[slot]) : nil
  }

  /// Sets the handle of `key`.
  package mutating func set(_ key: Key, _ handle: Int32, keyOf: (Int32) -> Key) {
    _ = store(key, handle, replace: true, keyOf: keyOf)
  }

  /// Sets the handle of `key` unless it has one; returns the one it had.
  package mutating func insertIfAbsent(_ key: Key, _ handle: Int32, keyOf: (Int32) -> Key) -> Int32? {
    store(key, handle, replace: false, keyOf: keyOf)
  }

  private mutating func store(_ key: Key, _ handle: Int32, replace: Bool, keyOf: (Int32) -> Key) -> Int32? {
    let tag = Self.tag(key)
    var shard = shardIndex(tag)
    if (shards[shard].count + 1) * 16 > shards[shard].slots.count * 13 {
      grow(shard)
      shard = shardIndex(tag)
    }
    let (slot, found) = find(key, tag, in: shard, keyOf)
    if found {
      let previous = Self.handle(shards[shard].slots[slot])
      if replace { shards[shard].slots[slot] = Self.pack(tag, handle) }
      return previous
    }
    shards[shard].slots[slot] = Self.pack(tag, handle)
    shards[shard].count += 1
    return nil
  }

  /// Removes the entry of `key`.
  package mutating func remove(_ key: Key, keyOf: (Int32) -> Key) {
    let tag = Self.tag(key)
    let shard = shardIndex(tag)
    let (found, present) = find(key, tag, in: shard, keyOf)
    guard present else { return }
    shards[shard].count -= 1
    shards[shard].slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      var hole = found
      var next = (found + 1) & mask
      while slots[next] != 0 {
        let home = Int(UInt32(truncatingIfNeeded: slots[next] >> 32)) & mask
        if (next - home) & mask >= (next - hole) & mask {
          slots[hole] = slots[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      slots[hole] = 0
    }
  }

  /// Doubles a shard, or splits the table into 64 shards when it is large.
  private mutating func grow(_ shard: Int) {
    if !isSplit && shards[0].count >= 1 << 12 {
      let old = shards[0].slots
      isSplit = true
      shards = (0..<64).map { _ in Shard(capacity: 1 << 8) }
      for slot in old where slot != 0 { reinsert(slot) }
      return
    }
    let old = shards[shard].slots
    shards[shard] = Shard(capacity: old.count * 2)
    for slot in old where slot != 0 { reinsert(slot) }
  }

  /// Places an entry by its tag alone (rehashing needs no keys).
  private mutating func reinsert(_ entry: UInt64) {
    let tag = UInt32(truncatingIfNeeded: entry >> 32)
    let shard = shardIndex(tag)
    shards[shard].slots.withUnsafeMutableBufferPointer { slots in
      let mask = slots.count - 1
      var index = Int(tag) & mask
      while slots[index] != 0 { index = (index + 1) & mask }
      slots[index] = entry
    }
    shards[shard].count += 1
  }
}
