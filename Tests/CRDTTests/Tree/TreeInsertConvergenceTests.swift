@testable import CRDT
import Testing

/// Three documents inserting into one tree, with changes that depend on each other's authors:
/// the shape of the histories on which the tree replicas fuzz reported divergences (seeds 46838
/// and 31000). Those were the fuzz's exchange, not the tree: it delivered each author's whole
/// log as one batch, which a replica refuses whole while any change of it is not ready, so two
/// authors whose logs wait on each other's were never delivered to a third replica. Delivered
/// one change at a time, in any causal order, the replicas agree.
@Suite("Tree insert convergence")
struct TreeInsertConvergenceTests {
  /// The replicas and their changes: `a` made the tree and `a1` (concurrent with everything
  /// else), `c1` came first, `b1` saw `c1`, `c2` saw `b1`.
  private struct History {
    var a: Document
    var b: Document
    var c: Document
    var a1: Change
    var b1: Change
    var c1: Change
    var c2: Change
  }

  private static func edit(_ doc: Document, _ body: @escaping @Sendable (JSONTree) throws -> Void) async throws -> Change {
    try await doc.update { root, _ in
      guard let tree = root.tree("t") else { throw YorkieError(.elementNotFound, "no tree") }
      try body(tree)
    }
    return await doc.pendingChanges.last!
  }

  private static func xml(_ doc: Document) async throws -> String {
    try await doc.tree(atPath: "$.t")?.xml ?? ""
  }

  private static func history() async throws -> History {
    let docs = try await makeReplicas(3)
    let (a, b, c) = (docs[0], docs[1], docs[2])
    try await a.update { root, _ in
      _ = root.setNewTree("t", .element("doc", children: [.element("p", children: [.text("ab")]), .element("p", children: [.text("cd")])]))
    }
    let setup = await a.pendingChanges
    try await b.applyChanges(setup)
    try await c.applyChanges(setup)

    // c1: text at the end of the second paragraph.
    let c1 = try await edit(c) { try $0.edit(7, 7, [.text("xy")]) }
    #expect(try await xml(c) == "<doc><p>ab</p><p>cdxy</p></doc>")
    // b1, after c1: text inside c1's text (splitting it), then text under the root after the paragraphs.
    try await b.applyChanges([c1])
    let b1 = try await edit(b) { tree in
      try tree.edit(8, 8, [.text("q")])
      try tree.edit(11, 11, [.text("w")])
    }
    #expect(try await xml(b) == "<doc><p>ab</p><p>cdxqy</p>w</doc>")
    // c2, after b1: text under the root right before b1's, then a paragraph between the two first.
    try await c.applyChanges([b1])
    let c2 = try await edit(c) { tree in
      try tree.edit(11, 11, [.text("z")])
      try tree.editByPath([1], [1], [.element("p", children: [.text("n")])])
    }
    let cXML = try await xml(c)
    #expect(cXML == "<doc><p>ab</p><p>n</p><p>cdxqy</p>zw</doc>")
    // a1, concurrent with all of them: text under the root at the end, text inside "ab".
    let a1 = try await edit(a) { tree in
      try tree.edit(8, 8, [.text("v")])
      try tree.edit(2, 2, [.text("s")])
    }
    #expect(try await xml(a) == "<doc><p>asb</p><p>cd</p>v</doc>")
    return History(a: a, b: b, c: c, a1: a1, b1: b1, c1: c1, c2: c2)
  }

  /// What every replica shows with every change: b1's and c2's root texts are newer than a1's
  /// "v" at the same place, so they go before it (newest first, as RGA).
  private static let expected = "<doc><p>asb</p><p>n</p><p>cdxqy</p>zwv</doc>"

  @Test("one change at a time, in either causal order, the three replicas agree")
  func oneAtATime() async throws {
    let history = try await Self.history()
    // a: c1, b1, c2, one at a time.
    for change in [history.c1, history.b1, history.c2] { try await history.a.applyChanges([change]) }
    // b: a1 first, then c2; c: a1 last.
    try await history.b.applyChanges([history.a1])
    try await history.b.applyChanges([history.c2])
    try await history.c.applyChanges([history.a1])
    for doc in [history.a, history.b, history.c] {
      let docXML = try await Self.xml(doc)
      #expect(docXML == Self.expected)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await history.a.toJSON() == (await history.b.toJSON()))
    #expect(await history.b.toJSON() == (await history.c.toJSON()))
  }

  @Test("a replica receiving a1 between c1 and b1 agrees too")
  func interleaved() async throws {
    let history = try await Self.history()
    let late = try await makeReplicas(4)[3]
    try await late.applyChanges(await history.a.pendingChanges.dropLast())
    for change in [history.c1, history.a1, history.b1, history.c2] { try await late.applyChanges([change]) }
    let lateXML = try await Self.xml(late)
    #expect(lateXML == Self.expected)
    for change in [history.c1, history.b1, history.c2] { try await history.a.applyChanges([change]) }
    #expect(await late.toJSON() == (await history.a.toJSON()))
  }

  @Test("each author's whole log as one batch waits on the other's: both are refused, nothing changes")
  func wholeLogsDeadlock() async throws {
    let history = try await Self.history()
    let before = await history.a.toJSON()
    for batch in [[history.b1], [history.c1, history.c2]] {
      do {
        try await history.a.applyChanges(batch)
        Issue.record("a batch depending on a missing change was applied")
      } catch let error as YorkieError {
        #expect(error.code == .changeNotReady)
      }
    }
    #expect(await history.a.toJSON() == before)
  }

  // MARK: - The left edge of a text that follows an element

  // Yorkie's `findTreePos` puts an index between an element and a following text at the text's
  // offset 0, and its `fromTreePos` turns that into the text's own identity as the left
  // sibling, which every replica resolves to after the text (or, for a split piece, after the
  // piece before it, wherever that is): the edit landed one text further right.

  @Test("text inserted between an element and a text lands before the text")
  func insertBeforeTextAfterElement() throws {
    let replica = TreeReplica(actorNumber: 1)
    _ = try replica.edit(0, 0, [.element("p", children: [.text("ab")])])
    _ = try replica.edit(4, 4, [.text("w")])
    _ = try replica.edit(4, 4, [.text("z")])
    #expect(replica.xml == "<r><p>ab</p>zw</r>")
    try replica.tree.checkTreeInvariants()
  }

  @Test("deleting the first unit of a text after an element deletes it")
  func deleteFirstUnitAfterElement() throws {
    let replica = TreeReplica(actorNumber: 1)
    _ = try replica.edit(0, 0, [.element("p", children: [.text("ab")])])
    _ = try replica.edit(4, 4, [.text("wv")])
    _ = try replica.edit(4, 5)
    #expect(replica.xml == "<r><p>ab</p>v</r>")
  }

  @Test("deleting an element followed by a text keeps the text")
  func deleteElementBeforeText() throws {
    let replica = TreeReplica(actorNumber: 1)
    _ = try replica.edit(0, 0, [.element("p", children: [.text("ab")])])
    _ = try replica.edit(4, 4, [.text("w")])
    _ = try replica.edit(0, 4)
    #expect(replica.xml == "<r>w</r>")
  }

  @Test("text inserted right after an element that sits between two pieces of one text lands after the element")
  func insertAfterElementBetweenPieces() throws {
    let replica = TreeReplica(actorNumber: 1)
    _ = try replica.edit(0, 0, [.text("cd")])
    _ = try replica.edit(1, 1, [.element("p", children: [.text("n")])])
    #expect(replica.xml == "<r>c<p>n</p>d</r>")
    _ = try replica.edit(4, 4, [.text("z")])
    #expect(replica.xml == "<r>c<p>n</p>zd</r>")
    try replica.tree.checkTreeInvariants()
  }

  @Test("a remote replica places such an insert where its author did")
  func remoteInsertBeforeTextAfterElement() throws {
    let a = TreeReplica(actorNumber: 1)
    _ = try a.edit(0, 0, [.element("p", children: [.text("ab")])])
    _ = try a.edit(4, 4, [.text("w")])
    let b = TreeReplica(actorNumber: 2, copying: a)
    var seen = VersionVector()
    seen.set(a.actor, a.lamport)
    let fromA = try TreeEditMessage.make(on: a, 4, 4, [.text("z")], seen: seen)
    try fromA.apply(to: b)
    #expect(a.xml == "<r><p>ab</p>zw</r>")
    #expect(b.xml == a.xml)
  }
}
