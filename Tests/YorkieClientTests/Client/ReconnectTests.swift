import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Reconnection on an injected clock and random source: the delays are exactly the policy's
/// full-jitter draws, the app is told of each retry, a success resets the backoff, and a spent
/// policy stops with a notice.
@Suite("Client: reconnection with backoff and jitter")
struct ReconnectTests {
  /// The seed of the draws (`CRDT_SEED` overrides it).
  static let seed = UInt64(ProcessInfo.processInfo.environment["CRDT_SEED"].flatMap(UInt64.init) ?? 7)

  /// Options with the manual clock, the seeded random source and `policy`.
  static func options(_ clock: ManualClock, _ policy: ReconnectPolicy) -> ClientOptions {
    var options = ClientOptions(key: "reconnecting", reconnect: policy)
    options.environment = ClientEnvironment(clock: clock, random: SharedRandom(SeededRandom(seed: seed)))
    return options
  }

  /// The retries of the watch of `key` reported so far.
  static func watchRetries(_ events: EventRecorder<ClientEvent>, _ key: String) -> [RetryNotice] {
    events.recorded.compactMap { event in
      if case .retrying(let notice) = event, notice.resource == .documentWatch(key) { return notice }
      return nil
    }
  }

  @Test("a broken stream is retried after the policy's jittered delays; a success resets them")
  func watchBackoff() async throws {
    print("ReconnectTests seed \(Self.seed)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reconnect-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let policy = ReconnectPolicy(base: 0.1, multiplier: 2, cap: 0.5, minimumDelay: 0.01)
    var configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    let first = YorkieDevServer(configuration: configuration)
    let url = try first.start()
    configuration.port = url.port ?? 0
    let clock = ManualClock()
    let client = Client(url, options: Self.options(clock, policy))
    let events = EventRecorder(client.events())
    try await client.activate()
    let doc = Document(key: "reconnect-doc")
    // Sync-off: only the stream runs, so the stream alone draws from the random source.
    try await client.attach(doc, syncMode: .realtimeSyncOff)
    #expect(await events.waitFor { if case .connectionChanged(_, .connected) = $0 { return true } else { return false } })

    first.stop()
    var reference = ReconnectBackoff(policy: policy)
    var generator = SeededRandom(seed: Self.seed)
    for attempt in 1...4 {
      let next = reference.delayAfterFailure(using: &generator)
      let expected = try #require(next)
      #expect(await eventually { clock.waiting.count == 1 }, "seed \(Self.seed), attempt \(attempt)")
      #expect(clock.waiting == [expected], "seed \(Self.seed), attempt \(attempt)")
      #expect(expected >= policy.minimumDelay && expected <= policy.bound(afterFailures: attempt))
      // The notice went out before the sleep; the recorder may take a moment to see it.
      #expect(await eventually { Self.watchRetries(events, "reconnect-doc").count == attempt })
      let notices = Self.watchRetries(events, "reconnect-doc")
      #expect(notices.last?.attempt == attempt && notices.last?.delay == expected)
      clock.advance()
    }
    #expect(events.recorded.contains { if case .connectionChanged(_, .disconnected) = $0 { return true } else { return false } })

    // The server comes back with its data (after the fifth failure, so that no attempt is
    // under way): the stream reconnects on the next attempt.
    #expect(await eventually { clock.waiting.count == 1 })
    let second = YorkieDevServer(configuration: configuration)
    _ = try second.start()
    defer { second.stop() }
    clock.advance()
    let connections = {
      events.recorded.filter { if case .connectionChanged(_, .connected) = $0 { return true } else { return false } }.count
    }
    #expect(await eventually { connections() == 2 })
    // A new failure starts again from the first bound.
    second.stop()
    #expect(await eventually { clock.waiting.count == 1 }, "\(events.recorded)")
    #expect(await eventually { Self.watchRetries(events, "reconnect-doc").count == 6 })
    #expect(Self.watchRetries(events, "reconnect-doc").last?.attempt == 1)
    #expect(try #require(clock.waiting.first) <= policy.bound(afterFailures: 1))
    try? await client.deactivate()
  }

  @Test("a policy with maxAttempts stops after them and says so; nothing loops")
  func givesUp() async throws {
    let server = YorkieDevServer(configuration: .init())
    let url = try server.start()
    let clock = ManualClock()
    let client = Client(url, options: Self.options(clock, ReconnectPolicy(base: 0.1, maxAttempts: 3)))
    let events = EventRecorder(client.events())
    try await client.activate()
    let doc = Document(key: "give-up-doc")
    try await client.attach(doc, syncMode: .realtimeSyncOff)
    server.stop()
    for _ in 1...2 {
      #expect(await eventually { clock.waiting.count == 1 })
      clock.advance()
    }
    let stopped = await events.waitFor {
      if case .stopped(let notice) = $0 { return notice.resource == .documentWatch("give-up-doc") } else { return false }
    }
    #expect(stopped, "\(events.recorded)")
    #expect(clock.requested.count == 2, "\(clock.requested)")
    #expect(clock.waiting.isEmpty)
    try? await client.deactivate()
  }

  @Test("a failed push is retried after the delay, and the edit reaches the restarted server")
  func pushRetry() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("push-retry-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    let first = YorkieDevServer(configuration: configuration)
    let url = try first.start()
    configuration.port = url.port ?? 0
    let clock = ManualClock()
    let policy = ReconnectPolicy(base: 0.2, multiplier: 2, cap: 1, minimumDelay: 0.01)
    let client = Client(url, options: Self.options(clock, policy))
    let events = EventRecorder(client.events())
    try await client.activate()
    let doc = Document(key: "push-retry-doc")
    try await client.attach(doc, syncMode: .realtimePushOnly)
    first.stop()
    try await doc.update { root, _ in root["kept"] = true }
    let syncRetried = await events.waitFor {
      if case .retrying(let notice) = $0 { return notice.resource == .documentSync("push-retry-doc") } else { return false }
    }
    #expect(syncRetried)
    #expect(events.recorded.contains { if case .syncStatusChanged(_, .syncFailed) = $0 { return true } else { return false } })
    for delay in clock.requested { #expect(delay >= policy.minimumDelay && delay <= policy.cap) }
    let second = YorkieDevServer(configuration: configuration)
    _ = try second.start()
    defer { second.stop() }
    // Time passes until the push goes through (each advance ends the waiting retries).
    let acknowledged = await eventually {
      clock.advance()
      return await !doc.hasLocalChanges
    }
    #expect(acknowledged)
    #expect(try await serverJSON(second, "push-retry-doc") == #"{"kept":true}"#)
    try? await client.deactivate()
  }
}
