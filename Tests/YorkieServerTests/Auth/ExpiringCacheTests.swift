import Testing

@testable import YorkieServer

/// `ExpiringCache`: entries live a fixed time, and the cache never holds more than its capacity.
@Suite("Expiring cache")
struct ExpiringCacheTests {
  @Test("An entry is returned until its time to live has passed, then no more")
  func expiry() {
    var cache = ExpiringCache<String, Int>(capacity: 10, timeToLive: 10)
    cache.insert(1, for: "a", now: 100)
    #expect(cache.value(for: "a", now: 100) == 1)
    #expect(cache.value(for: "a", now: 109.999) == 1)
    #expect(cache.value(for: "a", now: 110) == nil)
    #expect(cache.value(for: "b", now: 100) == nil)
  }

  @Test("Storing again replaces the value and restarts its time")
  func replace() {
    var cache = ExpiringCache<String, Int>(capacity: 10, timeToLive: 10)
    cache.insert(1, for: "a", now: 100)
    cache.insert(2, for: "a", now: 105)
    #expect(cache.value(for: "a", now: 112) == 2)
    #expect(cache.count == 1)
  }

  @Test("Expired entries are swept when a new one is stored")
  func sweep() {
    var cache = ExpiringCache<Int, Int>(capacity: 100, timeToLive: 10)
    for key in 0..<50 { cache.insert(key, for: key, now: 100) }
    cache.insert(50, for: 50, now: 111)
    #expect(cache.count == 1)
  }

  @Test("At capacity, storing evicts the oldest entry")
  func capacity() {
    var cache = ExpiringCache<Int, Int>(capacity: 3, timeToLive: 10)
    for key in 0..<5 { cache.insert(key, for: key, now: 100 + Double(key) * 0.1) }
    #expect(cache.count == 3)
    #expect(cache.value(for: 0, now: 101) == nil)
    #expect(cache.value(for: 1, now: 101) == nil)
    #expect(cache.value(for: 4, now: 101) == 4)
  }

  @Test("A key stored again is not evicted by its older insertion")
  func staleRecordsAreSkipped() {
    var cache = ExpiringCache<Int, Int>(capacity: 2, timeToLive: 10)
    cache.insert(0, for: 0, now: 100)
    cache.insert(1, for: 1, now: 101)
    cache.insert(9, for: 0, now: 102)  // 0 is now the newest
    cache.insert(2, for: 2, now: 103)  // evicts 1, the oldest
    #expect(cache.value(for: 0, now: 104) == 9)
    #expect(cache.value(for: 1, now: 104) == nil)
    #expect(cache.value(for: 2, now: 104) == 2)
  }

  @Test("Many insertions of few keys keep the cache bounded and correct")
  func manyInsertions() {
    var cache = ExpiringCache<Int, Int>(capacity: 8, timeToLive: 1000)
    for step in 0..<10_000 { cache.insert(step, for: step % 5, now: Double(step) * 0.01) }
    #expect(cache.count == 5)
    for key in 0..<5 { #expect(cache.value(for: key, now: 100) == 9995 + key) }
    for step in 0..<10_000 { cache.insert(step, for: step, now: 100 + Double(step) * 0.01) }
    #expect(cache.count == 8)
  }
}
