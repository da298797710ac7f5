import Foundation

/// How a client waits between attempts after a failed call or stream: exponential backoff with
/// full jitter (each delay drawn uniformly below a bound that grows by `multiplier` from `base`
/// up to `cap`), never shorter than `minimumDelay` (no tight loop, whatever the draw), reset by a
/// success. With `maxAttempts`, the client gives up — and says so — after that many failures in
/// a row.
public struct ReconnectPolicy: Sendable, Hashable {
  /// The bound of the first delay, in seconds.
  public var base: Double
  /// How much the bound grows after each failure.
  public var multiplier: Double
  /// The largest bound, in seconds.
  public var cap: Double
  /// The shortest delay ever waited, in seconds.
  public var minimumDelay: Double
  /// Failures in a row after which the client stops retrying; `nil` retries for ever (telling
  /// the app of each failure).
  public var maxAttempts: Int?

  /// A policy with the given values; each omitted one takes its default (0.5 s doubling up to
  /// 30 s, at least 50 ms, for ever).
  public init(base: Double = 0.5, multiplier: Double = 2, cap: Double = 30, minimumDelay: Double = 0.05, maxAttempts: Int? = nil) {
    self.base = base
    self.multiplier = multiplier
    self.cap = cap
    self.minimumDelay = minimumDelay
    self.maxAttempts = maxAttempts
  }

  /// The bound of the delay after `failures` failures in a row (1 for the first).
  public func bound(afterFailures failures: Int) -> Double {
    guard failures > 0 else { return 0 }
    // Grows in steps rather than with `pow`, stopping at the cap: no overflow to infinity.
    var bound = max(base, minimumDelay)
    var step = 1
    while step < failures && bound < cap {
      bound *= max(multiplier, 1)
      step += 1
    }
    return min(bound, max(cap, minimumDelay))
  }
}

/// The state of one retry loop under a ``ReconnectPolicy``: how many failures in a row, and the
/// next delay. A pure value: the random source is passed in, so tests fix the draws.
package struct ReconnectBackoff: Sendable {
  /// The policy.
  package let policy: ReconnectPolicy
  /// Failures since the last success.
  package private(set) var failures = 0

  /// A loop that has not failed yet.
  package init(policy: ReconnectPolicy) {
    self.policy = policy
  }

  /// Records a failure and returns how long to wait before the next attempt, or `nil` when the
  /// policy's attempts are spent (the caller stops and tells the app).
  package mutating func delayAfterFailure(using random: inout some RandomNumberGenerator) -> Double? {
    failures += 1
    if let limit = policy.maxAttempts, failures >= limit { return nil }
    // Full jitter: uniform in [0, bound), from the top 53 bits of one draw (one call to the
    // generator per delay, whatever it returns: no rejection loop).
    let unit = Double(random.next() >> 11) / Double(UInt64(1) << 53)
    return max(unit * policy.bound(afterFailures: failures), policy.minimumDelay)
  }

  /// Records a success: the next failure starts again from the first bound.
  package mutating func succeeded() {
    failures = 0
  }
}
