import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import YorkieClient

/// Channels attached while the server is unreachable: through a ``FaultProxy`` that refuses
/// connections, then lets them through, in front of the in-process server.
@Suite("Client: channels attached while the server is unreachable", .timeLimit(.minutes(1)))
struct ChannelOfflineTests {
  /// Quick retries (at most 0.2 s apart), so that the attach gets through soon after the proxy
  /// opens.
  static func options(_ key: String, maxAttempts: Int? = nil) -> ClientOptions {
    ClientOptions(key: key, reconnect: ReconnectPolicy(base: 0.05, multiplier: 2, cap: 0.2, minimumDelay: 0.01, maxAttempts: maxAttempts))
  }

  /// Whether `event` is a retry of the channel `key`.
  static func isRetry(_ event: ClientEvent, of key: String) -> Bool {
    guard case .retrying(let notice) = event else { return false }
    return notice.resource == .channel(key) && notice.error.code == .unavailable
  }

  /// The code of the error `body` threw (recording an issue when it threw none, or not a
  /// `YorkieError`).
  static func code(_ body: () async throws -> Void) async -> YorkieError.Code? {
    do {
      try await body()
      Issue.record("no error")
    } catch let error as YorkieError {
      return error.code
    } catch {
      Issue.record("not a YorkieError: \(error)")
    }
    return nil
  }

  @Test("attach returns pending while unreachable; once the server answers it is counted, reported, and broadcasts get through")
  func attachedOnceReachable() async throws {
    try await withServer { url, _ in
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      let key = "offline-room"
      let a = try await activatedClient(proxyURL, key: "a", options: Self.options("a"))
      let events = EventRecorder(a.events())
      let b = try await activatedClient(url, key: "b")
      let roomB = Channel(key: key)
      let receivedByB = EventRecorder(roomB.broadcasts)
      try await b.attach(roomB)

      proxy.mode = .refuse
      proxy.resetAll()
      let room = Channel(key: key)
      let receivedByA = EventRecorder(room.broadcasts)
      try await a.attach(room)
      #expect(await room.status == .pending)
      #expect(await events.waitFor { Self.isRetry($0, of: key) })
      #expect(try await b.sessionCount(ofChannel: key) == 1)
      // A broadcast is not queued: it fails while the server is unreachable.
      #expect(await Self.code { try await a.broadcast(channel: key, topic: "early", payload: "x") } == .unavailable)

      proxy.mode = .pass
      #expect(await eventually { (try? await b.sessionCount(ofChannel: key)) == 2 })
      #expect(await events.waitFor {
        guard case .channelAttached(let attached) = $0 else { return false }
        return attached == key
      })
      #expect(await room.status == .attached)
      #expect(await room.sessionCount == 2)

      try await b.broadcast(channel: key, topic: "hello", payload: ["from": "b"])
      let bID = try #require(await b.id)
      #expect(await receivedByA.waitFor { $0 == BroadcastMessage(topic: "hello", payload: ["from": "b"], publisher: bID) })
      try await a.broadcast(channel: key, topic: "reply", payload: ["from": "a"])
      #expect(await receivedByB.waitFor { $0.topic == "reply" })
      #expect(receivedByB.recorded.map(\.topic) == ["reply"], "b got \(receivedByB.recorded)")

      try await a.detach(room)
      #expect(await room.status == .detached)
      #expect(try await b.sessionCount(ofChannel: key) == 1)
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("a pending channel: attached twice is channelAlreadyAttached; detached it ends locally; detached again is channelNotAttached")
  func pendingChannelRefusalsAndDetach() async throws {
    try await withServer { url, _ in
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      let key = "pending-room"
      let a = try await activatedClient(proxyURL, key: "a", options: Self.options("a"))
      let other = try await activatedClient(url, key: "other")
      let events = EventRecorder(a.events())
      proxy.mode = .refuse
      proxy.resetAll()
      let room = Channel(key: key)
      try await a.attach(room)
      #expect(await room.status == .pending)
      #expect(await events.waitFor { Self.isRetry($0, of: key) })

      // The same key again on this client, and this Channel object on another client.
      #expect(await Self.code { try await a.attach(Channel(key: key)) } == .channelAlreadyAttached)
      #expect(await Self.code { try await other.attach(room) } == .channelAlreadyAttached)
      #expect(await room.status == .pending)

      try await a.detach(room)
      #expect(await room.status == .detached)
      #expect(await Self.code { try await a.detach(room) } == .channelNotAttached)
      #expect(await Self.code { try await a.detach(Channel(key: "never-attached")) } == .channelNotAttached)

      // The retries ended with the detach: once the server is reachable again, a new attach
      // is the only session of this client (a leftover retry would make it 2).
      proxy.mode = .pass
      try await a.attach(room)
      #expect(await room.status == .attached)
      // Three times the policy's longest delay (0.2 s): a leftover retry would have got through.
      try await Task.sleep(nanoseconds: 600_000_000)
      #expect(try await other.sessionCount(ofChannel: key) == 1)
      try await a.deactivate()
      try await other.deactivate()
    }
  }

  @Test("a deferred attach that spends the policy's attempts stops: a stopped event, the channel detached and attachable again")
  func deferredAttachGivesUp() async throws {
    try await withServer { url, _ in
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      let key = "given-up-room"
      let a = try await activatedClient(proxyURL, key: "a", options: Self.options("a", maxAttempts: 2))
      let events = EventRecorder(a.events())
      proxy.mode = .refuse
      proxy.resetAll()
      let room = Channel(key: key)
      try await a.attach(room)
      #expect(await events.waitFor {
        guard case .stopped(let notice) = $0 else { return false }
        return notice.resource == .channel(key) && notice.error.code == .unavailable
      })
      #expect(events.recorded.filter { Self.isRetry($0, of: key) }.count == 1)
      #expect(await room.status == .detached)
      #expect(await Self.code { try await a.detach(room) } == .channelNotAttached)

      proxy.mode = .pass
      try await a.attach(room)
      #expect(await room.status == .attached)
      #expect(try await a.sessionCount(ofChannel: key) == 1)
      try await a.deactivate()
    }
  }
}
