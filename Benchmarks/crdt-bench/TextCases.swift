import CRDT
import Foundation

// Text workloads: the shared editing traces (CC BY 4.0, see Benchmarks/traces/README.md) and
// Yorkie's text GC benchmarks. Every case checks its final text.

/// Resident memory of this process in bytes (Linux `/proc/self/statm`), 0 elsewhere.
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * 4096
}

/// Per-edit timing: totals, the worst single edit, and the first and last tenth.
struct EditTimes: Sendable {
  var seconds = 0.0
  var worst = 0.0
  var worstIndex = 0
  var slowEdits = 0
  var firstTenth = 0.0
  var lastTenth = 0.0
  var retainedBytes = 0
  var gcBytes = 0
  var residentDelta = 0
  /// The process's CPU seconds over the whole loop (the acknowledgements and clock reads
  /// included): what stays comparable when other processes share the machine.
  var cpuSeconds = 0.0
  /// Entering the insertion lookups the edits deferred (see `Document.enterPendingTextLookups`).
  var deferredSeconds = 0.0

  func fields(ops: Int) -> [Field] {
    let tenth = Double(max(ops / 10, 1))
    return [
      Field("worst_edit_ms", .double(rounded(worst * 1000, significant: 4))),
      Field("worst_edit_index", .int(worstIndex)),
      Field("edits_over_1ms", .int(slowEdits)),
      Field("ns_per_op_first_10pct", .double(rounded(firstTenth / tenth * 1e9, significant: 4))),
      Field("ns_per_op_last_10pct", .double(rounded(lastTenth / tenth * 1e9, significant: 4))),
      Field("last_over_first", .double(rounded(lastTenth / max(firstTenth, 1e-12), significant: 3))),
      Field("deferred_lookups_ms", .double(rounded(deferredSeconds * 1000, significant: 4))),
      Field("retained_bytes", .int(retainedBytes)),
      Field("gc_bytes", .int(gcBytes)),
      Field("rss_delta_bytes", .int(residentDelta)),
      Field("cpu_seconds", .double(rounded(cpuSeconds))),
    ]
  }
}

extension Document {
  /// One update per transaction, as an app does on each keystroke. The server's
  /// acknowledgement is simulated every 1,000 changes, so local changes do not pile up.
  ///
  /// - Parameter label: the case's name, for the memory note.
  func benchTracePerChange(_ trace: SequentialTrace, label: String) throws -> EditTimes {
    var times = EditTimes()
    let total = trace.txns.count
    let tenth = max(total / 10, 1)
    let rssBefore = residentBytes()
    try update { root, _ in try root.setNewText("text").edit(0, 0, trace.startContent) }
    let cpuStart = processCPUSeconds()
    for (number, patches) in trace.txns.enumerated() {
      let start = benchClock.now
      try update { root, _ in
        let text = root.text("text")!
        for patch in patches { try text.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
      }
      let elapsed = (benchClock.now - start).seconds
      times.seconds += elapsed
      if elapsed > times.worst {
        times.worst = elapsed
        times.worstIndex = number
      }
      if elapsed > 0.001 { times.slowEdits += 1 }
      if number < tenth { times.firstTenth += elapsed }
      if number >= total - tenth { times.lastTenth += elapsed }
      if number % 1000 == 999 {
        let ack = Checkpoint(serverSeq: 0, clientSeq: UInt32(number + 2))
        try applyChangePack(ChangePack(key: key, checkpoint: ack, changes: []))
      }
    }
    times.cpuSeconds = processCPUSeconds() - cpuStart
    try applyChangePack(ChangePack(key: key, checkpoint: Checkpoint(serverSeq: 0, clientSeq: UInt32(total + 1)), changes: []))
    let deferredStart = benchClock.now
    enterPendingTextLookups()
    times.deferredSeconds = (benchClock.now - deferredStart).seconds
    times.retainedBytes = textMemoryFootprint
    times.gcBytes = gcMemoryFootprint
    if breakdownNoted.claim() {
      let pieces = textMemoryBreakdown.map { "\($0.name)=\($0.bytes)" }.joined(separator: " ")
      note("crdt-bench: \(label): text memory after the trace: \(pieces) (total \(textMemoryFootprint)); gc pairs=\(gcMemoryFootprint)")
    }
    times.residentDelta = residentBytes() - rssBefore
    return times
  }

  /// Every patch of the trace inside one update.
  ///
  /// - Returns: the update's seconds and the seconds of entering the lookups it deferred.
  func benchTraceBatched(_ trace: SequentialTrace) throws -> (seconds: Double, deferred: Double) {
    // One flat list, made before the clock starts: the timed loop then reads patches in place
    // instead of retaining and releasing a transaction's array per patch.
    let patches = trace.txns.flatMap { $0 }
    let start = benchClock.now
    try update { root, _ in
      let text = root.setNewText("text")
      try text.edit(0, 0, trace.startContent)
      for patch in patches { try text.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
    }
    let seconds = (benchClock.now - start).seconds
    let deferredStart = benchClock.now
    enterPendingTextLookups()
    return (seconds, (benchClock.now - deferredStart).seconds)
  }

  /// The changes a replica made while replaying the trace, one per transaction.
  func recordTrace(_ trace: SequentialTrace) throws -> [Change] {
    try update { root, _ in try root.setNewText("text").edit(0, 0, trace.startContent) }
    for patches in trace.txns {
      try update { root, _ in
        let text = root.text("text")!
        for patch in patches { try text.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
      }
    }
    return pendingChanges
  }

  /// Applies recorded changes in packs of 1,000, as pulls deliver them.
  func benchApply(_ changes: [Change]) throws -> Double {
    let start = benchClock.now
    var index = 0
    while index < changes.count {
      let end = min(index + 1000, changes.count)
      try applyChangePack(ChangePack(key: key, checkpoint: .initial, changes: Array(changes[index..<end])))
      index = end
    }
    return (benchClock.now - start).seconds
  }

  func textString() -> String? {
    var result: String? = nil
    try? update { root, _ in result = root.text("text")?.string }
    return result
  }
}

func sequentialTraceCase(name: String, trace traceName: String, history: Bool = true) -> BenchCase {
  BenchCase(name: name, ops: 0, maxRepeats: 3,
            summary: "replay the \(traceName) trace, one update per transaction (as typed)\(history ? "" : ", undo history off")",
            trace: traceName) {
    let trace = try? TraceLoader.sequential(named: traceName)
    return {
      await guarded {
        guard let trace else { return .failed("cannot load trace \(traceName)") }
        let doc = Document(key: "trace", recordingHistory: history)
        try await doc.setActor(try ActorID(hex: "000000000000000000000001"))
        let times = try await doc.benchTracePerChange(trace, label: name)
        var checks = Checks()
        checks.expect(await doc.textString() == trace.endContent, "final text differs from the trace's endContent")
        await checkInvariants(of: doc, &checks)
        var trial = checks.trial(times.seconds, times.fields(ops: trace.txns.count))
        trial.ops = trace.patchCount
        return trial
      }
    }
  }
}

func batchedTraceCase(name: String, trace traceName: String) -> BenchCase {
  // Up to 9 runs: a process's first two runs fault in the pages the update fills (about 1.8×
  // slower on the 2-core VM), so the best of 3 could still be a cold run.
  BenchCase(name: name, ops: 0, maxRepeats: 9,
            summary: "replay the \(traceName) trace, every patch in one update", trace: traceName) {
    let trace = try? TraceLoader.sequential(named: traceName)
    return {
      await guarded {
        guard let trace else { return .failed("cannot load trace \(traceName)") }
        let doc = Document(key: "trace")
        let (seconds, deferred) = try await doc.benchTraceBatched(trace)
        var checks = Checks()
        checks.expect(await doc.textString() == trace.endContent, "final text differs from the trace's endContent")
        await checkInvariants(of: doc, &checks)
        var trial = checks.trial(seconds, [Field("deferred_lookups_ms", .double(rounded(deferred * 1000, significant: 4))),
                                           Field("retained_bytes", .int(await doc.textMemoryFootprint)),
                                           Field("gc_bytes", .int(await doc.gcMemoryFootprint))])
        trial.ops = trace.patchCount
        return trial
      }
    }
  }
}

func remoteTraceCase(name: String, trace traceName: String) -> BenchCase {
  BenchCase(name: name, ops: 0, maxRepeats: 3,
            summary: "apply the \(traceName) trace's changes to another replica, 1,000 per pack", trace: traceName) {
    let recorded: (trace: SequentialTrace, changes: [Change])? = {
      guard let trace = try? TraceLoader.sequential(named: traceName) else { return nil }
      let source = Document(key: "trace")
      let changes = BlockingBox<[Change]>()
      Task.detached {
        try await source.setActor(try! ActorID(hex: "000000000000000000000001"))
        changes.set((try? await source.recordTrace(trace)) ?? [])
      }
      return (trace, changes.wait())
    }()
    return {
      await guarded {
        guard let recorded, !recorded.changes.isEmpty else { return .failed("cannot record trace \(traceName)") }
        let doc = Document(key: "trace")
        try await doc.setActor(try ActorID(hex: "000000000000000000000002"))
        let seconds = try await doc.benchApply(recorded.changes)
        var checks = Checks()
        checks.expect(await doc.textString() == recorded.trace.endContent, "final text differs from the trace's endContent")
        await checkInvariants(of: doc, &checks)
        var trial = checks.trial(seconds, [Field("changes", .int(recorded.changes.count)),
                                           Field("retained_bytes", .int(await doc.textMemoryFootprint)),
                                           Field("gc_bytes", .int(await doc.gcMemoryFootprint))])
        trial.ops = recorded.trace.patchCount
        return trial
      }
    }
  }
}

/// Notes the text memory breakdown once per process (the first trace replayed per change).
let breakdownNoted = OnceFlag()

/// A flag that one caller claims.
final class OnceFlag: @unchecked Sendable {
  // Guarded by `lock`.
  private var claimed = false
  private let lock = NSLock()

  /// True for the first caller only.
  func claim() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if claimed { return false }
    claimed = true
    return true
  }
}

/// A value computed on another task, waited for synchronously (only while preparing a case).
final class BlockingBox<Value>: @unchecked Sendable {
  // Guarded by `condition`.
  private var value: Value?
  private let condition = NSCondition()

  func set(_ newValue: Value) {
    condition.lock()
    value = newValue
    condition.signal()
    condition.unlock()
  }

  func wait() -> Value {
    condition.lock()
    while value == nil { condition.wait() }
    let result = value!
    condition.unlock()
    return result
  }
}

/// friendsforever: two replicas, one per agent. Before each transaction its author applies
/// exactly the other agent's changes the transaction's parents require; each transaction is one
/// update; at the end both replicas receive everything and must equal `endContent`.
func concurrentTraceCase(name: String, trace traceName: String) -> BenchCase {
  BenchCase(name: name, ops: 0, maxRepeats: 3,
            summary: "two replicas type the \(traceName) trace concurrently, syncing as its txns require",
            trace: traceName) {
    let trace = try? TraceLoader.concurrent(named: traceName)
    return {
      await guarded {
        guard let trace, trace.numAgents == 2 else { return .failed("cannot load the two-agent trace \(traceName)") }
        // For each txn, the latest txn of each agent in its causal past (inclusive).
        var latest = [[Int]](repeating: [-1, -1], count: trace.txns.count)
        for (index, txn) in trace.txns.enumerated() {
          var mine = [-1, -1]
          for parent in txn.parents {
            mine[0] = max(mine[0], latest[parent][0])
            mine[1] = max(mine[1], latest[parent][1])
          }
          mine[txn.agent] = index
          latest[index] = mine
        }
        let replicas = [Document(key: "ff"), Document(key: "ff")]
        try await replicas[0].setActor(try ActorID(hex: "000000000000000000000001"))
        try await replicas[1].setActor(try ActorID(hex: "000000000000000000000002"))
        try await replicas[0].update { root, _ in _ = root.setNewText("text") }
        let setup = await replicas[0].pendingChanges
        try await replicas[1].applyChangePack(ChangePack(key: "ff", checkpoint: .initial, changes: setup))
        var produced: [[Change]] = [[], []]  // per agent, the change of each of its txns, in order
        var txnOrdinal = [Int](repeating: 0, count: trace.txns.count)
        var delivered = [0, 0]  // how many of the other agent's changes each replica applied
        var counts = [0, 0]
        for (index, txn) in trace.txns.enumerated() {
          txnOrdinal[index] = counts[txn.agent]
          counts[txn.agent] += 1
        }
        var seconds = 0.0
        for (index, txn) in trace.txns.enumerated() {
          let author = txn.agent
          let other = 1 - author
          let needed = latest[index][other] >= 0 ? txnOrdinal[latest[index][other]] + 1 : 0
          let start = benchClock.now
          if needed > delivered[author] {
            let pack = Array(produced[other][delivered[author]..<needed])
            try await replicas[author].applyChangePack(ChangePack(key: "ff", checkpoint: .initial, changes: pack))
            delivered[author] = needed
          }
          let patches = txn.patches
          try await replicas[author].update { root, _ in
            let text = root.text("text")!
            for patch in patches { try text.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
          }
          seconds += (benchClock.now - start).seconds
          let pending = await replicas[author].pendingChanges
          if let change = pending.last { produced[author].append(change) }
        }
        for replica in 0..<2 where delivered[replica] < produced[1 - replica].count {
          let pack = Array(produced[1 - replica][delivered[replica]...])
          try await replicas[replica].applyChangePack(ChangePack(key: "ff", checkpoint: .initial, changes: pack))
        }
        var checks = Checks()
        for replica in replicas {
          checks.expect(await replica.textString() == trace.endContent, "a replica differs from endContent")
          await checkInvariants(of: replica, &checks)
        }
        var trial = checks.trial(seconds, [Field("retained_bytes", .int(await replicas[0].textMemoryFootprint))])
        trial.ops = trace.patchCount
        return trial
      }
    }
  }
}

/// Yorkie's text GC benchmarks: fill a text, replace every character one by one in one update,
/// then GC. Yorkie expects N garbage nodes and N purged.
func textReplaceGCCase(name: String, _ n: Int, summary: String,
                       fill: @escaping @Sendable (JSONText) throws -> Void) -> BenchCase {
  BenchCase(name: name, ops: n, summary: summary) {
    {
      await guarded {
        let doc = Document(key: "d1")
        let start = benchClock.now
        try await doc.update { root, _ in try fill(root.setNewText("text")) }
        try await doc.update { root, _ in
          let text = root.text("text")!
          for i in 0..<n { try text.edit(i, i + 1, "b") }
        }
        let garbage = await doc.garbageLength
        let purged = await doc.garbageCollect(minSyncedVersionVector: VersionVector([.initial: .max]))
        let seconds = (benchClock.now - start).seconds
        var checks = Checks()
        checks.expect(garbage == n, "garbageLength \(garbage), Yorkie expects \(n)")
        checks.expect(purged == n, "garbageCollect returned \(purged), Yorkie expects \(n)")
        checks.expect(await doc.garbageLength == 0, "garbage left after GC")
        checks.expect(await doc.textString() == String(repeating: "b", count: n), "text differs")
        await checkInvariants(of: doc, &checks)
        return checks.trial(seconds, [Field("purged", .int(purged))])
      }
    }
  }
}

/// Yorkie `text Edit-GC N`: the text is filled with N single-character inserts.
func textEditGCCase(_ n: Int) -> BenchCase {
  textReplaceGCCase(name: "text_edit_gc_\(n)", n,
                    summary: "type \(grouped(n)) characters, replace each one in one update, GC") { text in
    for i in 0..<n { try text.edit(i, i, "a") }
  }
}

/// Yorkie `text Split-GC N`: the text is one N-character insert, split by every replacement.
func textSplitGCCase(_ n: Int) -> BenchCase {
  textReplaceGCCase(name: "text_split_gc_\(n)", n,
                    summary: "insert \(grouped(n)) characters at once, replace each one in one update, GC") { text in
    try text.edit(0, 0, String(repeating: "a", count: n))
  }
}

/// N characters typed one update each, then one update deletes the whole range, then GC: N
/// pieces purged.
func textDeleteRangeCase(_ n: Int) -> BenchCase {
  BenchCase(name: "text_delete_range_\(n)", ops: n,
            summary: "type \(grouped(n)) characters one update each, delete them all in one, GC") {
    {
      await guarded {
        let doc = Document(key: "d1")
        try await doc.update { root, _ in _ = root.setNewText("text") }
        let start = benchClock.now
        for i in 0..<n {
          try await doc.update { root, _ in try root.text("text")!.edit(i, i, "a") }
        }
        try await doc.update { root, _ in try root.text("text")!.edit(0, n, "") }
        let purged = await doc.garbageCollect(minSyncedVersionVector: VersionVector([.initial: .max]))
        let seconds = (benchClock.now - start).seconds
        var checks = Checks()
        checks.expect(purged == n, "garbageCollect returned \(purged), expected \(n)")
        checks.expect(await doc.textString() == "", "text not empty")
        await checkInvariants(of: doc, &checks)
        return checks.trial(seconds, [Field("purged", .int(purged))])
      }
    }
  }
}

let textCases: [BenchCase] = [
  sequentialTraceCase(name: "automerge_paper_per_change", trace: "automerge-paper"),
  // The same with undo recording off, to run side by side with the case above (issue 24).
  sequentialTraceCase(name: "automerge_paper_per_change_no_history", trace: "automerge-paper", history: false),
  batchedTraceCase(name: "automerge_paper_batched", trace: "automerge-paper"),
  remoteTraceCase(name: "automerge_paper_remote", trace: "automerge-paper"),
  sequentialTraceCase(name: "seph_blog1", trace: "seph-blog1"),
  concurrentTraceCase(name: "friendsforever_concurrent", trace: "friendsforever"),
  textEditGCCase(1000), textSplitGCCase(1000), textDeleteRangeCase(1600),
]
