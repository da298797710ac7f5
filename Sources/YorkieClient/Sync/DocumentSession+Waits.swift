import CRDT
import Foundation

// The app's view of a session: its readable state (``DocumentSyncState``) and its waits —
// `sync()`, acknowledgements (bounded or not), the first Watch answer.

extension DocumentSession {
  /// The state a view shows (see ``DocumentSyncState``); nil once the session stopped.
  func syncState() async -> DocumentSyncState? {
    let unacknowledged = await document.pendingChanges.count
    return state.withLock { state in
      guard !state.loop.stopped else { return nil }
      let stream: StreamConnectionStatus? = state.loop.mode.watches ? (state.watchConnected ? .connected : .disconnected) : nil
      return DocumentSyncState(mode: state.loop.mode, stream: stream, lastSync: state.lastSync, unacknowledgedChanges: unacknowledged)
    }
  }

  /// Records the outcome of an exchange, then tells the app: the readable state already says
  /// what the event says when the event arrives.
  func reportSync(_ status: DocumentSyncStatus) {
    state.withLock { $0.lastSync = status }
    events.send(.syncStatusChanged(document: key, status))
  }

  /// Pushes and pulls now, after any push-pull in flight; returns when it succeeded.
  func sync() async throws {
    let id: Int = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let error: (any Error)? = state.withLock { state in
          if let stopped = state.stopError { return stopped }
          if Task.isCancelled { return CancellationError() }
          state.requestWaiters[id] = continuation
          state.loop.requests.append(id)
          return nil
        }
        if let error { continuation.resume(throwing: error) } else { signal.notify() }
      }
    } onCancel: {
      // The push-pull may already be on its way; the caller only stops waiting for it.
      let waiter = state.withLock { $0.requestWaiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Returns once the server acknowledged every local change up to `clientSeq`; throws
  /// `timedOut` when `timeout` seconds (on the environment's clock) pass first (nil: no bound).
  func waitForAcknowledgement(through clientSeq: UInt32, timeout: TimeInterval?) async throws {
    if await document.checkpoint.clientSeq >= clientSeq { return }
    let id: Int = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let error: YorkieError? = state.withLock { state in
          if let stopped = state.stopError { return stopped }
          var waiter = AckWaiter(clientSeq: clientSeq, continuation: continuation)
          // Started once registered, so that it cannot expire a wait not registered yet.
          waiter.timer = timeout.map { seconds in
            Task { [weak self, clock = environment.clock] in
              do { try await clock.sleep(for: seconds) } catch { return }
              self?.expireAcknowledgementWait(id, clientSeq: clientSeq, after: seconds)
            }
          }
          state.ackWaiters[id] = waiter
          return nil
        }
        if let error { continuation.resume(throwing: error) }
      }
      // A push-pull may have finished between the check above and the registration.
      await resolveAcknowledgements()
    } onCancel: {
      let waiter = state.withLock { $0.ackWaiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Fails the acknowledgement wait `id` with `timedOut`, unless it ended already. The changes
  /// stay pending: only the wait ends.
  private func expireAcknowledgementWait(_ id: Int, clientSeq: UInt32, after seconds: TimeInterval) {
    guard let waiter = state.withLock({ $0.ackWaiters.removeValue(forKey: id) }) else { return }
    waiter.resume(throwing: YorkieError(
      .timedOut,
      "document \"\(key)\": the server did not acknowledge the changes up to \(clientSeq) within \(seconds) s (they stay pending and are pushed when it answers)"))
  }

  /// Resumes the acknowledgement waiters that the document's checkpoint satisfies.
  func resolveAcknowledgements() async {
    let acknowledged = await document.checkpoint.clientSeq
    let done: [AckWaiter] = state.withLock { state in
      let ids = state.ackWaiters.filter { $0.value.clientSeq <= acknowledged }.map(\.key)
      return ids.compactMap { state.ackWaiters.removeValue(forKey: $0) }
    }
    for waiter in done { waiter.resume() }
  }

  /// Returns once the Watch stream answered its first message or failed, or after `timeout`
  /// seconds; at once in a mode without a stream.
  func waitUntilWatchSettled(timeout: TimeInterval) async {
    guard state.withLock({ $0.watchTask != nil && !$0.loop.stopped }) else { return }
    await watchSettled.wait(timeout: timeout)
  }
}
