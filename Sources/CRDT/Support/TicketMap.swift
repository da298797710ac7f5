/// A hash map keyed by ``TimeTicket``, built for the lookups every operation makes.
///
/// Swift's `Dictionary` hashes keys with seeded SipHash. Tickets are already well-distributed
/// integers, so this map mixes their fields with a multiply-xorshift and probes linearly in one
/// flat array of slots (key and value side by side). Removal shifts later entries back (no
/// tombstones), so lookups stay short however keys churn. A slot is empty when its value is nil.
///
/// Capacity is a power of two and the load stays at most 1/2.
package struct TicketMap<Value> {
  /// One table until the map is large; then 64 tables chosen by the hash's high bits, so that
  /// growing rehashes and allocates a 64th of the entries at a time (no long stall on one edit).
  private var shards: [Table<Value>]
  private var shardShift: Int = 64

  /// The number of entries.
  package var count: Int { shards.reduce(0) { $0 + $1.count } }

  /// Creates an empty map.
  package init(minimumCapacity: Int = 8) {
    shards = [Table<Value>(minimumCapacity: minimumCapacity)]
  }

  @inline(__always) private func shard(_ hash: Int) -> Int {
    shardShift >= 64 ? 0 : Int(UInt64(bitPattern: Int64(hash)) >> UInt64(shardShift))
  }

  /// The value for `key`, or nil.
  package subscript(key: TimeTicket) -> Value? {
    @inline(__always) get {
      let hash = Table<Value>.hash(key)
      return shards[shard(hash)].value(key, hash: hash)
    }
    set {
      if let newValue { insert(key, newValue) } else { remove(key) }
    }
  }

  /// Whether the map has an entry for `key`.
  @inline(__always) package func contains(_ key: TimeTicket) -> Bool { self[key] != nil }

  /// Sets the value of `key`.
  package mutating func insert(_ key: TimeTicket, _ value: Value) {
    let hash = Table<Value>.hash(key)
    shards[shard(hash)].insert(key, value, hash: hash)
    if shardShift >= 64 && shards[0].count > 1 << 12 { reshard() }
  }

  /// Sets the value of `key` unless it has one; returns the value it already had (one probe
  /// where a lookup and an insert would take two).
  package mutating func insertIfAbsent(_ key: TimeTicket, _ value: Value) -> Value? {
    let hash = Table<Value>.hash(key)
    let existing = shards[shard(hash)].insertIfAbsent(key, value, hash: hash)
    if existing == nil && shardShift >= 64 && shards[0].count > 1 << 12 { reshard() }
    return existing
  }

  /// Makes room for `capacity` entries in all, so that inserting up to that many rehashes
  /// nothing on the way.
  package mutating func reserveCapacity(_ capacity: Int) {
    if shardShift >= 64 {
      if capacity > 1 << 12 {
        reshard(expecting: capacity)
      } else {
        shards[0].reserveCapacity(capacity)
      }
    } else {
      for index in shards.indices { shards[index].reserveCapacity(capacity / shards.count + capacity / (4 * shards.count) + 1) }
    }
  }

  /// Removes the entry of `key` and returns its value.
  @discardableResult
  package mutating func remove(_ key: TimeTicket) -> Value? {
    let hash = Table<Value>.hash(key)
    return shards[shard(hash)].remove(key, hash: hash)
  }

  /// Every entry, in no particular order.
  package var entries: [(key: TimeTicket, value: Value)] { shards.flatMap { $0.entries } }

  /// Every key, in no particular order.
  package var allKeys: [TimeTicket] { shards.flatMap { $0.allKeys } }

  /// Bytes held by the slot buffers.
  package var memoryFootprint: Int { shards.reduce(0) { $0 + $1.memoryFootprint } }

  private mutating func reshard(expecting expected: Int = 0) {
    let old = shards[0].entries
    shardShift = 64 - 6
    let perShard = Swift.max(old.count, expected) / 64
    // A quarter more than the average, so that shards above it rarely grow right away.
    shards = (0..<64).map { _ in Table<Value>(minimumCapacity: perShard + perShard / 4 + 1) }
    for entry in old {
      let hash = Table<Value>.hash(entry.key)
      shards[shard(hash)].insert(entry.key, entry.value, hash: hash)
    }
  }
}

/// One open-addressing table.
///
/// Its probes index `slots` through unsafe buffer pointers (no bounds check in release builds).
/// That is safe by these invariants, which only `init` and `rehash` establish:
/// 1. `slots.count` is a power of two and `mask == slots.count - 1`, so `anything & mask` is an
///    index of `slots`;
/// 2. `count <= slots.count / 2` (insertions grow first), so every probe loop meets an empty
///    slot and ends.
/// The TicketMap tests (against a `Dictionary` model, with removals) run under
/// AddressSanitizer in CI, which reports any read or write outside `slots`. The buffer access
/// pays for itself: it is the lookup every operation makes (see `Support/TicketMap.swift`'s
/// benchmarks `array_10000` and `object_10000`).
private struct Table<Value> {
  fileprivate struct Slot {
    var key: TimeTicket
    var value: Value?
  }

  private var slots: [Slot]
  private var mask: Int
  private(set) var count = 0

  init(minimumCapacity: Int = 8) {
    var capacity = 8
    while capacity < minimumCapacity * 2 { capacity <<= 1 }
    slots = Array(repeating: Slot(key: .initial, value: nil), count: capacity)
    mask = capacity - 1
  }

  /// Grows (once) so that `capacity` entries fit within the load limit.
  mutating func reserveCapacity(_ capacity: Int) {
    guard capacity * 2 > slots.count else { return }
    var size = slots.count
    while capacity * 2 > size { size <<= 1 }
    rehash(into: size)
  }

  @inline(__always) static func hash(_ key: TimeTicket) -> Int {
    var x = UInt64(bitPattern: key.lamport) &* 0x9E37_79B9_7F4A_7C15
    x ^= key.actorID.high &* 0xC2B2_AE3D_27D4_EB4F
    x ^= (UInt64(key.actorID.low) << 32 | UInt64(key.delimiter)) &* 0x1656_67B1_9E37_79F9
    x ^= x >> 29
    x = x &* 0xBF58_476D_1CE4_E5B9
    x ^= x >> 32
    return Int(truncatingIfNeeded: x)
  }

  @inline(__always) func value(_ key: TimeTicket, hash: Int) -> Value? {
    slots.withUnsafeBufferPointer { buffer in
      var slot = hash & mask
      while let value = buffer[slot].value {
        if buffer[slot].key == key { return value }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  mutating func insert(_ key: TimeTicket, _ value: Value, hash: Int) {
    if (count + 1) * 2 > slots.count { grow() }
    let mask = self.mask
    let added = slots.withUnsafeMutableBufferPointer { buffer -> Bool in
      var slot = hash & mask
      while buffer[slot].value != nil {
        if buffer[slot].key == key {
          buffer[slot].value = value
          return false
        }
        slot = (slot + 1) & mask
      }
      buffer[slot] = Slot(key: key, value: value)
      return true
    }
    if added { count += 1 }
  }

  mutating func insertIfAbsent(_ key: TimeTicket, _ value: Value, hash: Int) -> Value? {
    if (count + 1) * 2 > slots.count { grow() }
    let mask = self.mask
    let existing = slots.withUnsafeMutableBufferPointer { buffer -> Value? in
      var slot = hash & mask
      while let present = buffer[slot].value {
        if buffer[slot].key == key { return present }
        slot = (slot + 1) & mask
      }
      buffer[slot] = Slot(key: key, value: value)
      return nil
    }
    if existing == nil { count += 1 }
    return existing
  }

  mutating func remove(_ key: TimeTicket, hash: Int) -> Value? {
    let mask = self.mask
    let removed = slots.withUnsafeMutableBufferPointer { buffer -> Value? in
      var slot = hash & mask
      while buffer[slot].value != nil {
        if buffer[slot].key == key { break }
        slot = (slot + 1) & mask
      }
      guard let removed = buffer[slot].value else { return nil }
      // Backward-shift deletion: move later entries of the cluster into the hole when their
      // home slot allows it.
      var hole = slot
      var next = (slot + 1) & mask
      while buffer[next].value != nil {
        let home = Table.hash(buffer[next].key) & mask
        if (next - home) & mask >= (next - hole) & mask {
          buffer[hole] = buffer[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      buffer[hole].value = nil
      return removed
    }
    if removed != nil { count -= 1 }
    return removed
  }

  var memoryFootprint: Int { slots.capacity * MemoryLayout<Slot>.stride }

  var entries: [(key: TimeTicket, value: Value)] {
    var result: [(key: TimeTicket, value: Value)] = []
    result.reserveCapacity(count)
    for slot in slots { if let value = slot.value { result.append((slot.key, value)) } }
    return result
  }

  var allKeys: [TimeTicket] {
    var result: [TimeTicket] = []
    result.reserveCapacity(count)
    for slot in slots where slot.value != nil { result.append(slot.key) }
    return result
  }

  private mutating func grow() {
    rehash(into: slots.count * 2)
  }

  private mutating func rehash(into capacity: Int) {
    let old = slots
    slots = Array(repeating: Slot(key: .initial, value: nil), count: capacity)
    mask = capacity - 1
    let mask = self.mask
    slots.withUnsafeMutableBufferPointer { buffer in
      for entry in old where entry.value != nil {
        var slot = Table.hash(entry.key) & mask
        while buffer[slot].value != nil { slot = (slot + 1) & mask }
        buffer[slot] = entry
      }
    }
  }
}

extension TicketMap: Sendable where Value: Sendable {}
extension Table: Sendable where Value: Sendable {}
extension Table.Slot: Sendable where Value: Sendable {}
