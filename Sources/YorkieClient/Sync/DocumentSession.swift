import CRDT
import Foundation
import YorkieProtocol

/// Keeps one attached document in sync: its push-pull loop, its Watch stream and its poll
/// timer, and the app's waits on them (`sync()`, acknowledgements, the first Watch answer).
///
/// ```
///  local update ──observer──▶ WakeSignal ──▶ push-pull loop ──PushPullChanges──▶ server
///  Watch stream ──DOCUMENT_CHANGED──▶ WakeSignal      │
///  poll timer ───tick──────────────▶ WakeSignal      └─▶ applyChangePack, acknowledgements
/// ```
///
/// The decisions are ``SyncLoopState``'s (a pure value behind the lock); this type performs
/// them. Every task it starts ends when it is stopped.
final class DocumentSession: Sendable {
  /// The document.
  let document: Document
  /// The document's key.
  let key: String
  /// The server's ID of the document; nil until a deferred attach succeeds (see
  /// ``attachDeferred()``).
  var documentID: String? { binding.withLock { $0 } }
  let binding: Locked<String?>
  /// Keys to set, when the document lacks them, once a deferred attach succeeded.
  let initialRoot: [String: InitialValue]?
  /// This client's ID.
  let clientID: String
  /// The calls.
  let rpc: ClientRPC
  /// Clock and random source of the retry delays.
  let environment: ClientEnvironment
  /// Where connection and sync events go.
  let events: EventHub<ClientEvent>
  /// Wakes the push-pull loop.
  let signal = WakeSignal()
  /// Everything that changes, behind one lock.
  let state: Locked<State>
  /// Opens when the Watch stream answered its first message or failed (or there is none).
  let watchSettled = Gate()
  /// Called once when the session stops on its own (removal, a failure retrying cannot fix).
  let onHalt: @Sendable (DocumentSession) -> Void
  /// Keeps the document's history in the client's store; nil without one.
  let recorder: StoreRecorder?
  /// An earlier attachment of this client that the deferred attach ends first (see
  /// ``attachDeferred()``); nil once it is ended.
  let unended: Locked<Client.UnendedAttachment?>
  /// Whether the deferred attach follows a forgotten attachment of this client to the document
  /// (see ``attachDeferred()``).
  let followsEarlier: Bool
  /// Whether the attachment is not confirmed by this client yet (resumed from the store, or
  /// attached while the server was unreachable): until its first push-pull succeeds, the
  /// server may no longer know it (see ``needsRecovery``).
  let unconfirmed: Bool

  /// The session's mutable state.
  struct State: Sendable {
    /// The loop's decisions.
    var loop: SyncLoopState
    /// Backoff of the push-pull loop.
    var syncBackoff: ReconnectBackoff
    /// `sync()` callers by request id.
    var requestWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// Acknowledgement waiters by id, with the client sequence each waits for.
    var ackWaiters: [Int: AckWaiter] = [:]
    /// Whether the Watch stream is initialized (what the last
    /// ``ClientEvent/connectionChanged(document:_:)`` said).
    var watchConnected = false
    /// The outcome of the last exchange (what the last
    /// ``ClientEvent/syncStatusChanged(document:_:)`` said; the attach's before the first);
    /// nil while an unconfirmed attachment has had none.
    var lastSync: DocumentSyncStatus?
    /// The next waiter id.
    var nextID = 0
    /// The running tasks.
    var loopTask: Task<Void, Never>?
    var watchTask: Task<Void, Never>?
    var pollTask: Task<Void, Never>?
    var retryTask: Task<Void, Never>?
    /// Why the session stopped, once it did.
    var stopError: YorkieError?
    /// Whether a push-pull succeeded (the server knows the attachment).
    var verified = false
  }

  /// A wait for the acknowledgement of the local changes up to `clientSeq`.
  struct AckWaiter: Sendable {
    var clientSeq: UInt32
    var continuation: CheckedContinuation<Void, any Error>
    /// Ends a bounded wait with `timedOut`; nil for a wait without a bound.
    var timer: Task<Void, Never>? = nil

    /// Ends the wait (and its timer).
    func resume() {
      timer?.cancel()
      continuation.resume()
    }

    /// Fails the wait with `error` (and ends its timer).
    func resume(throwing error: any Error) {
      timer?.cancel()
      continuation.resume(throwing: error)
    }
  }

  /// A session for `document`, attached as `documentID` by `clientID`; ``start()`` runs it.
  init(
    document: Document, documentID: String?, clientID: String, mode: SyncMode, rpc: ClientRPC,
    policy: ReconnectPolicy, environment: ClientEnvironment, events: EventHub<ClientEvent>,
    recorder: StoreRecorder?, unconfirmed: Bool, initialRoot: [String: InitialValue]? = nil, earlier: Client.DiscardedAttachment? = nil,
    onHalt: @escaping @Sendable (DocumentSession) -> Void
  ) {
    self.binding = Locked(documentID)
    self.unended = Locked(earlier?.unended)
    self.followsEarlier = earlier != nil
    self.initialRoot = initialRoot
    self.recorder = recorder
    self.unconfirmed = unconfirmed
    self.document = document
    self.key = document.key
    self.clientID = clientID
    self.rpc = rpc
    self.environment = environment
    self.events = events
    self.onHalt = onHalt
    state = Locked(State(
      loop: SyncLoopState(mode: mode), syncBackoff: ReconnectBackoff(policy: policy), lastSync: unconfirmed ? nil : .synced))
  }

  /// The sync mode.
  var mode: SyncMode { state.withLock { $0.loop.mode } }

  /// Whether the session stopped because the stored attachment it resumed is gone on the
  /// server (the client forgotten, the document detached, compacted or removed): the client
  /// then attaches the document afresh instead of giving up.
  var needsRecovery: Bool {
    guard unconfirmed else { return false }
    return state.withLock { state in
      guard !state.verified, let code = state.stopError?.code else { return false }
      return Self.lostAttachment.contains(code)
    }
  }

  /// Whether the session stopped on changes from the server that this replica could not apply
  /// (`changeNotApplicable`): the client keeps it as the document's session, for
  /// ``Client/detach(_:)`` or ``Client/reattach(_:)``.
  var awaitsReattach: Bool {
    state.withLock { $0.stopError?.code == .changeNotApplicable }
  }

  /// The errors that say a resumed attachment is gone.
  static let lostAttachment: Set<YorkieError.Code> = [
    .clientNotFound, .clientNotActivated, .documentNotAttached, .documentNotFound, .documentAlreadyDetached,
    .epochMismatch, .documentRemoved, .actorConflict,
  ]

  /// Starts the loop, and the stream or timer of the mode.
  func start() async {
    let signal = self.signal
    await document.setLocalChangeObserver { [weak self] in
      self?.state.withLock { $0.loop.pushWanted = true }
      signal.notify()
    }
    let pending = await document.hasLocalChanges
    let mode: SyncMode = state.withLock { state in
      state.loop.pushWanted = pending
      state.loopTask = Task { [weak self] in await self?.runLoop() }
      return state.loop.mode
    }
    startTimers(for: mode)
    signal.notify()
  }

  /// Starts the Watch stream or the poll timer that `mode` needs (the stream once the
  /// document is attached on the server).
  func startTimers(for mode: SyncMode) {
    let bound = documentID != nil
    state.withLock { state in
      guard !state.loop.stopped else { return }
      if mode.watches && state.watchTask == nil && bound {
        watchSettled.close()
        state.watchTask = Task { [weak self] in await self?.runWatch() }
      }
      if case .polling(let interval) = mode, state.pollTask == nil {
        state.pollTask = Task { [weak self] in await self?.runPoll(every: interval) }
      }
    }
  }

  /// Switches the sync mode (see ``SyncMode``).
  func changeMode(to newMode: SyncMode) async {
    let (oldWatch, oldPoll): (Task<Void, Never>?, Task<Void, Never>?) = state.withLock { state in
      let old = state.loop.mode
      state.loop.changeMode(to: newMode)
      var watch: Task<Void, Never>?
      var poll: Task<Void, Never>?
      if !newMode.watches {
        watch = state.watchTask
        state.watchTask = nil
      }
      if old != newMode {
        poll = state.pollTask
        state.pollTask = nil
      }
      return (watch, poll)
    }
    oldPoll?.cancel()
    if let oldWatch {
      oldWatch.cancel()
      await oldWatch.value
      await watchEnded()
    }
    startTimers(for: newMode)
    signal.notify()
  }

  /// Stops everything: later calls fail with `error`, the waiting ones too. With
  /// `awaitingInFlight`, a push-pull in flight completes first (detach, remove); otherwise
  /// it is cancelled (deactivate). Returns when every task ended.
  func stop(with error: YorkieError, awaitingInFlight: Bool) async {
    let tasks = halt(with: error)
    if !awaitingInFlight { tasks.loop?.cancel() }
    await tasks.loop?.value
    await tasks.watch?.value
    await document.setLocalChangeObserver(nil)
    await document.stopRecording()
    recorder?.stop()
    await watchEnded()
  }

  /// The tasks a halt stopped (the loop's is left to finish its push-pull).
  struct HaltedTasks {
    var loop: Task<Void, Never>?
    var watch: Task<Void, Never>?
  }

  /// Marks the session stopped, fails every waiter with `error` and cancels the stream and
  /// timers; the loop ends after its current push-pull.
  @discardableResult
  func halt(with error: YorkieError) -> HaltedTasks {
    struct Taken {
      var tasks: HaltedTasks
      var others: [Task<Void, Never>]
      var waiters: [CheckedContinuation<Void, any Error>]
      var ackWaiters: [AckWaiter]
    }
    let taken: Taken = state.withLock { state in
      if state.stopError == nil { state.stopError = error }
      _ = state.loop.stop()
      let waiters = Array(state.requestWaiters.values)
      let ackWaiters = Array(state.ackWaiters.values)
      state.requestWaiters = [:]
      state.ackWaiters = [:]
      let taken = Taken(
        tasks: HaltedTasks(loop: state.loopTask, watch: state.watchTask),
        others: [state.pollTask, state.retryTask].compactMap { $0 }, waiters: waiters, ackWaiters: ackWaiters)
      state.watchTask = nil
      state.pollTask = nil
      state.retryTask = nil
      return taken
    }
    taken.tasks.watch?.cancel()
    for task in taken.others { task.cancel() }
    for waiter in taken.waiters { waiter.resume(throwing: error) }
    for waiter in taken.ackWaiters { waiter.resume(throwing: error) }
    watchSettled.open()
    signal.notify()
    return taken.tasks
  }

  /// Stops on a failure retrying cannot fix, and tells the app.
  func halt(_ notice: StopNotice) {
    halt(with: notice.error)
    // A resumed attachment that is gone is recovered, and reported as a reset instead.
    if !needsRecovery { events.send(.stopped(notice)) }
    onHalt(self)
  }

  /// Ticks the loop every `interval` seconds (the first at once).
  private func runPoll(every interval: TimeInterval) async {
    while !Task.isCancelled {
      state.withLock { $0.loop.pullWanted = true }
      signal.notify()
      do { try await environment.clock.sleep(for: max(interval, 0.001)) } catch { return }
    }
  }
}
