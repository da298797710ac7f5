import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

@Suite("Client: online peers and presence through the Watch stream")
struct ClientPresenceTests {
  /// The events of `stream` that are about peers, described.
  static func peerEvents(_ recorder: EventRecorder<DocEvent>) -> [String] {
    recorder.recorded.compactMap { event in
      switch event {
      case .initialized, .watched, .unwatched, .presenceChanged: return event.description
      default: return nil
      }
    }
  }

  @Test("peers appear with their presence, change it, and leave on detach")
  func peersComeAndGo() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "presence-doc")
      let docB = Document(key: "presence-doc")
      let events = EventRecorder(await docA.events())
      try await a.attach(docA, initialPresence: ["name": "ann"])
      let annID = try #require(await a.id)
      #expect(await docA.myPresence == ["name": "ann"])
      try await b.attach(docB, initialPresence: ["name": "bob"])
      let bobID = try #require(await b.id)

      // B sees A at once (A is online when B's stream starts); A sees B come online.
      #expect(await docB.presence(of: annID) == ["name": "ann"])
      #expect(await eventually { await docA.presence(of: bobID) == ["name": "bob"] })
      #expect(await events.waitFor { $0 == .watched(PeerPresence(actorID: bobID, presence: ["name": "bob"])) })

      try await docB.update { _, presence in presence.set(["cursor": 3]) }
      let moved: [String: JSONValue] = ["name": "bob", "cursor": 3]
      #expect(await events.waitFor { $0 == .presenceChanged(PeerPresence(actorID: bobID, presence: moved)) })
      #expect(await docA.presences.map(\.actorID) == [annID, bobID])

      try await b.detach(docB)
      #expect(await events.waitFor { $0 == .unwatched(PeerPresence(actorID: bobID, presence: moved)) })
      #expect(await docA.presence(of: bobID) == nil)
      #expect(await docA.presences.map(\.actorID) == [annID])
      // Watched before unwatched, each once.
      let descriptions = Self.peerEvents(events).filter { $0.hasPrefix("watched") || $0.hasPrefix("unwatched") }
      #expect(descriptions.count == 2, "\(descriptions)")
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("the stream reports connection changes as client events")
  func connectionEvents() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let events = EventRecorder(a.events())
      let doc = Document(key: "connection-doc")
      try await a.attach(doc)
      #expect(await events.waitFor {
        if case .connectionChanged("connection-doc", .connected) = $0 { return true } else { return false }
      })
      try await a.changeSyncMode(doc, to: .manual)
      #expect(await events.waitFor {
        if case .connectionChanged("connection-doc", .disconnected) = $0 { return true } else { return false }
      })
      try await a.deactivate()
    }
  }
}

@Suite("Client: channels and broadcast")
struct ClientChannelTests {
  @Test("session counts follow attach and detach; broadcasts reach the others, not the sender")
  func channels() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let roomA = Channel(key: "room-1")
      let roomB = Channel(key: "room-1")
      let received = EventRecorder(roomB.broadcasts)
      let echoed = EventRecorder(roomA.broadcasts)
      try await a.attach(roomA)
      try await b.attach(roomB)
      #expect(await eventually {
        let (countA, countB) = (await roomA.sessionCount, await roomB.sessionCount)
        return countA == 2 && countB == 2
      })
      #expect(try await a.sessionCount(ofChannel: "room-1") == 2)

      try await a.broadcast(channel: "room-1", topic: "chat", payload: ["msg": "hi", "n": 1])
      let aID = try #require(await a.id)
      #expect(await received.waitFor { $0 == BroadcastMessage(topic: "chat", payload: ["msg": "hi", "n": 1], publisher: aID) })
      try await b.broadcast(channel: "room-1", topic: "ack", payload: "ok")
      #expect(await echoed.waitFor { $0.topic == "ack" })
      #expect(echoed.recorded.allSatisfy { $0.topic == "ack" }, "the sender got its own broadcast: \(echoed.recorded)")

      try await b.detach(roomB)
      #expect(await eventually { await roomA.sessionCount == 1 })
      #expect(await roomB.sessionCount == 0)
      do {
        try await b.detach(roomB)
        Issue.record("a second detach succeeded")
      } catch let error as YorkieError {
        #expect(error.code == .channelNotAttached)
      }
      try await a.deactivate()
      #expect(try await b.sessionCount(ofChannel: "room-1") == 0)
      try await b.deactivate()
    }
  }

  @Test("a broadcast sent as soon as a peer's attach returned reaches it; counts never go back")
  func attachWaitsForTheStream() async throws {
    try await withServer { url, _ in
      for round in 0..<5 {
        let key = "room-race-\(round)"
        let clients = [
          try await activatedClient(url, key: "a"), try await activatedClient(url, key: "b"),
          try await activatedClient(url, key: "c"),
        ]
        let rooms = clients.map { _ in Channel(key: key) }
        let counts = rooms.map { EventRecorder($0.sessionCounts) }
        let lastReceived = EventRecorder(rooms[2].broadcasts)
        for (client, room) in zip(clients, rooms) { try await client.attach(room) }
        try await clients[0].broadcast(channel: key, topic: "hello", payload: .integer(Int32(round)))
        #expect(await lastReceived.waitFor(timeout: 5) { $0.topic == "hello" }, "round \(round): the last attacher missed it")
        for (index, recorder) in counts.enumerated() {
          #expect(await recorder.waitFor { $0 == 3 }, "round \(round): client \(index) never saw 3")
          let seen = recorder.recorded
          #expect(seen == seen.sorted(), "round \(round): client \(index) saw the count go back: \(seen)")
        }
        for client in clients { try await client.deactivate() }
      }
    }
  }
}
