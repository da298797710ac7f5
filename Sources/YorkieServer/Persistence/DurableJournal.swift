import DurableStorage
import CRDT
import Foundation

/// The journal of a server with a data directory: each step's records become one record of a
/// ``DurableLog`` (`journal.log` in the directory), made durable by one thread that flushes for
/// every waiting step at once.
///
/// Waiting happens off the Swift concurrency pool: a step's task suspends until the flushing
/// thread has synced past its mark, so slow disks never starve the pool.
package final class DurableJournal: ServiceJournal {
  /// The log.
  let log: DurableLog
  /// Steps waiting for durability (what to run once durable or failed), and whether the thread
  /// should end.
  private let queue = Locked<(waiting: [(DurableLog.Position, @Sendable (ServiceError?) -> Void)], stopped: Bool)>(([], false))
  /// Wakes the flushing thread.
  private let wake = DispatchSemaphore(value: 0)
  /// Signalled by the flushing thread when it has closed the log and ended.
  private let ended = DispatchSemaphore(value: 0)

  /// A journal over `log`; starts its flushing thread.
  package init(log: DurableLog) {
    self.log = log
    let thread = Thread { [self] in run() }
    thread.name = "YorkieServer.DurableJournal"
    thread.start()
  }

  package func append(_ records: [JournalRecord]) throws(ServiceError) -> DurableLog.Position {
    do throws(StorageError) {
      return try log.append([JournalCodec.encode(records)])
    } catch {
      throw ServiceError(.unavailable, "storing failed: \(error)", metadataCode: nil)
    }
  }

  package var currentMark: DurableLog.Position { log.end }

  package func sync(through mark: DurableLog.Position) async throws(ServiceError) {
    let failure: ServiceError? = await withCheckedContinuation { (continuation: CheckedContinuation<ServiceError?, Never>) in
      whenDurable(through: mark) { continuation.resume(returning: $0) }
    }
    if let failure { throw failure }
  }

  package func whenDurable(through mark: DurableLog.Position, _ action: @escaping @Sendable (ServiceError?) -> Void) {
    let accepted = queue.withLock { queue -> Bool in
      guard !queue.stopped else { return false }
      queue.waiting.append((mark, action))
      return true
    }
    if accepted {
      wake.signal()
    } else {
      action(ServiceError(.unavailable, "the server is stopping", metadataCode: nil))
    }
  }

  /// Stops the flushing thread (after serving the steps already waiting), closes the log and
  /// returns once it is closed (so that another server may open the directory). Once only.
  package func close() {
    let first = queue.withLock { queue -> Bool in
      defer { queue.stopped = true }
      return !queue.stopped
    }
    guard first else { return }
    wake.signal()
    ended.wait()
  }

  /// The flushing thread: takes every waiting step, syncs through the furthest mark, resumes them.
  private func run() {
    while true {
      wake.wait()
      let (batch, stopped) = queue.withLock { queue in
        defer { queue.waiting = [] }
        return (queue.waiting, queue.stopped)
      }
      if let furthest = batch.map(\.0).max() {
        do throws(StorageError) {
          try log.sync(through: furthest)
          for (_, action) in batch { action(nil) }
        } catch {
          let failure = ServiceError(.unavailable, "storing failed: \(error)", metadataCode: nil)
          for (_, action) in batch { action(failure) }
        }
      }
      if stopped {
        log.close()
        ended.signal()
        return
      }
    }
  }
}
