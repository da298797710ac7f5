/// A bounded map whose entries expire a fixed time after they were stored: the auth webhook's
/// answer cache. Not thread-safe by itself; keep it in a ``Locked``.
///
/// Every entry lives ``timeToLive`` seconds of the caller's clock. Because that time is the same
/// for all, insertion order is expiry order: a queue of insertions gives the next entry to expire
/// (or, when the cache is full, the oldest one to evict) in O(1) amortized. Times must come from
/// a clock that never goes back.
struct ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// A stored value, its expiry, and the serial number of the insertion that stored it.
  private struct Entry: Sendable {
    /// The value.
    var value: Value
    /// When it stops being returned.
    var expiry: Double
    /// Which insertion stored it; an older queue record of the same key is stale.
    var serial: UInt64
  }

  /// The most entries kept; storing one more evicts the oldest.
  let capacity: Int
  /// How long an entry lives, in seconds.
  let timeToLive: Double
  /// The entries by key.
  private var entries: [Key: Entry] = [:]
  /// Insertions in order, oldest first from `queueHead`; a record whose serial no longer matches
  /// its key's entry is stale and skipped.
  private var queue: [(key: Key, serial: UInt64)] = []
  /// The index of the oldest live record in `queue`.
  private var queueHead = 0
  /// The serial number of the next insertion.
  private var nextSerial: UInt64 = 0

  /// An empty cache of at most `capacity` entries (at least one) living `timeToLive` seconds.
  init(capacity: Int, timeToLive: Double) {
    self.capacity = max(1, capacity)
    self.timeToLive = timeToLive
  }

  /// How many entries are stored, expired ones included until they are swept.
  var count: Int { entries.count }

  /// The value stored for `key`, unless it has expired by `now`.
  func value(for key: Key, now: Double) -> Value? {
    guard let entry = entries[key], now < entry.expiry else { return nil }
    return entry.value
  }

  /// Stores `value` for `key` from `now` on (replacing any value), first dropping the entries
  /// expired by `now`, then the oldest ones while there are more than ``capacity``.
  mutating func insert(_ value: Value, for key: Key, now: Double) {
    let serial = nextSerial
    nextSerial += 1
    entries[key] = Entry(value: value, expiry: now + timeToLive, serial: serial)
    queue.append((key, serial))
    while let oldest = oldestLiveRecord(), entries.count > capacity || oldest.expiry <= now {
      entries[oldest.key] = nil
      queueHead += 1
    }
    compactQueue()
  }

  /// The key and expiry of the oldest entry, found through the first queue record that still
  /// names its key's entry (stale records before it are skipped for good).
  private mutating func oldestLiveRecord() -> (key: Key, expiry: Double)? {
    while queueHead < queue.count {
      let record = queue[queueHead]
      if let entry = entries[record.key], entry.serial == record.serial { return (record.key, entry.expiry) }
      queueHead += 1
    }
    return nil
  }

  /// Drops the consumed front of the queue once it is most of it, and rebuilds the queue from the
  /// entries if stale records (keys stored again) made it more than twice as long as needed.
  private mutating func compactQueue() {
    if queueHead > 32 && queueHead * 2 > queue.count {
      queue.removeFirst(queueHead)
      queueHead = 0
    }
    if queue.count - queueHead > 2 * capacity + 32 {
      queue = entries.map { ($0.key, $0.value.serial) }.sorted { $0.serial < $1.serial }
      queueHead = 0
    }
  }
}
