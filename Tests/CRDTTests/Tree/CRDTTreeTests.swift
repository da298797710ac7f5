import Testing
@testable import CRDT

@Suite("CRDTTree")
struct CRDTTreeTests {
  /// `<r><p>ab</p><p>cd</p></r>`.
  private func twoParagraphs() throws -> TreeReplica {
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p", children: [.text("ab")]), .element("p", children: [.text("cd")])])
    return replica
  }

  @Test("inserting elements and text grows the tree by Yorkie's index rules")
  func insertElementsAndText() throws {
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p")])
    #expect(replica.xml == "<r><p></p></r>")
    #expect(replica.tree.size == 2)
    try replica.edit(1, 1, [.text("hello")])
    #expect(replica.xml == "<r><p>hello</p></r>")
    #expect(replica.tree.size == 7)
    try replica.edit(7, 7, [.element("p", children: [.text("world")])])
    #expect(replica.xml == "<r><p>hello</p><p>world</p></r>")
    try replica.edit(6, 6, [.text("!")])
    #expect(replica.xml == "<r><p>hello!</p><p>world</p></r>")
    try replica.edit(1, 1, [.text("😀")])
    #expect(replica.tree.size == 17)
    #expect(replica.tree.treeJSON() == #"{"type":"r","children":[{"type":"p","children":[{"type":"text","value":"😀"},{"type":"text","value":"hello"},{"type":"text","value":"!"}]},{"type":"p","children":[{"type":"text","value":"world"}]}]}"#)
    try replica.tree.checkTreeInvariants()
  }

  @Test("inserting in the middle of a text splits it into pieces")
  func insertInsideText() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 2, [.text("X")])
    #expect(replica.xml == "<r><p>aXb</p><p>cd</p></r>")
    #expect(replica.tree.rootTreeNode() == .element("r", children: [
      .element("p", children: [.text("a"), .text("X"), .text("b")]), .element("p", children: [.text("cd")]),
    ]))
    try replica.tree.checkTreeInvariants()
  }

  @Test("deleting across paragraphs merges the rest of the second into the first")
  func deleteAcrossNodes() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 6)
    #expect(replica.xml == "<r><p>ad</p></r>")
    #expect(replica.tree.size == 4)
    try replica.tree.checkTreeInvariants()

    let merged = try twoParagraphs()
    try merged.edit(3, 5)
    #expect(merged.xml == "<r><p>abcd</p></r>")
    try merged.tree.checkTreeInvariants()
  }

  @Test("deleting whole elements and text")
  func deleteWhole() throws {
    let replica = try twoParagraphs()
    let result = try replica.edit(0, 4)
    #expect(replica.xml == "<r><p>cd</p></r>")
    #expect(result.gcPairs.count == 2)
    #expect(result.changes == [TreeChange(kind: .content, actor: replica.actor, from: 0, to: 4, fromPath: [0], toPath: [1], contents: nil)])
    try replica.edit(1, 3)
    #expect(replica.xml == "<r><p></p></r>")
    try replica.tree.checkTreeInvariants()
  }

  @Test("splitting at level 1 and level 2")
  func split() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 2, splitLevel: 1)
    #expect(replica.xml == "<r><p>a</p><p>b</p><p>cd</p></r>")
    try replica.tree.checkTreeInvariants()

    let deep = TreeReplica(actorNumber: 1)
    try deep.edit(0, 0, [.element("div", children: [.element("p", children: [.text("ab")])])])
    try deep.edit(3, 3, splitLevel: 2)
    #expect(deep.xml == "<r><div><p>a</p></div><div><p>b</p></div></r>")
    try deep.tree.checkTreeInvariants()

    let end = try twoParagraphs()
    try end.edit(3, 3, splitLevel: 1)
    #expect(end.xml == "<r><p>ab</p><p></p><p>cd</p></r>")
    let start = try twoParagraphs()
    try start.edit(1, 1, splitLevel: 1)
    #expect(start.xml == "<r><p></p><p>ab</p><p>cd</p></r>")
  }

  @Test("a split with text inserted at the split point")
  func splitAndInsert() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 2, [.text("X")], splitLevel: 1)
    #expect(replica.xml == "<r><p>aX</p><p>b</p><p>cd</p></r>")
    try replica.tree.checkTreeInvariants()
  }

  @Test("refused input changes nothing")
  func refusals() throws {
    let replica = try twoParagraphs()
    let before = replica.tree.toRecords()
    #expect(throws: YorkieError.self) { try replica.edit(0, 9) }
    #expect(throws: YorkieError.self) { try replica.edit(-1, 0) }
    #expect(throws: YorkieError.self) { try replica.edit(2, 2, splitLevel: 2) }
    #expect(throws: YorkieError.self) { try replica.edit(2, 2, splitLevel: -1) }
    #expect(throws: YorkieError.self) { try replica.edit(2, 2, [.text("")]) }
    #expect(throws: YorkieError.self) { try replica.tree.pathToIndex([3]) }
    #expect(throws: YorkieError.self) { try replica.tree.pathToIndex([]) }
    do {
      try replica.edit(5, 2)
      Issue.record("a reversed range was accepted")
    } catch {
      #expect(error.code == .invalidTreeRange)
    }
    do {
      try replica.edit(2, 2, splitLevel: 2)
    } catch {
      #expect(error.code == .invalidSplitLevel)
    }
    do {
      _ = try replica.tree.findPos(9)
    } catch {
      #expect(error.code == .indexOutOfBounds)
    }
    let unknown = CRDTTreePos(parentID: TreeNodeID(createdAt: TimeTicket(lamport: 99, delimiter: 0, actorID: replica.actor)),
                              leftSiblingID: TreeNodeID(createdAt: TimeTicket(lamport: 99, delimiter: 0, actorID: replica.actor)))
    do {
      _ = try replica.tree.edit(from: unknown, to: unknown, editedAt: replica.tick(), journal: replica.journal)
    } catch {
      #expect(error.code == .treeNodeNotFound)
    }
    #expect(replica.tree.toRecords() == before)
  }

  @Test("styles and removeStyle, in XML and JSON")
  func styles() throws {
    let replica = try twoParagraphs()
    let result = try replica.style(0, 1, ["bold": "true", "align": #""left""#])
    #expect(replica.xml == #"<r><p align="left" bold="true">ab</p><p>cd</p></r>"#)
    #expect(replica.tree.treeJSON() == #"{"type":"r","children":[{"type":"p","children":[{"type":"text","value":"ab"}],"attributes":{"align":"left","bold":true}},{"type":"p","children":[{"type":"text","value":"cd"}]}]}"#)
    #expect(result.changes.count == 1)
    #expect(result.changes.first?.from == 0)
    #expect(result.changes.first?.to == 1)
    #expect(result.changes.first?.attributes == ["bold": "true", "align": #""left""#])
    try replica.style(4, 5, ["img": #"{"src":"y.png"}"#])
    #expect(replica.xml == #"<r><p align="left" bold="true">ab</p><p img="{\"src\":\"y.png\"}">cd</p></r>"#)
    let removed = try replica.removeStyle(0, 1, ["bold", "align"])
    #expect(removed.gcPairs.count == 2)
    #expect(replica.xml == #"<r><p>ab</p><p img="{\"src\":\"y.png\"}">cd</p></r>"#)
    #expect(replica.tree.treeJSON().hasPrefix(#"{"type":"r","children":[{"type":"p","children":[{"type":"text","value":"ab"}]},"#))
    // Garbage collection of the attribute tombstones.
    for pair in removed.gcPairs {
      guard case .attribute(let node, let key, let removedAt) = pair else { Issue.record("not an attribute pair"); continue }
      #expect(replica.tree.purgeAttribute(of: node, key: key, removedAt: removedAt))
    }
    #expect(replica.tree.gcPairs().isEmpty)
  }

  @Test("JSON escapes as JSON.stringify, XML prints text verbatim")
  func escaping() throws {
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p", attributes: ["title": .string("a\"b\u{1}")], children: [.text("\"q\"\n\\ <&>\u{2028}")])])
    #expect(replica.tree.treeJSON() == #"{"type":"r","children":[{"type":"p","children":[{"type":"text","value":"\"q\"\n\\ <&>"# + "\u{2028}" + #""}],"attributes":{"title":"a\"b\u0001"}}]}"#)
    #expect(replica.xml == "<r><p title=\"a\"b\u{1}\">\"q\"\n\\ <&>\u{2028}</p></r>")
  }

  @Test("index, path and position conversions")
  func conversions() throws {
    let replica = try twoParagraphs()
    let tree = replica.tree
    #expect(try tree.indexToPath(0) == [0])
    #expect(try tree.indexToPath(1) == [0, 0])
    #expect(try tree.indexToPath(2) == [0, 1])
    #expect(try tree.indexToPath(3) == [0, 2])
    #expect(try tree.indexToPath(4) == [1])
    #expect(try tree.indexToPath(6) == [1, 1])
    #expect(try tree.indexToPath(8) == [2])
    for index in 0...8 { #expect(try tree.pathToIndex(try tree.indexToPath(index)) == index) }
    #expect(try tree.pathToIndex([1, 2]) == 7)
    let (from, to) = try tree.indexRangeToPosRange(2, 6)
    #expect(try tree.posRangeToIndexRange(from, to) == (2, 6))
    let paths = try tree.posRangeToPathRange(from, to)
    #expect(paths.0 == [0, 1] && paths.1 == [1, 1])
    let (pathFrom, pathTo) = try tree.pathRangeToPosRange([0, 1], [1, 1])
    #expect(pathFrom == from && pathTo == to)
    // A position survives a concurrent-looking insert before it.
    try replica.edit(1, 1, [.text("Z")])
    #expect(try tree.posRangeToIndexRange(from, to) == (3, 7))
  }

  @Test("garbage collection purges removed nodes and keeps split chains linked")
  func garbageCollection() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 2, [.text("X")])
    let result = try replica.edit(1, 3)
    #expect(replica.xml == "<r><p>b</p><p>cd</p></r>")
    let countBefore = replica.tree.nodeCount
    for pair in result.gcPairs {
      guard case .node(let node) = pair else { continue }
      #expect(replica.tree.purge(node))
    }
    #expect(replica.tree.nodeCount == countBefore - 2)
    try replica.tree.checkTreeInvariants()
    try replica.edit(2, 2, [.text("Y")])
    #expect(replica.xml == "<r><p>bY</p><p>cd</p></r>")
    try replica.tree.checkTreeInvariants()
  }

  @Test("records round-trip every node, tombstones and attributes included")
  func records() throws {
    let replica = try twoParagraphs()
    try replica.edit(2, 6)
    try replica.style(0, 1, ["k": "1"])
    let records = replica.tree.toRecords()
    let rebuilt = try CRDTTree(records: records, createdAt: .initial)
    #expect(rebuilt.toRecords() == records)
    #expect(rebuilt.toXML() == replica.xml)
    try rebuilt.checkTreeInvariants()
    #expect(throws: YorkieError.self) { try CRDTTree(records: [], createdAt: .initial) }
    var bad = records
    bad[0].depth = 5
    #expect(throws: YorkieError.self) { try CRDTTree(records: bad, createdAt: .initial) }
  }

  @Test("a rolled-back transaction leaves the tree exactly as it was")
  func rollback() throws {
    let replica = try twoParagraphs()
    try replica.style(0, 1, ["k": "1"])
    let before = replica.tree.toRecords()
    let journal = Journal()
    let tree = replica.tree
    _ = try tree.edit(2, 6, contents: [replica.node(.text("Q"))], editedAt: replica.tick(), journal: journal)
    _ = try tree.edit(2, 2, splitLevel: 1, editedAt: replica.tick(), splitTickets: [replica.tick()], journal: journal)
    let (from, to) = try tree.indexRangeToPosRange(0, 3)
    _ = try tree.style(from: from, to: to, attributes: ["k": "2"], editedAt: replica.tick(), journal: journal)
    #expect(tree.toRecords() != before)
    journal.rollBack(CRDTRoot())
    #expect(tree.toRecords() == before)
    try tree.checkTreeInvariants()
  }
}
