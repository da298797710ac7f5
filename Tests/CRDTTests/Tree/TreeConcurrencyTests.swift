import Testing
@testable import CRDT

/// Two replicas editing one tree concurrently and exchanging their edits.
@Suite("CRDTTree concurrency")
struct TreeConcurrencyTests {
  /// Two replicas holding `<r><p>ab</p></r>` made by replica 1, and the vector of that state.
  private func pair() throws -> (TreeReplica, TreeReplica, VersionVector) {
    let a = TreeReplica(actorNumber: 1)
    try a.edit(0, 0, [.element("p", children: [.text("ab")])])
    let b = TreeReplica(actorNumber: 2, copying: a)
    var seen = VersionVector()
    seen.set(a.actor, a.lamport)
    return (a, b, seen)
  }

  @Test("concurrent inserts at one place: the newer edit goes first on both")
  func concurrentInsertSamePlace() throws {
    let (a, b, seen) = try pair()
    let fromA = try TreeEditMessage.make(on: a, 2, 2, [.text("x")], seen: seen)
    b.lamport += 1  // b's edit is newer
    let fromB = try TreeEditMessage.make(on: b, 2, 2, [.text("y")], seen: seen)
    try fromB.apply(to: a)
    try fromA.apply(to: b)
    #expect(a.xml == "<r><p>ayxb</p></r>")
    #expect(b.xml == a.xml)
    try a.tree.checkTreeInvariants()
    try b.tree.checkTreeInvariants()
  }

  @Test("a delete does not remove text inserted concurrently inside the range")
  func concurrentDeleteAndInsert() throws {
    let (a, b, seen) = try pair()
    let fromA = try TreeEditMessage.make(on: a, 1, 3, seen: seen)
    let fromB = try TreeEditMessage.make(on: b, 2, 2, [.text("k")], seen: seen)
    try fromB.apply(to: a)
    try fromA.apply(to: b)
    #expect(a.xml == "<r><p>k</p></r>")
    #expect(b.xml == a.xml)
  }

  @Test("an insert into a paragraph deleted concurrently is tombstoned")
  func insertIntoRemovedParent() throws {
    let (a, b, seen) = try pair()
    let fromA = try TreeEditMessage.make(on: a, 0, 4, seen: seen)
    let fromB = try TreeEditMessage.make(on: b, 2, 2, [.text("k")], seen: seen)
    try fromB.apply(to: a)
    try fromA.apply(to: b)
    #expect(a.xml == "<r></r>")
    #expect(b.xml == a.xml)
    try b.tree.checkTreeInvariants()
  }

  @Test("concurrent styles converge on the newer value")
  func concurrentStyles() throws {
    let (a, b, seen) = try pair()
    let (from, to) = try a.tree.indexRangeToPosRange(0, 1)
    let aTicket = a.tick()
    _ = try a.tree.style(from: from, to: to, attributes: ["c": #""red""#], editedAt: aTicket, journal: a.journal)
    b.lamport += 1
    let bTicket = b.tick()
    _ = try b.tree.style(from: from, to: to, attributes: ["c": #""blue""#], editedAt: bTicket, journal: b.journal)
    var vector = seen
    vector.set(b.actor, b.lamport)
    _ = try a.tree.style(from: from, to: to, attributes: ["c": #""blue""#], editedAt: bTicket, versionVector: vector, journal: a.journal)
    vector.set(a.actor, a.lamport)
    _ = try b.tree.style(from: from, to: to, attributes: ["c": #""red""#], editedAt: aTicket, versionVector: vector, journal: b.journal)
    #expect(a.xml == #"<r><p c="blue">ab</p></r>"#)
    #expect(b.xml == a.xml)
  }

  @Test("a remote edit naming unknown nodes is refused whole")
  func unknownNodes() throws {
    let (a, b, seen) = try pair()
    try a.edit(3, 3, [.text("c")])
    let fromA = try TreeEditMessage.make(on: a, 3, 4, seen: seen)  // names the piece b lacks
    let before = b.tree.toRecords()
    do {
      try fromA.apply(to: b)
      Issue.record("an edit naming unknown nodes was applied")
    } catch let error as YorkieError {
      #expect(error.code == .treeNodeNotFound)
    }
    #expect(b.tree.toRecords() == before)
  }
}

@Suite("CRDTTree local text splits")
struct TreeLocalSplitTests {
  @Test("inserting inside a text piece that has a later sibling keeps both halves")
  func insertInsideTextWithSibling() throws {
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p", children: [.text("cd")])])
    try replica.edit(3, 3, [.text("z")])
    #expect(replica.xml == "<r><p>cdz</p></r>")
    try replica.edit(2, 2, [.text("y")])
    #expect(replica.xml == "<r><p>cydz</p></r>")
    try replica.tree.checkTreeInvariants()
  }
}
