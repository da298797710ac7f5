import Foundation
import Testing
import CRDT

/// Change events: what each operation reports, in which order, to whom.
@Suite("Events")
struct EventTests {
  /// Collects the next `count` events of a stream.
  static func take(_ count: Int, from stream: AsyncStream<DocEvent>) async -> [DocEvent] {
    var result: [DocEvent] = []
    for await event in stream {
      result.append(event)
      if result.count == count { break }
    }
    return result
  }

  @Test("a local update reports its operations with Yorkie's paths")
  func localPaths() async throws {
    let doc = Document(key: "events")
    let events = await doc.events()
    try await doc.update(message: "init") { root, _ in
      root["todos"] = ["a", "b"]
      try root.array("todos")?.append("c")
      root.setNewObject("meta")["owner"] = "me"
      root.setNewCounter("n", .int(0)).increase(by: 3)
    }
    try await doc.update { root, _ in
      try root.array("todos")?.move(from: 0, to: 2)
      try root.array("todos")?.remove(at: 0)
      root.object("meta")?.remove("owner")
      try root.array("todos")?.set("z", at: 0)
    }
    let received = await EventTests.take(2, from: events)
    guard case .localChange(let first) = received[0], case .localChange(let second) = received[1] else {
      Issue.record("expected two local changes, got \(received)")
      return
    }
    #expect(first.message == "init")
    #expect(first.operations == [
      OperationInfo(type: .set, path: "$", key: "todos"),
      OperationInfo(type: .add, path: "$.todos", index: 2),
      OperationInfo(type: .set, path: "$", key: "meta"),
      OperationInfo(type: .set, path: "$.meta", key: "owner"),
      OperationInfo(type: .set, path: "$", key: "n"),
      OperationInfo(type: .increase, path: "$.n", value: .integer(3)),
    ])
    #expect(second.operations == [
      OperationInfo(type: .move, path: "$.todos", index: 2, previousIndex: 0),
      OperationInfo(type: .remove, path: "$.todos", index: 0),
      OperationInfo(type: .remove, path: "$.meta", key: "owner"),
      OperationInfo(type: .arraySet, path: "$.todos"),
    ])
    #expect(await doc.toJSON() == #"{"todos":["z","a"],"meta":{},"n":3}"#)
  }

  @Test("remote changes arrive as one event per change, after the whole pack, in order")
  func remoteEvents() async throws {
    let docs = try await makeReplicas(2)
    try await docs[0].update(message: "first") { root, _ in root["list"] = [1] }
    try await docs[0].update(message: "second") { root, _ in try root.array("list")?.append(2) }
    let events = await docs[1].events()
    let pack = try await docs[0].createChangePack()
    try await docs[1].applyChangePack(ChangePack(key: "doc", checkpoint: .initial, changes: pack.changes))
    let received = await EventTests.take(2, from: events)
    #expect(received == [
      .remoteChange(ChangeEvent(actorID: await docs[0].actorID, message: "first",
                                operations: [OperationInfo(type: .set, path: "$", key: "list")], clientSeq: 1)),
      .remoteChange(ChangeEvent(actorID: await docs[0].actorID, message: "second",
                                operations: [OperationInfo(type: .add, path: "$.list", index: 1)], clientSeq: 2)),
    ])
    #expect(await docs[1].toJSON() == #"{"list":[1,2]}"#)
  }

  @Test("a path stream only sees operations at that path or below")
  func pathFilter() async throws {
    let doc = Document(key: "events")
    let todos = await doc.events(at: "$.todos")
    let all = await doc.events()
    try await doc.update { root, _ in
      root["todos"] = []
      root["other"] = 1
    }
    try await doc.update { root, _ in root["other"] = 2 }
    try await doc.update { root, _ in
      try root.array("todos")?.append(["title": "x"])
      root["other"] = 3
    }
    try await doc.update { root, _ in root.array("todos")?.object(at: 0)?["title"] = "y" }
    let filtered = await EventTests.take(2, from: todos)
    #expect(filtered == [
      .localChange(ChangeEvent(actorID: .initial, message: nil, operations: [OperationInfo(type: .add, path: "$.todos", index: 0)], clientSeq: 3)),
      .localChange(ChangeEvent(actorID: .initial, message: nil, operations: [OperationInfo(type: .set, path: "$.todos.0", key: "title")], clientSeq: 4)),
    ])
    #expect(await EventTests.take(4, from: all).count == 4)
  }

  @Test("no event for a no-op update or a rolled-back update")
  func silentUpdates() async throws {
    struct Stop: Error {}
    let doc = Document(key: "events")
    let events = await doc.events()
    try await doc.update { root, _ in root.remove("missing") }
    _ = try? await doc.update { root, _ in
      root["x"] = 1
      throw Stop()
    }
    try await doc.update { root, _ in root["y"] = 2 }
    let received = await EventTests.take(1, from: events)
    #expect(received == [.localChange(ChangeEvent(actorID: .initial, message: nil, operations: [OperationInfo(type: .set, path: "$", key: "y")], clientSeq: 1))])
    #expect(await doc.pendingChanges.count == 1)
  }

  @Test("each subscriber gets its own stream, and cancelling one leaves the others")
  func independentSubscribers() async throws {
    let doc = Document(key: "events")
    let first = await doc.events()
    let second = await doc.events()
    let task = Task { await EventTests.take(100, from: first) }
    task.cancel()
    _ = await task.value
    try await doc.update { root, _ in root["a"] = 1 }
    let received = await EventTests.take(1, from: second)
    #expect(received.count == 1)
  }
}

@Suite("Presence")
struct PresenceTests {
  @Test("presence.set records a PUT of the whole merged presence")
  func presenceChange() async throws {
    let docs = try await makeReplicas(2)
    try await docs[0].update { _, presence in presence.set(["name": "alice", "cursor": 0]) }
    try await docs[0].update { _, presence in presence.set(["cursor": 5]) }
    let changes = await docs[0].pendingChanges
    #expect(changes.count == 2)
    #expect(changes.allSatisfy { $0.isPresenceOnly })
    // A presence-only change keeps the Lamport clock and carries no version vector.
    #expect(changes[1].id.clientSeq == 2)
    #expect(changes[1].id.lamport == 0)
    #expect(changes[1].id.versionVector.isEmpty)
    // Detached documents show no presence, as in Yorkie.
    #expect(await docs[0].myPresence == [:])
    await docs[1].setOnlineClients([await docs[0].actorID])
    try await docs[1].applyChangePack(ChangePack(key: "doc", checkpoint: .initial, changes: changes))
    #expect(await docs[1].presence(of: await docs[0].actorID) == ["name": "alice", "cursor": 5])
  }

  @Test("a peer that is not online has no visible presence")
  func offlinePeers() async throws {
    let docs = try await makeReplicas(2)
    try await docs[0].update { root, presence in
      root["x"] = 1
      presence.set(["color": "red"])
    }
    try await docs[1].applyChangePack(ChangePack(key: "doc", checkpoint: .initial, changes: await docs[0].pendingChanges))
    #expect(await docs[1].presence(of: await docs[0].actorID) == nil)
    #expect(await docs[1].toJSON() == #"{"x":1}"#)
  }
}
