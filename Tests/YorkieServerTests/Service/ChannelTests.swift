import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Channels and broadcast")
struct ChannelTests {
  /// The channel event of a `WatchResponse` JSON.
  static func channelEvent(_ json: WireJSON?) throws -> WireChannelEvent? {
    guard let json else { return nil }
    guard case .channelEvent(let event) = try WatchResponse(json: json, path: "response") else { return nil }
    return event.event
  }

  @Test("sessions count with increasing seqs; broadcasts skip the publisher; detach twice is not found")
  func sessionsAndBroadcast() async throws {
    try await withServer { url, _ in
      let client = ConnectTestClient(url)
      let a = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "a"), as: ActivateClientResponse.self).clientID
      let b = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "b"), as: ActivateClientResponse.self).clientID
      let key = "room.lobby"
      let sessionA = try await client.call(
        "AttachChannel", AttachChannelRequest(clientID: a, channelKey: key), as: AttachChannelResponse.self)
      #expect(sessionA.sessionCount == 1)
      let watchA = try await client.stream("Watch", WatchRequest(clientID: a, resources: [.channel(WireChannelResource(channelKey: key))]))
      guard case .initialization(let inits) = try WatchResponse(json: try #require(await watchA.nextJSON()), path: "init"),
        case .channel(let channelInit) = inits.first
      else {
        Issue.record("no channel initialization")
        return
      }
      #expect(channelInit.sessionCount == 1)

      let sessionB = try await client.call(
        "AttachChannel", AttachChannelRequest(clientID: b, channelKey: key), as: AttachChannelResponse.self)
      #expect(sessionB.sessionCount == 2)
      let again = try await client.call(
        "AttachChannel", AttachChannelRequest(clientID: b, channelKey: key), as: AttachChannelResponse.self)
      #expect(again.sessionID == sessionB.sessionID)
      let presence = try Self.channelEvent(await watchA.nextJSON())
      #expect(presence?.type == .presence)
      #expect(presence?.sessionCount == 2)
      #expect(presence?.seq == 2)

      let peek = try await client.call("PeekChannel", PeekChannelRequest(channelKey: key), as: PeekChannelResponse.self)
      #expect(peek.sessionCount == 2)

      // a's own broadcast does not come back to a; b's does.
      _ = try await client.call(
        "Broadcast", BroadcastRequest(clientID: a, channelKey: key, topic: "self", payload: Data("1".utf8)), as: BroadcastResponse.self)
      _ = try await client.call(
        "Broadcast", BroadcastRequest(clientID: b, channelKey: key, topic: "chat", payload: Data(#"{"t":"hi"}"#.utf8)), as: BroadcastResponse.self)
      let broadcast = try Self.channelEvent(await watchA.nextJSON())
      #expect(broadcast?.type == .broadcast)
      #expect(broadcast?.publisher == b)
      #expect(broadcast?.topic == "chat")
      #expect(broadcast?.payload == Data(#"{"t":"hi"}"#.utf8))

      let detached = try await client.call(
        "DetachChannel", DetachChannelRequest(clientID: b, channelKey: key, sessionID: sessionB.sessionID), as: DetachChannelResponse.self)
      #expect(detached.sessionCount == 1)
      let lower = try Self.channelEvent(await watchA.nextJSON())
      #expect(lower?.sessionCount == 1)
      #expect(lower?.seq == 3)
      let twice = try await client.call(
        "DetachChannel", DetachChannelRequest(clientID: b, channelKey: key, sessionID: sessionB.sessionID).json.bytes)
      #expect(twice.status == 404)
      #expect(twice.errorCode == "ErrSessionNotFound")
      watchA.close()
    }
  }

  @Test("RefreshChannel's first call activates and attaches; a session not refreshed expires")
  func refreshAndExpiry() async throws {
    var configuration = YorkieDevServer.Configuration()
    configuration.channelSessionTTL = 0.3
    configuration.housekeepingInterval = 0.1
    try await withServer(configuration) { url, _ in
      let client = ConnectTestClient(url)
      let watcher = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "w"), as: ActivateClientResponse.self).clientID
      let watch = try await client.stream("Watch", WatchRequest(clientID: watcher, resources: [.channel(WireChannelResource(channelKey: "room"))]))
      _ = try await watch.nextJSON()
      let first = try await client.call(
        "RefreshChannel", RefreshChannelRequest(channelKey: "room", clientKey: "first"), as: RefreshChannelResponse.self)
      #expect(first.sessionCount == 1)
      #expect(ResourceID(hex: first.clientID) != nil)
      #expect(ResourceID(hex: first.sessionID) != nil)
      let attached = try Self.channelEvent(await watch.nextJSON())
      #expect(attached?.sessionCount == 1)
      // No heartbeat: the session expires within TTL + one housekeeping round.
      let expired = try Self.channelEvent(await watch.nextJSON())
      #expect(expired?.type == .presence)
      #expect(expired?.sessionCount == 0)
      #expect((expired?.seq ?? 0) > (attached?.seq ?? 0))
      let peek = try await client.call("PeekChannel", PeekChannelRequest(channelKey: "room"), as: PeekChannelResponse.self)
      #expect(peek.sessionCount == 0)
      let late = try await client.call(
        "RefreshChannel", RefreshChannelRequest(clientID: first.clientID, channelKey: "room", sessionID: first.sessionID).json.bytes)
      #expect(late.errorCode == "ErrSessionNotFound")
      watch.close()
    }
  }
}
