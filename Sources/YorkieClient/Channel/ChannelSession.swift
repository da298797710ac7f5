import CRDT
import Foundation
import YorkieProtocol

/// Keeps one channel attached: its session (refreshed on a heartbeat, re-created when the
/// server forgot it) and its Watch stream (session counts and broadcasts), both retried with
/// backoff. When the server cannot be reached at the attach, the session is created later: the
/// channel stays pending while AttachChannel is retried with backoff (see ``attach()``).
final class ChannelSession: Sendable {
  /// The channel.
  let channel: Channel
  /// This client's ID.
  let clientID: String
  /// The calls.
  let rpc: ClientRPC
  /// Clock and random source.
  let environment: ClientEnvironment
  /// The retry policy.
  let policy: ReconnectPolicy
  /// Seconds between heartbeats.
  let heartbeat: TimeInterval
  /// How long an attach waits for the Watch stream.
  let streamTimeout: TimeInterval
  /// Where retries are reported.
  let events: EventHub<ClientEvent>
  /// Called when the session ends on its own (a deferred attach gave up), so that the client
  /// forgets it.
  let onHalt: @Sendable (ChannelSession) async -> Void
  /// The session ID and the running tasks.
  private let state = Locked(State())
  /// Opens when the Watch stream delivered its initialization (or failed).
  private let streamSettled = Gate()

  private struct State: Sendable {
    /// The server's session ID; nil until AttachChannel answered.
    var sessionID: String?
    var tasks: [Task<Void, Never>] = []
    var stopped = false
  }

  /// This session's identity for ``Channel/claim(for:)`` and the other status changes.
  var id: ObjectIdentifier { ObjectIdentifier(self) }

  /// A session of `channel` for `clientID`; ``attach()`` creates it on the server.
  init(channel: Channel, clientID: String, rpc: ClientRPC, environment: ClientEnvironment, policy: ReconnectPolicy,
       heartbeat: TimeInterval, streamTimeout: TimeInterval, events: EventHub<ClientEvent>,
       onHalt: @escaping @Sendable (ChannelSession) async -> Void) {
    self.channel = channel
    self.clientID = clientID
    self.rpc = rpc
    self.environment = environment
    self.policy = policy
    self.heartbeat = heartbeat
    self.streamTimeout = streamTimeout
    self.events = events
    self.onHalt = onHalt
  }

  /// Creates the session on the server, then starts the stream and the heartbeat; returns once
  /// the stream is up (broadcasts sent from then on arrive) or failed, or after the stream
  /// timeout, with the channel attached.
  ///
  /// When the server cannot be reached (a failure worth retrying), returns at once with the
  /// channel pending: a task retries AttachChannel with backoff, reporting each failure, and
  /// then does the rest (``ClientEvent/channelAttached(_:)`` says when).
  ///
  /// - Throws: a failure retrying cannot fix (the channel is not attached then), or
  ///   `CancellationError`.
  func attach() async throws {
    do {
      try await createSession()
    } catch {
      let failure = YorkieError.wrapping(error, "AttachChannel")
      guard !Task.isCancelled, !(error is CancellationError), FailureKind(failure) == .retryable else { throw error }
      start([Task { [weak self] in await self?.retryAttach(after: failure) }])
      return
    }
    await startStreams()
  }

  /// AttachChannel: a session and the current count.
  private func createSession() async throws {
    let response: AttachChannelResponse = try await rpc.call(
      "AttachChannel", AttachChannelRequest(clientID: clientID, channelKey: channel.key), shardKey: channel.key)
    state.withLock { $0.sessionID = response.sessionID }
    await channel.updateSessionCount(response.sessionCount, seq: nil)
  }

  /// Starts the Watch stream and the heartbeat of a created session, waits for the stream (or
  /// the timeout), and marks the channel attached.
  private func startStreams() async {
    start([
      Task { [weak self] in await self?.runWatch() },
      Task { [weak self] in await self?.runHeartbeat() },
    ])
    await streamSettled.wait(timeout: streamTimeout)
    await channel.settle(for: id)
  }

  /// Keeps `tasks` to stop them later; cancels them when the session stopped already.
  private func start(_ tasks: [Task<Void, Never>]) {
    let orphans: [Task<Void, Never>] = state.withLock { state in
      if state.stopped { return tasks }
      state.tasks += tasks
      return []
    }
    for task in orphans { task.cancel() }
  }

  /// The deferred attach: AttachChannel again after each delay of the backoff, then the
  /// streams. A failure retrying cannot fix (or the policy's last attempt) ends the session:
  /// the channel is detached and the client forgets the session, then the
  /// ``ClientEvent/stopped(_:)`` event goes out (so that an app reacting to it can attach
  /// again).
  private func retryAttach(after first: YorkieError) async {
    var backoff = ReconnectBackoff(policy: policy)
    var failure = first
    while true {
      let delay: Double
      switch RetryOutcome.after(failure, of: .channel(channel.key), backoff: &backoff, random: environment.random, giveUp: "attach the channel again") {
      case .retry(let notice):
        events.send(.retrying(notice))
        delay = notice.delay
      case .stop(let notice):
        halt()
        await channel.release(from: id)
        await onHalt(self)
        events.send(.stopped(notice))
        return
      }
      do { try await environment.clock.sleep(for: delay) } catch { return }
      do {
        try await createSession()
        break
      } catch {
        if Task.isCancelled || error is CancellationError { return }
        failure = YorkieError.wrapping(error, "AttachChannel")
      }
    }
    await startStreams()
    // Not when detached meanwhile (the channel may be attached by another session by now).
    guard !state.withLock({ $0.stopped }), await channel.status == .attached else { return }
    events.send(.channelAttached(channel.key))
  }

  /// Stops the tasks (synchronously; for a client that goes away, or a failed attach).
  func halt() {
    streamSettled.open()
    let tasks = state.withLock { state in
      state.stopped = true
      defer { state.tasks = [] }
      return state.tasks
    }
    for task in tasks { task.cancel() }
  }

  /// Stops the tasks and tells the server the session ends (a failure there only shortens
  /// nothing: the server drops the session after its TTL). A session the server never created
  /// (a deferred attach that did not get through) ends locally.
  func stop() async {
    streamSettled.open()
    let tasks = state.withLock { state in
      state.stopped = true
      defer { state.tasks = [] }
      return state.tasks
    }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    if let sessionID = state.withLock({ $0.sessionID }) {
      let _: DetachChannelResponse? = try? await rpc.call(
        "DetachChannel", DetachChannelRequest(clientID: clientID, channelKey: channel.key, sessionID: sessionID),
        shardKey: channel.key)
    }
    await channel.release(from: id)
  }

  /// RefreshChannel every heartbeat (the first one a heartbeat after the attach); a forgotten
  /// session is created again.
  private func runHeartbeat() async {
    var backoff = ReconnectBackoff(policy: policy)
    var wait = heartbeat
    while !Task.isCancelled {
      do { try await environment.clock.sleep(for: wait) } catch { return }
      wait = heartbeat
      do {
        let sessionID = state.withLock { $0.sessionID ?? "" }
        do {
          let response: RefreshChannelResponse = try await rpc.call(
            "RefreshChannel", RefreshChannelRequest(clientID: clientID, channelKey: channel.key, sessionID: sessionID),
            shardKey: channel.key)
          await channel.updateSessionCount(response.sessionCount, seq: nil)
        } catch let error as YorkieError where error.code == .sessionNotFound {
          try await createSession()
        }
        backoff.succeeded()
      } catch {
        if Task.isCancelled || error is CancellationError { return }
        let failure = YorkieError.wrapping(error, "RefreshChannel")
        guard let delay = retryDelay(after: failure, backoff: &backoff) else { return }
        wait = min(delay, heartbeat)
      }
    }
  }

  /// The channel's Watch stream, reopened with backoff.
  private func runWatch() async {
    var backoff = ReconnectBackoff(policy: policy)
    while !Task.isCancelled {
      do {
        let request = WatchRequest(clientID: clientID, resources: [.channel(WireChannelResource(channelKey: channel.key))])
        for try await message in rpc.transport.stream("Watch", request, shardKey: channel.key, as: WatchResponse.self) {
          switch message {
          case .initialization(let inits):
            for case .channel(let resource) in inits where resource.channelKey == channel.key {
              await channel.updateSessionCount(resource.sessionCount, seq: resource.seq)
            }
            backoff.succeeded()
            streamSettled.open()
          case .channelEvent(let wrapper):
            guard let event = wrapper.event else { continue }
            switch event.type {
            case .presence:
              await channel.updateSessionCount(event.sessionCount, seq: event.seq)
            case .broadcast:
              let text = String(decoding: event.payload, as: UTF8.self)
              let payload = JSONValueParser.parse(text) ?? .null
              channel.deliver(BroadcastMessage(topic: event.topic, payload: payload, publisher: try? ActorID(hex: event.publisher)))
            case .unspecified:
              break
            }
          case .documentEvent:
            break
          }
        }
        throw YorkieError(.unavailable, "Watch: the server ended the stream")
      } catch {
        if Task.isCancelled || error is CancellationError { return }
        await channel.streamEnded()
        streamSettled.open()
        let failure = YorkieError.wrapping(error, "Watch")
        if FailureKind(failure) == .unauthenticated, (try? await rpc.refreshToken(after: failure, method: "Watch")) == nil {
          rpc.reportIfAuth(failure, method: "Watch")
        }
        guard let delay = retryDelay(after: failure, backoff: &backoff) else { return }
        do { try await environment.clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// Reports `failure` and returns the delay before the next attempt, or reports the stop and
  /// returns nil.
  private func retryDelay(after failure: YorkieError, backoff: inout ReconnectBackoff) -> Double? {
    switch RetryOutcome.after(failure, of: .channel(channel.key), backoff: &backoff, random: environment.random, giveUp: "attach the channel again") {
    case .stop(let notice):
      events.send(.stopped(notice))
      return nil
    case .retry(let notice):
      events.send(.retrying(notice))
      return notice.delay
    }
  }
}
