import CRDT
import Foundation

/// Wakes one waiting task: ``notify()`` from anywhere (a document's local-change observer,
/// a stream's event), ``wait()`` in the loop. A notification sent while nobody waits is kept
/// (once), so none is lost between the loop's check and its wait.
final class WakeSignal: Sendable {
  private struct State {
    var pending = false
    var waiter: CheckedContinuation<Void, Never>?
  }
  private let state = Locked(State())

  /// A signal with nothing pending.
  init() {}

  /// Wakes the waiter, or keeps the notification for the next wait.
  func notify() {
    let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.pending = true
      return nil
    }
    waiter?.resume()
  }

  /// Returns at once if a notification is pending (consuming it), else at the next one or
  /// when the task is cancelled.
  func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow: Bool = state.withLock { state in
          if state.pending || Task.isCancelled {
            state.pending = false
            return true
          }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      notify()
    }
  }
}
