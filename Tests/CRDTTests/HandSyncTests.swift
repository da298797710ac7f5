import Foundation
import Testing
@testable import CRDT

/// Replicas that sync without a server, through the transport API of `Document`: changes since
/// a version vector, idempotent and causal application, explicit acknowledgement.
@Suite("Sync by hand")
struct HandSyncTests {
  private func replica(_ n: Int) async throws -> Document {
    let doc = Document(key: "notes")
    try await doc.setActor(actor(n))
    return doc
  }

  @Test("applying the same changes twice changes nothing the second time")
  func duplicatesAreSkipped() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { root, _ in
      root["title"] = "list"
      try root.setNewArray("todos").append("milk")
    }
    let pack = try await a.createChangePack()
    try await b.applyChangePack(pack)
    try await b.applyChangePack(pack)
    try await b.applyChanges(pack.changes)
    #expect(await b.toJSON() == #"{"title":"list","todos":["milk"]}"#)
    #expect(await b.checkInvariants() == nil)
    // The author itself skips its own changes coming back.
    try await a.applyChanges(pack.changes)
    #expect(await a.toJSON() == #"{"title":"list","todos":["milk"]}"#)
    #expect(await a.pendingChanges.count == 1)
  }

  @Test("a server's answer applied twice does not duplicate keys either")
  func duplicateResponse() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { root, _ in root["k"] = 1 }
    let response = ChangePack(key: "notes", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: try await a.createChangePack().changes)
    try await b.applyChangePack(response)
    try await b.applyChangePack(response)
    #expect(await b.toJSON() == #"{"k":1}"#)
  }

  @Test("a peer's pack acknowledges none of the receiver's changes")
  func peerPackIsNoAcknowledgement() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { root, _ in root["a"] = 1 }
    try await b.update { root, _ in root["b"] = 1 }
    try await b.update { root, _ in root["b2"] = 2 }
    let fromB = try await b.createChangePack()
    #expect(fromB.role == .request)
    #expect(fromB.checkpoint.clientSeq == 2)
    try await a.applyChangePack(fromB)
    // a's own edit is still pending and still reaches b.
    #expect(await a.pendingChanges.count == 1)
    try await b.applyChangePack(try await a.createChangePack())
    #expect(await a.toSortedJSON() == #"{"a":1,"b":1,"b2":2}"#)
    #expect(await b.toSortedJSON() == #"{"a":1,"b":1,"b2":2}"#)
  }

  @Test("a replica that never set its actor cannot exchange changes")
  func initialActorIsRefused() async throws {
    let a = Document(key: "notes")
    try await a.update { root, _ in root["title"] = "list" }
    await #expect(throws: YorkieError.self) { try await a.createChangePack() }
    do {
      _ = try await a.changes(since: VersionVector())
      Issue.record("changes(since:) answered for the initial actor")
    } catch let error as YorkieError {
      #expect(error.code == .actorNotSet)
    }
    // A change made as the initial actor (smuggled through pendingChanges) is refused.
    let b = try await replica(2)
    let smuggled = await a.pendingChanges
    do {
      try await b.applyChanges(smuggled)
      Issue.record("a change of the initial actor was applied")
    } catch let error as YorkieError {
      #expect(error.code == .actorConflict)
    }
    #expect(await b.toJSON() == "{}")
    // Setting an actor re-issues the pending change, which then travels.
    try await a.setActor(actor(1))
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(await b.toJSON() == #"{"title":"list"}"#)
  }

  @Test("a change under this replica's actor that it did not make is refused")
  func sharedActorIsRefused() async throws {
    let a = try await replica(1)
    let twin = try await replica(1)
    try await twin.update { root, _ in root["x"] = 1 }
    try await twin.update { root, _ in root["y"] = 2 }
    try await a.update { root, _ in root["a"] = 0 }
    do {
      try await a.applyChanges(try await twin.changes(since: VersionVector()))
      Issue.record("a twin's change was applied")
    } catch let error as YorkieError {
      #expect(error.code == .actorConflict)
      #expect(error.message.contains("two replicas share the actor"))
    }
    #expect(await a.toJSON() == #"{"a":0}"#)
  }

  @Test("changes out of causal order are refused and change nothing; in order they apply")
  func causalOrder() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    let c = try await replica(3)
    try await a.update { root, _ in root["list"] = ["x"] as JSONValue }
    try await a.update { root, _ in root["n"] = 1 }
    let fromA = try await a.changes(since: VersionVector())
    // The author's second change before its first.
    do {
      try await c.applyChanges([fromA[1]])
      Issue.record("a change was applied before its author's earlier change")
    } catch let error as YorkieError {
      #expect(error.code == .changeNotReady)
    }
    // b builds on a's changes; c gets b's change first.
    try await b.applyChanges(fromA)
    try await b.update { root, _ in root["n"] = 2 }
    let fromB = try await b.changes(since: await c.versionVector)
    try await c.applyChanges([fromA[0]])
    let before = await c.snapshot()
    do {
      try await c.applyChanges(fromB)
      Issue.record("b's change was applied before the change of a it had seen")
    } catch let error as YorkieError {
      #expect(error.code == .changeNotReady)
    }
    #expect(await c.snapshot() == before)
    try await c.applyChanges([fromA[1]] + fromB)
    #expect(await c.toJSON() == #"{"list":["x"],"n":2}"#)
    #expect(await c.toJSON() == (await b.toJSON()))
  }

  @Test("acknowledgement is explicit and bounded by what the replica made")
  func acknowledgement() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { root, _ in root["one"] = 1 }
    try await a.update { _, presence in presence.set(["cursor": 3]) }
    try await a.update { root, _ in root["two"] = 2 }
    #expect(await a.pendingChanges.map(\.id.clientSeq) == [1, 2, 3])
    do {
      try await a.acknowledgeChanges(through: 4)
      Issue.record("an acknowledgement past the last change was accepted")
    } catch let error as YorkieError {
      #expect(error.code == .invalidArgument)
    }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    // b has seen the change at lamport 2: only a's presence-only change of the same lamport
    // could still be missing, and none is.
    #expect(try await a.changes(since: await b.versionVector).map(\.id.clientSeq) == [])
    try await a.acknowledgeChanges(through: 2)
    #expect(await a.pendingChanges.map(\.id.clientSeq) == [3])
    try await a.acknowledgeChanges(through: 3)
    #expect(await a.pendingChanges.isEmpty)
    #expect(await a.hasLocalChanges == false)
  }

  @Test("changes(since:) sends a presence-only change made after the peer's last known change")
  func presenceOnlyChangesAreSent() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { root, _ in root["one"] = 1 }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { _, presence in presence.set(["cursor": 3]) }
    #expect(try await a.changes(since: await b.versionVector).map(\.id.clientSeq) == [2])
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    await b.setOnlineClients([actor(1)])
    #expect(await b.presence(of: actor(1)) == ["cursor": 3])
    // A presence change applied again, after a newer one, does not bring the old value back.
    let old = try await a.changes(since: VersionVector())
    try await a.update { _, presence in presence.set(["cursor": 4]) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await b.applyChanges(old)
    #expect(await b.presence(of: actor(1)) == ["cursor": 4])
  }

  @Test("setActor re-issues pending changes once, and refuses what it cannot rename")
  func setActorRules() async throws {
    let a = Document(key: "notes")
    try await a.update { root, _ in root["k"] = 1 }
    try await a.setActor(actor(1))
    #expect(await a.pendingChanges.first?.id.actorID == actor(1))
    do {
      try await a.setActor(actor(2))
      Issue.record("a replica with pending changes took another actor")
    } catch let error as YorkieError {
      #expect(error.code == .actorNotSet)
    }
    #expect(await a.actorID == actor(1))
    // Not even once its changes are acknowledged: peers know them by actor and sequence.
    try await a.acknowledgeChanges(through: 1)
    await #expect(throws: YorkieError.self) { try await a.setActor(actor(2)) }
    #expect(await a.actorID == actor(1))
    await #expect(throws: YorkieError.self) { try await a.setActor(.initial) }
    // A replica that has exchanged nothing may still change its mind.
    let b = try await replica(5)
    try await b.setActor(actor(6))
    #expect(await b.actorID == actor(6))

    // A replica that took remote changes as the initial actor cannot re-issue local ones.
    let source = try await replica(3)
    try await source.update { root, _ in root["remote"] = true }
    let fresh = Document(key: "notes")
    try await fresh.applyChanges(try await source.changes(since: VersionVector()))
    try await fresh.update { root, _ in root["local"] = true }
    await #expect(throws: YorkieError.self) { try await fresh.setActor(actor(4)) }
    #expect(await fresh.toJSON() == #"{"remote":true,"local":true}"#)
    #expect(await fresh.actorID == .initial)
  }

  @Test("status and online peers can be set by a transport of the app's own")
  func statusAndPeers() async throws {
    let a = try await replica(1)
    let b = try await replica(2)
    try await a.update { _, presence in presence.set(["name": "Ann"]) }
    #expect(await a.myPresence == [:])
    await a.setStatus(.attached)
    #expect(await a.myPresence == ["name": "Ann"])
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(await b.presence(of: actor(1)) == nil)
    await b.setOnline(actor(1), true)
    #expect(await b.presence(of: actor(1)) == ["name": "Ann"])
    await b.setOnline(actor(1), false)
    #expect(await b.presence(of: actor(1)) == nil)
    await b.setOnlineClients([actor(1)])
    await b.setStatus(.attached)
    #expect(await b.presences.map(\.actorID) == [actor(2), actor(1)])
  }

  @Test("random actor IDs come from the given generator and are never the initial actor")
  func randomActors() throws {
    var first = SeededRandom(seed: 7)
    var second = SeededRandom(seed: 7)
    let a = (0..<5).map { _ in ActorID.random(using: &first) }
    let b = (0..<5).map { _ in ActorID.random(using: &second) }
    #expect(a == b)
    #expect(Set(a).count == 5)
    #expect(!a.contains(.initial))
    #expect(ActorID.random() != ActorID.random())
    #expect(try ActorID(bytes: a[0].bytes) == a[0])
    #expect(try ActorID(hex: a[0].hex) == a[0])
    // The bytes are big-endian, and a slice of a larger Data reads from its own start.
    let known = try ActorID(hex: "0102030405060708090a0bfc")
    #expect(Array(known.bytes) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xFC])
    #expect(try ActorID(bytes: Data([0xEE, 0xEE] + Array(known.bytes)).dropFirst(2)) == known)
    #expect(throws: YorkieError.self) { try ActorID(bytes: Data(known.bytes.dropLast())) }
  }
}

@Test("a presence value JSON cannot carry fails the update and changes nothing")
func presenceRejectsNonJSONNumbers() async throws {
  let doc = Document(key: "p")
  try await doc.setActor(actor(1))
  await doc.setStatus(.attached)
  try await doc.update { _, presence in presence.set(["cursor": 1]) }
  for bad: JSONValue in [.double(.nan), .double(.infinity), ["nested": .double(-.infinity)]] {
    do {
      try await doc.update { _, presence in presence.set(["cursor": 2, "bad": bad]) }
      Issue.record("presence accepted \(bad)")
    } catch let error as YorkieError {
      #expect(error.code == .invalidNumber)
      #expect(error.message.hasPrefix(#"presence key "bad""#))
    }
  }
  #expect(await doc.myPresence == ["cursor": 1])
  #expect(await doc.pendingChanges.count == 1)
}
