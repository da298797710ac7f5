import Foundation

/// A step of the demo that did not finish in time.
struct TimeoutError: Error, CustomStringConvertible {
  /// What was being waited for.
  var what: String
  /// The limit, in seconds.
  var seconds: Double

  /// `timed out after 5 s: ann's attach`.
  var description: String { "timed out after \(Self.format(seconds)) s: \(what)" }

  /// `5` or `0.5`.
  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}

/// Runs `operation`, or throws ``TimeoutError`` once `seconds` have passed. On a timeout the
/// operation is cancelled but not awaited: a step that ignores cancellation cannot hold the
/// demo up.
func withTimeout<T: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
    let outcome = Protected<CheckedContinuation<T, any Error>?>(continuation)
    /// Resumes the caller once; returns whether this call did.
    @Sendable func finish(_ result: Result<T, any Error>) -> Bool {
      guard let waiting = outcome.withLock({ value -> CheckedContinuation<T, any Error>? in
        defer { value = nil }
        return value
      }) else { return false }
      waiting.resume(with: result)
      return true
    }
    let workTask = Protected<Task<Void, Never>?>(nil)
    let timer = Task {
      try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      if finish(.failure(TimeoutError(what: what, seconds: seconds))) { workTask.current?.cancel() }
    }
    let work = Task {
      do {
        _ = finish(.success(try await operation()))
      } catch {
        _ = finish(.failure(error))
      }
      timer.cancel()
    }
    workTask.withLock { $0 = work }
  }
}

/// Polls `condition` every 10 ms until it holds; throws ``TimeoutError`` after `seconds`.
func waitUntil(_ seconds: Double, _ what: String, _ condition: @escaping @Sendable () async -> Bool) async throws {
  try await withTimeout(seconds, what) {
    while await !condition() {
      try await Task.sleep(nanoseconds: 10_000_000)
    }
  }
}

/// Ends the process with status 1 if it is still running after `seconds`: the last guard
/// against a hang that no step's own timeout caught.
func startWatchdog(after seconds: Double, log: DemoLog) {
  DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
    log.fail("the demo did not finish within \(Int(seconds)) s (a step hung)")
    exit(1)
  }
}

/// Runs one step of the demo with a time limit; a failure says which step failed.
func step<T: Sendable>(_ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
  do {
    return try await withTimeout(seconds, what, operation)
  } catch let error as TimeoutError {
    throw error
  } catch {
    throw DemoError("\(what) failed: \(error)")
  }
}
