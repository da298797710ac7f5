import CRDT
import Foundation

/// What changed since the model last read the document: the parts a refresh reads again.
struct RefreshNeeds: OptionSet, Sendable {
  let rawValue: UInt8

  /// The content (a local or remote change, a snapshot): the value is rebuilt.
  static let content = RefreshNeeds(rawValue: 1)
  /// Presences or the online peers.
  static let presence = RefreshNeeds(rawValue: 2)
  /// The document's status, or the client's view of its connection and sync.
  static let sync = RefreshNeeds(rawValue: 4)
  /// Whether the document can undo or redo.
  static let history = RefreshNeeds(rawValue: 8)

  static let all: RefreshNeeds = [.content, .presence, .sync, .history]
}

/// The link between the tasks that follow a document's and a client's events (off the main
/// actor) and the model's refresh loop (on it). Event tasks only ``mark(_:)`` what changed, an
/// O(1) step under a lock however many events arrive; the loop ``wait()``s, then takes every
/// need at once. This is where a burst of events becomes one refresh.
///
/// It also owns the model's tasks, so that a model that is released (whose `deinit` cannot
/// reach its main-actor state) can still end them with ``finish()``; and it counts the tasks
/// still running, which is how tests see that a released model left nothing behind.
package final class RefreshFeed: Sendable {
  private struct State {
    var needs: RefreshNeeds = []
    var waiter: CheckedContinuation<Void, Never>?
    var tasks: [Task<Void, Never>] = []
    var running = 0
    var finished = false
  }
  private let state = Locked(State())

  init() {}

  /// Adds `needs` and wakes the loop.
  func mark(_ needs: RefreshNeeds) {
    let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
      state.needs.formUnion(needs)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Returns once there is a need (at once if there is one), or when the feed finishes or the
  /// task is cancelled.
  func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow: Bool = state.withLock { state in
          if !state.needs.isEmpty || state.finished || Task.isCancelled { return true }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      wakeWaiter()
    }
  }

  /// Every need marked so far, cleared: a refresh reads these parts again, and anything marked
  /// from now on makes the next one.
  func take() -> RefreshNeeds {
    state.withLock { state in
      defer { state.needs = [] }
      return state.needs
    }
  }

  /// Starts `body` as one of the model's tasks (counted while it runs); nothing starts after
  /// ``finish()``.
  func start(_ body: @escaping @Sendable () async -> Void) {
    state.withLock { state in
      guard !state.finished else { return }
      state.running += 1
      state.tasks.append(Task {
        await body()
        self.state.withLock { $0.running -= 1 }
      })
    }
  }

  /// Starts `body` on the main actor as one of the model's tasks.
  func startOnMainActor(_ body: @escaping @MainActor @Sendable () async -> Void) {
    start { await body() }
  }

  /// Cancels every task and wakes the loop: the event streams end (and with them the
  /// document's and the client's subscriptions), the loop returns.
  func finish() {
    let tasks = state.withLock { state in
      state.finished = true
      defer { state.tasks = [] }
      return state.tasks
    }
    for task in tasks { task.cancel() }
    wakeWaiter()
  }

  /// Whether ``finish()`` was called.
  var isFinished: Bool { state.withLock { $0.finished } }

  /// How many of the model's tasks are still running (0 once a released model's tasks ended).
  package var runningTasks: Int { state.withLock { $0.running } }

  private func wakeWaiter() {
    let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
