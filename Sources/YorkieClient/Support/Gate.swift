import CRDT
import Foundation

/// A gate tasks wait at until it opens (or their timeout passes): how `attach` waits for a
/// Watch stream's first answer. It can be closed again for the next stream.
final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextID = 0
  }
  private let state = Locked(State())

  /// A closed gate.
  init() {}

  /// Opens the gate: every waiter goes on, and later waits return at once.
  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Closes the gate for the waits that come next.
  func close() {
    state.withLock { $0.isOpen = false }
  }

  /// Returns when the gate is open, or after `timeout` seconds (real time), or when the task
  /// is cancelled.
  func wait(timeout: TimeInterval) async {
    let id: Int = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let timer = Task { [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1_000_000_000))
      self?.release(id)
    }
    defer { timer.cancel() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now: Bool = state.withLock { state in
          if state.isOpen || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      release(id)
    }
  }

  /// Lets one waiter go.
  private func release(_ id: Int) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.resume()
  }
}
