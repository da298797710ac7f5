import CRDT
import Foundation
import YorkieProtocol

/// A run's figures, as server-load.py prints them (same keys, milliseconds rounded to 3 places).
struct Report {
  /// The server's URL.
  var server: String
  /// For an in-process server, `"memory"` or its data directory; `nil` for `--url`.
  var inProcess: String?
  /// The options of the run.
  var options: Options
  /// Phase 1.
  var throughput: ThroughputResult
  /// Phase 2, unless skipped.
  var fanOut: FanOutResult?

  /// One JSON object on one line: server-load.py's keys in its order, plus `tool`,
  /// `fanout_max_ms` and `in_process`.
  var jsonLine: String {
    var members: [WireJSON.Member] = [
      .init("tool", .string("server-bench")),
      .init("server", .string(server)),
    ]
    if let inProcess { members.append(.init("in_process", .string(inProcess))) }
    members += [
      .init("clients", .number(String(options.clients))),
      .init("docs", .number(String(options.docs))),
      .init("pushpull_per_s", .number(Self.rounded(Double(throughput.latencies.count) / options.seconds, places: 1))),
      .init("pushpull_p50_ms", Self.milliseconds(percentile(throughput.latencies, 50))),
      .init("pushpull_p99_ms", Self.milliseconds(percentile(throughput.latencies, 99))),
    ]
    if let fanOut {
      members += [
        .init("watchers", .number(String(options.watchers))),
        .init("events", .number(String(options.events))),
        .init("fanout_p50_ms", Self.milliseconds(median(fanOut.delays))),
        .init("fanout_p99_ms", Self.milliseconds(percentile(fanOut.delays, 99))),
        .init("fanout_max_ms", Self.milliseconds(fanOut.delays.max())),
        .init("fanout_missed", .number(String(fanOut.missed))),
      ]
    }
    members.append(.init("errors", .number(String(errorCount))))
    return WireJSON.object(members).text
  }

  /// The same figures for people.
  var table: String {
    var rows = [
      ("server", server + (inProcess.map { " (in process, \($0))" } ?? "")),
      ("push-pull", "\(options.clients) clients on \(options.docs) docs for \(options.seconds) s"),
      ("  per second", Self.rounded(Double(throughput.latencies.count) / options.seconds, places: 1)),
      ("  p50 / p99", "\(Self.text(percentile(throughput.latencies, 50))) / \(Self.text(percentile(throughput.latencies, 99))) ms"),
    ]
    if let fanOut {
      rows += [
        ("fan-out", "\(options.watchers) watchers, \(options.events) changes 20 ms apart"),
        ("  p50 / p99 / max", "\(Self.text(median(fanOut.delays))) / \(Self.text(percentile(fanOut.delays, 99))) / \(Self.text(fanOut.delays.max())) ms"),
        ("  missed", String(fanOut.missed)),
      ]
    }
    rows.append(("errors", String(errorCount)))
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
  }

  /// Failed calls and streams of both phases.
  private var errorCount: Int { throughput.errors + (fanOut?.errors.count ?? 0) }

  /// Seconds as milliseconds rounded to 3 places, or `null`.
  private static func milliseconds(_ seconds: Double?) -> WireJSON {
    seconds.map { .number(rounded($0 * 1000, places: 3)) } ?? .null
  }

  /// Seconds as milliseconds with 3 places for the table, or `-`.
  private static func text(_ seconds: Double?) -> String {
    seconds.map { rounded($0 * 1000, places: 3) } ?? "-"
  }

  /// `value` rounded to `places` decimal places, written without trailing zeros.
  private static func rounded(_ value: Double, places: Int) -> String {
    var text = String(format: "%.\(places)f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text += "0" }
    return text
  }
}
