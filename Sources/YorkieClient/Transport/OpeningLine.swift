import CRDT
import Foundation

/// Stream openings one at a time, in the order they come: a ``ConnectTransport`` opens a
/// stream only on a connection that an earlier, finished request left idle, and nothing else
/// may take that connection between the two (see ``ConnectTransport``).
///
/// ```swift
/// guard let turn = await line.enter() else { return }  // cancelled while waiting
/// // … prepare the connection, start the stream …
/// turn.end()  // when the stream owns its connection; the next opening goes on
/// ```
final class OpeningLine: Sendable {
  private struct State {
    /// Whether a turn is running.
    var busy = false
    /// The openings waiting for their turn, first come first.
    var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    /// The identifier of the next wait.
    var nextID = 0
  }
  private let state = Locked(State())

  /// An empty line.
  init() {}

  /// How many openings wait for their turn now.
  var waitingCount: Int { state.withLock { $0.waiters.count } }

  /// Waits for the caller's turn and returns it; nil when the calling task is cancelled
  /// first (the caller then has no turn to end).
  func enter() async -> Turn? {
    let id: Int = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let granted = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let now: Bool? = state.withLock { state in
          if Task.isCancelled { return false }
          if !state.busy {
            state.busy = true
            return true
          }
          state.waiters.append((id, continuation))
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
      }
      waiter?.resume(returning: false)
    }
    return granted ? Turn(self) : nil
  }

  /// Ends the running turn: the first waiter's turn begins, or the line is free.
  fileprivate func leave() {
    let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
      if state.waiters.isEmpty {
        state.busy = false
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume(returning: true)
  }

  /// One opening's turn in an ``OpeningLine``, ended once by ``end()`` (later calls do nothing).
  final class Turn: Sendable {
    /// The line the turn belongs to.
    private let line: OpeningLine
    /// Whether the turn ended.
    private let ended = Locked(false)

    /// The running turn of `line`.
    fileprivate init(_ line: OpeningLine) {
      self.line = line
    }

    /// Ends the turn (once; safe from any thread).
    func end() {
      let first: Bool = ended.withLock { ended in
        defer { ended = true }
        return !ended
      }
      if first { line.leave() }
    }

    /// Ends the turn after `seconds` at the latest, whatever happens meanwhile.
    func end(after seconds: TimeInterval) {
      DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0)) { self.end() }
    }
  }
}
