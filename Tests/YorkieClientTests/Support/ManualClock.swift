import Foundation

@testable import YorkieClient

/// A ``ClientClock`` whose time passes only when the test says: every `sleep` is recorded and
/// suspends until ``advance()`` (or cancellation).
final class ManualClock: ClientClock {
  private struct Sleeper {
    var seconds: Double
    var continuation: CheckedContinuation<Void, any Error>
  }
  private struct State {
    var requested: [Double] = []
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
  }
  private let state = LockedValue(State())

  /// A clock at rest.
  init() {}

  /// Every delay asked for so far, in order.
  var requested: [Double] { state.withLock { $0.requested } }

  /// The delays of the sleeps now waiting.
  var waiting: [Double] { state.withLock { $0.sleepers.sorted { $0.key < $1.key }.map(\.value.seconds) } }

  /// Records the delay and suspends until ``advance()``.
  func sleep(for seconds: Double) async throws {
    let id: Int = state.withLock { state in
      state.requested.append(seconds)
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let cancelled: Bool = state.withLock { state in
          if Task.isCancelled { return true }
          state.sleepers[id] = Sleeper(seconds: seconds, continuation: continuation)
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Ends every sleep now waiting.
  func advance() {
    let sleepers = state.withLock { state in
      defer { state.sleepers = [:] }
      return Array(state.sleepers.values)
    }
    for sleeper in sleepers { sleeper.continuation.resume() }
  }
}

/// SplitMix64: a seeded generator for reproducible draws.
struct SeededRandom: RandomNumberGenerator, Sendable {
  /// The state.
  var state: UInt64

  /// A generator starting from `seed`.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
