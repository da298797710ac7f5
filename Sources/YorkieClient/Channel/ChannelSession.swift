import CRDT
import Foundation
import YorkieProtocol

/// Keeps one channel attached: its session (refreshed on a heartbeat, re-created when the
/// server forgot it) and its Watch stream (session counts and broadcasts), both retried with
/// backoff.
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
  /// Where retries are reported.
  let events: EventHub<ClientEvent>
  /// The session ID and the running tasks.
  private let state = Locked(State())
  /// Opens when the Watch stream delivered its initialization (or failed).
  private let streamSettled = Gate()

  private struct State: Sendable {
    var sessionID = ""
    var tasks: [Task<Void, Never>] = []
    var stopped = false
  }

  /// A session of `channel` for `clientID`; ``attach()`` creates it on the server.
  init(channel: Channel, clientID: String, rpc: ClientRPC, environment: ClientEnvironment, policy: ReconnectPolicy,
       heartbeat: TimeInterval, events: EventHub<ClientEvent>) {
    self.channel = channel
    self.clientID = clientID
    self.rpc = rpc
    self.environment = environment
    self.policy = policy
    self.heartbeat = heartbeat
    self.events = events
  }

  /// Creates the session on the server, then starts the stream and the heartbeat; returns once
  /// the stream is up (broadcasts sent from then on arrive) or failed, or after `timeout`.
  func attach(timeout: TimeInterval) async throws {
    try await createSession()
    let tasks: [Task<Void, Never>] = [
      Task { [weak self] in await self?.runWatch() },
      Task { [weak self] in await self?.runHeartbeat() },
    ]
    let orphans: [Task<Void, Never>] = state.withLock { state in
      if state.stopped { return tasks }
      state.tasks = tasks
      return []
    }
    for task in orphans { task.cancel() }
    await streamSettled.wait(timeout: timeout)
  }

  /// AttachChannel: a session and the current count.
  private func createSession() async throws {
    let response: AttachChannelResponse = try await rpc.call(
      "AttachChannel", AttachChannelRequest(clientID: clientID, channelKey: channel.key), shardKey: channel.key)
    state.withLock { $0.sessionID = response.sessionID }
    await channel.updateSessionCount(response.sessionCount, seq: nil)
  }

  /// Stops the tasks (synchronously; for a client that goes away).
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
  /// nothing: the server drops the session after its TTL).
  func stop() async {
    streamSettled.open()
    let tasks = state.withLock { state in
      state.stopped = true
      defer { state.tasks = [] }
      return state.tasks
    }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    let sessionID = state.withLock { $0.sessionID }
    let _: DetachChannelResponse? = try? await rpc.call(
      "DetachChannel", DetachChannelRequest(clientID: clientID, channelKey: channel.key, sessionID: sessionID),
      shardKey: channel.key)
    await channel.reset()
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
        let sessionID = state.withLock { $0.sessionID }
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
              channel.deliver(BroadcastMessage(topic: event.topic, payload: payload, publisher: event.publisher))
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
