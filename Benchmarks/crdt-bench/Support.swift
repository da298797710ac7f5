import Foundation

// MARK: - Seeded randomness

/// SplitMix64 (Steele, Lea & Flood): a tiny, fast, fully repeatable generator. The benchmark
/// never touches Foundation's or the system's randomness, so every run replays the same ops.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `0..<bound` (Lemire's multiply-shift with rejection: no modulo bias).
  mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "below(_:) needs a positive bound")
    let limit = UInt64(bound)
    var product = next().multipliedFullWidth(by: limit)
    if product.low < limit {
      let threshold = (0 &- limit) % limit
      while product.low < threshold {
        product = next().multipliedFullWidth(by: limit)
      }
    }
    return Int(product.high)
  }
}

// MARK: - Timing

let benchClock = ContinuousClock()

extension Duration {
  /// The duration in seconds, as a Double.
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }
}

/// CPU seconds this process has used, every thread together (`CLOCK_PROCESS_CPUTIME_ID`). Read
/// around a measured region whose work runs on one thread, it gives that work's CPU time apart
/// from the time spent waiting for a core: the figure that stays meaningful when other
/// processes share the machine.
func processCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The CPU time of the calling thread (an actor's turn runs on one thread).
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// Timestamps taken at every hundredth of a loop: the per-op cost of the first and the last
/// tenth (an O(n) operation shows up as last ≫ first) and the spread of the 100 windows.
struct Deciles {
  static let windows = 100
  let total: Int
  private(set) var marks: [ContinuousClock.Instant] = []
  private var nextMark = 0
  private var window = 0

  init(total: Int) {
    precondition(total >= Deciles.windows, "windows need at least \(Deciles.windows) ops")
    self.total = total
    marks.reserveCapacity(Deciles.windows + 1)
  }

  /// Call with the index of the op about to run (0..<total), then once with `total` at the end.
  @inline(__always) mutating func tick(_ index: Int) {
    if index == nextMark {
      marks.append(benchClock.now)
      window += 1
      nextMark = window <= Deciles.windows ? total * window / Deciles.windows : -1
    }
  }

  private func ops(from start: Int, to end: Int) -> Int {
    total * end / Deciles.windows - total * start / Deciles.windows
  }

  private func nsPerOp(from start: Int, to end: Int) -> Double {
    (marks[end] - marks[start]).seconds * 1e9 / Double(ops(from: start, to: end))
  }

  /// ns per op over the first and the last tenth of the loop, when every mark was taken.
  var firstAndLast: (first: Double, last: Double)? {
    guard marks.count == Deciles.windows + 1 else { return nil }
    let tenth = Deciles.windows / 10
    return (nsPerOp(from: 0, to: tenth), nsPerOp(from: Deciles.windows - tenth, to: Deciles.windows))
  }

  /// ns per op of each window, in order.
  var windowCosts: [Double] {
    guard marks.count == Deciles.windows + 1 else { return [] }
    return (0..<Deciles.windows).map { nsPerOp(from: $0, to: $0 + 1) }
  }
}

// MARK: - Results

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

struct Field: Sendable {
  let key: String
  let value: FieldValue
  init(_ key: String, _ value: FieldValue) {
    self.key = key
    self.value = value
  }
}

/// The outcome of one run of a case.
struct Trial: Sendable {
  /// Seconds spent in the measured region only.
  var seconds: Double
  /// Whether the checks after the run passed.
  var ok: Bool
  /// What went wrong, for stderr.
  var failure: String?
  /// Extra fields for the JSON line (taken from the best run).
  var fields: [Field] = []
  /// ns per op of each hundredth of the measured loop (printed with `--windows`).
  var windows: [Double] = []
  /// The number of operations, when the case learns it only while running (traces).
  var ops: Int? = nil

  static func failed(_ message: String) -> Trial {
    Trial(seconds: .nan, ok: false, failure: message)
  }
}

/// Rounds to a number of significant digits so that the JSON stays short and stable.
func rounded(_ value: Double, significant digits: Int = 6) -> Double {
  guard value.isFinite, value != 0 else { return value }
  let magnitude = Int(floor(log10(abs(value))))
  let scale = pow(10.0, Double(digits - 1 - magnitude))
  return (value * scale).rounded() / scale
}

func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      if scalar.value < 0x20 {
        out += String(format: "\\u%04x", scalar.value)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

func jsonLine(_ fields: [Field]) -> String {
  "{" + fields.map { jsonQuoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
}

func note(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Reference model

/// A plain list of integers split into chunks, so that inserting and removing at an index is
/// O(√n): the independent model that the random array cases are checked against.
struct ChunkedList {
  private var chunks: [[Int32]] = [[]]
  private(set) var count = 0
  private let chunkLimit = 1024

  init(_ values: some Sequence<Int32> = []) {
    for value in values { append(value) }
  }

  private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
    var rest = index
    for (number, chunk) in chunks.enumerated() {
      if rest < chunk.count { return (number, rest) }
      rest -= chunk.count
    }
    return (chunks.count - 1, chunks[chunks.count - 1].count)  // the end
  }

  mutating func append(_ value: Int32) {
    if chunks[chunks.count - 1].count >= chunkLimit { chunks.append([]) }
    chunks[chunks.count - 1].append(value)
    count += 1
  }

  mutating func insert(_ value: Int32, at index: Int) {
    precondition(index >= 0 && index <= count)
    let (chunk, offset) = locate(index)
    chunks[chunk].insert(value, at: offset)
    count += 1
    if chunks[chunk].count > 2 * chunkLimit {
      let tail = Array(chunks[chunk][chunkLimit...])
      chunks[chunk].removeSubrange(chunkLimit...)
      chunks.insert(tail, at: chunk + 1)
    }
  }

  @discardableResult
  mutating func remove(at index: Int) -> Int32 {
    precondition(index >= 0 && index < count)
    let (chunk, offset) = locate(index)
    let value = chunks[chunk].remove(at: offset)
    count -= 1
    if chunks[chunk].isEmpty && chunks.count > 1 { chunks.remove(at: chunk) }
    return value
  }

  subscript(index: Int) -> Int32 {
    let (chunk, offset) = locate(index)
    return chunks[chunk][offset]
  }

  var values: [Int32] { chunks.flatMap { $0 } }
}

/// `{"k1":[v0,v1,…]}`: the document an array case must end with.
func arrayDocumentJSON(key: String = "k1", _ values: some Sequence<Int32>) -> String {
  var out = "{\"" + key + "\":["
  var first = true
  for value in values {
    if !first { out += "," }
    first = false
    out += String(value)
  }
  return out + "]}"
}

/// The first character where two strings differ, for failure messages.
func firstDifference(_ actual: String, _ expected: String) -> String {
  let a = Array(actual.utf8)
  let e = Array(expected.utf8)
  var index = 0
  while index < a.count && index < e.count && a[index] == e[index] { index += 1 }
  func around(_ bytes: [UInt8]) -> String {
    let start = max(0, index - 20)
    let end = min(bytes.count, index + 40)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
  return "lengths \(a.count) vs \(e.count), first difference at byte \(index): got …\(around(a))… expected …\(around(e))…"
}
