import CRDT
import Testing

// Building and editing a tree through the public API, with the scenarios and expected XML of
// Yorkie's own tests (JS `test/integration/tree_test.ts`, Go `test/integration/tree_test.go`).

@Suite("JSONTree: building and editing")
struct JSONTreeTests {
  @Test("a tree built by edits from an empty root, as Yorkie's 'Can be created'")
  func createdByEdits() async throws {
    let doc = Document(key: "tree")
    let steps = try await doc.update { root, _ in
      var steps: [String] = []
      let tree = root.setNewTree("t")
      try tree.edit(0, 0, [.element("p")])
      steps += [tree.xml, root.toJSON()]
      try tree.edit(1, 1, [.text("AB")])
      steps += [tree.xml, root.toJSON()]
      try tree.edit(3, 3, [.text("CD")])
      steps += [tree.xml, root.toJSON()]
      try tree.edit(1, 5, [.text("Yorkie")])
      steps += [tree.xml, root.toJSON()]
      return steps
    }
    #expect(steps == [
      "<root><p></p></root>",
      #"{"t":{"type":"root","children":[{"type":"p","children":[]}]}}"#,
      "<root><p>AB</p></root>",
      #"{"t":{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"AB"}]}]}}"#,
      "<root><p>ABCD</p></root>",
      #"{"t":{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"AB"},{"type":"text","value":"CD"}]}]}}"#,
      "<root><p>Yorkie</p></root>",
      #"{"t":{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"Yorkie"}]}]}}"#,
    ])
    #expect(await doc.toJSON() == #"{"t":{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"Yorkie"}]}]}}"#)
  }

  @Test("a tree set from nested nodes has Yorkie's XML, size and root")
  func createdFromNodes() async throws {
    let initial: TreeNode = .element("doc", children: [
      .element("p", children: [.text("ab")]),
      .element("ng", children: [.element("note", children: [.text("cd")]), .element("note", children: [.text("ef")])]),
      .element("bp", children: [.text("gh")]),
    ])
    let doc = try await treeDocument(initial)
    let tree = try #require(try await doc.tree(atPath: "$.t"))
    #expect(tree.xml == "<doc><p>ab</p><ng><note>cd</note><note>ef</note></ng><bp>gh</bp></doc>")
    #expect(tree.size == 18)
    #expect(tree.root == initial)
    #expect(tree.description == tree.xml)
    #expect(tree.toJSON() == #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"}]},{"type":"ng","children":[{"type":"note","children":[{"type":"text","value":"cd"}]},{"type":"note","children":[{"type":"text","value":"ef"}]}]},{"type":"bp","children":[{"type":"text","value":"gh"}]}]}"#)
  }

  @Test("attributes given when building show in XML and JSON")
  func createdWithAttributes() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("p", children: [.element("span", attributes: ["bold": "true"], children: [.text("hello")])]),
    ]))
    #expect(try await treeXML(doc) == #"<doc><p><span bold="true">hello</span></p></doc>"#)
    #expect(await doc.toJSON() == #"{"t":{"type":"doc","children":[{"type":"p","children":[{"type":"span","children":[{"type":"text","value":"hello"}],"attributes":{"bold":"true"}}]}]}}"#)
  }

  @Test("inserting and deleting text at the start, middle and end of a paragraph")
  func editText() async throws {
    let doc = Document(key: "tree")
    let first = try await doc.update { root, _ in
      let tree = root.setNewTree("t", docWithAB)
      var steps = [tree.xml]
      try tree.edit(1, 1, [.text("X")]); steps.append(tree.xml)
      try tree.edit(1, 2); steps.append(tree.xml)
      try tree.edit(2, 2, [.text("X")]); steps.append(tree.xml)
      try tree.edit(2, 3); steps.append(tree.xml)
      return steps
    }
    #expect(first == ["<doc><p>ab</p></doc>", "<doc><p>Xab</p></doc>", "<doc><p>ab</p></doc>", "<doc><p>aXb</p></doc>", "<doc><p>ab</p></doc>"])
    #expect(try await treeXML(doc) == "<doc><p>ab</p></doc>")

    let second = try await doc.update { root, _ in
      let tree = root.setNewTree("t", docWithAB)
      try tree.edit(2, 2, [.text("X")])
      let inserted = tree.xml
      try tree.edit(1, 4)
      return [inserted, tree.xml]
    }
    #expect(second == ["<doc><p>aXb</p></doc>", "<doc><p></p></doc>"])

    let third = try await doc.update { root, _ in
      let tree = root.setNewTree("t", docWithAB)
      try tree.edit(3, 3, [.text("X")])
      var steps = [tree.xml]
      try tree.edit(3, 4); steps.append(tree.xml)
      try tree.edit(2, 3); steps.append(tree.xml)
      return steps
    }
    #expect(third == ["<doc><p>abX</p></doc>", "<doc><p>ab</p></doc>", "<doc><p>a</p></doc>"])
    #expect(try await treeXML(doc) == "<doc><p>a</p></doc>")
  }

  @Test("several text nodes in one edit join into one; several elements insert in order")
  func editSeveralNodes() async throws {
    let doc = try await treeDocument(docWithAB)
    try await doc.update { root, _ in try root.tree("t")?.edit(3, 3, [.text("c"), .text("d")]) }
    #expect(try await treeXML(doc) == "<doc><p>abcd</p></doc>")
    #expect(try await doc.tree(atPath: "$.t")?.root == .element("doc", children: [.element("p", children: [.text("ab"), .text("cd")])]))
    try await doc.update { root, _ in
      try root.tree("t")?.edit(6, 6, [.element("p", children: [.text("cd")]), .element("i", children: [.text("fg")])])
    }
    #expect(try await treeXML(doc) == "<doc><p>abcd</p><p>cd</p><i>fg</i></doc>")
    #expect(try await doc.tree(atPath: "$.t")?.size == 14)
  }

  @Test("deleting across paragraphs merges them; attributes of the first stay")
  func deleteAcrossMerges() async throws {
    let doc = try await treeDocument(.element("doc"))
    let steps = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      try tree.edit(0, 0, [.element("p", attributes: ["bold": "true"], children: [.text("ab")])])
      var steps = [tree.xml]
      try tree.edit(4, 4, [.element("p", attributes: ["italic": "true"], children: [.text("cd")])])
      steps.append(tree.xml)
      try tree.edit(2, 6)
      steps.append(tree.xml)
      return steps
    }
    #expect(steps == [
      #"<doc><p bold="true">ab</p></doc>"#,
      #"<doc><p bold="true">ab</p><p italic="true">cd</p></doc>"#,
      #"<doc><p bold="true">ad</p></doc>"#,
    ])
    #expect(try await treeXML(doc) == #"<doc><p bold="true">ad</p></doc>"#)
    #expect(try await doc.tree(atPath: "$.t")?.size == 4)
  }

  @Test("deleting whole elements, and a range over three paragraphs")
  func deleteElements() async throws {
    let doc = try await treeDocument(.element("root", children: [.element("p"), .element("i"), .element("b")]))
    try await doc.update { root, _ in try root.tree("t")?.edit(0, 4) }
    #expect(try await treeXML(doc) == "<root><b></b></root>")

    let three = try await treeDocument(.element("doc", children: [
      .element("p", children: [.text("ab")]), .element("p", children: [.text("cd")]), .element("p", children: [.text("ef")]),
    ]))
    // From after "a" to before "f": the middle paragraph goes, the last merges into the first.
    try await three.update { root, _ in try root.tree("t")?.edit(2, 10) }
    #expect(try await treeXML(three) == "<doc><p>af</p></doc>")
  }

  @Test("splitting a paragraph at its start, middle and end (level 1)")
  func splitLevelOne() async throws {
    var results: [String] = []
    for index in 1...3 {
      let doc = try await treeDocument(docWithAB)
      try await doc.update { root, _ in try root.tree("t")?.edit(index, index, splitLevel: 1) }
      results.append(try await treeXML(doc))
    }
    #expect(results == ["<doc><p></p><p>ab</p></doc>", "<doc><p>a</p><p>b</p></doc>", "<doc><p>ab</p><p></p></doc>"])
  }

  @Test("splitting two and three levels deep")
  func splitDeeper() async throws {
    let nested: TreeNode = .element("doc", children: [
      .element("ul", children: [.element("li", children: [.element("p", children: [.text("ab")])])]),
    ])
    var results: [String] = []
    for level in 1...3 {
      let doc = try await treeDocument(nested)
      // Index 4 is between "a" and "b" (<ul>, <li>, <p> and "a" come first).
      try await doc.update { root, _ in try root.tree("t")?.edit(4, 4, splitLevel: level) }
      results.append(try await treeXML(doc))
      #expect(try await doc.tree(atPath: "$.t")?.size == 8 + 2 * level)
    }
    #expect(results == [
      "<doc><ul><li><p>a</p><p>b</p></li></ul></doc>",
      "<doc><ul><li><p>a</p></li><li><p>b</p></li></ul></doc>",
      "<doc><ul><li><p>a</p></li></ul><ul><li><p>b</p></li></ul></doc>",
    ])
  }

  @Test("a split element keeps its attributes on both halves")
  func splitKeepsAttributes() async throws {
    let doc = try await treeDocument(.element("doc", children: [.element("p", attributes: ["align": "left"], children: [.text("ab")])]))
    try await doc.update { root, _ in try root.tree("t")?.edit(2, 2, splitLevel: 1) }
    #expect(try await treeXML(doc) == #"<doc><p align="left">a</p><p align="left">b</p></doc>"#)
  }

  @Test("api.md's editing example, step by step")
  func apiExample() async throws {
    let doc = Document(key: "tree")
    let steps = try await doc.update { root, _ in
      let tree = root.setNewTree("content", .element("doc", children: [.element("p", children: [.text("ab")])]))
      var steps: [String] = []
      try tree.edit(1, 1, [.text("X")]); steps.append(tree.xml)
      try tree.edit(1, 2); steps.append(tree.xml)
      try tree.edit(2, 2, splitLevel: 1); steps.append(tree.xml)
      try tree.editByPath([0, 1], [0, 1], [.text("c")]); steps.append(tree.xml)
      try tree.style(0, 1, ["bold": true]); steps.append(tree.xml)
      try tree.styleByPath([0], ["align": "left"]); steps.append(tree.xml)
      try tree.removeStyle(0, 1, keys: ["bold"]); steps.append(tree.xml)
      return steps
    }
    #expect(steps == [
      "<doc><p>Xab</p></doc>",
      "<doc><p>ab</p></doc>",
      "<doc><p>a</p><p>b</p></doc>",
      "<doc><p>ac</p><p>b</p></doc>",
      #"<doc><p bold="true">ac</p><p>b</p></doc>"#,
      #"<doc><p align="left" bold="true">ac</p><p>b</p></doc>"#,
      #"<doc><p align="left">ac</p><p>b</p></doc>"#,
    ])
  }

  @Test("editing by path, as Yorkie's 'edit content with path'")
  func editByPath() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("tc", children: [.element("p", children: [.element("tn", children: [.text("ab")])])]),
    ]))
    let steps = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      var steps: [String] = []
      try tree.editByPath([0, 0, 0, 1], [0, 0, 0, 1], [.text("X")]); steps.append(tree.xml)
      try tree.editByPath([0, 0, 0, 3], [0, 0, 0, 3], [.text("!")]); steps.append(tree.xml)
      try tree.editByPath([0, 0, 1], [0, 0, 1], [.element("tn", children: [.text("cd")])]); steps.append(tree.xml)
      try tree.editByPath([0, 1], [0, 1], [.element("p", children: [.element("tn", children: [.text("q")])])]); steps.append(tree.xml)
      try tree.editByPath([0, 1, 0, 0], [0, 1, 0, 0], [.text("a")]); steps.append(tree.xml)
      try tree.editByPath([0, 1, 0, 2], [0, 1, 0, 2], [.text("B")]); steps.append(tree.xml)
      return steps
    }
    #expect(steps == [
      "<doc><tc><p><tn>aXb</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXb!</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXb!</tn><tn>cd</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXb!</tn><tn>cd</tn></p><p><tn>q</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXb!</tn><tn>cd</tn></p><p><tn>aq</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXb!</tn><tn>cd</tn></p><p><tn>aqB</tn></p></tc></doc>",
    ])
    // Yorkie: "unacceptable path" (the paragraph has two children, so 4 is past its end).
    try await expectTreeRejected(doc, .invalidPath) { tree in
      try tree.editByPath([0, 0, 4], [0, 0, 4], [.element("tn")])
    }
  }

  @Test("editing by path into empty elements, as Yorkie's 'edit content with path 2'")
  func editByPathIntoEmpty() async throws {
    let emptyParagraph: TreeNode = .element("p", children: [.element("tn")])
    let doc = try await treeDocument(.element("doc", children: [.element("tc", children: [emptyParagraph])]))
    let steps = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      var steps: [String] = []
      try tree.editByPath([0, 0, 0, 0], [0, 0, 0, 0], [.text("a")]); steps.append(tree.xml)
      try tree.editByPath([0, 1], [0, 1], [emptyParagraph]); steps.append(tree.xml)
      try tree.editByPath([0, 1, 0, 0], [0, 1, 0, 0], [.text("b")]); steps.append(tree.xml)
      try tree.editByPath([0, 2], [0, 2], [emptyParagraph])
      try tree.editByPath([0, 2, 0, 0], [0, 2, 0, 0], [.text("c")]); steps.append(tree.xml)
      try tree.editByPath([0, 3], [0, 3], [emptyParagraph])
      try tree.editByPath([0, 3, 0, 0], [0, 3, 0, 0], [.text("d")]); steps.append(tree.xml)
      try tree.editByPath([0, 3], [0, 3], [emptyParagraph]); steps.append(tree.xml)
      return steps
    }
    #expect(steps == [
      "<doc><tc><p><tn>a</tn></p></tc></doc>",
      "<doc><tc><p><tn>a</tn></p><p><tn></tn></p></tc></doc>",
      "<doc><tc><p><tn>a</tn></p><p><tn>b</tn></p></tc></doc>",
      "<doc><tc><p><tn>a</tn></p><p><tn>b</tn></p><p><tn>c</tn></p></tc></doc>",
      "<doc><tc><p><tn>a</tn></p><p><tn>b</tn></p><p><tn>c</tn></p><p><tn>d</tn></p></tc></doc>",
      "<doc><tc><p><tn>a</tn></p><p><tn>b</tn></p><p><tn>c</tn></p><p><tn></tn></p><p><tn>d</tn></p></tc></doc>",
    ])
  }

  @Test("several paragraphs by path, text halves joined per element")
  func editByPathSeveral() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("tc", children: [.element("p", children: [.element("tn", children: [.text("ab")])])]),
    ]))
    let steps = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      var steps: [String] = []
      try tree.editByPath([0, 0, 0, 1], [0, 0, 0, 1], [.text("X"), .text("X")]); steps.append(tree.xml)
      try tree.editByPath([0, 1], [0, 1], [
        .element("p", children: [.element("tn", children: [.text("te"), .text("st")])]),
        .element("p", children: [.element("tn", children: [.text("te"), .text("xt")])]),
      ])
      steps.append(tree.xml)
      return steps
    }
    #expect(steps == [
      "<doc><tc><p><tn>aXXb</tn></p></tc></doc>",
      "<doc><tc><p><tn>aXXb</tn></p><p><tn>test</tn></p><p><tn>text</tn></p></tc></doc>",
    ])
  }

  @Test("text counts UTF-16 code units: an emoji is two indexes")
  func utf16() async throws {
    let doc = try await treeDocument(.element("doc", children: [.element("p", children: [.text("a😀b")])]))
    #expect(try await doc.tree(atPath: "$.t")?.size == 6)
    try await doc.update { root, _ in try root.tree("t")?.edit(4, 4, [.text("|")]) }
    #expect(try await treeXML(doc) == "<doc><p>a😀|b</p></doc>")
    try await doc.update { root, _ in try root.tree("t")?.edit(2, 4) }
    #expect(try await treeXML(doc) == "<doc><p>a|b</p></doc>")
  }

  @Test("a tree in an array: appendNewTree and tree(at:)")
  func treeInArray() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      let list = root.setNewArray("blocks")
      try list.append("first")
      let tree = list.appendNewTree(.element("doc", children: [.element("p")]))
      try tree.edit(1, 1, [.text("hi")])
    }
    try await doc.update { root, _ in
      #expect(root.array("blocks")?.tree(at: 0) == nil)
      try root.array("blocks")?.tree(at: 1)?.edit(3, 3, [.text("!")])
    }
    #expect(await doc.toJSON() == #"{"blocks":["first",{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"hi"},{"type":"text","value":"!"}]}]}]}"#)
    #expect(try await treeXML(doc, "$.blocks.1") == "<doc><p>hi!</p></doc>")
    #expect(try await doc.tree(atPath: "$.blocks.0") == nil)
  }
}
