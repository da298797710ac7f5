import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Logging, housekeeping, limits and the older stream RPCs")
struct ServerHousekeepingTests {
  @Test("debug logs one line per request and connection events; secrets never appear; quiet by default")
  func logging() async throws {
    let lines = LockedBox<[String]>([])
    var configuration = YorkieDevServer.Configuration(logLevel: .debug, projects: [Project(name: "p", publicKey: "key-abc-123")])
    configuration.logSink = { line in lines.mutate { $0.append(line) } }
    try await withServer(configuration) { url, _ in
      let client = ConnectTestClient(url, headers: ["x-api-key": "key-abc-123", "authorization": "secret-token-xyz"])
      _ = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "k"), as: ActivateClientResponse.self)
      _ = try await client.call("ActivateClient", Array(#"{"clientKey":""}"#.utf8))
    }
    let log = lines.value
    #expect(log.contains { $0.contains("[debug] ActivateClient 200 in") })
    #expect(log.contains { $0.contains("[debug] ActivateClient 400 in") })
    #expect(log.contains { $0.contains("[info] connection") && $0.contains("opened") })
    #expect(log.contains { $0.contains("[info] connection") && $0.contains("closed after 1 request") })
    #expect(!log.contains { $0.contains("secret-token-xyz") || $0.contains("key-abc-123") })

    let quiet = LockedBox<[String]>([])
    var defaults = YorkieDevServer.Configuration()
    defaults.logSink = { line in quiet.mutate { $0.append(line) } }
    try await withServer(defaults) { url, _ in
      _ = try await ConnectTestClient(url).call("ActivateClient", ActivateClientRequest(clientKey: "k"), as: ActivateClientResponse.self)
    }
    #expect(quiet.value.isEmpty)
  }

  @Test("a client idle past the threshold is deactivated: its presence is cleared and watchers hear of it")
  func idleClients() async throws {
    let time = LockedBox(1000.0)
    var configuration = YorkieDevServer.Configuration()
    configuration.clientDeactivateThreshold = 60
    configuration.housekeepingInterval = 3600
    configuration.clock = { time.value }
    try await withServer(configuration) { url, server in
      let service = try #require(server.service)
      let idle = try await HTTPReplica(url: url, key: "doc-idle")
      try await idle.attach(presence: ["name": .string("idle")])
      let watcher = try await HTTPReplica(url: url, key: "doc-idle")
      try await watcher.attach()
      let stream = try await watcher.client.stream(
        "Watch", WatchRequest(clientID: watcher.clientID, resources: [.document(WireDocumentResource(documentID: watcher.documentID))]))
      _ = try await stream.nextJSON()
      time.mutate { $0 += 30 }
      try await watcher.sync()
      await service.housekeeping()
      #expect(service.state.withLock { $0.clients[ResourceID(hex: idle.clientID)!]?.isActive } == true, "30 s idle is within the threshold")
      // The watcher speaks at 1030 and 1061; the other has been silent since 1000.
      time.mutate { $0 += 31 }
      try await watcher.sync()
      await service.housekeeping()
      #expect(service.state.withLock { $0.clients[ResourceID(hex: idle.clientID)!]?.isActive } == false)
      #expect(service.state.withLock { $0.clients[ResourceID(hex: watcher.clientID)!]?.isActive } == true)
      // Its presence was cleared on its behalf, and the watcher heard that the document changed.
      guard case .documentEvent(let changed) = try WatchResponse(json: try #require(await stream.nextJSON()), path: "event") else {
        Issue.record("the watcher heard nothing")
        return
      }
      #expect(changed.event?.type == .documentChanged)
      #expect(changed.event?.publisher == idle.clientID)
      try await watcher.sync()
      await watcher.document.setOnline(try ActorID(hex: idle.clientID), true)
      #expect(await watcher.document.presence(of: try ActorID(hex: idle.clientID)) == nil)
      let refused = try await idle.client.call(
        "PushPullChanges",
        PushPullChangesRequest(clientID: idle.clientID, documentID: idle.documentID, changePack: WireChangePack(documentKey: "doc-idle", checkpoint: WireCheckpoint())).json.bytes)
      #expect(refused.errorCode == "ErrClientNotActivated")
      stream.close()
    }
  }

  @Test("a project's attachment and subscriber limits answer resource_exhausted")
  func limits() async throws {
    let project = Project(name: "small", publicKey: "small", maxSubscribersPerDocument: 1, maxAttachmentsPerDocument: 1)
    try await withServer(YorkieDevServer.Configuration(projects: [project])) { url, _ in
      let a = try await HTTPReplica(url: url, key: "doc-limits", headers: ["x-api-key": "small"])
      try await a.attach()
      let b = try await HTTPReplica(url: url, key: "doc-limits", headers: ["x-api-key": "small"])
      let second = try await b.client.call(
        "AttachDocument", AttachDocumentRequest(clientID: b.clientID, changePack: WireChangePack(documentKey: "doc-limits", checkpoint: WireCheckpoint())).json.bytes)
      #expect(second.status == 429)
      #expect(second.errorCode == "")
      let first = try await a.client.stream(
        "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))]))
      _ = try await first.nextJSON()
      let extra = try await a.client.stream(
        "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))]))
      #expect(try #require(await extra.next()).decodeEndOfStream().error?.yorkieCode == "ErrTooManySubscribers")
      first.close()
    }
  }

  @Test("WatchChannel, the older channel stream, opens with its count and carries broadcasts")
  func watchChannel() async throws {
    try await withServer { url, _ in
      let client = ConnectTestClient(url)
      let a = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "a"), as: ActivateClientResponse.self).clientID
      let b = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "b"), as: ActivateClientResponse.self).clientID
      _ = try await client.call("AttachChannel", AttachChannelRequest(clientID: a, channelKey: "room"), as: AttachChannelResponse.self)
      let stream = try await client.stream("WatchChannel", WatchChannelRequest(clientID: a, channelKey: "room"))
      guard case .initialized(let initialized) = try WatchChannelResponse(json: try #require(await stream.nextJSON()), path: "init") else {
        Issue.record("WatchChannel did not open with its count")
        return
      }
      #expect(initialized.sessionCount == 1)
      _ = try await client.call("Broadcast", BroadcastRequest(clientID: b, channelKey: "room", topic: "t", payload: Data("1".utf8)), as: BroadcastResponse.self)
      guard case .event(let event) = try WatchChannelResponse(json: try #require(await stream.nextJSON()), path: "event") else {
        Issue.record("no broadcast on WatchChannel")
        return
      }
      #expect(event.type == .broadcast)
      #expect(event.publisher == b)
      stream.close()
    }
  }
}
