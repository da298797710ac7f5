@testable import CRDT
import Foundation
import Testing

// A tree as part of a document: reading it outside updates, InitialValue.tree, the events of
// tree edits and styles, snapshots, and a replica that takes its actor after editing a tree.

@Suite("JSONTree in a document")
struct JSONTreeDocumentTests {
  @Test("doc.tree(atPath:) reads a tree; nil for a missing key or another kind; invalidPath for a bad path")
  func treeAtPath() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      _ = root.setNewTree("content", docWithAB)
      root["title"] = "x"
      _ = root.setNewObject("nested").setNewTree("inner")
    }
    let content = try #require(try await doc.tree(atPath: "$.content"))
    #expect(content.xml == "<doc><p>ab</p></doc>")
    #expect(content.size == 4)
    #expect(content.root == docWithAB)
    #expect(content.toJSON() == #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"}]}]}"#)
    #expect(try await doc.tree(atPath: "$.nested.inner")?.xml == "<root></root>")
    #expect(try await doc.tree(atPath: "$.missing") == nil)
    #expect(try await doc.tree(atPath: "$.title") == nil)
    await #expect(throws: YorkieError.self) { try await doc.tree(atPath: "content") }
    do {
      _ = try await doc.tree(atPath: "$['content']")
      Issue.record("bracket notation should be refused")
    } catch let error as YorkieError {
      #expect(error.code == .invalidPath)
    }
  }

  @Test("doc.value and doc.toJSON show a tree as Yorkie's tree JSON")
  func valueOfTree() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      root["n"] = 1
      _ = root.setNewTree("t", .element("doc", children: [.element("p", attributes: ["bold": true], children: [.text("ab")])]))
    }
    let json = #"{"n":1,"t":{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"}],"attributes":{"bold":true}}]}}"#
    #expect(await doc.toJSON() == json)
    #expect(await doc.value.jsonString == json)
    #expect(await doc.value["t"]?["children"]?[0]?["attributes"]?["bold"]?.bool == true)
    #expect(await doc.value["t"]?["type"]?.string == "doc")
  }

  @Test("the proxy's own reads inside an update: size, xml, root, toJSON")
  func proxyReads() async throws {
    let doc = try await treeDocument(docWithAB)
    let reads = try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      try tree.edit(3, 3, [.text("c")])
      return [String(tree.size), tree.xml, tree.toJSON(), "\(tree.root)"]
    }
    #expect(reads == [
      "5", "<doc><p>abc</p></doc>",
      #"{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"ab"},{"type":"text","value":"c"}]}]}"#,
      "<doc><p>abc</p></doc>",
    ])
  }

  @Test("InitialValue.tree sets a tree, at the root and inside containers, only where the key is missing")
  func initialValue() async throws {
    let doc = Document(key: "tree")
    let initial: [String: InitialValue] = [
      "content": .tree(.element("doc", children: [.element("p", children: [.text("hi")])])),
      "board": ["pages": [.tree(.element("page"))]],
    ]
    #expect(try await doc.setMissingKeys(initial))
    #expect(await doc.toJSON() == #"{"board":{"pages":[{"type":"page","children":[]}]},"content":{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"hi"}]}]}}"#)
    #expect(try await treeXML(doc, "$.board.pages.0") == "<page></page>")
    try await doc.update { root, _ in try root.tree("content")?.edit(3, 3, [.text("!")]) }
    #expect(try await doc.setMissingKeys(initial) == false)
    #expect(try await treeXML(doc, "$.content") == "<doc><p>hi!</p></doc>")
  }

  @Test("tree edits and styles report tree-edit and tree-style operations with indexes, paths, contents and split level")
  func events() async throws {
    let doc = try await treeDocument(docWithAB)
    let events = await doc.events()
    try await doc.update { root, _ in
      let tree = try #require(root.tree("t"))
      try tree.edit(1, 1, [.text("X")])
      try tree.edit(5, 5, [.element("p", attributes: ["id": "b"], children: [.text("cd")]), .element("hr")])
      try tree.edit(2, 2, splitLevel: 1)
      try tree.edit(1, 2)
      try tree.style(0, 1, ["bold": true])
      try tree.removeStyle(0, 1, keys: ["bold"])
    }
    let received = await EventTests.take(1, from: events)
    guard case .localChange(let change)? = received.first else {
      Issue.record("expected a local change, got \(received)")
      return
    }
    #expect(change.operations.map(\.type) == [.treeEdit, .treeEdit, .treeEdit, .treeEdit, .treeStyle, .treeStyle])
    #expect(change.operations[0] == OperationInfo(type: .treeEdit, path: "$.t", from: 1, to: 1, fromPath: [0, 0], toPath: [0, 0], treeContents: [.text("X")], splitLevel: 0))
    #expect(change.operations.map(\.description) == [
      #"tree-edit $.t 1..<1 [0, 0]..<[0, 0] X"#,
      #"tree-edit $.t 5..<5 [1]..<[1] <p id="b">cd</p><hr></hr>"#,
      #"tree-edit $.t 2..<2 [0, 1]..<[0, 1] split=1"#,
      #"tree-edit $.t 1..<2 [0, 0]..<[0, 1]"#,
      #"tree-style $.t 0..<1 [0]..<[0, 0] {"bold":true}"#,
      #"tree-style $.t 0..<1 [0]..<[0, 0] remove=bold"#,
    ])
  }

  @Test("events(at:) below a tree reports its edits only")
  func eventsAtTree() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      _ = root.setNewTree("a", docWithAB)
      _ = root.setNewTree("b", docWithAB)
    }
    let events = await doc.events(at: "$.b")
    try await doc.update { root, _ in try root.tree("a")?.edit(1, 1, [.text("1")]) }
    try await doc.update { root, _ in try root.tree("b")?.edit(1, 1, [.text("2")]) }
    let received = await EventTests.take(1, from: events)
    guard case .localChange(let change)? = received.first else {
      Issue.record("expected a local change, got \(received)")
      return
    }
    #expect(change.operations.map(\.description) == [#"tree-edit $.b 1..<1 [0, 0]..<[0, 0] 2"#])
  }

  @Test("a remote tree edit is reported to the receiver with the receiver's indexes")
  func remoteEvents() async throws {
    let (a, b) = await makeReplicas(key: "tree")
    try await a.update { root, _ in _ = root.setNewTree("t", docWithAB) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    let events = await b.events()
    try await a.update { root, _ in try root.tree("t")?.edit(3, 3, [.text("c")]) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    let received = await EventTests.take(1, from: events)
    guard case .remoteChange(let change)? = received.first else {
      Issue.record("expected a remote change, got \(received)")
      return
    }
    #expect(change.operations.map(\.description) == [#"tree-edit $.t 3..<3 [0, 2]..<[0, 2] c"#])
  }

  @Test("a deletion around text inserted concurrently is reported as one change per deleted run, the later first (Yorkie's makeDeletionChanges)")
  func deletionAroundConcurrentInsert() async throws {
    let (a, b) = await makeReplicas(key: "tree")
    try await a.update { root, _ in _ = root.setNewTree("t", .element("doc", children: [.element("p", children: [.text("abcd")])])) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await b.update { root, _ in try root.tree("t")?.edit(3, 3, [.text("x")]) }   // ab|cd on b
    try await a.update { root, _ in root["bump"] = 1 }  // a's deletion is the newer: no reordering on b
    try await a.update { root, _ in root["bump"] = 2 }
    try await a.update { root, _ in try root.tree("t")?.edit(1, 5) }                 // a removes abcd
    let events = await b.events()
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(try await treeXML(b) == "<doc><p>x</p></doc>")
    let received = await EventTests.take(3, from: events)
    guard case .remoteChange(let change)? = received.last else {
      Issue.record("expected a remote change, got \(received)")
      return
    }
    // On b the paragraph held abxcd: cd (4..<6) and ab (1..<3) go, x stays.
    #expect(change.operations.map(\.description) == [
      #"tree-edit $.t 4..<6 [0, 3]..<[0, 5]"#, #"tree-edit $.t 1..<3 [0, 0]..<[0, 2]"#,
    ])
  }

  @Test("a split and an insertion at another place than a deletion are reported as their own changes")
  func splitAndInsertChanges() async throws {
    let doc = try await treeDocument(docWithAB)
    let events = await doc.events()
    try await doc.update { root, _ in try root.tree("t")?.edit(2, 2, splitLevel: 1) }
    try await doc.update { root, _ in try root.tree("t")?.edit(1, 1) }  // deletes nothing, inserts nothing
    try await doc.update { root, _ in try root.tree("t")?.edit(1, 2, [.text("z")]) }
    let received = await EventTests.take(3, from: events)
    guard received.count == 3, case .localChange(let split) = received[0], case .localChange(let nothing) = received[1],
      case .localChange(let replace) = received[2] else {
      Issue.record("expected three local changes, got \(received)")
      return
    }
    #expect(split.operations.map(\.description) == [#"tree-edit $.t 2..<2 [0, 1]..<[0, 1] split=1"#])
    #expect(nothing.operations.isEmpty)  // as Yorkie: an edit that changed nothing reports nothing
    #expect(replace.operations.map(\.description) == [#"tree-edit $.t 1..<2 [0, 0]..<[0, 1] z"#])
    #expect(try await treeXML(doc) == "<doc><p>z</p><p>b</p></doc>")
  }

  @Test("a snapshot of a document with a tree loads into a fresh document with the same JSON and XML")
  func snapshotRoundTrip() async throws {
    let (a, _) = await makeReplicas(key: "tree")
    try await a.update { root, _ in
      let tree = root.setNewTree("t", .element("doc", children: [
        .element("p", attributes: ["align": "left"], children: [.text("hello")]), .element("p", children: [.text("world")]),
      ]))
      try tree.edit(3, 3, [.text("XY")])
      try tree.edit(6, 6, splitLevel: 1)
      try tree.edit(9, 13)                       // merges "l|o</p><p>w|orld"
      try tree.style(0, 1, ["bold": true, "img": ["src": "a.png"]])
      try tree.removeStyle(0, 1, keys: ["align"])
    }
    let xml = try await treeXML(a)
    #expect(xml == #"<doc><p bold="true" img="{\"src\":\"a.png\"}">heXYl</p><p align="left">lorld</p></doc>"#)
    let fresh = Document(key: "tree")
    try await fresh.applyChangePack(ChangePack(
      key: "tree", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
      versionVector: await a.versionVector, snapshot: await a.snapshot()))
    #expect(await fresh.toJSON() == (await a.toJSON()))
    #expect(try await treeXML(fresh) == xml)
    #expect(try await fresh.tree(atPath: "$.t") == (try await a.tree(atPath: "$.t")))
    #expect(await fresh.snapshot() == (await a.snapshot()))
    // The loaded tree edits like the original.
    try await fresh.setActor(actor(3))
    try await fresh.update { root, _ in try root.tree("t")?.edit(1, 1, [.text(">")]) }
    #expect(try await treeXML(fresh) == #"<doc><p bold="true" img="{\"src\":\"a.png\"}">>heXYl</p><p align="left">lorld</p></doc>"#)
  }

  @Test("setActor re-issues pending tree changes under the new actor; a peer rebuilds the same tree")
  func setActorReissues() async throws {
    let doc = Document(key: "tree")
    try await doc.update { root, _ in
      let tree = root.setNewTree("t", docWithAB)
      try tree.edit(2, 2, [.text("X")])
      try tree.edit(2, 2, splitLevel: 1)
      try tree.style(0, 1, ["bold": true])
    }
    let before = try await treeXML(doc)
    #expect(before == #"<doc><p bold="true">a</p><p>Xb</p></doc>"#)
    try await doc.setActor(actor(7))
    #expect(try await treeXML(doc) == before)
    let positions = try await doc.update { root, _ in try #require(root.tree("t")).indexRangeToPosRange((1, 1)) }
    #expect(String(decoding: try JSONEncoder().encode(positions.0), as: UTF8.self).contains("000000000000000000000007"))
    #expect(!String(decoding: try JSONEncoder().encode(positions.0), as: UTF8.self).contains("000000000000000000000000"))
    let peer = Document(key: "tree")
    try await peer.setActor(actor(8))
    try await peer.applyChanges(try await doc.changes(since: VersionVector()))
    #expect(try await treeXML(peer) == before)
    #expect(await peer.toJSON() == (await doc.toJSON()))
    let resolved = try await peer.update { root, _ in try #require(root.tree("t")).posRangeToIndexRange(positions) }
    #expect([resolved.0, resolved.1] == [1, 1] as [Int])
  }

  @Test("an update that fails after tree edits rolls all of them back")
  func rollback() async throws {
    let doc = try await treeDocument(docWithAB)
    let before = try await DocumentState.of(doc)
    do {
      try await doc.update { root, _ in
        let tree = try #require(root.tree("t"))
        try tree.edit(1, 1, [.text("X")])
        try tree.edit(2, 2, splitLevel: 1)
        try tree.style(0, 1, ["bold": true])
        _ = root.setNewTree("other", docWithAB)
        try tree.edit(9, 9, [.text("Y")])   // out of range: the update fails here
      }
      Issue.record("the update should fail")
    } catch let error as YorkieError {
      #expect(error.code == .indexOutOfBounds)
    }
    #expect(try await DocumentState.of(doc) == before)
    #expect(await doc.checkInvariants() == nil)
    try await doc.update { root, _ in try root.tree("t")?.edit(3, 3, [.text("c")]) }
    #expect(try await treeXML(doc) == "<doc><p>abc</p></doc>")
  }

  @Test("a proxy used after its update: reads are empty, edits throw proxyExpired")
  func expiredProxy() async throws {
    final class Box: @unchecked Sendable { var tree: JSONTree? }
    let box = Box()
    let doc = Document(key: "tree")
    try await doc.update { root, _ in box.tree = root.setNewTree("t", docWithAB) }
    let tree = try #require(box.tree)
    let before = try await DocumentState.of(doc)
    #expect(tree.size == 0)
    #expect(tree.xml == "")
    #expect(tree.toJSON() == "")
    #expect(tree.root == .element("root"))
    let calls: [(String, () throws -> Void)] = [
      ("edit", { try tree.edit(1, 1, [.text("x")]) }),
      ("editByPath", { try tree.editByPath([0, 0], [0, 0], [.text("x")]) }),
      ("style", { try tree.style(0, 1, ["b": true]) }),
      ("styleByPath", { try tree.styleByPath([0], ["b": true]) }),
      ("styleByPath range", { try tree.styleByPath([0], [1], ["b": true]) }),
      ("removeStyle", { try tree.removeStyle(0, 1, keys: ["b"]) }),
      ("removeStyleByPath", { try tree.removeStyleByPath([0], [1], keys: ["b"]) }),
      ("pathToIndex", { _ = try tree.pathToIndex([0]) }),
      ("indexToPath", { _ = try tree.indexToPath(0) }),
      ("indexRangeToPosRange", { _ = try tree.indexRangeToPosRange((0, 0)) }),
      ("pathRangeToPosRange", { _ = try tree.pathRangeToPosRange(([0], [0])) }),
    ]
    for (name, call) in calls {
      do {
        try call()
        Issue.record("\(name) through an expired proxy should throw")
      } catch let error as YorkieError {
        #expect(error.code == .proxyExpired, "\(name)")
      }
    }
    #expect(try await DocumentState.of(doc) == before)
  }
}
