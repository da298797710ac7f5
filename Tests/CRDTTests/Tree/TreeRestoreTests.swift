@testable import CRDT
import Foundation
import Testing

// Identity-preserving undo/redo of tree edits (Yorkie v0.7.14+): TreeEdits that carry
// restoreSpans / restoreMode / retombstoneSpans, as a Yorkie JS client sends them when it undoes
// or redoes a tree edit. The restore changes are built by hand (spans captured from the removed
// nodes, as the JS client's `makeRestoreSpan` does) and applied to Documents as remote changes.
//
// Sources of the cases: Yorkie Go pkg/document/crdt/tree_restore_test.go (TestTreeRestoreUnremove,
// TestTreeRetombstoneThenRestore, TestTreeRestoreExecuteAfterGC, TestTreeRestoreParentGoneSkip,
// TestTreeRestoreRejectsForgedIdentity, TestTreeRestoreLengthCacheIntegrity,
// TestTreeRestoreRecreateKeepsTreeEditable, TestTreeRestoreConvergesUnderConcurrentEdit).

/// The JS peer that undoes and redoes: it only ever sends hand-built changes.
private let peer = actor(9)

@Suite("Tree undo/redo by identity (restore spans)")
struct TreeRestoreTests {
  /// Three replicas of the tree `value` at `$.t`, made by the first (actor 1).
  private func replicas(_ value: TreeNode) async throws -> [Document] {
    let docs = try await makeReplicas(3, key: "tree-restore")
    try await docs[0].update { root, _ in _ = root.setNewTree("t", value) }
    let setup = await docs[0].pendingChanges
    for doc in docs.dropFirst() { try await doc.applyChanges(setup) }
    return docs
  }

  private func xml(_ doc: Document) async throws -> String { try await doc.tree(atPath: "$.t")?.xml ?? "" }

  /// The tree's creation ticket and the spans of its removed nodes (parents first, or children
  /// first when `childFirst`), anchored as a JS client anchors them when it removes them.
  private func removedSpans(_ doc: Document, childFirst: Bool = false) async throws -> (tree: TimeTicket, spans: [TreeRestoreSpanRecord]) {
    let box = Captured<(TimeTicket, [TreeRestoreSpanRecord])>()
    try await doc.update { root, _ in
      guard let tree = root.tree("t")?.element else { return }
      var spans: [TreeRestoreSpanRecord] = []
      tree.root.forEachPreOrder { node in if node.isRemoved { spans.append(TreeRestoreTests.span(of: node)) } }
      box.value = (tree.createdAt, childFirst ? spans.reversed() : spans)
    }
    let value = try #require(box.value)
    return (value.0, value.1)
  }

  /// A node's restore span (the JS SDK's `makeRestoreSpan`): a text's left anchor is the last
  /// unit of its left sibling, which a later split leaves at the sibling's right piece.
  static func span(of node: CRDTTreeNode) -> TreeRestoreSpanRecord {
    let left = node.previousSibling.map { sibling in
      sibling.isText ? TreeNodeID(createdAt: sibling.id.createdAt, offset: sibling.id.offset + Int32(sibling.length) - 1) : sibling.id
    }
    return TreeRestoreSpanRecord(id: node.id, nodeType: node.type, isText: node.isText, length: node.isText ? Int32(node.length) : 0,
                                 value: node.value, attributes: node.attributes?.entries ?? [], parentID: node.parent?.id,
                                 leftSiblingID: left, rightSiblingID: node.nextSibling?.id)
  }

  /// The peer's restore change: a TreeEdit with zero-width positions at the tree's start (Yorkie
  /// does not use them) that revives `restoring` and removes `removing` again.
  private func restoreChange(tree: TimeTicket, rootID: TreeNodeID, lamport: Int64, seq: UInt32, vector: VersionVector,
                             restoring: [TreeRestoreSpanRecord], removing: [TreeRestoreSpanRecord] = [],
                             mode: RestoreMode = .restore) -> Change {
    let at = TimeTicket(lamport: lamport, delimiter: 1, actorID: peer)
    let start = CRDTTreePos(parentID: rootID, leftSiblingID: rootID)
    let (spans, others) = mode == .retombstone ? (removing, restoring) : (restoring, removing)
    let edit = TreeEditPayload(parentCreatedAt: tree, from: start, to: start, executedAt: at, restoreSpans: spans, restoreMode: mode,
                               retombstoneSpans: others)
    var seen = vector
    seen.set(peer, lamport)
    return Change(id: ChangeID(clientSeq: seq, lamport: lamport, actorID: peer, versionVector: seen), operations: [.treeEdit(edit)])
  }

  /// The identities of the tree's nodes, parents first (the root first).
  private func nodeIDs(_ doc: Document) async throws -> [TreeNodeID] {
    let box = Captured<[TreeNodeID]>()
    try await doc.update { root, _ in
      var ids: [TreeNodeID] = []
      root.tree("t")?.element?.root.forEachPreOrder { ids.append($0.id) }
      box.value = ids
    }
    return try #require(box.value)
  }

  @Test("undo of a text deletion revives the removed piece in place, and redo removes it again")
  func undoRedoTextDeletion() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("hello")])]))
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(2, 5) }  // removes "ell"
    let deletion = try await a.changes(since: await b.versionVector)
    try await b.applyChanges(deletion)
    #expect(try await xml(b) == "<r><p>ho</p></r>")
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    #expect(spans.map(\.value) == ["ell"])
    #expect(spans.map(\.id.offset) == [1])
    let vector = await a.versionVector
    let undo = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: vector, restoring: spans)
    let redo = restoreChange(tree: tree, rootID: rootID, lamport: 11, seq: 2, vector: vector, restoring: [], removing: spans, mode: .retombstone)
    for doc in [a, b] {
      #expect(await doc.garbageLength == 1)
      try await doc.applyChanges([undo])
      #expect(try await xml(doc) == "<r><p>hello</p></r>")
      #expect(await doc.garbageLength == 0)  // the revived piece's pair is forgotten, as Yorkie unregisters it
      #expect(await doc.checkInvariants() == nil)
      try await doc.applyChanges([redo])
      #expect(try await xml(doc) == "<r><p>ho</p></r>")
      #expect(await doc.garbageLength == 1)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await a.toJSON() == (await b.toJSON()))
    // The revived text is edited as any other.
    try await b.update { root, _ in try root.tree("t")?.edit(1, 2, [.text("J")]) }
    #expect(try await xml(b) == "<r><p>Jo</p></r>")
  }

  @Test("undo of an element deletion revives the element with its attributes and text, whatever the order of the spans",
        arguments: [false, true])
  func undoElementDeletion(childFirst: Bool) async throws {
    let docs = try await replicas(.element("r", children: [
      .element("p", attributes: ["a": .string("1")], children: [.text("ab")]), .element("q", children: [.text("c")]),
    ]))
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(0, 4) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(try await xml(b) == "<r><q>c</q></r>")
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a, childFirst: childFirst)
    #expect(spans.map(\.nodeType) == (childFirst ? ["text", "p"] : ["p", "text"]))
    let undo = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: await a.versionVector, restoring: spans)
    for doc in [a, b] {
      let events = await doc.events()
      try await doc.applyChanges([undo])
      #expect(try await xml(doc) == #"<r><p a="1">ab</p><q>c</q></r>"#)
      #expect(await doc.garbageLength == 0)
      #expect(await doc.checkInvariants() == nil)
      guard case .remoteChange(let change)? = await EventTests.take(1, from: events).first else {
        Issue.record("expected a remote change")
        continue
      }
      // Parent first, then its text inside it, as Yorkie's JS SDK reports a restored subtree.
      #expect(change.operations.map(\.description) == [
        #"tree-edit $.t 0..<0 [0]..<[0] <p a="1"></p>"#, "tree-edit $.t 1..<1 [0, 0]..<[0, 0] ab",
      ])
    }
    // Sizes are exact: the same as a replica that never removed the paragraph.
    let fresh = try await replicas(.element("r", children: [
      .element("p", attributes: ["a": .string("1")], children: [.text("ab")]), .element("q", children: [.text("c")]),
    ]))
    #expect(await a.size.live == (await fresh[0].size.live))
  }

  @Test("undo after garbage collection purged the nodes recreates them under their identities, before the right sibling")
  func undoAfterPurgeRecreates() async throws {
    let docs = try await replicas(.element("r", children: [
      .element("p", attributes: ["a": .string("1")], children: [.text("ab")]), .element("q", children: [.text("c")]),
    ]))
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(0, 4) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    let vector = await a.versionVector
    #expect(await b.garbageCollect(minSyncedVersionVector: vector) == 2)
    #expect(await b.garbageLength == 0)
    let undo = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: vector, restoring: spans)
    try await a.applyChanges([undo])  // revives
    try await b.applyChanges([undo])  // recreates
    for doc in [a, b] {
      #expect(try await xml(doc) == #"<r><p a="1">ab</p><q>c</q></r>"#)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await a.snapshot() == (await b.snapshot()))
    #expect(await a.size == (await b.size))
    // The recreated paragraph is edited as any other: between "a" and "b".
    try await b.update { root, _ in try root.tree("t")?.edit(2, 2, [.text("Z")]) }
    #expect(try await xml(b) == #"<r><p a="1">aZb</p><q>c</q></r>"#)
    // Redo removes the recreated nodes again; they are garbage like any removed node.
    let redo = restoreChange(tree: tree, rootID: rootID, lamport: 11, seq: 2, vector: vector, restoring: [], removing: spans, mode: .retombstone)
    try await b.applyChanges([redo])
    #expect(try await xml(b) == "<r><q>c</q></r>")
    // p, the two pieces of its text, and Z: the redo's ticket (11) is older than Z's insertion
    // (12), so in ticket order Z goes into the removed paragraph and is born removed, as on a
    // replica that received the redo first.
    #expect(await b.garbageLength == 4)
    #expect(await b.checkInvariants() == nil)
  }

  @Test("a text whose parent stays removed is revived under it, invisible, and shows when the parent comes back")
  func parentStaysRemoved() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("ab")]), .element("q")]))
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(0, 4) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    let text = try #require(spans.last)
    let paragraph = try #require(spans.first)
    let undo = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: await a.versionVector, restoring: [text])
    try await a.applyChanges([undo])
    #expect(try await xml(a) == "<r><q></q></r>")
    // Only the paragraph is garbage now; it holds live content, so collection keeps it.
    #expect(await a.garbageLength == 1)
    #expect(await a.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 0)
    #expect(await a.checkInvariants() == nil)
    let parent = restoreChange(tree: tree, rootID: rootID, lamport: 11, seq: 2, vector: await a.versionVector, restoring: [paragraph])
    try await a.applyChanges([parent])
    #expect(try await xml(a) == "<r><p>ab</p><q></q></r>")
    #expect(await a.garbageLength == 0)
    #expect(await a.checkInvariants() == nil)
  }

  @Test("a restore and a concurrent insertion converge in either order, the restore's rewinds included")
  func restoreAndConcurrentInsertConverge() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("hello")])]))
    let (a, b, c) = (docs[0], docs[1], docs[2])
    let base = await a.versionVector
    // D: a removes "hello"; X: b, not having seen D, inserts W inside it with a newer ticket.
    try await a.update { root, _ in try root.tree("t")?.edit(1, 6) }
    let d = try await a.changes(since: base)
    for _ in 1...20 { try await b.update { root, _ in root["bump"] = 1 } }
    try await b.update { root, _ in try root.tree("t")?.edit(3, 3, [.text("W")]) }
    let x = try await b.changes(since: base)
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    // U: the peer undoes D, having seen D but not X; its ticket is older than X's.
    let u = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: await a.versionVector, restoring: spans)
    #expect(u.id.lamport < x.last!.id.lamport)
    try await c.applyChanges(d + [u] + x)   // in ticket order
    try await b.applyChanges(d)            // b: X, D, U (each older than X: rewinds)
    try await b.applyChanges([u])
    try await a.applyChanges([u] + x)      // a: D, U, X
    for doc in [a, b, c] {
      #expect(try await xml(doc) == "<r><p>heWllo</p></r>")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await a.snapshot() == (await b.snapshot()))
    #expect(await b.snapshot() == (await c.snapshot()))
    #expect(await a.size == (await b.size))
  }

  @Test("undo of a text deletion revives it where a concurrent merge moved it, in either order")
  func restoreAfterConcurrentMerge() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("ab")]), .element("p", children: [.text("cd")])]))
    let (a, b, c) = (docs[0], docs[1], docs[2])
    let base = await a.versionVector
    try await a.update { root, _ in try root.tree("t")?.edit(5, 7) }  // removes "cd"
    let d = try await a.changes(since: base)
    try await b.update { root, _ in try root.tree("t")?.edit(3, 5) }  // merges the paragraphs
    let m = try await b.changes(since: base)
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    var seen = await a.versionVector
    seen.set(actor(2), m.last!.id.lamport)
    let u = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: seen, restoring: spans)
    try await a.applyChanges(m + [u])
    try await b.applyChanges(d + [u])
    try await c.applyChanges(d + m + [u])
    for doc in [a, b, c] {
      #expect(try await xml(doc) == "<r><p>abcd</p></r>")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await a.snapshot() == (await b.snapshot()))
    #expect(await a.snapshot() == (await c.snapshot()))
  }

  @Test("a restore naming a node its change had not seen is refused, and a pack refused midway leaves no trace")
  func refusedRestoreLeavesNoTrace() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("hello")])]))
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in try root.tree("t")?.edit(2, 5) }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    let rootID = try await nodeIDs(a)[0]
    let (tree, spans) = try await removedSpans(a)
    let before = (try await xml(b), await b.snapshot(), await b.toJSON(), await b.garbageLength)
    // Forged: the change's vector does not cover the deletion's author.
    let forged = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: VersionVector(), restoring: spans)
    await #expect { try await b.applyChanges([forged]) } throws: { ($0 as? YorkieError)?.code == .unknownRestoreIdentity }
    // A valid undo, then a change whose span calls the paragraph text: the pack is refused whole.
    let vector = await a.versionVector
    let undo = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: vector, restoring: spans)
    var paragraph = spans[0]
    paragraph.id = try await nodeIDs(a)[1]  // the paragraph, named as text
    let broken = restoreChange(tree: tree, rootID: rootID, lamport: 11, seq: 2, vector: vector, restoring: [paragraph])
    await #expect { try await b.applyChanges([undo, broken]) } throws: { ($0 as? YorkieError)?.code == .invalidWireData }
    #expect(try await xml(b) == before.0)
    #expect(await b.snapshot() == before.1)
    #expect(await b.toJSON() == before.2)
    #expect(await b.garbageLength == before.3)
    #expect(await b.checkInvariants() == nil)
    try await b.applyChanges([undo])
    #expect(try await xml(b) == "<r><p>hello</p></r>")
  }

  @Test("malformed spans are refused before anything changes")
  func malformedSpans() async throws {
    let docs = try await replicas(.element("r", children: [.element("p", children: [.text("hello")])]))
    let b = docs[1]
    let vector = await docs[0].versionVector
    let ids = try await nodeIDs(b)  // r, p, text
    let (rootID, text) = (ids[0], ids[2])
    let (tree, _) = try await removedSpans(b)
    let cases: [TreeRestoreSpanRecord] = [
      TreeRestoreSpanRecord(id: rootID, nodeType: "r", isText: false),                                   // the root
      TreeRestoreSpanRecord(id: text, nodeType: "text", isText: true, length: 2, value: "abc"),          // length
      TreeRestoreSpanRecord(id: text, nodeType: "text", isText: true),                                   // empty text
      TreeRestoreSpanRecord(id: text, nodeType: "p", isText: true, length: 1, value: "a"),               // kind
      TreeRestoreSpanRecord(id: TreeNodeID(createdAt: text.createdAt, offset: 2), nodeType: "p", isText: false),  // offset
      TreeRestoreSpanRecord(id: text, nodeType: "p", isText: false),                                     // names text
    ]
    for span in cases {
      let change = restoreChange(tree: tree, rootID: rootID, lamport: 10, seq: 1, vector: vector, restoring: [span])
      await #expect { try await b.applyChanges([change]) } throws: { ($0 as? YorkieError)?.code == .invalidWireData }
      #expect(try await xml(b) == "<r><p>hello</p></r>")
    }
  }
}
