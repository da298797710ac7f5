/// A map from object keys to values, built for the size objects usually have.
///
/// Most objects have a handful of keys, and most Sets write a key the object already has. For
/// up to ``KeyTable/scanLimit`` keys this table scans an array of keys: comparing two short
/// strings is a comparison of their raw bits, far cheaper than hashing one with SipHash as
/// `Dictionary` does (about 15% of an object Set). Past that size it also keeps a dictionary
/// from key to slot. Values live in one array either way, so iteration order is insertion
/// order, and removing a key moves the last entry into its slot.
package struct KeyTable<Value> {
  /// The number of keys up to which lookups scan instead of hashing.
  package static var scanLimit: Int { 16 }

  private var keys: [String] = []
  private var values: [Value] = []
  /// Key → slot, once the table has more than `scanLimit` keys.
  private var slots: [String: Int]?

  package init() {}

  /// The number of keys.
  package var count: Int { keys.count }

  /// The slot of `key`, or nil.
  @inline(__always) package func slot(of key: String) -> Int? {
    if let slots { return slots[key] }
    return keys.firstIndex(of: key)
  }

  /// The value in `slot` (from ``slot(of:)``).
  @inline(__always) package func value(at slot: Int) -> Value { values[slot] }

  /// Replaces the value in `slot`.
  @inline(__always) package mutating func setValue(_ value: Value, at slot: Int) { values[slot] = value }

  /// The value of `key`; setting nil removes the key.
  package subscript(key: String) -> Value? {
    get { slot(of: key).map { values[$0] } }
    set {
      if let slot = slot(of: key) {
        if let newValue { values[slot] = newValue } else { remove(at: slot) }
      } else if let newValue {
        add(key, newValue)
      }
    }
  }

  /// Adds a key the table does not have.
  package mutating func add(_ key: String, _ value: Value) {
    assert(slot(of: key) == nil, "KeyTable.add of a key it already has")
    keys.append(key)
    values.append(value)
    if slots != nil {
      slots![key] = keys.count - 1
    } else if keys.count > KeyTable.scanLimit {
      var map = [String: Int](minimumCapacity: keys.count * 2)
      for (index, key) in keys.enumerated() { map[key] = index }
      slots = map
    }
  }

  private mutating func remove(at slot: Int) {
    let removedKey = keys[slot]
    let last = keys.count - 1
    if slot != last {
      keys[slot] = keys[last]
      values[slot] = values[last]
      slots?[keys[slot]] = slot
    }
    keys.removeLast()
    values.removeLast()
    slots?[removedKey] = nil
  }

  /// Checks the table's internal consistency; returns a description of the first problem.
  package func checkInvariants() -> String? {
    guard keys.count == values.count else { return "KeyTable: \(keys.count) keys but \(values.count) values" }
    if Set(keys).count != keys.count { return "KeyTable: a key is held twice" }
    if let slots {
      guard slots.count == keys.count else { return "KeyTable: the map has \(slots.count) keys, the table \(keys.count)" }
      for (index, key) in keys.enumerated() where slots[key] != index {
        return "KeyTable: the map sends \"\(key)\" to slot \(String(describing: slots[key])), it is in \(index)"
      }
    } else if keys.count > KeyTable.scanLimit {
      return "KeyTable: \(keys.count) keys and no map"
    }
    return nil
  }
}
