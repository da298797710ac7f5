import CRDT
import Foundation
import YorkieServer

/// What a case reports: one table row and one JSON line.
struct CaseResult: Sendable {
  /// The main figure, such as `p50 0.61 ms` or `41,200 edits/s`.
  var headline: String
  /// The rest of the row.
  var details: String
  /// The target, such as `p50 ≤ 2 ms, p99 ≤ 10 ms`; empty for a case that only reports.
  var target: String
  /// Whether the figure meets the target.
  var targetMet: Bool
  /// Extra members of the JSON line.
  var fields: [(String, FieldValue)]
}

/// The settings every case reads.
struct BenchSettings: Sendable {
  /// An external server (`--server`); nil starts one in this process per case.
  var serverURL: URL?
  /// `--repeat`, when given.
  var repeats: Int?
  /// `--verbose`: timing breakdowns on standard error.
  var verbose = false
  /// sync_latency: measured edits per round.
  var latencyEdits = 1_000
  /// sync_throughput: edits per run.
  var throughputEdits = 50_000
  /// attach_large: use 260,000 single-character inserts even when the trace is there.
  var synthetic = false
  /// attach_large: local changes per pushed batch while building.
  var batchSize = 5_000
  /// The in-process server's snapshot threshold and interval (Yorkie's 500).
  var snapshotInterval = 500
  /// store_update: one-character inserts per run and kind of store.
  var storeUpdates = 5_000
}

/// The request lines an in-process server logs at debug level (`--verbose`).
final class ServerLogLines: Sendable {
  private let lines = Locked<[(ContinuousClock.Instant, String)]>([])

  /// Keeps `line`, with the time it was logged (the server logs a request as it answers it).
  func append(_ line: String) {
    let now = benchClock.now
    lines.withLock { $0.append((now, line)) }
  }

  /// The lines so far, forgetting them.
  func take() -> [String] { takeTimed().map(\.1) }

  /// The lines so far with their times, forgetting them.
  func takeTimed() -> [(ContinuousClock.Instant, String)] { lines.withLock { lines in defer { lines = [] }; return lines } }

  /// The milliseconds of the last `METHOD 200 in X ms` line among `lines`.
  static func lastMilliseconds(of method: String, in lines: [String]) -> Double? {
    for line in lines.reversed() {
      guard let range = line.range(of: method + " 200 in ") else { continue }
      let rest = line[range.upperBound...]
      guard let end = rest.range(of: " ms") else { continue }
      return Double(rest[..<end.lowerBound])
    }
    return nil
  }

  /// The milliseconds of every `METHOD 200 in X ms` line among `lines`.
  static func allMilliseconds(of method: String, in lines: [String]) -> [Double] {
    lines.compactMap { line in
      guard let range = line.range(of: method + " 200 in ") else { return nil }
      let rest = line[range.upperBound...]
      guard let end = rest.range(of: " ms") else { return nil }
      return Double(rest[..<end.lowerBound])
    }
  }
}

/// A server for one case: the one at `--server`, or a fresh in-process one.
struct BenchServer: Sendable {
  let url: URL
  /// The in-process server, nil for `--server`.
  let local: YorkieDevServer?
  /// Its request log, with `--verbose`.
  let log: ServerLogLines?

  /// How many pulls the in-process server answered with a snapshot so far (nil for `--server`).
  var snapshotsSent: Int? { local?.service?.snapshotsSent.withLock { $0 } }

  func stop() { local?.stop() }

  /// Starts an in-process server with Yorkie's snapshot settings (threshold and interval 500
  /// unless `--snapshot-interval` says otherwise, spelled out so that attach_large's snapshot
  /// path does not depend on defaults), or uses the external one.
  static func start(_ settings: BenchSettings) throws -> BenchServer {
    if let url = settings.serverURL { return BenchServer(url: url, local: nil, log: nil) }
    let log = settings.verbose ? ServerLogLines() : nil
    var configuration = YorkieDevServer.Configuration(
      snapshotThreshold: settings.snapshotInterval, snapshotInterval: settings.snapshotInterval)
    if let log {
      configuration.logLevel = .debug
      configuration.logSink = { line in log.append(line) }
    }
    let server = YorkieDevServer(configuration: configuration)
    return BenchServer(url: try server.start(), local: server, log: log)
  }
}

/// A document key no earlier run used (keys are 4–120 characters).
func uniqueKey(_ prefix: String) -> String {
  "bench-\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
}

/// Ends the process when `seconds` pass before ``Watchdog/disarm()``: a lost event must not
/// hang the benchmark.
final class Watchdog: Sendable {
  private let task: Task<Void, Never>

  init(_ label: String, seconds: Double) {
    task = Task.detached {
      do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { return }
      note("client-bench: \(label) did not finish within \(Int(seconds)) s; giving up")
      exit(1)
    }
  }

  func disarm() { task.cancel() }
}

/// A counter that several tasks touch.
final class Counter: Sendable {
  private let value = Locked(0)
  func increment() { value.withLock { $0 += 1 } }
  var current: Int { value.withLock { $0 } }
}
