import Foundation
import Testing
@testable import YorkieClient

/// A generator that returns fixed 64-bit values in turn (so a draw lands where a test wants).
private struct FixedDraws: RandomNumberGenerator {
  var values: [UInt64]
  var index = 0
  mutating func next() -> UInt64 {
    defer { index += 1 }
    return values[index % values.count]
  }
}

@Suite("Reconnect backoff")
struct ReconnectBackoffTests {
  @Test("the bound doubles from the base up to the cap, and stays there")
  func bounds() {
    let policy = ReconnectPolicy(base: 0.5, multiplier: 2, cap: 5)
    #expect((1...7).map { policy.bound(afterFailures: $0) } == [0.5, 1, 2, 4, 5, 5, 5])
    #expect(policy.bound(afterFailures: 10_000) == 5)
    #expect(ReconnectPolicy(base: 1, multiplier: 1e308, cap: 60).bound(afterFailures: 50) == 60)
  }

  @Test("every delay is drawn at or below its bound and never below the minimum (seeded)")
  func fullJitter() throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["CRDT_SEED"].flatMap(UInt64.init) ?? 42)
    print("ReconnectBackoffTests seed \(seed)")
    var random = SeededRandom(seed: seed)
    let policy = ReconnectPolicy(base: 0.2, multiplier: 3, cap: 10, minimumDelay: 0.05)
    var backoff = ReconnectBackoff(policy: policy)
    var delays: [Double] = []
    for failure in 1...200 {
      let next = backoff.delayAfterFailure(using: &random)
      let delay = try #require(next)
      #expect(delay >= 0.05 && delay < policy.bound(afterFailures: failure), "seed \(seed), failure \(failure): \(delay)")
      delays.append(delay)
    }
    // Full jitter spreads the capped delays over the whole range, not near the cap only.
    let capped = delays.dropFirst(10)
    #expect(capped.contains { $0 < 3 } && capped.contains { $0 > 7 }, "seed \(seed)")
  }

  @Test("the extreme draws give the minimum and the bound; a success starts again from the base")
  func extremesAndReset() {
    let policy = ReconnectPolicy(base: 1, multiplier: 2, cap: 8, minimumDelay: 0.1)
    var backoff = ReconnectBackoff(policy: policy)
    var low = FixedDraws(values: [0])
    var high = FixedDraws(values: [UInt64.max])
    #expect(backoff.delayAfterFailure(using: &low) == 0.1)
    #expect(abs((backoff.delayAfterFailure(using: &high) ?? 0) - 2) < 1e-9)
    #expect(abs((backoff.delayAfterFailure(using: &high) ?? 0) - 4) < 1e-9)
    #expect(backoff.failures == 3)
    backoff.succeeded()
    #expect(backoff.failures == 0)
    #expect(abs((backoff.delayAfterFailure(using: &high) ?? 0) - 1) < 1e-9)
  }

  @Test("with maxAttempts the loop gives up after that many failures in a row")
  func givesUp() {
    var backoff = ReconnectBackoff(policy: ReconnectPolicy(maxAttempts: 3))
    var random = SeededRandom(seed: 1)
    #expect(backoff.delayAfterFailure(using: &random) != nil)
    #expect(backoff.delayAfterFailure(using: &random) != nil)
    #expect(backoff.delayAfterFailure(using: &random) == nil)
    backoff.succeeded()
    #expect(backoff.delayAfterFailure(using: &random) != nil)
  }
}
