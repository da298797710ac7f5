import Foundation
import Testing
import CRDT

/// `DocEvent.overwritten`: a remote change that replaces or removes an element holding edits of
/// this replica that its author had not seen tells this replica's app what was lost; nothing
/// is reported when the author had seen the edits, or to the replica whose edit won.
@Suite("Overwrite events", .timeLimit(.minutes(1)))
struct OverwriteEventTests {
  /// The events `body` causes on `doc`, up to a status change used as an end marker.
  private func events(of doc: Document, during body: () async throws -> Void) async throws -> [DocEvent] {
    let stream = await doc.events()
    try await body()
    await doc.setStatus(.attached)
    var received: [DocEvent] = []
    for await event in stream {
      if event == .statusChanged(.attached) { break }
      received.append(event)
    }
    await doc.setStatus(.detached)
    return received
  }

  private func overwrites(_ events: [DocEvent]) -> [OverwriteNotice] {
    events.compactMap { if case .overwritten(let notice) = $0 { notice } else { nil } }
  }

  @Test("two replicas creating the same text: the one whose creation lost is told what it typed")
  func concurrentTextCreation() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in try root.setNewText("note").edit(0, 0, "Hello from a") }
    try await b.update { root, _ in try root.setNewText("note").edit(0, 0, "Hi from b") }
    let fromA = try await a.changes(since: await b.versionVector)
    let fromB = try await b.changes(since: await a.versionVector)
    // Same lamport: the larger actor (b) wins the key.
    let onA = try await events(of: a) { try await a.applyChanges(fromB) }
    let onB = try await events(of: b) { try await b.applyChanges(fromA) }
    #expect(overwrites(onA) == [
      OverwriteNotice(path: "$.note", lostContent: [["val": "Hello from a"]], actorID: actor(2), operation: .set)
    ])
    #expect(overwrites(onB).isEmpty)
    // The notice follows the remote change that did it.
    #expect(onA.count == 2)
    if case .remoteChange = onA.first {} else { Issue.record("expected the remote change first, got \(onA)") }
    #expect(await a.toJSON() == #"{"note":[{"val":"Hi from b"}]}"#)
    #expect(await a.toJSON() == (await b.toJSON()))
  }

  @Test("typing into a text a peer removed without seeing it is reported; a removal that saw it is not")
  func removalOfAnEditedText() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in try root.setNewText("note").edit(0, 0, "draft") }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    // b removes the note having seen "draft"; a types more meanwhile.
    try await a.update { root, _ in try root.text("note")?.edit(5, 5, " two") }
    try await b.update { root, _ in root.remove("note") }
    let onA = try await events(of: a) { try await a.applyChanges(try await b.changes(since: await a.versionVector)) }
    #expect(overwrites(onA) == [
      OverwriteNotice(path: "$.note", lostContent: [["val": "draft"], ["val": " two"]], actorID: actor(2), operation: .remove)
    ])
    #expect(await a.toJSON() == "{}")

    // A removal made after seeing every edit reports nothing.
    let (c, d) = await makeReplicas()
    try await c.update { root, _ in try root.setNewText("note").edit(0, 0, "kept") }
    try await d.applyChanges(try await c.changes(since: await d.versionVector))
    try await d.update { root, _ in root.remove("note") }
    let onC = try await events(of: c) { try await c.applyChanges(try await d.changes(since: await c.versionVector)) }
    #expect(overwrites(onC).isEmpty)
    #expect(onC.count == 1)
  }

  @Test("a concurrent plain value that wins the key reports the value it replaced")
  func primitiveLastWriterWins() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in root["title"] = "from a" }
    try await b.update { root, _ in root["title"] = "from b" }
    let onA = try await events(of: a) { try await a.applyChanges(try await b.changes(since: await a.versionVector)) }
    #expect(overwrites(onA) == [OverwriteNotice(path: "$.title", lostContent: "from a", actorID: actor(2), operation: .set)])
    let onB = try await events(of: b) { try await b.applyChanges(try await a.changes(since: await b.versionVector)) }
    #expect(overwrites(onB).isEmpty)
  }

  @Test("an edit deep inside a replaced object is reported at the replaced object's path")
  func nestedEdit() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      let doc = root.setNewObject("doc")
      doc.setNewText("body")
      doc.setNewCounter("views", .int(0))
    }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { root, _ in
      try root.object("doc")?.text("body")?.edit(0, 0, "chapter one")
      root.object("doc")?.counter("views")?.increase(by: 2)
    }
    try await b.update { root, _ in root["doc"] = ["fresh": true] }
    let onA = try await events(of: a) { try await a.applyChanges(try await b.changes(since: await a.versionVector)) }
    #expect(overwrites(onA) == [
      OverwriteNotice(
        path: "$.doc", lostContent: ["body": [["val": "chapter one"]], "views": 2], actorID: actor(2), operation: .set)
    ])
    // Only the counter was edited: still reported (an increase is an edit too).
    let (c, d) = await makeReplicas()
    try await c.update { root, _ in _ = root.setNewObject("stats").setNewCounter("likes", .int(0)) }
    try await d.applyChanges(try await c.changes(since: await d.versionVector))
    try await c.update { root, _ in root.object("stats")?.counter("likes")?.increase(by: 1) }
    try await d.update { root, _ in root.remove("stats") }
    let onC = try await events(of: c) { try await c.applyChanges(try await d.changes(since: await c.versionVector)) }
    #expect(overwrites(onC).map(\.path) == ["$.stats"])
  }

  @Test("an array set over an element this replica edited is reported at the element's index")
  func arraySetOverEditedElement() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      let list = root.setNewArray("list")
      try list.append("first")
      list.appendNewObject()["done"] = false
    }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { root, _ in root.array("list")?.object(at: 1)?["done"] = true }
    try await b.update { root, _ in try root.array("list")?.set("replaced", at: 1) }
    let onA = try await events(of: a) { try await a.applyChanges(try await b.changes(since: await a.versionVector)) }
    #expect(overwrites(onA) == [
      OverwriteNotice(path: "$.list.1", lostContent: ["done": true], actorID: actor(2), operation: .arraySet)
    ])
    #expect(await a.toJSON() == #"{"list":["first","replaced"]}"#)
    #expect(await a.toJSON() == (await b.toJSON()))
  }

  @Test("edits of a sibling, or of an element the change does not take out, report nothing")
  func unrelatedEdits() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      root.setNewText("note")
      root["title"] = "t"
    }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { root, _ in try root.text("note")?.edit(0, 0, "typing") }
    try await b.update { root, _ in root["title"] = "new title" }
    let onA = try await events(of: a) { try await a.applyChanges(try await b.changes(since: await a.versionVector)) }
    #expect(overwrites(onA).isEmpty)
    #expect(await a.toJSON() == #"{"note":[{"val":"typing"}],"title":"new title"}"#)
  }

  @Test("events(at:) delivers the notice to paths at, below and above the lost element")
  func narrowedSubscriptions() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in _ = root.setNewObject("doc").setNewText("body") }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { root, _ in try root.object("doc")?.text("body")?.edit(0, 0, "x") }
    try await b.update { root, _ in root.remove("doc") }
    let atDoc = await a.events(at: "$.doc")
    let atBody = await a.events(at: "$.doc.body")
    let atOther = await a.events(at: "$.other")
    try await a.applyChanges(try await b.changes(since: await a.versionVector))
    // A local change at $.other ends each stream's expectations.
    try await a.update { root, _ in root.setNewObject("other")["k"] = 1 }
    let expected = OverwriteNotice(path: "$.doc", lostContent: ["body": [["val": "x"]]], actorID: actor(2), operation: .remove)
    // The removal's own operation is at "$", above the subscription: only the notice comes.
    let docEvents = await EventTests.take(1, from: atDoc)
    #expect(docEvents == [.overwritten(expected)])
    let bodyEvents = await EventTests.take(1, from: atBody)
    #expect(bodyEvents == [.overwritten(expected)])
    let otherEvents = await EventTests.take(1, from: atOther)
    if case .localChange = otherEvents.first {} else { Issue.record("expected only the local change at $.other, got \(otherEvents)") }
  }
}
