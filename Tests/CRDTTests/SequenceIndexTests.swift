import Testing
@testable import CRDT

/// The order-statistic index against a plain array model, with tiny nodes so that splits and
/// empty-node removal happen constantly.
@Suite("SequenceIndex")
struct SequenceIndexTests {
  @Test("matches an array model under random inserts, removals and weight changes", arguments: SeededRandom.seeds(6))
  func modelBased(seed: UInt64) throws {
    try exercise(seed: seed, bulk: 0)
  }

  @Test("a bulk-loaded index matches the model and stays valid under edits", arguments: SeededRandom.seeds(2, base: 77), [1, 2, 3, 5, 17, 300])
  func bulkLoaded(seed: UInt64, bulk: Int) throws {
    try exercise(seed: seed, bulk: bulk)
  }

  /// Random edits against the model, starting from `bulk` handles loaded at once.
  private func exercise(seed: UInt64, bulk: Int) throws {
    var random = SeededRandom(seed: seed)
    var index = SequenceIndex(capacity: 4)
    var model: [(handle: Int32, weight: Int)] = []
    var nextHandle: Int32 = 0
    var free: [Int32] = []
    if bulk > 0 {
      // Handles out of order, as a text arena hands them out after reuse.
      let handles = (0..<Int32(bulk)).shuffled(using: &random)
      let weights = handles.map { _ in Int32.random(in: 0...3, using: &random) }
      index.bulkLoad(handles, weights: weights)
      model = zip(handles, weights).map { ($0, Int($1)) }
      nextHandle = Int32(bulk)
      if let problem = index.checkInvariants() { Issue.record("seed \(seed), bulk \(bulk): \(problem)") }
      #expect(index.handles == handles)
      #expect(index.totalWeight == model.reduce(0) { $0 + $1.weight })
    }
    for step in 0..<3000 {
      let action = Int.random(in: 0..<10, using: &random)
      if action < 5 || model.isEmpty {
        let handle = free.popLast() ?? { defer { nextHandle += 1 }; return nextHandle }()
        let weight = Int.random(in: 0...3, using: &random)
        let position = Int.random(in: 0...model.count, using: &random)
        index.insert(handle, weight: weight, after: position == 0 ? nil : model[position - 1].handle)
        model.insert((handle, weight), at: position)
      } else if action < 8 {
        let position = Int.random(in: 0..<model.count, using: &random)
        index.remove(model[position].handle)
        free.append(model[position].handle)
        model.remove(at: position)
      } else {
        let position = Int.random(in: 0..<model.count, using: &random)
        let weight = Int.random(in: 0...3, using: &random)
        index.setWeight(model[position].handle, weight)
        model[position].weight = weight
      }
      if let problem = index.checkInvariants() {
        Issue.record("seed \(seed), step \(step): \(problem)")
        return
      }
      #expect(index.handles == model.map(\.handle), "seed \(seed), step \(step)")
      #expect(index.totalWeight == model.reduce(0) { $0 + $1.weight })
      if step % 50 == 0 {
        var sum = 0
        for entry in model {
          #expect(index.offset(of: entry.handle) == sum, "seed \(seed)")
          #expect(index.weight(of: entry.handle) == entry.weight)
          for unit in 0..<entry.weight {
            let hit = index.find(sum + unit)
            let found = try #require(hit)
            #expect(found.handle == entry.handle && found.offset == unit, "seed \(seed)")
          }
          if entry.weight > 0 {
            let hit = index.find(sum + entry.weight, inclusiveEnd: true)
            let boundary = try #require(hit)
            #expect(boundary.handle == entry.handle && boundary.offset == entry.weight, "seed \(seed)")
          }
          sum += entry.weight
        }
        let past = index.find(sum)
        #expect(past == nil)
        for (position, entry) in model.enumerated() {
          #expect(index.handle(before: entry.handle) == (position > 0 ? model[position - 1].handle : nil), "seed \(seed)")
        }
      }
    }
  }

  @Test("lookups near the previous one (the finger) agree with the model after every kind of edit", arguments: SeededRandom.seeds(4, base: 500))
  func fingerLookups(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var index = SequenceIndex(capacity: 4)
    var model: [(handle: Int32, weight: Int)] = []
    var nextHandle: Int32 = 0
    var cursor = 0
    /// The model's answer for `position` (see `SequenceIndex.find`).
    func expected(_ position: Int, inclusiveEnd: Bool) -> (handle: Int32, offset: Int)? {
      var before = 0
      for entry in model {
        // With inclusiveEnd, the first handle of some weight whose end is at or past the
        // position: a boundary belongs to the handle on its left (0 to the first such handle).
        if inclusiveEnd ? (entry.weight > 0 && position <= before + entry.weight)
          : (before <= position && position < before + entry.weight) {
          return (entry.handle, position - before)
        }
        before += entry.weight
      }
      return nil
    }
    for step in 0..<2000 {
      let total = model.reduce(0) { $0 + $1.weight }
      // Look up around the cursor, as typing does, now and then anywhere.
      let position = Int.random(in: 0..<10, using: &random) == 0
        ? Int.random(in: 0...total + 1, using: &random)
        : max(0, min(total + 1, cursor + Int.random(in: -3...3, using: &random)))
      for inclusiveEnd in [false, true] {
        let found = index.find(position, inclusiveEnd: inclusiveEnd)
        let want = expected(position, inclusiveEnd: inclusiveEnd)
        #expect(found?.handle == want?.handle && found?.offset == want?.offset,
                "seed \(seed), step \(step): find(\(position), inclusiveEnd: \(inclusiveEnd))")
      }
      if let problem = index.checkInvariants() {
        Issue.record("seed \(seed), step \(step): \(problem)")
        return
      }
      cursor = position
      // Edit near the cursor too: insert after the piece it falls in, change a weight, remove.
      let action = Int.random(in: 0..<10, using: &random)
      let near = expected(cursor, inclusiveEnd: true).flatMap { hit in model.firstIndex { $0.handle == hit.handle } }
      if action < 6 || model.isEmpty {
        let weight = Int.random(in: 0...3, using: &random)
        let at = near.map { $0 + 1 } ?? Int.random(in: 0...model.count, using: &random)
        index.insert(nextHandle, weight: weight, after: at == 0 ? nil : model[at - 1].handle)
        model.insert((nextHandle, weight), at: at)
        nextHandle += 1
      } else if action < 9 {
        let at = near ?? Int.random(in: 0..<model.count, using: &random)
        let weight = Int.random(in: 0...3, using: &random)
        index.setWeight(model[at].handle, weight)
        model[at].weight = weight
      } else {
        let at = Int.random(in: 0..<model.count, using: &random)
        index.remove(model[at].handle)
        model.remove(at: at)
      }
      if let problem = index.checkInvariants() {
        Issue.record("seed \(seed), step \(step), after the edit: \(problem)")
        return
      }
      if step % 97 == 0 {
        var sum = 0
        for entry in model {
          #expect(index.offset(of: entry.handle) == sum, "seed \(seed), step \(step)")
          sum += entry.weight
        }
      }
    }
  }

  @Test("random inserts fill leaves to at least three quarters (full leaves pass entries to their siblings)")
  func randomInsertsFillLeaves() {
    var random = SeededRandom(seed: 11)
    var index = SequenceIndex(capacity: 32)
    var order: [Int32] = []
    for handle in Int32(0)..<20_000 {
      let position = Int.random(in: 0...order.count, using: &random)
      index.insert(handle, weight: 1, after: position == 0 ? nil : order[position - 1])
      order.insert(handle, at: position)
    }
    #expect(index.checkInvariants() == nil)
    #expect(index.handles == order)
    // Half-splits alone leave random-insert leaves about 70% full.
    #expect(index.leavesInUse * 32 * 3 <= 20_000 * 4, "\(index.leavesInUse) leaves of 32 for 20,000 entries")
  }

  @Test("appending keeps leaves full")
  func appendFillsLeaves() {
    var index = SequenceIndex(capacity: 8)
    var previous: Int32? = nil
    for handle in Int32(0)..<1000 {
      index.insert(handle, weight: 1, after: previous)
      previous = handle
    }
    #expect(index.checkInvariants() == nil)
    let last = index.find(999)
    #expect(last?.handle == 999)
    #expect(index.offset(of: 500) == 500)
  }
}

@Suite("TicketMap")
struct TicketMapTests {
  @Test("matches a Dictionary under random inserts and removals", arguments: SeededRandom.seeds(4))
  func modelBased(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var map = TicketMap<Int>()
    var model: [TimeTicket: Int] = [:]
    let actors = [ActorID.initial, ActorID.max]
    for step in 0..<20_000 {
      let key = TimeTicket(lamport: Int64.random(in: 0..<300, using: &random), delimiter: UInt32.random(in: 0..<4, using: &random),
                           actorID: actors[Int.random(in: 0..<2, using: &random)])
      if Bool.random(using: &random) {
        map[key] = step
        model[key] = step
      } else {
        #expect(map.remove(key) == model.removeValue(forKey: key))
      }
      if step % 997 == 0 {
        #expect(map.count == model.count)
        for (k, v) in model { #expect(map[k] == v) }
      }
    }
    #expect(Set(map.allKeys) == Set(model.keys))
  }

  @Test("reserving room, small or past the sharding size, loses nothing and keeps matching a Dictionary", arguments: SeededRandom.seeds(3))
  func reserveKeepsEntries(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var map = TicketMap<Int>()
    var model: [TimeTicket: Int] = [:]
    for step in 0..<30_000 {
      if step % 2_500 == 0 {
        // Sometimes more than the map will ever hold, sometimes less than it holds already.
        map.reserveCapacity(Int.random(in: 0..<12_000, using: &random))
        #expect(map.count == model.count, "seed \(seed) step \(step)")
      }
      let key = TimeTicket(lamport: Int64.random(in: 0..<3_000, using: &random), delimiter: UInt32.random(in: 0..<8, using: &random),
                           actorID: .max)
      if Int.random(in: 0..<4, using: &random) > 0 {
        map[key] = step
        model[key] = step
      } else {
        #expect(map.remove(key) == model.removeValue(forKey: key))
      }
    }
    #expect(map.count == model.count)
    var mismatches = 0
    for (k, v) in model where map[k] != v { mismatches += 1 }
    #expect(mismatches == 0, "seed \(seed)")
  }
}

@Suite("TicketMap sharding")
struct TicketMapShardingTests {
  @Test("past 4,096 entries the map splits into shards and keeps every entry")
  func large() {
    var map = TicketMap<Int32>()
    let actor = ActorID.max
    for i in 0..<80_000 {
      map[TimeTicket(lamport: Int64(i / 7), delimiter: UInt32(i % 7), actorID: actor)] = Int32(i)
    }
    #expect(map.count == 80_000)
    for i in stride(from: 0, to: 80_000, by: 3) {
      #expect(map.remove(TimeTicket(lamport: Int64(i / 7), delimiter: UInt32(i % 7), actorID: actor)) == Int32(i))
    }
    var mismatches = 0
    for i in 0..<80_000 {
      let expected: Int32? = i % 3 == 0 ? nil : Int32(i)
      if map[TimeTicket(lamport: Int64(i / 7), delimiter: UInt32(i % 7), actorID: actor)] != expected { mismatches += 1 }
    }
    #expect(mismatches == 0)
    #expect(map.count == 80_000 - 26_667)
    #expect(map.allKeys.count == map.count)
  }
}
