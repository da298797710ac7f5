import CRDT
import Foundation

/// The time source of the client's timers (retry delays, polling, channel heartbeats).
/// Production uses ``SystemClientClock``; tests put a clock of their own that records the
/// delays asked for and lets time pass when the test says.
package protocol ClientClock: Sendable {
  /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
  func sleep(for seconds: Double) async throws
}

/// The real clock: `Task.sleep`.
package struct SystemClientClock: ClientClock {
  /// The real clock.
  package init() {}

  /// Sleeps with `Task.sleep`. A delay beyond 10⁹ s (31 years; an app's timeout may be
  /// that long, or infinite) sleeps 10⁹ s: nanoseconds of more would not fit a `UInt64`.
  package func sleep(for seconds: Double) async throws {
    guard seconds > 0 else { return try Task.checkCancellation() }
    try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
  }
}

/// A random generator several loops draw from (jitter), behind a lock.
package final class SharedRandom: Sendable {
  /// The generator.
  private let generator: Locked<any RandomNumberGenerator & Sendable>

  /// Draws from `generator`.
  package init(_ generator: any RandomNumberGenerator & Sendable) {
    self.generator = Locked(generator)
  }

  /// The next delay of `backoff` after a failure (nil when its attempts are spent).
  package func delayAfterFailure(of backoff: inout ReconnectBackoff) -> Double? {
    generator.withLock { generator in
      var g = AnyGenerator(base: generator)
      defer { generator = g.base }
      return backoff.delayAfterFailure(using: &g)
    }
  }

  /// Lets an existential be passed where `some RandomNumberGenerator` is asked for.
  private struct AnyGenerator: RandomNumberGenerator {
    var base: any RandomNumberGenerator & Sendable
    mutating func next() -> UInt64 { base.next() }
  }
}

/// The clock and random source of a client, injected so that tests control time and jitter.
package struct ClientEnvironment: Sendable {
  /// The clock of every timer.
  package var clock: any ClientClock
  /// The jitter's random source.
  package var random: SharedRandom

  /// A clock and random source.
  package init(clock: any ClientClock, random: SharedRandom) {
    self.clock = clock
    self.random = random
  }

  /// The real clock and the system's random generator.
  package static var live: ClientEnvironment {
    ClientEnvironment(clock: SystemClientClock(), random: SharedRandom(SystemRandomNumberGenerator()))
  }
}
