import CRDT
import Foundation

// Undo and redo (issue 24, "Speed and memory"): what an undo and a redo cost after a realistic
// typing session, and what recording the history costs the typing (history on vs off, side by
// side in the same run). Figures and commands: Benchmarks/history.md.

let historyCases: [BenchCase] = [
  undoRedoCase(edits: 10_000, steps: History.maxDepth),
  historyInterleavedCase(chunk: 1_000),
]

/// The automerge-paper trace typed one update per transaction into two documents at once, one
/// recording the history and one not, in turns of `chunk` transactions (which of the two goes
/// first alternates every turn); each document's CPU time is summed over its turns. The two
/// separate trace cases (`automerge_paper_per_change` and `_no_history`) run a second apart,
/// and on a shared machine their ratio swings by tens of percent from one invocation to the
/// next; interleaved, both documents meet the same load, and the ratio holds still.
/// `seconds` is the history document's CPU time.
func historyInterleavedCase(chunk: Int) -> BenchCase {
  BenchCase(name: "history_interleaved", ops: 259_778, maxRepeats: 3,
            summary: "type the automerge-paper trace one update per transaction into a document with history and one "
              + "without, in alternating turns of \(grouped(chunk)) transactions (CPU time of each; their ratio)",
            trace: "automerge-paper") {
    let trace = try? TraceLoader.sequential(named: "automerge-paper")
    return {
      await guarded {
        guard let trace else { return .failed("cannot load trace automerge-paper") }
        let with = Document(key: "trace", recordingHistory: true)
        let without = Document(key: "trace", recordingHistory: false)
        for doc in [with, without] {
          try await doc.setActor(try ActorID(hex: "000000000000000000000001"))
          try await doc.update { root, _ in try root.setNewText("text").edit(0, 0, trace.startContent) }
        }
        var cpu = (with: 0.0, without: 0.0)
        var turn = 0
        for start in stride(from: 0, to: trace.txns.count, by: chunk) {
          let range = start..<min(start + chunk, trace.txns.count)
          if turn % 2 == 0 {
            cpu.with += try await with.benchTypeTurn(trace, range)
            cpu.without += try await without.benchTypeTurn(trace, range)
          } else {
            cpu.without += try await without.benchTypeTurn(trace, range)
            cpu.with += try await with.benchTypeTurn(trace, range)
          }
          turn += 1
        }
        var checks = Checks()
        checks.expect(await with.textString() == trace.endContent, "the text with history differs from the trace's endContent")
        checks.expect(await without.textString() == trace.endContent, "the text without history differs from the trace's endContent")
        checks.expect(await with.canUndo, "the document with history cannot undo")
        checks.expect(!(await without.canUndo), "the document without history can undo")
        return checks.trial(cpu.with, [
          Field("cpu_seconds", .double(rounded(cpu.with))),
          Field("no_history_cpu_seconds", .double(rounded(cpu.without))),
          Field("cpu_over_no_history", .double(rounded(cpu.with / cpu.without, significant: 4))),
        ])
      }
    }
  }
}

/// The first `edits` patches of the automerge-paper trace and the texts the undo and redo
/// must end with, computed on a plain UTF-16 model (never timed).
struct UndoRedoInput: Sendable {
  var patches: [Patch]
  /// The text once the last `steps` patches are undone.
  var afterUndos: String
  /// The text after every patch.
  var afterRedos: String
}

/// The trace's first `edits` patches, one update each, typed into a document with history and
/// one without in alternating turns of 1,000 (which goes first alternates every turn; each
/// document's thread CPU time summed over its turns; three rounds, best of each: typed one
/// after the other, 10 ms each, their ratio swung by ±5% between invocations), then `steps`
/// undos and `steps` redos, each series timed as a whole (after the typing's deferred lookups,
/// timed apart).
/// `seconds` is the undos' and redos' time, so `ns_per_op`
/// is the cost of one undo or redo.
func undoRedoCase(edits: Int, steps: Int) -> BenchCase {
  BenchCase(name: "undo_redo", ops: 2 * steps, maxRepeats: 9,
            summary: "type the automerge-paper trace's first \(grouped(edits)) edits one update each, then "
              + "\(steps) undos and \(steps) redos (ns per undo or redo; the typing with history on and off side by side)",
            trace: "automerge-paper") {
    let input = try? undoRedoInput(edits: edits, steps: steps)
    return {
      await guarded {
        guard let input else { return .failed("cannot load trace automerge-paper") }
        var withHistory = TypingTime()
        var withoutHistory = TypingTime()
        var typedWithHistory: [Document] = []
        for _ in 0..<3 {
          let with = Document(key: "undo", recordingHistory: true)
          let without = Document(key: "undo", recordingHistory: false)
          var round = (with: TypingTime(wall: 0, cpu: 0), without: TypingTime(wall: 0, cpu: 0))
          for doc in [with, without] {
            try await doc.setActor(try ActorID(hex: "000000000000000000000001"))
            try await doc.update { root, _ in _ = root.setNewText("text") }
          }
          for (turn, start) in stride(from: 0, to: input.patches.count, by: 1_000).enumerated() {
            let range = start..<min(start + 1_000, input.patches.count)
            if turn % 2 == 0 {
              round.with.add(try await with.benchTyping(input.patches, range))
              round.without.add(try await without.benchTyping(input.patches, range))
            } else {
              round.without.add(try await without.benchTyping(input.patches, range))
              round.with.add(try await with.benchTyping(input.patches, range))
            }
          }
          withHistory.keepBest(round.with)
          withoutHistory.keepBest(round.without)
          typedWithHistory.append(with)
        }
        // Each of the three documents typed with history undoes and redoes; the best series of
        // each kind counts (50 undos take about 0.1 ms, which one stray interruption doubles).
        var replay: UndoRedoReplay? = nil
        var deferred = Double.infinity
        var checks = Checks()
        for doc in typedWithHistory {
          // The typing deferred its insertions' lookups by ticket (see
          // `Document.enterPendingTextLookups`); the first undo would enter them all. Entered
          // here, timed apart, so that the undos are timed alone.
          let deferredStart = benchClock.now
          await doc.enterPendingTextLookups()
          deferred = min(deferred, (benchClock.now - deferredStart).seconds)
          let run = try await doc.benchUndoRedo(steps: steps)
          checks.expect(run.textAfterUndos == input.afterUndos, "the text after \(steps) undos differs from the trace's")
          checks.expect(run.textAfterRedos == input.afterRedos, "the text after \(steps) redos differs from the trace's")
          checks.expect(run.depthsAfterUndos == HistoryDepths(undo: 0, redo: steps),
                        "stacks after the undos: \(run.depthsAfterUndos), expected 0 undo, \(steps) redo")
          checks.expect(run.depthsAfterRedos == HistoryDepths(undo: steps, redo: 0),
                        "stacks after the redos: \(run.depthsAfterRedos), expected \(steps) undo, 0 redo")
          await checkInvariants(of: doc, &checks)
          replay = replay.map { $0.keepingBest(run) } ?? run
        }
        guard let replay else { return .failed("no typed document") }
        let perStep = { (seconds: Double) in FieldValue.double(rounded(seconds / Double(steps) * 1e9, significant: 4)) }
        return checks.trial(replay.undo.wall + replay.redo.wall, [
          Field("undo_ns", perStep(replay.undo.wall)),
          Field("redo_ns", perStep(replay.redo.wall)),
          Field("undo_cpu_ns", perStep(replay.undo.cpu)),
          Field("redo_cpu_ns", perStep(replay.redo.cpu)),
          Field("typing_seconds", .double(rounded(withHistory.wall))),
          Field("typing_cpu_seconds", .double(rounded(withHistory.cpu))),
          Field("typing_no_history_seconds", .double(rounded(withoutHistory.wall))),
          Field("typing_no_history_cpu_seconds", .double(rounded(withoutHistory.cpu))),
          Field("typing_cpu_over_no_history", .double(rounded(withHistory.cpu / withoutHistory.cpu, significant: 3))),
          Field("deferred_lookups_ms", .double(rounded(deferred * 1000, significant: 4))),
        ])
      }
    }
  }
}

func undoRedoInput(edits: Int, steps: Int) throws -> UndoRedoInput {
  let trace = try TraceLoader.sequential(named: "automerge-paper")
  let patches = Array(trace.txns.joined().prefix(edits))
  var model = Array(trace.startContent.utf16)
  var afterUndos = ""
  for (index, patch) in patches.enumerated() {
    if index == patches.count - steps { afterUndos = String(decoding: model, as: UTF16.self) }
    model.replaceSubrange(patch.position..<patch.position + patch.deleteCount, with: Array(patch.insert.utf16))
  }
  return UndoRedoInput(patches: patches, afterUndos: afterUndos, afterRedos: String(decoding: model, as: UTF16.self))
}

/// Wall and CPU seconds of a measured region.
struct TypingTime {
  var wall = Double.infinity
  var cpu = Double.infinity

  mutating func keepBest(_ other: TypingTime) {
    wall = min(wall, other.wall)
    cpu = min(cpu, other.cpu)
  }

  mutating func add(_ other: TypingTime) {
    wall += other.wall
    cpu += other.cpu
  }
}

/// The undo and redo stacks' depths, comparable.
struct HistoryDepths: Equatable, Sendable, CustomStringConvertible {
  var undo: Int
  var redo: Int
  var description: String { "\(undo) undo, \(redo) redo" }
}

/// What ``Document/benchUndoRedo(steps:)`` measured and found.
struct UndoRedoReplay: Sendable {
  /// This replay with the faster undo series and the faster redo series of the two.
  func keepingBest(_ other: UndoRedoReplay) -> UndoRedoReplay {
    var best = self
    if other.undo.cpu < undo.cpu { best.undo = other.undo }
    if other.redo.cpu < redo.cpu { best.redo = other.redo }
    return best
  }

  var undo: (wall: Double, cpu: Double)
  var redo: (wall: Double, cpu: Double)
  var textAfterUndos: String?
  var textAfterRedos: String?
  var depthsAfterUndos: HistoryDepths
  var depthsAfterRedos: HistoryDepths
}

extension Document {
  /// Types the transactions `range` of `trace` into the text "text", one update each, as
  /// `benchTracePerChange` does (the server's acknowledgement simulated every 1,000 changes);
  /// returns the CPU time this thread spent.
  func benchTypeTurn(_ trace: SequentialTrace, _ range: Range<Int>) throws -> Double {
    let cpuStart = threadCPUSeconds()
    for number in range {
      try update { root, _ in
        let text = root.text("text")!
        for patch in trace.txns[number] { try text.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
      }
      if number % 1000 == 999 {
        try applyChangePack(ChangePack(key: key, checkpoint: Checkpoint(serverSeq: 0, clientSeq: UInt32(number + 2)), changes: []))
      }
    }
    return threadCPUSeconds() - cpuStart
  }

  /// Types `patches[range]` into the text "text", one update each, as `benchTracePerChange`
  /// does (the server's acknowledgement simulated every 1,000 changes); times the whole loop.
  func benchTyping(_ patches: [Patch], _ range: Range<Int>) throws -> TypingTime {
    let cpuStart = threadCPUSeconds()
    let start = benchClock.now
    for number in range {
      let patch = patches[number]
      try update { root, _ in try root.text("text")!.edit(patch.position, patch.position + patch.deleteCount, patch.insert) }
      if number % 1000 == 999 {
        try applyChangePack(ChangePack(key: key, checkpoint: Checkpoint(serverSeq: 0, clientSeq: UInt32(number + 2)), changes: []))
      }
    }
    return TypingTime(wall: (benchClock.now - start).seconds, cpu: threadCPUSeconds() - cpuStart)
  }

  /// `steps` undos, then `steps` redos, each series timed as a whole.
  func benchUndoRedo(steps: Int) throws -> UndoRedoReplay {
    // The thread's CPU time: the process's counts other threads too (a document dropped by
    // the typing rounds may be freed on another one meanwhile).
    let undoCPU = threadCPUSeconds()
    let undoStart = benchClock.now
    for _ in 0..<steps { try undo() }
    let undoWall = (benchClock.now - undoStart).seconds
    let undoSeconds = threadCPUSeconds() - undoCPU
    let textAfterUndos = textString()
    let depthsAfterUndos = HistoryDepths(undo: historyDepths.undo, redo: historyDepths.redo)
    let redoCPU = threadCPUSeconds()
    let redoStart = benchClock.now
    for _ in 0..<steps { try redo() }
    let redoWall = (benchClock.now - redoStart).seconds
    let redoSeconds = threadCPUSeconds() - redoCPU
    return UndoRedoReplay(undo: (undoWall, undoSeconds), redo: (redoWall, redoSeconds),
                          textAfterUndos: textAfterUndos, textAfterRedos: textString(),
                          depthsAfterUndos: depthsAfterUndos,
                          depthsAfterRedos: HistoryDepths(undo: historyDepths.undo, redo: historyDepths.redo))
  }
}
