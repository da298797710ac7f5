// crdt-bench: release-build benchmarks of the CRDT library, named after Yorkie's Go benchmarks
// (test/bench/document_bench_test.go, array_bench_test.go, tree_editing_bench_test.go) so the
// numbers line up.
//
//   swift run -c release crdt-bench                 every case
//   swift run -c release crdt-bench --list          case names, one per line, each with what it measures
//   swift run -c release crdt-bench array_10000 …   only these cases
//   swift run -c release crdt-bench --table …       a summary table on stdout (the default on a terminal)
//   swift run -c release crdt-bench --json …        JSON lines on stdout (the default otherwise)
//   swift run -c release crdt-bench --repeat 9      best of 9 runs per case (default 5)
//   swift run -c release crdt-bench --windows …     also print the best run's per-window cost
//                                                   (ns per op of each 1% of the loop) to stderr
//   swift run -c release crdt-bench --in-process …  run every case in this process
//   swift run -c release crdt-bench --cold-heap …   leave glibc's heap thresholds as they are
//   CRDT_BENCH_TRIALS=1 crdt-bench …                 also print every run's seconds to stderr
//                                                   (the first runs of a process are the cold ones)
//   CRDT_TRACE_DIR=/path crdt-bench …                read the editing traces from /path instead of
//                                                   Benchmarks/traces (a case whose trace file is
//                                                   missing is skipped, with one line saying so)
//
// The C heap is settled first (Linux): glibc's thresholds for returning freed memory to the
// kernel and for mapping large blocks are set to what glibc itself adopts once a process has
// freed a 32 MB block (M_MMAP_THRESHOLD 32 MB, M_TRIM_THRESHOLD twice that). Without it, the
// count of page faults a case takes depends on whether an earlier run happened to free a large
// block (counter_10000 measured 0.36 ms or 0.75 ms depending on that); with it, every case runs
// on a heap that keeps and reuses freed memory, as a long-running app's does and as Go's
// runtime does for Yorkie's Go benchmarks. `--cold-heap` leaves glibc's defaults.
//
// Each case runs in a fresh child process (this executable, given that one case), unless only
// one case is chosen or --in-process is given. A case's allocations leave the C heap in a state
// (mapping thresholds, freed pages kept or returned) that decides how many page faults the next
// case takes: in one process, object_10000 measured 1.4 ms alone and 1.8-1.9 ms right after
// object_1000. Separate processes make every line independent of the cases before it, as
// JMH forks a JVM per benchmark.
//
// stdout, for tools (`--json`, the default when stdout is not a terminal): one JSON line per
// case. `seconds` is the best run's measured region (setup and verification excluded),
// `ns_per_op` = seconds / ops, `ok` = every run's result was checked and correct. Growth cases
// add the per-op cost of the first and last tenth of the loop; the 100,000 cases add
// `ns_per_op_vs_10000`, their per-op cost over the 10,000 variant's (when both ran).
// stdout, for people (`--table`, the default on a terminal): one table row per case as it
// ends (time in readable units, ns per op, ok), then a total line. Both flags print both.
// A case whose trace file is missing is skipped with one line: its table row, or a note on
// stderr without a table.
// Notes go to stderr. Exit status: 0 every case that ran is ok (skipped cases included),
// 1 a case failed, 2 bad arguments.
import Foundation

func usage() -> String {
  "usage: crdt-bench [--list] [--table | --json] [--repeat N] [--windows] [--in-process] [--cold-heap] [case …]\n"
    + "  --list         the cases, with what each measures\n"
    + "  --table        a summary table on stdout (the default when stdout is a terminal)\n"
    + "  --json         one JSON line per case on stdout (the default otherwise)\n"
    + "  --repeat N     best of N runs per case (default 5; long trace cases run fewer)\n"
    + "  --windows      also print the best run's ns per op in each 1% of the loop to stderr\n"
    + "  --in-process   run every case in this process (default: one child process per case)\n"
    + "  --cold-heap    leave glibc's heap thresholds at their defaults\n"
    + "  --check-traces load and verify every editing trace in the trace folder\n"
    + "environment: CRDT_TRACE_DIR (trace folder; default Benchmarks/traces), CRDT_BENCH_TRIALS=1 (every run's time)\n"
    + "cases:\n" + listLines(allCases).map { "  " + $0 }.joined(separator: "\n")
}

var repeatCount = 5
var selected: [String] = []
var listOnly = false
var printWindows = false
var inProcess = false
var coldHeap = false
var wantTable = false
var wantJSON = false
/// `name=nsPerOp` of smaller variants measured by the parent (set for a child process).
var baselines: [String: Double] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--list":
    listOnly = true
  case "--windows":
    printWindows = true
  case "--in-process":
    inProcess = true
  case "--cold-heap":
    coldHeap = true
  case "--table":
    wantTable = true
  case "--json":
    wantJSON = true
  case "--baseline":  // internal: NAME=NS, a smaller variant's ns per op measured in another process
    guard let text = arguments.popFirst(), let equals = text.firstIndex(of: "="),
      let value = Double(text[text.index(after: equals)...]) else {
      note("crdt-bench: --baseline needs NAME=NS")
      exit(2)
    }
    baselines[String(text[..<equals])] = value
  case "--repeat", "-r":
    guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
      note("crdt-bench: --repeat needs a positive integer\n" + usage())
      exit(2)
    }
    repeatCount = value
  case "--check-traces":  // load every editing trace in the data folder, check it by replay, print one line each
    exit(checkTraces())
  case "--layout":  // hidden: the strides of the types the hot paths store per operation
    for (name, stride) in memoryLayouts { print("\(name) \(stride)") }
    exit(0)
  case "--inflate":  // hidden: gunzip FILE with our decoder, print its size, checksums and decode time
    guard let path = arguments.popFirst() else {
      note("crdt-bench: --inflate needs a file")
      exit(2)
    }
    exit(inflateFile(path))
  case "--help", "-h":
    note(usage())
    exit(0)
  default:
    if argument.hasPrefix("--repeat="), let value = Int(argument.dropFirst("--repeat=".count)), value > 0 {
      repeatCount = value
    } else if argument.hasPrefix("-") {
      note("crdt-bench: unknown option \(argument)\n" + usage())
      exit(2)
    } else {
      selected.append(argument)
    }
  }
}

#if canImport(Glibc)
if !coldHeap {
  // malloc.h is not in Swift's Glibc module: find mallopt by name. Its parameters, from
  // malloc.h: M_TRIM_THRESHOLD = -1, M_MMAP_THRESHOLD = -3.
  typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
  if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 32 << 20)
    _ = mallopt(-1, 64 << 20)
  } else {
    note("crdt-bench: mallopt not found; the heap keeps glibc's default thresholds")
  }
}
#endif

if listOnly {
  for line in listLines(allCases) { print(line) }
  exit(0)
}

// A terminal gets the table, anything else JSON lines, unless a flag says which.
let stdoutIsTerminal = isatty(STDOUT_FILENO) != 0
let printTable = wantTable || (!wantJSON && stdoutIsTerminal)
let printJSON = wantJSON || (!wantTable && !stdoutIsTerminal)

let known = Set(allCases.map(\.name))
let unknown = selected.filter { !known.contains($0) }
if !unknown.isEmpty {
  note("crdt-bench: unknown case\(unknown.count > 1 ? "s" : "") \(unknown.joined(separator: ", "))\n" + usage())
  exit(2)
}
let chosen = selected.isEmpty ? allCases : allCases.filter { selected.contains($0.name) }

#if DEBUG
note("crdt-bench: this is a debug build; run it with `swift run -c release crdt-bench` for real numbers")
#endif
if !inProcess || chosen.count > 1 {
  note("crdt-bench: \(chosen.count) case\(chosen.count == 1 ? "" : "s"), \(repeatCount == 1 ? "1 run" : "best of \(repeatCount) runs") each"
    + (!inProcess && chosen.count > 1 ? ", each in its own process" : "")
    + (coldHeap ? ", cold heap" : ""))
}

var allOK = true
var nsPerOpByCase: [String: Double] = baselines
var table = SummaryTable(cases: chosen)
if printTable { table.printHeader() }

/// Runs one case in a child process, forwards its JSON line (in JSON mode) and returns how it
/// ended.
@MainActor func runIsolated(_ benchCase: BenchCase) -> (ok: Bool, outcome: CaseOutcome) {
  let child = Process()
  child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
  #if os(Linux)
  child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
  #endif
  var childArguments = [benchCase.name, "--repeat", String(repeatCount), "--in-process", "--json"]
  if printWindows { childArguments.append("--windows") }
  if coldHeap { childArguments.append("--cold-heap") }
  if let smaller = benchCase.smallerVariant, let ns = nsPerOpByCase[smaller] {
    childArguments += ["--baseline", "\(smaller)=\(ns)"]
  }
  child.arguments = childArguments
  let output = Pipe()
  child.standardOutput = output
  do {
    try child.run()
  } catch {
    note("crdt-bench: cannot start a process for \(benchCase.name): \(error)")
    return (false, .noResult)
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  child.waitUntilExit()
  var outcome = CaseOutcome.noResult
  for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
    if printJSON { print(line) }
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["case"] as? String == benchCase.name else { continue }
    // A NaN time is written as null.
    let seconds = (object["seconds"] as? NSNumber)?.doubleValue ?? .nan
    let nsPerOp = (object["ns_per_op"] as? NSNumber)?.doubleValue ?? .nan
    outcome = .measured(seconds: seconds, nsPerOp: nsPerOp, ok: (object["ok"] as? Bool) ?? false)
  }
  fflush(nil)
  if child.terminationStatus != 0, case .measured(let seconds, let nsPerOp, true) = outcome {
    outcome = .measured(seconds: seconds, nsPerOp: nsPerOp, ok: false)  // ended badly after its line
  }
  return (child.terminationStatus == 0, outcome)
}

let isolate = !inProcess && chosen.count > 1
for benchCase in chosen {
  if let trace = benchCase.trace, let reason = TraceFiles.missing(trace) {
    // One line: the table's row when there is a table, else a note on stderr.
    if printTable { table.printRow(benchCase.name, .skipped(reason)) } else { note("skip \(benchCase.name): \(reason)") }
    continue
  }
  if isolate {
    let result = runIsolated(benchCase)
    if case .measured(_, let ns, _) = result.outcome, ns.isFinite { nsPerOpByCase[benchCase.name] = ns }
    if printTable { table.printRow(benchCase.name, result.outcome) }
    if !result.ok { allOK = false }
    continue
  }
  let prepareStart = benchClock.now
  let run = benchCase.prepare()
  let prepareSeconds = (benchClock.now - prepareStart).seconds
  var trials: [Trial] = []
  for _ in 0..<min(repeatCount, benchCase.maxRepeats ?? repeatCount) {
    trials.append(await run())
    if ProcessInfo.processInfo.environment["CRDT_BENCH_TRIALS"] != nil { note("trial \(trials.last!.seconds)") }
  }
  let ok = trials.allSatisfy(\.ok)
  let timed = trials.filter { $0.seconds.isFinite }.sorted { $0.seconds < $1.seconds }
  let best = timed.first
  let median: Double? = timed.isEmpty ? nil
    : timed.count % 2 == 1 ? timed[timed.count / 2].seconds
    : (timed[timed.count / 2 - 1].seconds + timed[timed.count / 2].seconds) / 2
  let seconds = best?.seconds ?? .nan
  let ops = best?.ops ?? benchCase.ops
  let nsPerOp = seconds * 1e9 / Double(ops)

  var fields: [Field] = [
    Field("case", .string(benchCase.name)),
    Field("ops", .int(ops)),
    Field("seconds", .double(rounded(seconds))),
    Field("ns_per_op", .double(rounded(nsPerOp, significant: 4))),
    Field("ok", .bool(ok)),
    Field("median_seconds", .double(rounded(median ?? .nan))),
    Field("runs", .int(trials.count)),
  ]
  fields += best?.fields ?? []
  if let smaller = benchCase.smallerVariant, let smallNs = nsPerOpByCase[smaller], nsPerOp.isFinite {
    let ratio = nsPerOp / smallNs
    fields.append(Field("ns_per_op_vs_10000", .double(rounded(ratio, significant: 3))))
    note("crdt-bench: \(benchCase.name): per-op cost \(rounded(ratio, significant: 3))× that of \(smaller)"
      + (ratio < 3 ? " (consistent with O(log n))" : " — grows faster than O(log n)?"))
  }
  if nsPerOp.isFinite { nsPerOpByCase[benchCase.name] = nsPerOp }
  if printJSON { print(jsonLine(fields)) }
  if printTable { table.printRow(benchCase.name, .measured(seconds: seconds, nsPerOp: nsPerOp, ok: ok)) }
  fflush(nil)

  if prepareSeconds > 1 {
    note("crdt-bench: \(benchCase.name): preparing inputs and expected results took \(rounded(prepareSeconds, significant: 3)) s (not timed)")
  }
  if printWindows, let windows = best?.windows, !windows.isEmpty {
    note("crdt-bench: \(benchCase.name): ns per op in each 1% of the loop: "
      + windows.map { String(Int($0.rounded())) }.joined(separator: " "))
  }
  for (number, trial) in trials.enumerated() where !trial.ok {
    note("crdt-bench: \(benchCase.name) run \(number + 1) FAILED: \(trial.failure ?? "no detail")")
  }
  if !ok { allOK = false }
}

if printTable { table.printTotals() }
if !allOK {
  note("crdt-bench: some cases failed")
  exit(1)
}
