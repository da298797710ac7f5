import CRDT
import Foundation
import Testing

// Indexes, paths and positions: the conversions of a JSONTree, positions that survive a
// concurrent edit made on a second Document synced by hand, TreePosition's JSON (the JS SDK's
// CRDTTreePosStruct) and a selection carried in presence.

@Suite("JSONTree: indexes, paths and positions")
struct JSONTreePositionTests {
  private let twoParagraphs: TreeNode = .element("doc", children: [
    .element("p", children: [.text("ab")]), .element("p", children: [.text("cd")]),
  ])

  /// Sends what `to` lacks (as the README's "Sync by hand").
  private func send(from: Document, to: Document) async throws {
    try await to.applyChanges(try await from.changes(since: await to.versionVector))
  }

  /// Two attached replicas (actors 1 and 2) that both hold `root` at `$.t` and see each other.
  private func twoReplicas(_ root: TreeNode) async throws -> (Document, Document) {
    let (a, b) = await makeReplicas(key: "tree")
    for doc in [a, b] { await doc.setStatus(.attached) }
    await a.setOnlineClients([actor(2)])
    await b.setOnlineClients([actor(1)])
    try await a.update { root0, _ in _ = root0.setNewTree("t", root) }
    try await send(from: a, to: b)
    return (a, b)
  }

  @Test("indexToPath and pathToIndex agree on every index, as Yorkie numbers them")
  func indexesAndPaths() async throws {
    let doc = try await treeDocument(twoParagraphs)
    let (paths, indexes) = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      let paths = try (0...8).map { try tree.indexToPath($0) }
      return (paths, try paths.map { try tree.pathToIndex($0) })
    }
    #expect(paths == [[0], [0, 0], [0, 1], [0, 2], [1], [1, 0], [1, 1], [1, 2], [2]])
    #expect(indexes == Array(0...8))
  }

  @Test("deeper paths: an element's children, then a text offset")
  func deepPaths() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("tc", children: [.element("p", children: [.element("tn", children: [.text("ab")])]), .element("p")]),
    ]))
    let results = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      return [try tree.pathToIndex([0, 0, 0, 1]), try tree.pathToIndex([0, 1]), try tree.pathToIndex([0, 1, 0]), try tree.pathToIndex([1])]
    }
    #expect(results == [4, 7, 8, 10])
  }

  @Test("index and path ranges go to positions and back")
  func rangeRoundTrips() async throws {
    let doc = try await treeDocument(twoParagraphs)
    let results = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      var results: [String] = []
      for range in [(0, 0), (1, 2), (2, 6), (3, 5), (0, 8)] {
        let positions = try tree.indexRangeToPosRange(range)
        let back = try tree.posRangeToIndexRange(positions)
        let paths = try tree.posRangeToPathRange(positions)
        let again = try tree.posRangeToIndexRange(try tree.pathRangeToPosRange(paths))
        results.append("\(range.0)..<\(range.1) -> \(back.0)..<\(back.1) \(paths.0)..<\(paths.1) -> \(again.0)..<\(again.1)")
      }
      return results
    }
    #expect(results == [
      "0..<0 -> 0..<0 [0]..<[0] -> 0..<0",
      "1..<2 -> 1..<2 [0, 0]..<[0, 1] -> 1..<2",
      "2..<6 -> 2..<6 [0, 1]..<[1, 1] -> 2..<6",
      "3..<5 -> 3..<5 [0, 2]..<[1, 0] -> 3..<5",
      "0..<8 -> 0..<8 [0]..<[2] -> 0..<8",
    ])
  }

  @Test("positions taken before a concurrent edit resolve to the moved indexes after it")
  func positionsSurviveConcurrentEdits() async throws {
    let (a, b) = try await twoReplicas(twoParagraphs)
    // a selects "b</p><p>c" (2..<6); b types "XY" at the start of the first paragraph meanwhile.
    let selection = try await a.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((2, 6)) }
    try await b.update { root, _ in try root.tree("t")?.edit(1, 1, [.text("XY")]) }
    try await send(from: b, to: a)
    #expect(try await treeXML(a) == "<doc><p>XYab</p><p>cd</p></doc>")
    let resolved = try await a.update { root, _ in
      let tree = try #require(root.tree("t"))
      return (try tree.posRangeToIndexRange(selection), try tree.posRangeToPathRange(selection))
    }
    #expect([resolved.0.0, resolved.0.1] == [4, 8] as [Int])
    #expect(resolved.1.0 == [0, 3] && resolved.1.1 == [1, 1])
  }

  @Test("a position whose text was deleted concurrently resolves to where the text was")
  func positionInDeletedText() async throws {
    let (a, b) = try await twoReplicas(twoParagraphs)
    let caret = try await a.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((6, 6)) }  // between c and d
    try await b.update { root, _ in try root.tree("t")?.edit(5, 7) }                                          // deletes "cd"
    try await send(from: b, to: a)
    #expect(try await treeXML(a) == "<doc><p>ab</p><p></p></doc>")
    let resolved = try await a.update { root, _ in try #require(root.tree("t")).posRangeToIndexRange(caret) }
    // Yorkie resolves a left sibling that was removed to the live nodes before it: index 5,
    // inside the emptied paragraph (an offset inside removed text takes no room).
    #expect([resolved.0, resolved.1] == [5, 5] as [Int])
  }

  @Test("a position inside a text piece removed later resolves before the removed piece",
        arguments: [(6, 5, 7, 5), (3, 2, 4, 2), (2, 1, 3, 1)])
  func positionInRemovedTextPiece(caret: Int, deleteFrom: Int, deleteTo: Int, expected: Int) async throws {
    // <doc><p>ab</p><p>cd</p></doc> (or <doc><p>abcd</p></doc> for caret 3): the caret's text
    // is deleted by a later local edit, without a split at the caret.
    let initial: TreeNode = caret == 3 ? .element("doc", children: [.element("p", children: [.text("abcd")])]) : twoParagraphs
    let doc = try await treeDocument(initial)
    let position = try await doc.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((caret, caret)).0 }
    try await doc.update { root, _ in try root.tree("t")?.edit(deleteFrom, deleteTo) }
    let resolved = try await doc.update { root, _ in try #require(root.tree("t")).posRangeToIndexRange((position, position)).0 }
    #expect(resolved == expected)
  }

  @Test("a TreePosition encodes as the JS SDK's CRDTTreePosStruct and decodes back")
  func codable() async throws {
    let doc = Document(key: "tree")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in _ = root.setNewTree("t", docWithAB) }
    let (from, to) = try await doc.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((2, 3)) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let fromJSON = String(decoding: try encoder.encode(from), as: UTF8.self)
    // All in the change of lamport 1: the tree and its root node share delimiter 1 (as Yorkie's
    // Go SDK builds a tree), then p 2 and "ab" 3. Index 2 is inside "ab": parent p, left
    // sibling "ab" split at offset 1.
    #expect(fromJSON == #"{"leftSiblingID":{"createdAt":{"actorID":"000000000000000000000001","delimiter":3,"lamport":"1"},"offset":1},"parentID":{"createdAt":{"actorID":"000000000000000000000001","delimiter":2,"lamport":"1"},"offset":0}}"#)
    #expect(try JSONDecoder().decode(TreePosition.self, from: Data(fromJSON.utf8)) == from)
    // What a JS peer sends (its key order) decodes to the same position.
    let js = #"{"parentID":{"createdAt":{"lamport":"1","delimiter":2,"actorID":"000000000000000000000001"},"offset":0},"leftSiblingID":{"createdAt":{"lamport":"1","delimiter":3,"actorID":"000000000000000000000001"},"offset":1}}"#
    #expect(try JSONDecoder().decode(TreePosition.self, from: Data(js.utf8)) == from)
    #expect(try JSONDecoder().decode(TreePosition.self, from: try JSONEncoder().encode(to)) == to)
    #expect(from != to)
  }

  @Test("malformed position JSON is a DecodingError naming what is wrong")
  func malformedJSON() throws {
    let bad = [
      #"{"parentID":{"createdAt":{"lamport":"x","delimiter":0,"actorID":"000000000000000000000001"},"offset":0},"leftSiblingID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"000000000000000000000001"},"offset":0}}"#,
      #"{"parentID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"xyz"},"offset":0},"leftSiblingID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"000000000000000000000001"},"offset":0}}"#,
      #"{"parentID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"000000000000000000000001"},"offset":-1},"leftSiblingID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"000000000000000000000001"},"offset":0}}"#,
      #"{"parentID":{"createdAt":{"lamport":"1","delimiter":0,"actorID":"000000000000000000000001"},"offset":0}}"#,
    ]
    for text in bad {
      #expect(throws: DecodingError.self) { try JSONDecoder().decode(TreePosition.self, from: Data(text.utf8)) }
    }
  }

  @Test("a selection carried in presence resolves on the peer after the peer's own concurrent edit")
  func selectionInPresence() async throws {
    let (a, b) = try await twoReplicas(twoParagraphs)
    // a selects "cd" and publishes it as JSON in its presence.
    try await a.update { root, presence in
      let selection = try #require(root.tree("t")).indexRangeToPosRange((5, 7))
      let json = String(decoding: try JSONEncoder().encode([selection.0, selection.1]), as: UTF8.self)
      presence.set(["selection": try JSONValue(parsing: json)])
    }
    // b inserts a paragraph before both, concurrently, then receives a's presence.
    try await b.update { root, _ in try root.tree("t")?.edit(0, 0, [.element("h1", children: [.text("Title")])]) }
    try await send(from: a, to: b)
    try await send(from: b, to: a)
    #expect(try await treeXML(b) == "<doc><h1>Title</h1><p>ab</p><p>cd</p></doc>")
    let carried = try #require(await b.presence(of: actor(1))?["selection"])
    let positions = try JSONDecoder().decode([TreePosition].self, from: Data(carried.jsonString.utf8))
    let resolved = try await b.update { root, _ in try #require(root.tree("t")).posRangeToIndexRange((positions[0], positions[1])) }
    #expect([resolved.0, resolved.1] == [12, 14] as [Int])
    #expect(try await treeXML(a) == (try await treeXML(b)))
  }
}
