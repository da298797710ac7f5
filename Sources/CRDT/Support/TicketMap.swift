/// A hash map keyed by ``TimeTicket``, built for the lookups every operation makes.
///
/// Swift's `Dictionary` hashes keys with seeded SipHash, which costs more than everything
/// else an array append does. Tickets are already well-distributed integers, so this map mixes
/// their fields with a multiply-xorshift and probes linearly in flat arrays. Removal shifts
/// later entries back (no tombstones), so lookups stay short however keys churn.
///
/// Capacity is a power of two and the load stays at most 1/2.
package struct TicketMap<Value> {
  private var keys: [TimeTicket]
  private var values: [Value?]
  private var used: [Bool]
  private var mask: Int
  /// The number of entries.
  package private(set) var count = 0

  /// Creates an empty map.
  package init(minimumCapacity: Int = 8) {
    var capacity = 8
    while capacity < minimumCapacity * 2 { capacity <<= 1 }
    keys = Array(repeating: .initial, count: capacity)
    values = Array(repeating: nil, count: capacity)
    used = Array(repeating: false, count: capacity)
    mask = capacity - 1
  }

  @inline(__always) private static func hash(_ key: TimeTicket) -> Int {
    var x = UInt64(bitPattern: key.lamport) &* 0x9E37_79B9_7F4A_7C15
    x ^= key.actorID.high &* 0xC2B2_AE3D_27D4_EB4F
    x ^= (UInt64(key.actorID.low) << 32 | UInt64(key.delimiter)) &* 0x1656_67B1_9E37_79F9
    x ^= x >> 29
    x = x &* 0xBF58_476D_1CE4_E5B9
    x ^= x >> 32
    return Int(truncatingIfNeeded: x)
  }

  /// The value for `key`, or nil.
  package subscript(key: TimeTicket) -> Value? {
    @inline(__always) get {
      var slot = TicketMap.hash(key) & mask
      while used[slot] {
        if keys[slot] == key { return values[slot] }
        slot = (slot + 1) & mask
      }
      return nil
    }
    set {
      if let newValue { insert(key, newValue) } else { remove(key) }
    }
  }

  /// Whether the map has an entry for `key`.
  @inline(__always) package func contains(_ key: TimeTicket) -> Bool { self[key] != nil }

  /// Sets the value of `key`.
  package mutating func insert(_ key: TimeTicket, _ value: Value) {
    if (count + 1) * 2 > keys.count { grow() }
    var slot = TicketMap.hash(key) & mask
    while used[slot] {
      if keys[slot] == key {
        values[slot] = value
        return
      }
      slot = (slot + 1) & mask
    }
    used[slot] = true
    keys[slot] = key
    values[slot] = value
    count += 1
  }

  /// Removes the entry of `key` and returns its value.
  @discardableResult
  package mutating func remove(_ key: TimeTicket) -> Value? {
    var slot = TicketMap.hash(key) & mask
    while used[slot] {
      if keys[slot] == key { break }
      slot = (slot + 1) & mask
    }
    guard used[slot] else { return nil }
    let removed = values[slot]
    // Backward-shift deletion: move later entries of the cluster into the hole when their
    // home slot allows it.
    var hole = slot
    var next = (slot + 1) & mask
    while used[next] {
      let home = TicketMap.hash(keys[next]) & mask
      let distanceToHole = (next - hole) & mask
      let distanceToHome = (next - home) & mask
      if distanceToHome >= distanceToHole {
        keys[hole] = keys[next]
        values[hole] = values[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    used[hole] = false
    values[hole] = nil
    count -= 1
    return removed
  }

  /// Every entry, in no particular order.
  package var entries: [(key: TimeTicket, value: Value)] {
    var result: [(key: TimeTicket, value: Value)] = []
    result.reserveCapacity(count)
    for slot in 0..<keys.count where used[slot] { result.append((keys[slot], values[slot]!)) }
    return result
  }

  /// Every key, in no particular order.
  package var allKeys: [TimeTicket] {
    var result: [TimeTicket] = []
    result.reserveCapacity(count)
    for slot in 0..<keys.count where used[slot] { result.append(keys[slot]) }
    return result
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    let oldUsed = used
    let capacity = oldKeys.count * 2
    keys = Array(repeating: .initial, count: capacity)
    values = Array(repeating: nil, count: capacity)
    used = Array(repeating: false, count: capacity)
    mask = capacity - 1
    count = 0
    for slot in 0..<oldKeys.count where oldUsed[slot] {
      insert(oldKeys[slot], oldValues[slot]!)
    }
  }
}

extension TicketMap: Sendable where Value: Sendable {}
