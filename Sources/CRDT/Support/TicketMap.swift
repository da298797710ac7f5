/// A hash map keyed by ``TimeTicket``, built for the lookups every operation makes.
///
/// Swift's `Dictionary` hashes keys with seeded SipHash. Tickets are already well-distributed
/// integers, so this map mixes their fields with a multiply-xorshift and probes linearly in one
/// flat array of slots (key and value side by side). Removal shifts later entries back (no
/// tombstones), so lookups stay short however keys churn. A slot is empty when its value is nil.
///
/// Capacity is a power of two and the load stays at most 1/2.
package struct TicketMap<Value> {
  fileprivate struct Slot {
    var key: TimeTicket
    var value: Value?
  }

  private var slots: [Slot]
  private var mask: Int
  /// The number of entries.
  package private(set) var count = 0

  /// Creates an empty map.
  package init(minimumCapacity: Int = 8) {
    var capacity = 8
    while capacity < minimumCapacity * 2 { capacity <<= 1 }
    slots = Array(repeating: Slot(key: .initial, value: nil), count: capacity)
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
      slots.withUnsafeBufferPointer { buffer in
        var slot = TicketMap.hash(key) & mask
        while let value = buffer[slot].value {
          if buffer[slot].key == key { return value }
          slot = (slot + 1) & mask
        }
        return nil
      }
    }
    set {
      if let newValue { insert(key, newValue) } else { remove(key) }
    }
  }

  /// Whether the map has an entry for `key`.
  @inline(__always) package func contains(_ key: TimeTicket) -> Bool { self[key] != nil }

  /// Sets the value of `key`.
  package mutating func insert(_ key: TimeTicket, _ value: Value) {
    if (count + 1) * 2 > slots.count { grow() }
    let mask = self.mask
    let added = slots.withUnsafeMutableBufferPointer { buffer -> Bool in
      var slot = TicketMap.hash(key) & mask
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

  /// Removes the entry of `key` and returns its value.
  @discardableResult
  package mutating func remove(_ key: TimeTicket) -> Value? {
    let mask = self.mask
    let removed = slots.withUnsafeMutableBufferPointer { buffer -> Value? in
      var slot = TicketMap.hash(key) & mask
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
        let home = TicketMap.hash(buffer[next].key) & mask
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

  /// Bytes held by the slot buffer.
  package var memoryFootprint: Int { slots.capacity * MemoryLayout<Slot>.stride }

  /// Every entry, in no particular order.
  package var entries: [(key: TimeTicket, value: Value)] {
    var result: [(key: TimeTicket, value: Value)] = []
    result.reserveCapacity(count)
    for slot in slots { if let value = slot.value { result.append((slot.key, value)) } }
    return result
  }

  /// Every key, in no particular order.
  package var allKeys: [TimeTicket] {
    var result: [TimeTicket] = []
    result.reserveCapacity(count)
    for slot in slots where slot.value != nil { result.append(slot.key) }
    return result
  }

  private mutating func grow() {
    let old = slots
    let capacity = old.count * 2
    slots = Array(repeating: Slot(key: .initial, value: nil), count: capacity)
    mask = capacity - 1
    let mask = self.mask
    slots.withUnsafeMutableBufferPointer { buffer in
      for entry in old where entry.value != nil {
        var slot = TicketMap.hash(entry.key) & mask
        while buffer[slot].value != nil { slot = (slot + 1) & mask }
        buffer[slot] = entry
      }
    }
  }
}

extension TicketMap: Sendable where Value: Sendable {}
extension TicketMap.Slot: Sendable where Value: Sendable {}
