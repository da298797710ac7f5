import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Cancels a call's `URLSessionTask` when the caller gives up, whichever comes first: the
/// cancellation or the task's start.
///
/// A cancellation that arrives before the task was started cancels it as soon as it starts,
/// so a task is never cancelled while still suspended (and never left running).
final class TaskCanceller: @unchecked Sendable {
  // Unchecked: both fields are only touched under `lock`.
  /// Guards the fields.
  private let lock = NSLock()
  /// The started task.
  private var task: URLSessionTask?
  /// Whether the call was cancelled.
  private var cancelled = false

  /// Creates a canceller with no task yet.
  init() {}

  /// Starts `task`, or cancels it at once when the call was cancelled already.
  func start(_ task: URLSessionTask) {
    task.resume()
    let cancelNow = lock.withLock {
      self.task = task
      return cancelled
    }
    if cancelNow { task.cancel() }
  }

  /// Whether the call was cancelled.
  var isCancelled: Bool { lock.withLock { cancelled } }

  /// Cancels the call: its task now, or as soon as it starts.
  func cancel() {
    let task = lock.withLock {
      cancelled = true
      return self.task
    }
    task?.cancel()
  }
}
