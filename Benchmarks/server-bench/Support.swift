#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

// Small helpers shared by both phases: the clock, percentiles, the fd limit, socket constants.

/// Why a run failed: one line for stderr.
struct BenchError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String

  /// An error saying `description`.
  init(_ description: String) { self.description = description }

  /// An error for the system call `call` that just failed, with `errno`'s text.
  static func system(_ call: String) -> BenchError {
    BenchError("\(call): \(String(cString: strerror(errno)))")
  }
}

/// Seconds on the monotonic clock (any origin; only differences mean something).
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The `p`th percentile of `values` as server-load.py's `pct` takes it: the element at index
/// `p / 100 * count` of the sorted values (clamped to the last). `nil` when there are none.
func percentile(_ values: [Double], _ p: Double) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int(p / 100 * Double(sorted.count)))]
}

/// The median as Python's `statistics.median` takes it (the mean of the middle two of an even
/// count), which server-load.py reports as the fan-out p50. `nil` when there are none.
func median(_ values: [Double]) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Raises the soft limit on open descriptors to at least `needed` (at most the hard limit), and
/// returns the soft limit in force afterwards.
@discardableResult
func raiseFileLimit(to needed: Int) -> Int {
  var limit = rlimit()
  guard getrlimit(resourceNoFile, &limit) == 0 else { return 0 }
  if limit.rlim_cur < rlim_t(needed) {
    limit.rlim_cur = min(rlim_t(needed), limit.rlim_max)
    _ = setrlimit(resourceNoFile, &limit)
    _ = getrlimit(resourceNoFile, &limit)
  }
  return Int(clamping: limit.rlim_cur)
}

#if canImport(Glibc)
  /// `RLIMIT_NOFILE` as `getrlimit` takes it on this platform.
  private let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  /// `SOCK_STREAM` as `socket(2)` takes it on this platform.
  let streamSocketType = Int32(SOCK_STREAM.rawValue)
  /// `send(2)` flags: a vanished peer gives `EPIPE`, not `SIGPIPE`.
  let sendFlags = Int32(MSG_NOSIGNAL)
#else
  /// `RLIMIT_NOFILE` as `getrlimit` takes it on this platform.
  private let resourceNoFile = RLIMIT_NOFILE
  /// `SOCK_STREAM` as `socket(2)` takes it on this platform.
  let streamSocketType = SOCK_STREAM
  /// `send(2)` flags (Darwin has no `MSG_NOSIGNAL`; `SIGPIPE` is ignored process-wide instead).
  let sendFlags: Int32 = 0
#endif

/// A value that threads update under a lock.
final class Collector<Value: Sendable>: @unchecked Sendable {
  /// Guards `stored`.
  private let lock = NSLock()
  /// The value.
  private var stored: Value

  /// A collector holding `initial`.
  init(_ initial: Value) { stored = initial }

  /// The value now.
  var value: Value { lock.withLock { stored } }

  /// Changes the value under the lock.
  func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
