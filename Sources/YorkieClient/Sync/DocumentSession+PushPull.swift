import CRDT
import Foundation
import YorkieProtocol

// The push-pull loop: one PushPullChanges at a time, as SyncLoopState plans them.

extension DocumentSession {
  /// Performs plans until the session stops.
  func runLoop() async {
    while true {
      let plan: SyncLoopState.Plan? = state.withLock { $0.loop.nextPlan() }
      if let plan {
        await perform(plan)
        continue
      }
      if Task.isCancelled || state.withLock({ $0.loop.stopped }) { return }
      await signal.wait()
    }
  }

  /// The most changes one PushPullChanges carries. A longer backlog (a burst of updates, edits
  /// made offline) goes in several push-pulls in a row, so that no request outgrows the
  /// server's body limit: the development server takes 12 MB, about 23,000 one-character
  /// inserts in JSON, and a larger pack was refused on every retry, so it never synced.
  static let maxChangesPerPush = 1_000

  /// Performs one push-pull (several when the backlog is longer than ``maxChangesPerPush``;
  /// each reports `.synced`) and acts on the outcome.
  private func perform(_ plan: SyncLoopState.Plan) async {
    do {
      while try await pushPull(pushOnly: plan.pushOnly) {
        await resolveAcknowledgements()
        reportSync(.synced)
        if await document.status == .removed { break }
      }
    } catch {
      await failed(plan, error)
      return
    }
    let removed = await document.status == .removed
    if !removed, recorder?.wantsRebase == true {
      // A failed rebase leaves the longer history in place, which loads all the same; the
      // next push-pull tries again.
      try? await document.rebaseRecording()
    }
    let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
      if !removed { state.verified = true }
      state.loop.succeeded(plan)
      state.syncBackoff.succeeded()
      return plan.requests.compactMap { state.requestWaiters.removeValue(forKey: $0) }
    }
    for waiter in waiters { waiter.resume() }
    await resolveAcknowledgements()
    reportSync(.synced)
    if removed {
      // Another client removed the document; its status event already went out.
      halt(with: YorkieError(.documentRemoved, "document \(key) was removed"))
      onHalt(self)
    }
  }

  /// Sends the pending changes (the oldest ``maxChangesPerPush`` of them) and applies the
  /// server's answer as a whole; returns whether changes are left to push. (Detach and remove
  /// call it, after the loop stopped, to push a long backlog before their own pack.)
  func pushPull(pushOnly: Bool) async throws -> Bool {
    // Stored before sent (a batching window may still hold the newest changes).
    try recorder?.flush()
    guard let documentID else {
      try await attachDeferred()
      // After an earlier attachment the changes follow the attach (see attachDeferred).
      return followsEarlier ? await document.hasLocalChanges : false
    }
    // A pack that leaves changes out claims only what they had seen (see createChangePack(atMost:)).
    let limited = try await document.createChangePack(atMost: Self.maxChangesPerPush)
    let pack = limited.pack
    try recorder?.seal(sending: pack.changes)
    let request = PushPullChangesRequest(
      clientID: clientID, documentID: documentID, changePack: WireChangePack(pack), pushOnly: pushOnly)
    let response: PushPullChangesResponse = try await rpc.call("PushPullChanges", request, shardKey: key)
    let model = try Self.answeredPack(response.changePack, of: "PushPullChanges")
    try Self.checkAcknowledgement(model.checkpoint, sent: pack.checkpoint)
    try Task.checkCancellation()
    try await apply(model, answering: "PushPullChanges")
    return limited.leftOut > 0
  }

  /// The model of the change pack a `method` answer carries; a missing or malformed pack is
  /// `invalidWireData` naming the method.
  static func answeredPack(_ answer: WireChangePack?, of method: String) throws -> ChangePack {
    guard let answer else {
      throw YorkieError(.invalidWireData, "\(method): the answer has no change pack", field: "changePack")
    }
    do {
      return try answer.model(role: .response)
    } catch {
      throw YorkieError(.invalidWireData, "\(method): \(error.message)", field: error.field, underlying: error)
    }
  }

  /// Applies the pack the server answered `method` with. A failure of the replica to apply it
  /// (an operation naming an element or a piece it does not have, …) is `changeNotApplicable`,
  /// wrapping the replica's error: it happened here, and the server's answer was no refusal.
  /// A store that could not record the pack stays `storageFailed` (retried).
  func apply(_ pack: ChangePack, answering method: String) async throws {
    do {
      try await document.applyChangePack(pack)
    } catch let error as YorkieError where error.code != .storageFailed {
      throw YorkieError(
        .changeNotApplicable,
        "this replica could not apply the changes the server answered \(method) with (\(error.code): \(error.message)); nothing of them was applied",
        field: error.field, underlying: error)
    }
  }

  /// Refuses an answer that acknowledges more changes of this client than it sent: the server
  /// holds changes this replica no longer has (its stored state went back: a rolled-back or cut
  /// store, an older copy), which the server would never send back (it does not echo a
  /// client's own changes) and whose client sequences the replica would reuse. A resumed
  /// attachment is then attached afresh (see ``needsRecovery``).
  static func checkAcknowledgement(_ answered: Checkpoint, sent: Checkpoint) throws {
    guard answered.clientSeq > sent.clientSeq else { return }
    throw YorkieError(
      .actorConflict,
      "the server acknowledges \(answered.clientSeq) changes of this client, which sent \(sent.clientSeq): this replica lost changes the server has (its stored state went back)")
  }

  /// AttachDocument for a document attached while the server was unreachable (its changes so
  /// far travel with it), then what ``Client/attach(_:initialPresence:syncMode:initialRoot:)``
  /// does after the answer: the initial keys, a base bound to the server's document, the
  /// Watch stream.
  ///
  /// An earlier attachment of this client to the document that the server was not told of
  /// (see ``Client/DiscardedAttachment``) is ended first: the server refuses a second one. After
  /// an earlier attachment, the AttachDocument carries no change: the server leaves out of its
  /// answer this client's changes up to the client sequences pushed with it (never echoed),
  /// which would be the earlier attachment's changes, never received here; the edits go in the
  /// push-pull that follows.
  func attachDeferred() async throws {
    if let earlier = unended.withLock({ $0 }) {
      let answered = await Client.detachOnServer(
        key, documentID: earlier.documentID, checkpoint: earlier.checkpoint, clientID: clientID, rpc: rpc)
      guard answered else { throw YorkieError(.unavailable, "DetachDocument of the earlier attachment: the server is unreachable") }
      unended.withLock { $0 = nil }
    }
    var sent = try await document.createChangePack()
    if followsEarlier {
      sent.changes = []
      sent.checkpoint.clientSeq = 0
    }
    try recorder?.seal(sending: sent.changes)
    let response: AttachDocumentResponse = try await rpc.call(
      "AttachDocument", AttachDocumentRequest(clientID: clientID, changePack: WireChangePack(sent)), shardKey: key)
    let model = try Self.answeredPack(response.changePack, of: "AttachDocument")
    try Self.checkAcknowledgement(model.checkpoint, sent: sent.checkpoint)
    try await apply(model, answering: "AttachDocument")
    try await document.setMissingKeys(initialRoot)
    recorder?.bind(to: response.documentID)
    // A failed rebase leaves the unbound base: a restart then attaches again and finds the
    // attachment (reported as a reset); the next rebase binds it.
    try? await document.rebaseRecording()
    binding.withLock { $0 = response.documentID }
    startTimers(for: mode)
  }

  /// Reports a failed push-pull, fails the `sync()` calls it answered, and either schedules
  /// the retry or stops.
  private func failed(_ plan: SyncLoopState.Plan, _ error: any Error) async {
    let cancelled = error is CancellationError || Task.isCancelled
    let failure = cancelled ? nil : YorkieError.wrapping(error, "PushPullChanges")
    let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
      plan.requests.compactMap { state.requestWaiters.removeValue(forKey: $0) }
    }
    for waiter in waiters { waiter.resume(throwing: failure ?? CancellationError()) }
    guard let failure else {
      _ = state.withLock { $0.loop.failed(plan) }
      return
    }
    reportSync(.syncFailed)
    let retries = state.withLock { $0.loop.failed(plan) }
    if case .fatal(let remedy) = FailureKind(failure) {
      halt(StopNotice(resource: .documentSync(key), error: failure, remedy: remedy, recovery: FailureKind.recovery(for: failure)))
    } else if retries {
      scheduleRetry(after: failure)
    }
  }

  /// Waits the backoff's delay before the loop may push-pull on its own again.
  private func scheduleRetry(after failure: YorkieError) {
    let random = environment.random
    let outcome: RetryOutcome = state.withLock { state in
      RetryOutcome.after(
        failure, of: .documentSync(key), backoff: &state.syncBackoff, random: random, giveUp: "call sync() or attach again")
    }
    let delay: Double
    switch outcome {
    case .stop(let notice):
      halt(notice)
      return
    case .retry(let notice):
      events.send(.retrying(notice))
      delay = notice.delay
    }
    let clock = environment.clock
    let task = Task { [weak self] in
      do { try await clock.sleep(for: delay) } catch { return }
      guard let self else { return }
      self.state.withLock { $0.loop.retryDue() }
      self.signal.notify()
    }
    let orphan: Task<Void, Never>? = state.withLock { state in
      if state.loop.stopped { return task }
      state.retryTask?.cancel()
      state.retryTask = task
      return nil
    }
    orphan?.cancel()
  }
}

extension YorkieError {
  /// `error` as a `YorkieError` (a foreign error is wrapped as `unavailable`, naming `method`).
  static func wrapping(_ error: any Error, _ method: String) -> YorkieError {
    if let error = error as? YorkieError { return error }
    return YorkieError(.unavailable, "\(method): \(error)", underlying: error)
  }
}
