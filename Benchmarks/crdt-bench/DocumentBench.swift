import CRDT

/// The measured part of a case: its seconds and, for loops, the per-op cost of the first and
/// last tenth.
struct Measured: Sendable {
  var seconds: Double
  var firstTenth: Double?
  var lastTenth: Double?
  /// ns per op of each hundredth of the loop.
  var windows: [Double] = []

  init(seconds: Double, deciles: Deciles? = nil) {
    self.seconds = seconds
    if let deciles, let (first, last) = deciles.firstAndLast {
      firstTenth = first
      lastTenth = last
      windows = deciles.windowCosts
    }
  }
}

struct GCMeasured: Sendable {
  var seconds: Double
  var gcSeconds: Double
  var garbageBefore: Int
  var purged: Int
  var garbageAfter: Int
}

struct ConcurrentEdits: Sendable {
  var seconds: Double
  var inserted: [Int64]
  var deleted: [Int64]
  var changes: Int
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

func integerValue(_ value: JSONValue?) -> Int64? {
  switch value {
  case .integer(let v)?: return Int64(v)
  case .long(let v)?: return v
  default: return nil
  }
}

/// The workloads run inside the document's isolation: the measured loops call the proxies
/// synchronously, with no actor hop per op (as Yorkie's Go benchmarks call `doc.Update`).
extension Document {
  /// Yorkie `object N`: one update that sets the same key N times (`root.SetInteger("k1", c)`).
  func benchObjectSet(count: Int) throws -> Measured {
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      for c in 0..<count {
        deciles.tick(c)
        root["k1"] = .integer(Int32(c))
      }
      deciles.tick(count)
    }
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Yorkie `array N`: one update that creates an array and appends 0..<N.
  func benchArrayAppend(count: Int) throws -> Measured {
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      let array = root.setNewArray("k1")
      for c in 0..<count {
        deciles.tick(c)
        try array.append(.integer(Int32(c)))
      }
      deciles.tick(count)
    }
    // Timed too (in `seconds`, not in the windows): the positions' lookup entries, which
    // appending leaves for one later pass.
    enterPendingArrayLookups()
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Yorkie `counter N`: one update that creates a counter at 0 and increases it by 0..<N.
  func benchCounter(count: Int) throws -> Measured {
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      let counter = root.setNewCounter("k1", .int(0))
      for c in 0..<count {
        deciles.tick(c)
        counter.increase(by: Int64(c))
      }
      deciles.tick(count)
    }
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Yorkie `array gc N`: an update that builds array "1" with N integers, an update that
  /// removes the array, then GC with a version vector that covers everything.
  func benchArrayGC(count: Int) throws -> GCMeasured {
    let start = benchClock.now
    try update(message: "creates an array then adds integers") { root, _ in
      root.setNewArray("1")
      for i in 0..<count {
        guard let array = root.array("1") else { throw BenchError("array \"1\" is missing") }
        try array.append(.integer(Int32(i)))
      }
    }
    enterPendingArrayLookups()
    try update(message: "deletes the array") { root, _ in
      root.remove("1")
    }
    let garbageBefore = garbageLength
    let gcStart = benchClock.now
    let purged = garbageCollect(minSyncedVersionVector: VersionVector([actorID: .max]))
    let end = benchClock.now
    return GCMeasured(
      seconds: (end - start).seconds,
      gcSeconds: (end - gcStart).seconds,
      garbageBefore: garbageBefore, purged: purged, garbageAfter: garbageLength)
  }

  /// Setup (not measured): array "k1" holding 0..<N, built in one update.
  func buildArray(count: Int) throws {
    try update { root, _ in
      let array = root.setNewArray("k1")
      for c in 0..<count { try array.append(.integer(Int32(c))) }
    }
    enterPendingArrayLookups()
  }

  /// Yorkie `random insert N`: one update that creates an array holding 0, then inserts
  /// i = 1..<N right after the element at a random index (`anchors[i]`, below the length i).
  func benchRandomInsert(anchors: [Int32]) throws -> Measured {
    let count = anchors.count
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      let array = root.setNewArray("k1")
      deciles.tick(0)
      try array.append(.integer(0))
      for i in 1..<count {
        deciles.tick(i)
        try array.insert(.integer(Int32(i)), at: Int(anchors[i]) + 1)
      }
      deciles.tick(count)
    }
    enterPendingArrayLookups()
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Random moves of array "k1" in one update: `moves` holds (from, to) pairs, flattened, with
  /// `to` already the index the element ends at.
  func benchRandomMove(moves: [Int32]) throws -> Measured {
    let count = moves.count / 2
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      guard let array = root.array("k1") else { throw BenchError("array k1 is missing") }
      for k in 0..<count {
        deciles.tick(k)
        try array.move(from: Int(moves[2 * k]), to: Int(moves[2 * k + 1]))
      }
      deciles.tick(count)
    }
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Yorkie `random delete N`: one update that removes the element at a random index until
  /// the array is empty (`indexes[k]` is below N - k).
  func benchRandomDelete(indexes: [Int32]) throws -> Measured {
    let count = indexes.count
    var deciles = Deciles(total: count)
    let start = benchClock.now
    try update { root, _ in
      guard let array = root.array("k1") else { throw BenchError("array k1 is missing") }
      for k in 0..<count {
        deciles.tick(k)
        try array.remove(at: Int(indexes[k]))
      }
      deciles.tick(count)
    }
    return Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
  }

  /// Yorkie `random access N`: N reads at random indexes inside one update. Returns the sum of
  /// the values read (the array holds 0..<N, so it must equal the sum of the indexes).
  func benchRandomAccess(indexes: [Int32]) throws -> (Measured, Int64) {
    let count = indexes.count
    var deciles = Deciles(total: count)
    var sum: Int64 = 0
    var misses = 0
    let start = benchClock.now
    try update { root, _ in
      guard let array = root.array("k1") else { throw BenchError("array k1 is missing") }
      for k in 0..<count {
        deciles.tick(k)
        if let value = integerValue(array[Int(indexes[k])]) { sum &+= value } else { misses += 1 }
      }
      deciles.tick(count)
    }
    let measured = Measured(seconds: (benchClock.now - start).seconds, deciles: deciles)
    return (measured, misses == 0 ? sum : -1)
  }

  /// One replica's concurrent editing of array "k1": `count` updates of one op each, drawn
  /// from a seeded generator: 50% insert at a random index (values valueBase + k, unique per
  /// replica), 20% remove at a random index, 30% move between random indexes.
  func concurrentEdits(count: Int, seed: UInt64, valueBase: Int32) throws -> ConcurrentEdits {
    var rng = SplitMix64(seed: seed)
    var inserted: [Int64] = []
    var deleted: [Int64] = []
    var next = valueBase
    let start = benchClock.now
    for _ in 0..<count {
      try update { root, _ in
        guard let array = root.array("k1") else { throw BenchError("array k1 is missing") }
        let n = array.count
        let roll = rng.below(10)
        if roll < 5 || n < 2 {
          try array.insert(.integer(next), at: rng.below(n + 1))
          inserted.append(Int64(next))
          next += 1
        } else if roll < 7 {
          let index = rng.below(n)
          guard let value = integerValue(array[index]) else { throw BenchError("element \(index) is not an integer") }
          try array.remove(at: index)
          deleted.append(value)
        } else {
          let from = rng.below(n)
          var to = rng.below(n)
          while to == from { to = rng.below(n) }
          try array.move(from: from, to: to)
        }
      }
    }
    let seconds = (benchClock.now - start).seconds
    return ConcurrentEdits(seconds: seconds, inserted: inserted, deleted: deleted, changes: pendingChanges.count)
  }
}

/// Bytes per stored value of the types every operation appends somewhere (`--layout`).
let memoryLayouts: [(String, Int)] = [
  ("TimeTicket", MemoryLayout<TimeTicket>.stride),
  ("Operation", MemoryLayout<Operation>.stride),
  ("Journal.Record", MemoryLayout<Journal.Record>.stride),
  ("ElementSnapshot", MemoryLayout<ElementSnapshot>.stride),
  ("PrimitiveValue", MemoryLayout<PrimitiveValue>.stride),
  ("CRDTRoot.GCPair", MemoryLayout<CRDTRoot.GCPair>.stride),
  ("CRDTRoot.GCPairKey", MemoryLayout<CRDTRoot.GCPairKey>.stride),
  ("CRDTText.Node", MemoryLayout<CRDTText.Node>.stride),
  ("CRDTArray.MoveResult", MemoryLayout<CRDTArray.MoveResult>.stride),
  ("CRDTArray.Node", MemoryLayout<CRDTArray.Node>.stride),
  ("Change", MemoryLayout<Change>.stride),
]
