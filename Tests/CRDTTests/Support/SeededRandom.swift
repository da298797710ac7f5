import Foundation

/// A repeatable random number generator (SplitMix64). Tests print the seed they use, and the
/// environment variable `CRDT_SEED` replays one seed.
struct SeededRandom: RandomNumberGenerator {
  private(set) var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The seeds a randomized test runs: `CRDT_SEED` alone when set, else `count` fixed seeds
  /// (multiplied by `CRDT_LONG_TESTS` when that is set to a number), after skipping the first
  /// `CRDT_SEED_SKIP` of the sequence (a long run past the seeds an earlier one covered).
  static func seeds(_ count: Int, base: UInt64 = 1) -> [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["CRDT_SEED"], let seed = UInt64(text) { return [seed] }
    let factor = environment["CRDT_LONG_TESTS"].flatMap(Int.init) ?? 1
    let skip = environment["CRDT_SEED_SKIP"].flatMap(UInt64.init) ?? 0
    return (skip..<skip + UInt64(count * max(factor, 1))).map { base &+ $0 &* 7919 }
  }
}
