import Foundation

/// The threads the server's tasks run on, apart from the Swift concurrency pool of the process.
///
/// The server lives inside other programs — test processes first of all, whose own tests keep
/// the shared pool busy (it has one thread per core). Had the server's request tasks queued there
/// too, a busy host would starve it: requests unanswered for seconds. Its tasks therefore prefer
/// this executor, a few threads of its own; default actors they call (the `CRDT` documents that
/// build snapshots) run there as well.
///
/// One executor serves every server of the process and lives as long as the process: a task
/// suspended on I/O may resume at any time, so its threads are never stopped.
///
/// Invariant (why `@unchecked Sendable` is sound): `queue` and `head` are touched only while
/// holding `condition`; each job is run by exactly one worker, which took it off the queue under
/// the lock.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class ServerExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of every server in the process: one thread per core, at least two.
  package static let shared = ServerExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount), name: "YorkieServer.Executor")

  /// Guards the queue and wakes the workers.
  private let condition = NSCondition()
  /// Jobs not yet run, oldest first (a ring: `head` is the next to run).
  private var queue: [UnownedJob] = []
  /// The index of the next job in `queue`.
  private var head = 0

  /// Starts `threads` worker threads named after `name`.
  package init(threads: Int, name: String) {
    for index in 0..<max(1, threads) {
      let thread = Thread { [self] in work() }
      thread.name = "\(name).\(index)"
      thread.start()
    }
  }

  /// Queues a job for the next free worker.
  package func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    condition.lock()
    queue.append(unowned)
    condition.signal()
    condition.unlock()
  }

  /// A worker: runs jobs, forever.
  private func work() {
    while true {
      condition.lock()
      while head == queue.count { condition.wait() }
      let job = queue[head]
      head += 1
      if head > 1024 && head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Starts `operation` as a task that prefers the server's own threads (``ServerExecutor``), or,
/// where task executors are not available, as an ordinary task.
@discardableResult
package func serverTask(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
    return Task(executorPreference: ServerExecutor.shared, operation: operation)
  }
  return Task(operation: operation)
}
