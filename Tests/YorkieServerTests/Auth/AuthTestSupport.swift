import CRDT
import Foundation

@testable import YorkieServer

/// A clock the tests move by hand.
final class ManualClock: Sendable {
  /// The current time in seconds.
  private let time = Locked(1000.0)

  /// The clock as the client takes it.
  var read: @Sendable () -> Double { { [time] in time.withLock { $0 } } }

  /// Moves the time forward by `seconds`.
  func advance(_ seconds: Double) {
    time.withLock { $0 += seconds }
  }
}

/// Runs `body` and returns the `ServiceError` it throws, or `nil` when it returns.
func serviceError(_ body: () async throws(ServiceError) -> Void) async -> ServiceError? {
  do throws(ServiceError) {
    try await body()
    return nil
  } catch {
    return error
  }
}
