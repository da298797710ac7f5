import Foundation
import Testing
@testable import CRDT

/// `Presence.remove(_:)` and `Presence.clear()`: like `set`, each records a put of the whole
/// remaining presence, which peers apply as a replacement.
@Suite("Presence removal")
struct PresenceRemovalTests {
  /// Two attached replicas that see each other online.
  private func attachedPair() async -> (Document, Document) {
    let (a, b) = await makeReplicas()
    await a.setStatus(.attached)
    await b.setStatus(.attached)
    await a.setOnlineClients([actor(2)])
    await b.setOnlineClients([actor(1)])
    return (a, b)
  }

  /// The presence changes of `doc`'s pending changes, in order.
  private func presenceChanges(_ doc: Document) async -> [PresenceChange?] {
    await doc.pendingChanges.map(\.presenceChange)
  }

  @Test("remove drops keys and puts the rest; peers see the rest")
  func removeKeys() async throws {
    let (a, b) = await attachedPair()
    try await a.update { _, presence in presence.set(["name": "ann", "cursor": 3, "color": "red"]) }
    try await a.update { _, presence in presence.remove("cursor") }
    try await a.update { _, presence in presence.remove(["color", "absent"]) }
    #expect(await a.myPresence == ["name": "ann"])
    #expect(await presenceChanges(a) == [
      .put(["name": "ann", "cursor": 3, "color": "red"]),
      .put(["name": "ann", "color": "red"]),
      .put(["name": "ann"]),
    ])
    try await crossSync(a, b)
    #expect(await b.presence(of: actor(1)) == ["name": "ann"])
  }

  @Test("removing keys the presence lacks records nothing")
  func removeAbsentKeys() async throws {
    let (a, _) = await attachedPair()
    try await a.update { _, presence in presence.set(["name": "ann"]) }
    try await a.update { _, presence in presence.remove("cursor", "color") }
    try await a.update { _, presence in presence.remove([]) }
    #expect(await pendingChangeCount(a) == 1)
    #expect(await a.myPresence == ["name": "ann"])
  }

  @Test("set and remove in one update record one put of the final presence")
  func setThenRemove() async throws {
    let (a, _) = await attachedPair()
    let seen = try await a.update { _, presence -> [String: JSONValue] in
      presence.set(["name": "ann", "cursor": 1])
      presence.remove("cursor")
      presence.set(["color": "blue"])
      return presence.values
    }
    #expect(seen == ["name": "ann", "color": "blue"])
    #expect(await presenceChanges(a) == [.put(["name": "ann", "color": "blue"])])
  }

  @Test("clear puts an empty presence: the peer stays online, with nothing in it")
  func clearPresence() async throws {
    let (a, b) = await attachedPair()
    try await a.update { _, presence in presence.set(["name": "ann", "cursor": 3]) }
    try await crossSync(a, b)
    let events = await b.events()
    try await a.update { _, presence in presence.clear() }
    #expect(await a.myPresence == [:])
    #expect(await presenceChanges(a) == [.put([:])])
    try await crossSync(a, b)
    #expect(await b.presence(of: actor(1)) == [:])
    #expect(await b.onlineClients == [actor(1)])
    for await event in events {
      #expect(event == .presenceChanged(PeerPresence(actorID: actor(1), presence: [:])))
      break
    }
  }

  @Test("clearing an empty presence records nothing")
  func clearEmpty() async throws {
    let (a, _) = await attachedPair()
    try await a.update { _, presence in presence.clear() }
    #expect(await pendingChangeCount(a) == 0)
  }

  @Test("a local removal emits presenceChanged with the remaining presence while attached")
  func localEvent() async throws {
    let (a, _) = await attachedPair()
    try await a.update { _, presence in presence.set(["name": "ann", "cursor": 3]) }
    let events = await a.events()
    try await a.update { _, presence in presence.remove("name") }
    for await event in events {
      #expect(event == .presenceChanged(PeerPresence(actorID: actor(1), presence: ["cursor": 3])))
      #expect(event.description == #"presenceChanged(…000001 {"cursor":3})"#)
      break
    }
  }

  @Test("while detached, removals are recorded but myPresence shows [:]")
  func detached() async throws {
    let doc = Document(key: "d")
    try await doc.update { _, presence in presence.set(["name": "ann", "cursor": 3]) }
    try await doc.update { _, presence in presence.remove("cursor") }
    #expect(await doc.myPresence == [:])
    #expect(await presenceChanges(doc) == [.put(["name": "ann", "cursor": 3]), .put(["name": "ann"])])
    await doc.setStatus(.attached)
    #expect(await doc.myPresence == ["name": "ann"])
  }

  @Test("a presence used after its update returned reads nothing and changes nothing")
  func expiredPresence() async throws {
    let (a, _) = await attachedPair()
    let box = Captured<Presence>()
    try await a.update { _, presence in
      presence.set(["name": "ann"])
      box.value = presence
    }
    let stale = try #require(box.value)
    stale.remove("name")
    stale.clear()
    #expect(stale.values == [:])
    #expect(stale.get("name") == nil)
    #expect(await a.myPresence == ["name": "ann"])
    #expect(await pendingChangeCount(a) == 1)
  }
}
