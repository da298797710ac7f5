import Foundation

// The human-readable side of the output: `--list` lines and the summary table. Tools read the
// JSON lines instead (see main.swift).

/// `12345` → `"12,345"`: an integer with its thousands grouped (no locale involved).
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var out = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return value < 0 ? "-" + out : out
}

/// A number with three significant digits and no exponent: 57.4, 812, 1.61, 0.0421.
private func threeDigits(_ value: Double) -> String {
  guard value.isFinite else { return "-" }
  let magnitude = value == 0 ? 0 : Int(floor(log10(abs(value))))
  let decimals = max(0, 2 - magnitude)
  return String(format: "%.\(decimals)f", value)
}

/// Seconds in the largest unit that keeps the number at least 1: `57.4 ms`, `812 µs`, `1.23 s`.
func readableDuration(_ seconds: Double) -> String {
  guard seconds.isFinite else { return "-" }
  let units: [(String, Double)] = [("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)]
  for (unit, scale) in units where abs(seconds) >= scale * 0.9995 {
    return threeDigits(seconds / scale) + " " + unit
  }
  return threeDigits(seconds / 1e-9) + " ns"
}

/// Nanoseconds per operation: whole numbers grouped (`1,234`) from 100 up, else 3 digits.
func readableNanoseconds(_ ns: Double) -> String {
  guard ns.isFinite else { return "-" }
  return ns >= 99.95 ? grouped(Int(ns.rounded())) : threeDigits(ns)
}

/// Pads on the right (`left` alignment) or the left, counting characters.
private func padded(_ text: String, _ width: Int, left: Bool) -> String {
  let fill = String(repeating: " ", count: max(0, width - text.count))
  return left ? text + fill : fill + text
}

/// `--list`: one line per case, its name and what it measures.
func listLines(_ cases: [BenchCase]) -> [String] {
  let width = cases.map(\.name.count).max() ?? 0
  return cases.map { benchCase in
    benchCase.summary.isEmpty ? benchCase.name : padded(benchCase.name, width, left: true) + "  " + benchCase.summary
  }
}

/// How one case ended, for the table.
enum CaseOutcome {
  case measured(seconds: Double, nsPerOp: Double, ok: Bool)
  /// The child process ended without a result line (crashed, or could not start).
  case noResult
  /// Not run, for this reason.
  case skipped(String)
}

/// The summary table on stdout: a header, then one row as each case ends, then a total line.
struct SummaryTable {
  private let nameWidth: Int
  private static let timeWidth = 9
  private static let nsWidth = 11
  private var counts = (ok: 0, failed: 0, skipped: 0)
  private let start = benchClock.now

  init(cases: [BenchCase]) {
    nameWidth = max(cases.map(\.name.count).max() ?? 0, "case".count)
  }

  private func line(_ name: String, _ time: String, _ ns: String, _ ok: String) -> String {
    padded(name, nameWidth, left: true) + "  " + padded(time, Self.timeWidth, left: false) + "  "
      + padded(ns, Self.nsWidth, left: false) + "  " + ok
  }

  func printHeader() {
    print(line("case", "time", "ns/op", "ok"))
    print(line(String(repeating: "-", count: nameWidth), String(repeating: "-", count: Self.timeWidth),
               String(repeating: "-", count: Self.nsWidth), "--"))
    fflush(nil)
  }

  mutating func printRow(_ name: String, _ outcome: CaseOutcome) {
    switch outcome {
    case .measured(let seconds, let nsPerOp, let ok):
      print(line(name, readableDuration(seconds), readableNanoseconds(nsPerOp), ok ? "ok" : "FAILED"))
      if ok { counts.ok += 1 } else { counts.failed += 1 }
    case .noResult:
      print(line(name, "-", "-", "FAILED"))
      counts.failed += 1
    case .skipped(let reason):
      print(line(name, "-", "-", "skipped: " + reason))
      counts.skipped += 1
    }
    fflush(nil)
  }

  func printTotals() {
    var parts = ["\(counts.ok) ok"]
    if counts.failed > 0 { parts.append("\(counts.failed) failed") }
    if counts.skipped > 0 { parts.append("\(counts.skipped) skipped") }
    let total = counts.ok + counts.failed + counts.skipped
    print("\(total) case\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
      + " (wall time \(readableDuration((benchClock.now - start).seconds)); "
      + "time = best run's measured region, ns/op = time / ops)")
    fflush(nil)
  }
}
