import CRDT

/// One benchmark case. `prepare` runs once per invocation (seeded inputs, expected results:
/// never timed) and returns the runner that one repetition calls.
struct BenchCase: Sendable {
  let name: String
  let ops: Int
  /// Cases whose per-op cost is compared with the same workload at 10,000 (see `main.swift`).
  var smallerVariant: String? = nil
  /// At most this many repetitions (long trace replays).
  var maxRepeats: Int? = nil
  /// One line for `--list`: what the case measures.
  var summary = ""
  /// The editing trace the case replays (a file name in the trace folder without `.json.gz`):
  /// the case is skipped when it is missing.
  var trace: String? = nil
  let prepare: @Sendable () -> @Sendable () async -> Trial
}

/// The seed Yorkie's array benchmarks use (`rand.NewSource(42)`); our generator differs, the
/// shape of the workload does not.
let workloadSeed: UInt64 = 42

// MARK: - Checks

/// Collects failed checks; a trial is ok when none failed.
struct Checks {
  private(set) var failures: [String] = []

  mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { failures.append(message()) }
  }

  mutating func expectJSON(_ actual: String, _ expected: String) {
    if actual != expected { failures.append("toJSON: " + firstDifference(actual, expected)) }
  }

  func trial(_ seconds: Double, _ fields: [Field], windows: [Double] = []) -> Trial {
    Trial(seconds: seconds, ok: failures.isEmpty, failure: failures.isEmpty ? nil : failures.joined(separator: "; "),
          fields: fields, windows: windows)
  }
}

func decileFields(_ measured: Measured) -> [Field] {
  guard let first = measured.firstTenth, let last = measured.lastTenth else { return [] }
  let sorted = measured.windows.sorted()
  return [
    Field("ns_per_op_first_10pct", .double(rounded(first, significant: 4))),
    Field("ns_per_op_last_10pct", .double(rounded(last, significant: 4))),
    Field("last_over_first", .double(rounded(last / first, significant: 3))),
    Field("window_ns_per_op_p50", .double(rounded(sorted[sorted.count / 2], significant: 4))),
    Field("window_ns_per_op_max", .double(rounded(sorted[sorted.count - 1], significant: 4))),
  ]
}

/// Runs `body`, turning a thrown error into a failed trial.
func guarded(_ body: () async throws -> Trial) async -> Trial {
  do {
    return try await body()
  } catch {
    return .failed("threw \(error)")
  }
}

/// Adds the invariant check of a document to `checks`.
func checkInvariants(of doc: Document, _ checks: inout Checks) async {
  if let problem = await doc.checkInvariants() { checks.expect(false, "invariants: \(problem)") }
}

// MARK: - Yorkie's BenchmarkDocument cases

/// `object N`: the same key set N times in one update; the document ends as {"k1":N-1} with
/// N-1 replaced values waiting for GC.
func objectCase(_ n: Int) -> BenchCase {
  BenchCase(name: "object_\(n)", ops: n,
            summary: "set one key \(grouped(n)) times in one update (the replaced values wait for GC)") {
    let expected = "{\"k1\":\(n - 1)}"
    return {
      await guarded {
        let doc = Document(key: "d1")
        let measured = try await doc.benchObjectSet(count: n)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), expected)
        let garbage = await doc.garbageLength
        checks.expect(garbage == n - 1, "garbageLength \(garbage), expected \(n - 1) replaced values")
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, decileFields(measured) + [Field("garbage", .int(garbage))], windows: measured.windows)
      }
    }
  }
}

/// `array N`: create an array and append 0..<N in one update.
func arrayCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_\(n)", ops: n, summary: "append \(grouped(n)) integers to a new array in one update") {
    let expected = arrayDocumentJSON(0..<Int32(n))
    return {
      await guarded {
        let doc = Document(key: "d1")
        let measured = try await doc.benchArrayAppend(count: n)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), expected)
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, decileFields(measured), windows: measured.windows)
      }
    }
  }
}

/// `array gc N`: build, remove the whole array, GC with a maximal vector. Yorkie expects
/// N + 1 purged (the array and its N elements).
func arrayGCCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_gc_\(n)", ops: n,
            summary: "build a \(grouped(n))-element array, remove it, garbage-collect it (timed together)") {
    {
      await guarded {
        let doc = Document(key: "d1")
        let measured = try await doc.benchArrayGC(count: n)
        var checks = Checks()
        checks.expect(measured.purged == n + 1, "garbageCollect returned \(measured.purged), Yorkie expects \(n + 1)")
        checks.expect(measured.garbageBefore == n + 1, "garbageLength before GC \(measured.garbageBefore), expected \(n + 1)")
        checks.expect(measured.garbageAfter == 0, "garbageLength after GC \(measured.garbageAfter), expected 0")
        checks.expectJSON(await doc.toJSON(), "{}")
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, [
          Field("gc_seconds", .double(rounded(measured.gcSeconds))),
          Field("purged", .int(measured.purged)),
        ])
      }
    }
  }
}

/// `counter N`: a counter increased by 0, 1, …, N-1 in one update.
func counterCase(_ n: Int) -> BenchCase {
  BenchCase(name: "counter_\(n)", ops: n, summary: "increase a counter \(grouped(n)) times in one update") {
    let sum = Int64(n) * Int64(n - 1) / 2
    let expected = "{\"k1\":\(Int32(truncatingIfNeeded: sum))}"
    return {
      await guarded {
        let doc = Document(key: "d1")
        let measured = try await doc.benchCounter(count: n)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), expected)
        return checks.trial(measured.seconds, decileFields(measured), windows: measured.windows)
      }
    }
  }
}

// MARK: - Array scaling (Yorkie's BenchmarkArray shapes)

func randomInsertCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_random_insert_\(n)", ops: n, smallerVariant: n > 10_000 ? "array_random_insert_10000" : nil,
            summary: "insert \(grouped(n)) integers at random indexes of a growing array, one update") {
    var rng = SplitMix64(seed: workloadSeed)
    var anchors = [Int32](repeating: 0, count: n)
    var model = ChunkedList([0])
    for i in 1..<n {
      let index = rng.below(i)  // the array holds i elements
      anchors[i] = Int32(index)
      model.insert(Int32(i), at: index + 1)
    }
    let expected = arrayDocumentJSON(model.values)
    return { [anchors] in
      await guarded {
        let doc = Document(key: "d1")
        let measured = try await doc.benchRandomInsert(anchors: anchors)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), expected)
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, decileFields(measured), windows: measured.windows)
      }
    }
  }
}

/// Build N (not timed), then N random moves in one update. Yorkie moves the element at `from`
/// right after the element at `prev` (`MoveAfterByIndex(prev, from)`, prev ≠ from); here the
/// same move is expressed as `move(from:to:)` with `to` the index it lands at.
/// (Yorkie's `random move` runs N/2 moves at N = 10,000 only; we run N, per-op cost compares.)
func randomMoveCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_random_move_\(n)", ops: n, smallerVariant: n > 10_000 ? "array_random_move_10000" : nil,
            summary: "\(grouped(n)) random moves in a \(grouped(n))-element array, one update") {
    var rng = SplitMix64(seed: workloadSeed)
    var moves = [Int32](repeating: 0, count: 2 * n)
    var model = ChunkedList(0..<Int32(n))
    for k in 0..<n {
      let from = rng.below(n)
      var previous = rng.below(n)
      while previous == from { previous = rng.below(n) }
      let to = from < previous ? previous : previous + 1
      moves[2 * k] = Int32(from)
      moves[2 * k + 1] = Int32(to)
      let value = model.remove(at: from)
      model.insert(value, at: to)
    }
    let expected = arrayDocumentJSON(model.values)
    return { [moves] in
      await guarded {
        let doc = Document(key: "d1")
        try await doc.buildArray(count: n)
        let measured = try await doc.benchRandomMove(moves: moves)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), expected)
        await checkInvariants(of: doc, &checks)
        let garbage = await doc.garbageLength
        return checks.trial(measured.seconds, decileFields(measured) + [Field("garbage", .int(garbage))], windows: measured.windows)
      }
    }
  }
}

/// Build N (not timed), then remove at random indexes until empty, in one update.
func randomDeleteCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_random_delete_\(n)", ops: n, smallerVariant: n > 10_000 ? "array_random_delete_10000" : nil,
            summary: "remove a \(grouped(n))-element array's elements at random indexes, one update") {
    var rng = SplitMix64(seed: workloadSeed)
    let indexes = (0..<n).map { Int32(rng.below(n - $0)) }
    return {
      await guarded {
        let doc = Document(key: "d1")
        try await doc.buildArray(count: n)
        let measured = try await doc.benchRandomDelete(indexes: indexes)
        var checks = Checks()
        checks.expectJSON(await doc.toJSON(), "{\"k1\":[]}")
        let garbage = await doc.garbageLength
        checks.expect(garbage == n, "garbageLength \(garbage), expected \(n) removed elements")
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, decileFields(measured) + [Field("garbage", .int(garbage))], windows: measured.windows)
      }
    }
  }
}

/// Build N (not timed), then N reads at random indexes in one update.
func randomAccessCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_random_access_\(n)", ops: n, smallerVariant: n > 10_000 ? "array_random_access_10000" : nil,
            summary: "\(grouped(n)) reads at random indexes of a \(grouped(n))-element array") {
    var rng = SplitMix64(seed: workloadSeed)
    let indexes = (0..<n).map { _ in Int32(rng.below(n)) }
    let expectedSum = indexes.reduce(Int64(0)) { $0 + Int64($1) }
    return {
      await guarded {
        let doc = Document(key: "d1")
        try await doc.buildArray(count: n)
        let (measured, sum) = try await doc.benchRandomAccess(indexes: indexes)
        var checks = Checks()
        checks.expect(sum == expectedSum, "sum of values read \(sum), expected \(expectedSum)")
        let changes = await doc.pendingChanges.count
        checks.expect(changes == 1, "expected only the build change, found \(changes) changes")
        return checks.trial(measured.seconds, decileFields(measured), windows: measured.windows)
      }
    }
  }
}

// MARK: - Two replicas

/// Two replicas share an array of N/10 integers, then each makes N/2 single-op changes
/// concurrently (insert / remove / move at random indexes). Measured: exchanging the change
/// packs both ways (N remote changes applied). Checked: equal toSortedJSON, and the live
/// values are exactly base ∪ inserted − removed.
func concurrentMergeCase(_ n: Int) -> BenchCase {
  BenchCase(name: "array_concurrent_merge_\(n)", ops: n,
            summary: "two replicas edit an array concurrently (\(grouped(n)) changes), then exchange change packs") {
    {
      await guarded {
        let base = n / 10
        let a = Document(key: "merge")
        let b = Document(key: "merge")
        try await a.setActor(try ActorID(hex: "000000000000000000000001"))
        try await b.setActor(try ActorID(hex: "000000000000000000000002"))
        try await a.buildArray(count: base)
        let basePack = try await a.createChangePack()
        try await b.applyChangePack(ChangePack(key: basePack.key, checkpoint: .initial, changes: basePack.changes))
        // Acknowledge A's base change, as a server would after the push.
        try await a.applyChangePack(ChangePack(key: basePack.key, checkpoint: basePack.checkpoint, changes: []))

        let editsA = try await a.concurrentEdits(count: n / 2, seed: 1, valueBase: 1_000_000)
        let editsB = try await b.concurrentEdits(count: n - n / 2, seed: 2, valueBase: 2_000_000)

        let start = benchClock.now
        let packA = try await a.createChangePack()
        let packB = try await b.createChangePack()
        // Peer to peer: nothing acknowledged, no GC vector.
        try await a.applyChangePack(ChangePack(key: packB.key, checkpoint: .initial, changes: packB.changes))
        try await b.applyChangePack(ChangePack(key: packA.key, checkpoint: .initial, changes: packA.changes))
        let seconds = (benchClock.now - start).seconds

        var checks = Checks()
        checks.expect(packA.changes.count == n / 2 && packB.changes.count == n - n / 2,
                      "packs carry \(packA.changes.count) + \(packB.changes.count) changes, expected \(n / 2) + \(n - n / 2)")
        let jsonA = await a.toSortedJSON()
        let jsonB = await b.toSortedJSON()
        if jsonA != jsonB { checks.expect(false, "replicas differ: " + firstDifference(jsonA, jsonB)) }
        var expected = Set((0..<Int64(base)))
        expected.formUnion(editsA.inserted)
        expected.formUnion(editsB.inserted)
        expected.subtract(editsA.deleted)
        expected.subtract(editsB.deleted)
        var live: [Int64] = []
        if case .array(let items)? = try await a.value(atPath: "$.k1") {
          live = items.compactMap(integerValue)
          checks.expect(live.count == items.count, "non-integer elements in the array")
        } else {
          checks.expect(false, "$.k1 is not an array")
        }
        checks.expect(live.count == Set(live).count, "an element appears twice")
        if Set(live) != expected {
          checks.expect(false, "live values: \(live.count) present, \(expected.count) expected, "
            + "\(Set(live).subtracting(expected).count) unexpected, \(expected.subtracting(live).count) missing")
        }
        await checkInvariants(of: a, &checks)
        await checkInvariants(of: b, &checks)
        return checks.trial(seconds, [
          Field("edit_seconds", .double(rounded(editsA.seconds + editsB.seconds))),
          Field("final_length", .int(live.count)),
        ])
      }
    }
  }
}

// MARK: - The list

let allCases: [BenchCase] = [
  objectCase(1000), objectCase(10_000),
  arrayCase(1000), arrayCase(10_000),
  arrayGCCase(100), arrayGCCase(1000),
  counterCase(1000), counterCase(10_000),
  randomInsertCase(10_000), randomInsertCase(100_000),
  randomMoveCase(10_000), randomMoveCase(100_000),
  randomDeleteCase(10_000), randomDeleteCase(100_000),
  randomAccessCase(10_000), randomAccessCase(100_000),
  concurrentMergeCase(10_000),
] + textCases + historyCases + wireCases + treeCases
