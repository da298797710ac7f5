// client-bench: release-build benchmarks of YorkieClient's `Client` against a server (issue 13):
// how fast an edit reaches another client, how many edits one client gets acknowledged per
// second, and how long a fresh client takes to attach a document with a long history; and of
// its offline store (issue 14): what storing an update costs, how fast a large stored document
// shows again, how many bytes the store writes, and what a restarted client resumes with.
//
//   swift run -c release client-bench                    every case, in-process server on loopback
//   swift run -c release client-bench sync_latency …     only these cases
//   swift run -c release client-bench --server URL …     against a running server instead
//   swift run -c release client-bench --repeat N …       rounds / runs per case (defaults below)
//   swift run -c release client-bench --verbose …        timing breakdowns on stderr
//   swift run -c release client-bench --table | --json   the table (default on a terminal) or
//                                                        one JSON line per case (default otherwise)
//
// Cases (see each file):
//   sync_latency     1,000 sequential edits by A, each timed until B's document shows it;
//                    p50/p90/p99/max. --repeat N: N rounds pooled (default 1).
//   sync_throughput  50,000 single-character inserts issued back to back, rate until the last
//                    one is acknowledged; PushPull round trips. --repeat N: median of N (default 3).
//   attach_large     a fresh client's attach of a 259,778-change document (automerge-paper)
//                    that the server loads from a snapshot. --repeat N: median of N (default 3).
//   store_update     5,000 one-character inserts (one update each) on a document kept nowhere,
//                    attached but unrecorded, in memory, in a directory batched (0.2 s) and per
//                    update: µs per update. --repeat N: median of N (default 3).
//                    --store-updates N: inserts per run.
//   store_load_large a client's attach of a stored automerge-paper document (its snapshot and
//                    1,000 local changes after it), from a FileDocumentStore alone, no network.
//                    --repeat N: median of N (default 3).
//   store_bytes      automerge-paper, one change per update, on a client storing in a directory
//                    (a sync every 100 updates, after which the client rebases by its policy):
//                    bytes appended per edit, bytes on disk, rebases and what they wrote.
//   resume_large     attach_large's document attached by a client that stores it and closes; a
//                    new client on its folder resumes it (the attach is timed: a local restore)
//                    and syncs 10 peer edits (bytes received against the fresh attach's).
//                    --repeat N: median of N (default 3).
//   observe_remote_burst  10,000 remote one-character changes in packs of 100 (one every 20 ms)
//                    under a DocumentModel and under the glue (re-read doc.value per event):
//                    main-actor ms and notifications (no server). --repeat N: median (default 3).
//
// Each case that needs a server gets a fresh in-process one (YorkieDevServer in memory,
// snapshot threshold and interval 500 as in Yorkie) unless --server is given (store_load_large
// needs none). Every case checks its result (both clients agree, a fresh client sees every
// acknowledged edit, the attached document equals the writer's, a document restored from the
// store equals the one stored); a failed check fails the case (exit status 1). A missed target
// is reported in the row, not as a failure; store_update and store_bytes only report (no
// target: "-"). Notes and breakdowns go to stderr, starting with the machine.
import Foundation

func usage() -> String {
  "usage: client-bench [--server URL] [--repeat N] [--verbose] [--table | --json] [--edits N] [--latency-edits N]\n"
    + "                    [--synthetic] [--batch N] [--snapshot-interval N] [--store-updates N] [--list] [case …]\n"
    + "  --server URL       a running YorkieService (default: a fresh in-process server per case)\n"
    + "  --repeat N         sync_latency: rounds pooled (1); the others: runs, median reported (3)\n"
    + "  --verbose          timing breakdowns on stderr\n"
    + "  --table / --json   a table (default on a terminal) / one JSON line per case (default otherwise)\n"
    + "  --edits N          sync_throughput: inserts per run (50,000)\n"
    + "  --latency-edits N  sync_latency: measured edits per round (1,000)\n"
    + "  --synthetic        attach_large, resume_large, store_*: 260,000 single-character inserts instead of automerge-paper\n"
    + "  --batch N          attach_large, resume_large: changes per push while building (5,000)\n"
    + "  --snapshot-interval N  the in-process server's snapshot threshold and interval (500, as Yorkie)\n"
    + "  --store-updates N  store_update: one-character inserts per run and kind of store (5,000)\n"
    + "cases: " + benchCases.map(\.name).joined(separator: ", ")
}

/// A case: its name, what it measures, and its body.
struct BenchCase: Sendable {
  let name: String
  let summary: String
  let run: @Sendable (BenchSettings) async throws -> CaseResult
}

let benchCases = [
  BenchCase(name: "sync_latency", summary: "A's edit until B's document shows it, 1,000 sequential edits", run: syncLatencyCase),
  BenchCase(name: "sync_throughput", summary: "50,000 inserts back to back until acknowledged: edits/s", run: syncThroughputCase),
  BenchCase(name: "attach_large", summary: "a fresh client's attach of a 259,778-change document (snapshot path)", run: attachLargeCase),
  BenchCase(name: "store_update", summary: "an update's cost with no store, in memory, batched and per-update on disk (µs)", run: storeUpdateCase),
  BenchCase(name: "store_load_large", summary: "attach of a stored 259,778-edit document + 1,000 local changes, from disk alone", run: storeLoadLargeCase),
  BenchCase(name: "store_bytes", summary: "bytes the store writes per edit over automerge-paper, with rebases", run: storeBytesCase),
  BenchCase(name: "observe_remote_burst", summary: "10,000 remote changes in packs of 100 under a DocumentModel vs glue: main-actor ms", run: observeRemoteBurstCase),
  BenchCase(name: "resume_large", summary: "a restarted client resumes a stored 259,778-change document, then syncs 10 edits", run: resumeLargeCase),
]

var settings = BenchSettings()
var selected: [String] = []
var wantTable = false
var wantJSON = false
var arguments = CommandLine.arguments.dropFirst()

/// The positive integer after an option, or exit 2.
@MainActor func positiveInteger(after option: String) -> Int {
  guard let text = arguments.popFirst(), let value = Int(text.replacingOccurrences(of: ",", with: "")), value > 0 else {
    note("client-bench: \(option) needs a positive integer\n" + usage())
    exit(2)
  }
  return value
}

while let argument = arguments.popFirst() {
  switch argument {
  case "--server":
    guard let text = arguments.popFirst(), let url = URL(string: text), url.scheme != nil else {
      note("client-bench: --server needs a URL such as http://127.0.0.1:8080\n" + usage())
      exit(2)
    }
    settings.serverURL = url
  case "--repeat", "-r": settings.repeats = positiveInteger(after: argument)
  case "--verbose", "-v": settings.verbose = true
  case "--table": wantTable = true
  case "--json": wantJSON = true
  case "--edits": settings.throughputEdits = positiveInteger(after: argument)
  case "--latency-edits": settings.latencyEdits = positiveInteger(after: argument)
  case "--batch": settings.batchSize = positiveInteger(after: argument)
  case "--synthetic": settings.synthetic = true
  case "--snapshot-interval": settings.snapshotInterval = positiveInteger(after: argument)
  case "--store-updates": settings.storeUpdates = positiveInteger(after: argument)
  case "--list":
    let width = benchCases.map(\.name.count).max() ?? 0
    for benchCase in benchCases { print(benchCase.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + benchCase.summary) }
    exit(0)
  case "--help", "-h":
    note(usage())
    exit(0)
  default:
    if argument.hasPrefix("-") {
      note("client-bench: unknown option \(argument)\n" + usage())
      exit(2)
    }
    selected.append(argument)
  }
}

let unknown = selected.filter { name in !benchCases.contains { $0.name == name } }
if !unknown.isEmpty {
  note("client-bench: unknown case \(unknown.joined(separator: ", "))\n" + usage())
  exit(2)
}
let chosen = selected.isEmpty ? benchCases : benchCases.filter { selected.contains($0.name) }
let stdoutIsTerminal = isatty(STDOUT_FILENO) != 0
let printTable = wantTable || (!wantJSON && stdoutIsTerminal)
let printJSON = wantJSON || (!wantTable && !stdoutIsTerminal)

note(machineNote(server: settings.serverURL?.absoluteString ?? "in process (YorkieDevServer, memory, loopback), a fresh one per case"))

/// The table: `case  result  target  ok  details`, one row as each case ends.
struct Table {
  let nameWidth = max(benchCases.map(\.name.count).max() ?? 0, 4)
  static let resultWidth = 16
  static let targetWidth = 34

  func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
  }

  func row(_ name: String, _ result: String, _ target: String, _ ok: String, _ details: String) -> String {
    pad(name, nameWidth) + "  " + pad(result, Self.resultWidth, right: true) + "  " + pad(target, Self.targetWidth) + "  "
      + pad(ok, 6) + "  " + details
  }

  func header() {
    print(row("case", "result", "target", "ok", "details"))
    print(row(String(repeating: "-", count: nameWidth), String(repeating: "-", count: Self.resultWidth),
              String(repeating: "-", count: Self.targetWidth), "------", "-------"))
  }
}

let table = Table()
if printTable { table.header() }
fflush(nil)
var allOK = true
let wallStart = benchClock.now
for benchCase in chosen {
  let start = benchClock.now
  do {
    let result = try await benchCase.run(settings)
    let seconds = secondsSince(start)
    if printTable {
      let target = result.target.isEmpty ? "-" : (result.targetMet ? "met: " : "MISSED: ") + result.target
      print(table.row(benchCase.name, result.headline, target, "ok", result.details))
    }
    if printJSON {
      let target: [(String, FieldValue)] =
        result.target.isEmpty ? [] : [("target", .string(result.target)), ("target_met", .bool(result.targetMet))]
      print(jsonLine([("case", .string(benchCase.name))] + result.fields + target + [
        ("ok", .bool(true)), ("wall_seconds", .double(rounded(seconds, significant: 3))),
      ]))
    }
  } catch {
    allOK = false
    note("client-bench: \(benchCase.name) FAILED: \(error)")
    if printTable { print(table.row(benchCase.name, "-", "-", "FAILED", "\(error)")) }
    if printJSON { print(jsonLine([("case", .string(benchCase.name)), ("ok", .bool(false)), ("error", .string("\(error)"))])) }
  }
  fflush(nil)
}
if printTable {
  print("\(chosen.count) case\(chosen.count == 1 ? "" : "s") in \(String(format: "%.1f", secondsSince(wallStart))) s")
}
exit(allOK ? 0 : 1)
