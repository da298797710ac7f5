import Foundation

// Timing, statistics, formatting and the machine note.

/// The monotonic clock every measurement reads.
let benchClock = ContinuousClock()

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  /// The duration in milliseconds.
  var milliseconds: Double { seconds * 1e3 }
}

/// Seconds since `start`.
func secondsSince(_ start: ContinuousClock.Instant) -> Double { (benchClock.now - start).seconds }

/// The value at quantile `q` (0...1) of `sorted` (ascending), nearest rank.
func quantile(_ sorted: [Double], _ q: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// The median of `values` (mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
  let sorted = values.filter(\.isFinite).sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// `12345` → `"12,345"`.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var out = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return value < 0 ? "-" + out : out
}

/// Three significant digits, no exponent: `0.412`, `1.85`, `57.4`, `812`; larger values whole.
func threeDigits(_ value: Double) -> String {
  guard value.isFinite else { return "-" }
  if abs(value) >= 999.5 { return grouped(Int(value.rounded())) }
  let magnitude = value == 0 ? 0 : Int(floor(log10(abs(value))))
  return String(format: "%.\(max(0, 2 - magnitude))f", value)
}

/// Milliseconds with three significant digits and the unit: `0.412 ms`, `57.4 ms`.
func ms(_ milliseconds: Double) -> String { threeDigits(milliseconds) + " ms" }

/// Rounds to `digits` significant digits, for JSON.
func rounded(_ value: Double, significant digits: Int = 4) -> Double {
  guard value.isFinite, value != 0 else { return value }
  let magnitude = Int(floor(log10(abs(value))))
  let scale = pow(10.0, Double(digits - 1 - magnitude))
  return (value * scale).rounded() / scale
}

/// Writes a line to standard error.
func note(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - JSON lines

/// A value of a JSON line.
enum FieldValue: Sendable {
  case int(Int)
  case double(Double)
  case bool(Bool)
  case string(String)

  var json: String {
    switch self {
    case .int(let value): return String(value)
    case .double(let value): return value.isFinite ? String(value) : "null"
    case .bool(let value): return value ? "true" : "false"
    case .string(let value): return jsonQuoted(value)
    }
  }
}

/// `"text"` with JSON escapes.
func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    default:
      if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
    }
  }
  return out + "\""
}

/// One JSON object on one line, members in the given order.
func jsonLine(_ fields: [(String, FieldValue)]) -> String {
  "{" + fields.map { jsonQuoted($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
}

// MARK: - Machine

/// One line about where the figures come from: cores, CPU, load, Swift, build, server.
func machineNote(server: String) -> String {
  var parts = ["\(ProcessInfo.processInfo.activeProcessorCount) cores"]
  if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
    let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
    let colon = line.firstIndex(of: ":") {
    parts.append(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
  }
  if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
    parts.append("load " + load.split(separator: " ").prefix(3).joined(separator: " "))
  }
  #if compiler(>=6.4)
    parts.append("Swift ≥ 6.4")
  #elseif compiler(>=6.3)
    parts.append("Swift 6.3")
  #else
    parts.append("Swift < 6.3")
  #endif
  #if DEBUG
    parts.append("DEBUG build (use -c release for real numbers)")
  #else
    parts.append("release build")
  #endif
  parts.append("server " + server)
  return "client-bench: " + parts.joined(separator: ", ")
}

// MARK: - Errors

/// A benchmark that could not run or whose result is wrong.
struct BenchFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
