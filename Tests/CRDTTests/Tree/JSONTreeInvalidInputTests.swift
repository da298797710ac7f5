import CRDT
import Testing

// Every invalid call of a JSONTree throws its documented YorkieError code, and the update that
// made it leaves the document exactly as it was: JSON, snapshot bytes, pending changes, XML.

@Suite("JSONTree: invalid input")
struct JSONTreeInvalidInputTests {
  /// `<doc><p>ab</p><p>cd</p></doc>` (size 8), with one pending change.
  private func document() async throws -> Document {
    try await treeDocument(.element("doc", children: [.element("p", children: [.text("ab")]), .element("p", children: [.text("cd")])]))
  }

  @Test("a reversed range is invalidTreeRange for edit, style and removeStyle")
  func reversedRanges() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidTreeRange) { try $0.edit(2, 1) }
    try await expectTreeRejected(doc, .invalidTreeRange) { try $0.style(3, 0, ["b": true]) }
    try await expectTreeRejected(doc, .invalidTreeRange) { try $0.removeStyle(3, 0, keys: ["b"]) }
    try await expectTreeRejected(doc, .invalidTreeRange) { _ = try $0.indexRangeToPosRange((5, 4)) }
  }

  @Test("an index outside the tree is indexOutOfBounds")
  func indexesOutOfRange() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .indexOutOfBounds) { try $0.edit(9, 9, [.text("x")]) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { try $0.edit(0, 9) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { try $0.edit(-1, 0) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { try $0.style(0, 9, ["b": true]) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { try $0.removeStyle(0, 9, keys: ["b"]) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { _ = try $0.indexToPath(9) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { _ = try $0.indexToPath(-1) }
    try await expectTreeRejected(doc, .indexOutOfBounds) { _ = try $0.indexRangeToPosRange((0, 9)) }
  }

  @Test("a path that names no place is invalidPath")
  func badPaths() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidPath) { try $0.editByPath([], [], [.text("x")]) }
    try await expectTreeRejected(doc, .invalidPath) { try $0.editByPath([0, 0], [1], [.text("x")]) }   // lengths differ
    try await expectTreeRejected(doc, .invalidPath) { try $0.editByPath([3], [3]) }                    // past the last child
    try await expectTreeRejected(doc, .invalidPath) { try $0.editByPath([0, 3], [0, 3], [.text("x")]) } // past the text
    try await expectTreeRejected(doc, .invalidPath) { try $0.editByPath([-1], [0]) }
    try await expectTreeRejected(doc, .invalidPath) { try $0.styleByPath([], ["b": true]) }
    try await expectTreeRejected(doc, .invalidPath) { try $0.styleByPath([5], ["b": true]) }
    try await expectTreeRejected(doc, .invalidPath) { try $0.styleByPath([0], [0, 1], ["b": true]) }
    try await expectTreeRejected(doc, .invalidPath) { try $0.removeStyleByPath([0], [], keys: ["b"]) }
    try await expectTreeRejected(doc, .invalidPath) { _ = try $0.pathToIndex([]) }
    try await expectTreeRejected(doc, .invalidPath) { _ = try $0.pathToIndex([0, 0, 0]) }
    try await expectTreeRejected(doc, .invalidPath) { _ = try $0.pathRangeToPosRange(([0], [7])) }
  }

  @Test("text mixed with elements, empty text, and mixed children are invalidTreeContent")
  func badContents() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidTreeContent) { try $0.edit(1, 1, [.text("c"), .text("")]) }
    try await expectTreeRejected(doc, .invalidTreeContent) { try $0.edit(1, 1, [.text("")]) }
    try await expectTreeRejected(doc, .invalidTreeContent) { try $0.edit(4, 4, [.element("p"), .text("d")]) }
    try await expectTreeRejected(doc, .invalidTreeContent) { try $0.edit(1, 1, [.text("d"), .element("p")]) }
    try await expectTreeRejected(doc, .invalidTreeContent) {
      try $0.edit(4, 4, [.element("p", children: [.text("c"), .element("b")])])
    }
    try await expectTreeRejected(doc, .invalidTreeContent) {
      try $0.edit(4, 4, [.element("p", children: [.text("c")]), .element("p", children: [.text("")])])
    }
    try await expectTreeRejected(doc, .invalidTreeContent) { try $0.editByPath([0, 1], [0, 1], [.text("")]) }
  }

  @Test("a negative split level, or one deeper than the position, is invalidSplitLevel")
  func badSplitLevels() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidSplitLevel) { try $0.edit(2, 2, splitLevel: -1) }
    try await expectTreeRejected(doc, .invalidSplitLevel) { try $0.editByPath([0, 1], [0, 1], splitLevel: -1) }
    // Inside a paragraph of the root, only the paragraph can be split: the root cannot.
    try await expectTreeRejected(doc, .invalidSplitLevel) { try $0.edit(2, 2, splitLevel: 2) }
    // Between paragraphs, there is nothing to split but the root.
    try await expectTreeRejected(doc, .invalidSplitLevel) { try $0.edit(4, 4, splitLevel: 1) }
  }

  @Test("style values that JSON cannot carry are invalidNumber")
  func badAttributeValues() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidNumber) { try $0.style(0, 1, ["size": .double(.nan)]) }
    try await expectTreeRejected(doc, .invalidNumber) { try $0.styleByPath([0], ["size": .double(.infinity)]) }
  }

  @Test("an invalid call after valid ones rolls the valid ones back too")
  func laterFailureRollsBack() async throws {
    let doc = try await document()
    try await expectTreeRejected(doc, .invalidSplitLevel) { tree in
      try tree.edit(1, 1, [.text("X")])
      try tree.style(0, 1, ["b": true])
      try tree.edit(2, 2, splitLevel: 1)
      try tree.edit(2, 2, splitLevel: -3)
    }
    try await doc.update { root, _ in try root.tree("t")?.edit(1, 1, [.text("Y")]) }
    #expect(try await treeXML(doc) == "<doc><p>Yab</p><p>cd</p></doc>")
  }

  @Test("a position from another document's tree is treeNodeNotFound")
  func foreignPosition() async throws {
    let other = Document(key: "other")
    try await other.setActor(actor(9))
    try await other.update { root, _ in _ = root.setNewTree("t", docWithAB) }
    let foreign = try await other.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((1, 2)) }
    let doc = try await document()
    try await expectTreeRejected(doc, .treeNodeNotFound) { _ = try $0.posRangeToIndexRange(foreign) }
    try await expectTreeRejected(doc, .treeNodeNotFound) { _ = try $0.posRangeToPathRange(foreign) }
  }

  @Test("setNewTree with a text root or an empty text fails the update with invalidTreeContent")
  func badInitialTrees() async throws {
    for initial: TreeNode in [.text("x"), .element("doc", children: [.element("p", children: [.text("")])])] {
      let doc = Document(key: "tree")
      try await doc.update { root, _ in root["keep"] = 1 }
      let before = try await DocumentState.of(doc)
      do {
        try await doc.update { root, _ in _ = root.setNewTree("t", initial) }
        Issue.record("setNewTree(\(initial)) should fail")
      } catch let error as YorkieError {
        #expect(error.code == .invalidTreeContent)
      }
      #expect(try await DocumentState.of(doc) == before)
    }
  }
}
