@testable import CRDT
import Foundation
import Testing

// Ticket-ordered application of tree operations (CRDTTree+Ordering.swift): replicas that
// received the same changes in different orders show the same tree; a late older change is
// described to listeners as the net difference; a refused pack leaves no trace of its rewinds;
// garbage collection forgets what every replica has seen and spares what may be undone.

@Suite("Tree operations in ticket order")
struct TreeOrderingTests {
  /// Three replicas of `<r><div><p>ef</p></div></r>` (made by the first).
  private func replicas() async throws -> [Document] {
    let docs = try await makeReplicas(3, key: "tree")
    try await docs[0].update { root, _ in
      _ = root.setNewTree("t", .element("r", children: [.element("div", children: [.element("p", children: [.text("ef")])])]))
    }
    let setup = await docs[0].pendingChanges
    for doc in docs.dropFirst() { try await doc.applyChanges(setup) }
    return docs
  }

  private func xml(_ doc: Document) async throws -> String { try await doc.tree(atPath: "$.t")?.xml ?? "" }

  /// The history a fuzz seed found (Yorkie's rules alone end in two trees): C splits the
  /// paragraph between e and f, then the div after it; B, not having seen them, splits the
  /// paragraph at the same place with a newer ticket.
  private func concurrentSplits(_ docs: [Document]) async throws -> (c: [Change], b: [Change]) {
    let (b, c) = (docs[1], docs[2])
    try await c.update { root, _ in try root.tree("t")?.edit(3, 3, splitLevel: 1) }   // <p>e</p><p>f</p>
    try await c.update { root, _ in try root.tree("t")?.edit(4, 4, splitLevel: 1) }   // the div after <p>e</p>
    try await b.update { root, _ in root["bump"] = 1 }                                 // newer tickets for b
    try await b.update { root, _ in root["bump"] = 2 }
    try await b.update { root, _ in try root.tree("t")?.edit(3, 3, splitLevel: 1) }
    return (await c.pendingChanges, await b.pendingChanges)
  }

  @Test("concurrent splits of one paragraph and of its div end in one tree, whatever the order")
  func concurrentSplitsConverge() async throws {
    let docs = try await replicas()
    let (fromC, fromB) = try await concurrentSplits(docs)
    #expect(fromC.map(\.id.lamport) == [3, 4])
    #expect(fromB.last!.id.lamport == 5)
    try await docs[0].applyChanges(fromC)  // in ticket order
    try await docs[0].applyChanges(fromB)
    try await docs[1].applyChanges(fromC)  // the older changes after the newer (rewinds)
    try await docs[2].applyChanges(fromB)
    let expected = "<r><div><p>e</p></div><div><p></p><p>f</p></div></r>"
    for doc in docs {
      #expect(try await xml(doc) == expected)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[1].toJSON() == (await docs[0].toJSON()))
  }

  @Test("an older change arriving after a newer one is described as the net change of the tree")
  func rewoundChangeEvent() async throws {
    let docs = try await replicas()
    let (fromC, _) = try await concurrentSplits(docs)
    let b = docs[1]
    #expect(try await xml(b) == "<r><div><p>e</p><p>f</p></div></r>")
    let events = await b.events()
    try await b.applyChanges([fromC[0]])
    // C's split is older than b's: b's is undone, C's applied, b's applied again. The tree went
    // from two paragraphs to three: one empty paragraph inserted after <p>e</p>.
    #expect(try await xml(b) == "<r><div><p>e</p><p></p><p>f</p></div></r>")
    let received = await EventTests.take(1, from: events)
    guard case .remoteChange(let change)? = received.first else {
      Issue.record("expected a remote change, got \(received)")
      return
    }
    #expect(change.operations.map(\.description) == [#"tree-edit $.t 4..<4 [0, 1]..<[0, 1] <p></p>"#])
  }

  @Test("a pack refused after a rewind leaves the tree, its order and its garbage as they were")
  func refusedPackAfterRewind() async throws {
    let docs = try await replicas()
    let (fromC, _) = try await concurrentSplits(docs)
    let b = docs[1]
    let before = (try await xml(b), await b.snapshot(), await b.toJSON())
    // C's first change, then a change of C's that names an element nobody has.
    var broken = fromC[1]
    broken.operations = [Operation.increase(parentCreatedAt: TimeTicket(lamport: 99, delimiter: 9, actorID: broken.id.actorID),
                                   value: .integer(1), executedAt: TimeTicket(lamport: 3, delimiter: 1, actorID: broken.id.actorID))]
    await #expect(throws: YorkieError.self) { try await b.applyChanges([fromC[0], broken]) }
    #expect(try await xml(b) == before.0)
    #expect(await b.snapshot() == before.1)
    #expect(await b.toJSON() == before.2)
    #expect(await b.checkInvariants() == nil)
    // And the real changes still apply afterwards, to the converged tree.
    try await b.applyChanges(fromC)
    #expect(try await xml(b) == "<r><div><p>e</p></div><div><p></p><p>f</p></div></r>")
  }

  @Test("garbage collection forgets the operations every replica has seen, then purges what they removed")
  func collectionForgetsStableOperations() async throws {
    let (a, b) = await makeReplicas(key: "tree")
    try await a.update { root, _ in _ = root.setNewTree("t", .element("r", children: [.element("p", children: [.text("abcd")])])) }
    try await b.applyChanges(await a.pendingChanges)
    try await a.update { root, _ in try root.tree("t")?.edit(2, 4) }  // removes "bc"
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(await b.debugTreeOrderLogCount("$.t") == 1)
    let vector = await b.versionVector
    let collected = await b.garbageCollect(minSyncedVersionVector: vector)
    #expect(collected == 1)
    #expect(await b.debugTreeOrderLogCount("$.t") == 0)
    #expect(try await xml(b) == "<r><p>ad</p></r>")
    #expect(await b.checkInvariants() == nil)
  }

  @Test("garbage collection spares the nodes an operation that may still be undone names")
  func collectionSparesPinnedNodes() async throws {
    let docs = try await replicas()
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(2, 4) }  // removes "ef"
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    // b splits the (now empty) paragraph: its operation stays in the log, since the vector
    // given does not cover it, and names the removed piece's parent.
    try await b.update { root, _ in try root.tree("t")?.edit(2, 2, splitLevel: 1) }
    let removal = await a.versionVector
    _ = await b.garbageCollect(minSyncedVersionVector: removal)
    #expect(await b.checkInvariants() == nil)
    #expect(try await xml(b) == "<r><div><p></p><p></p></div></r>")
    // The older concurrent change of c still rewinds b's split correctly.
    try await docs[2].update { root, _ in try root.tree("t")?.edit(1, 1, [.element("p", children: [.text("x")])]) }
    try await b.applyChanges(await docs[2].pendingChanges)
    try await a.applyChanges(try await b.changes(since: await a.versionVector))
    try await a.applyChanges(await docs[2].pendingChanges)
    #expect(try await xml(a) == (try await xml(b)))
    #expect(await b.checkInvariants() == nil)
  }

  @Test("deleting whole paragraphs and collecting them purges parents and children in one pass")
  func collectionPurgesChildrenFirst() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      _ = root.setNewTree("t", .element("r", children: (0..<12).map { _ in .element("p", children: [.element("b", children: [.text("xy")])]) }))
    }
    try await doc.update { root, _ in try root.tree("t")?.edit(0, 6 * 12) }
    #expect(try await xml(doc) == "<r></r>")
    // Parents and children are GC pairs of their own, in no particular order: a purged parent
    // detaches its children (a child purged after it read the freed parent and crashed).
    var passes = 0
    while await doc.garbageLength > 0 && passes < 5 {
      _ = await doc.garbageCollect(minSyncedVersionVector: await doc.versionVector)
      #expect(await doc.checkInvariants() == nil)
      passes += 1
    }
    #expect(await doc.garbageLength == 0)
    #expect(passes == 1)
  }
}
