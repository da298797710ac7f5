import CRDT
import Testing

// Styles through the public API (Yorkie's "set attributes", "remove attributes" and
// "set/remove style without any attributes" tests), attribute values of every JSON kind, and
// toJSON/toXML escaping byte for byte as Yorkie's JS SDK writes them.

@Suite("JSONTree: styles and serialization")
struct JSONTreeStyleTests {
  private let twoParagraphs: TreeNode = .element("root", children: [
    .element("p", children: [.text("ab")]),
    .element("p", attributes: ["italic": "true"], children: [.text("cd")]),
  ])

  @Test("style sets attributes on the elements whose tags lie in the range")
  func style() async throws {
    let doc = try await treeDocument(twoParagraphs)
    #expect(try await treeXML(doc) == #"<root><p>ab</p><p italic="true">cd</p></root>"#)
    // 0..<4 holds the first paragraph's tags (0 and 3); the second opens at 4, outside.
    try await doc.update { root, _ in try root.tree("t")?.style(0, 4, ["bold": "true"]) }
    #expect(try await treeXML(doc) == #"<root><p bold="true">ab</p><p italic="true">cd</p></root>"#)
    #expect(try await doc.tree(atPath: "$.t")?.toJSON() == #"{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"ab"}],"attributes":{"bold":"true"}},{"type":"p","children":[{"type":"text","value":"cd"}],"attributes":{"italic":"true"}}]}"#)
  }

  @Test("removeStyle removes the named attributes; an absent key or no keys change nothing")
  func removeStyle() async throws {
    let doc = try await treeDocument(twoParagraphs)
    try await doc.update { root, _ in try root.tree("t")?.removeStyle(4, 8, keys: ["italic"]) }
    let removed = #"<root><p>ab</p><p>cd</p></root>"#
    // An element without a live attribute prints no "attributes", as Go prints it (JS prints
    // "attributes":{} until the tombstones are collected, which replicas disagree on).
    let removedJSON = #"{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"ab"}]},{"type":"p","children":[{"type":"text","value":"cd"}]}]}"#
    #expect(try await treeXML(doc) == removed)
    #expect(try await doc.tree(atPath: "$.t")?.toJSON() == removedJSON)
    try await doc.update { root, _ in try root.tree("t")?.removeStyle(4, 8, keys: ["bold"]) }
    #expect(try await treeXML(doc) == removed)
    try await doc.update { root, _ in try root.tree("t")?.removeStyle(4, 8, keys: []) }
    #expect(try await doc.tree(atPath: "$.t")?.toJSON() == removedJSON)
  }

  @Test("style with no attributes changes nothing")
  func styleWithoutAttributes() async throws {
    let doc = try await treeDocument(twoParagraphs)
    try await doc.update { root, _ in try root.tree("t")?.style(0, 4, [:]) }
    #expect(try await doc.tree(atPath: "$.t")?.toJSON() == #"{"type":"root","children":[{"type":"p","children":[{"type":"text","value":"ab"}]},{"type":"p","children":[{"type":"text","value":"cd"}],"attributes":{"italic":"true"}}]}"#)
  }

  @Test("attribute values of every JSON kind: XML shows strings as they are, others as escaped JSON")
  func attributeKinds() async throws {
    let doc = try await treeDocument(.element("doc", children: [.element("p", children: [.text("ab")])]))
    try await doc.update { root, _ in
      try root.tree("t")?.style(0, 1, [
        "bold": true, "size": 12, "ratio": 1.5, "font": "serif", "none": nil,
        "img": ["src": "a.png"], "tags": ["x", 1],
      ])
    }
    #expect(try await treeXML(doc) == #"<doc><p bold="true" font="serif" img="{\"src\":\"a.png\"}" none="null" ratio="1.5" size="12" tags="[\"x\",1]">ab</p></doc>"#)
    let json = try #require(try await doc.tree(atPath: "$.t")?.toJSON())
    // Values are JSON again in toJSON (a bool stays a bool, an object an object); keys in the
    // order they were set, which for one call's dictionary is sorted (a Swift dictionary has
    // no order of its own).
    #expect(json == #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"}],"attributes":{"bold":true,"font":"serif","img":{"src":"a.png"},"none":null,"ratio":1.5,"size":12,"tags":["x",1]}}]}"#)
    // The root node reads them back as values.
    #expect(try await doc.tree(atPath: "$.t")?.root == .element("doc", children: [
      .element("p", attributes: ["bold": true, "size": 12, "ratio": 1.5, "font": "serif", "none": nil,
                                 "img": ["src": "a.png"], "tags": ["x", 1]], children: [.text("ab")]),
    ]))
  }

  @Test("styleByPath styles one element or the elements between two paths; removeStyleByPath undoes it")
  func styleByPath() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("tc", children: [.element("p", children: [.element("tn", children: [.text("ab")])])]),
      .element("tc", children: [.element("p", children: [.element("tn", children: [.text("cd")])])]),
    ]))
    try await doc.update { root, _ in try root.tree("t")?.styleByPath([0, 0, 0], ["bold": true]) }
    #expect(try await treeXML(doc) == #"<doc><tc><p><tn bold="true">ab</tn></p></tc><tc><p><tn>cd</tn></p></tc></doc>"#)
    try await doc.update { root, _ in try root.tree("t")?.styleByPath([0], [2], ["align": "left"]) }
    // As Yorkie's style: every element with a tag in the range, nested ones included.
    let styled = try await treeXML(doc)
    #expect(styled == #"<doc><tc align="left"><p align="left"><tn align="left" bold="true">ab</tn></p></tc><tc align="left"><p align="left"><tn align="left">cd</tn></p></tc></doc>"#)
    try await doc.update { root, _ in try root.tree("t")?.removeStyleByPath([0], [1], keys: ["align"]) }
    let unstyled = try await treeXML(doc)
    #expect(unstyled == #"<doc><tc><p><tn bold="true">ab</tn></p></tc><tc align="left"><p align="left"><tn align="left">cd</tn></p></tc></doc>"#)
  }

  @Test("a later style of the same key replaces the value")
  func restyle() async throws {
    let doc = try await treeDocument(docWithAB)
    try await doc.update { root, _ in try root.tree("t")?.style(0, 1, ["color": "red"]) }
    try await doc.update { root, _ in try root.tree("t")?.style(0, 1, ["color": "blue", "bold": true]) }
    #expect(try await treeXML(doc) == #"<doc><p bold="true" color="blue">ab</p></doc>"#)
    #expect(try await doc.tree(atPath: "$.t")?.toJSON() == #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"}],"attributes":{"color":"blue","bold":true}}]}"#)
  }

  @Test("toJSON escapes text and attributes as JSON.stringify; XML shows them verbatim")
  func escaping() async throws {
    let doc = try await treeDocument(.element("doc", children: [
      .element("p", attributes: ["title": "say \"hi\"\n", "data": ["q": "\"\t"]], children: [.text("a\"b\\c\n\u{1}\u{7F}é😀\u{2028}")]),
    ]))
    let tree = try #require(try await doc.tree(atPath: "$.t"))
    #expect(tree.toJSON() == #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"a\"b\\c\n\u0001"# + "\u{7F}é😀\u{2028}" + #""}],"attributes":{"data":{"q":"\"\t"},"title":"say \"hi\"\n"}}]}"#)
    #expect(tree.xml == #"<doc><p data="{\"q\":\"\\\"\\t\"}" title="say "hi""# + "\n\">a\"b\\c\n\u{1}\u{7F}é😀\u{2028}</p></doc>")
    #expect(await doc.toJSON() == #"{"t":"# + tree.toJSON() + "}")
  }
}
