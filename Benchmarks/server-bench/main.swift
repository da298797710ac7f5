// server-bench: server-load.py's workload (/work/shared/tools/server-load.py) without Python's
// limits, against a YorkieDevServer started in this process (memory or --data-dir) or any
// YorkieService at --url.
//
//   swift build -c release --product server-bench
//   .build/release/server-bench [--url URL | --data-dir DIR] [--clients 4] [--docs 2]
//                               [--seconds 5] [--watchers 20] [--events 50] [--table]
//
// Phase 1 (throughput): one thread and one keep-alive connection per client, blocking sockets;
// each activates, attaches document i % docs and push-pulls one Set after another; all start
// together once attached. Phase 2 (fan-out): the watchers' streams are read by one thread with
// non-blocking sockets and poll(2) (see FanOut.swift and WatchReader.swift).
//
// stdout: one JSON line with server-load.py's keys, plus "tool", "fanout_max_ms" and, for an
// in-process server, "in_process" ("memory" or the data directory). Errors go to stderr (the
// first of each phase) and count in "errors". Exit status: 0 when the run finished (even with
// errors), 2 bad arguments, 1 the in-process server did not start.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import YorkieServer

/// Prints `message` to stderr.
func note(_ message: String) {
  FileHandle.standardError.write(Data("server-bench: \(message)\n".utf8))
}

if CommandLine.arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
  print(Options.usage)
  exit(0)
}
/// The command line.
let options: Options
do {
  options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  note("\(error)\n\(Options.usage)")
  exit(2)
}
signal(SIGPIPE, SIG_IGN)
/// Descriptors the run may need: one client socket per throughput client and watcher, and as
/// many on the server's side in process.
let neededFiles = (options.clients + options.watchers + 8) * (options.url == nil ? 2 : 1) + 64
/// The descriptor limit after raising it.
let fileLimit = raiseFileLimit(to: neededFiles)
if fileLimit < neededFiles { note("the descriptor limit is \(fileLimit), below the \(neededFiles) this run may need") }

/// The in-process server, unless `--url` names one.
let server = options.url == nil ? YorkieDevServer(configuration: .init(dataDirectory: options.dataDirectory)) : nil
/// The server's base URL.
let url: URL
do {
  url = try options.url ?? server!.start()
} catch {
  note("the in-process server did not start: \(error)")
  exit(1)
}
/// The server's host and port.
let address: ServerAddress
do {
  address = try ServerAddress(url: url)
} catch {
  note("\(error)")
  exit(2)
}

/// Makes this run's client and document keys unique (`load-<run>-0`, `fan-<run>`).
let run = "\(getpid())-\(Int(Date().timeIntervalSince1970))"
/// Phase 1's figures.
let throughput = measureThroughput(address: address, run: run, clients: options.clients, docs: options.docs, seconds: options.seconds)
if let first = throughput.firstError { note("error: \(first)") }
/// Phase 2's figures, unless `--watchers 0`.
let fanOut = options.watchers > 0 ? measureFanOut(address: address, run: run, watchers: options.watchers, events: options.events) : nil
if let first = fanOut?.errors.first { note("fan-out error: \(first)") }
server?.stop()

/// The run's figures, for printing.
let report = Report(
  server: url.absoluteString, inProcess: server == nil ? nil : options.dataDirectory?.path ?? "memory", options: options,
  throughput: throughput, fanOut: fanOut)
print(report.jsonLine)
if options.table { print(report.table) }
