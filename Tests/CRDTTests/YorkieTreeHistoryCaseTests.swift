import CRDT
import Foundation
import Testing

// Yorkie's tree undo/redo integration cases not covered by TreeHistoryTests, with Yorkie's
// expected strings. Ported from yorkie-js-sdk `packages/sdk/test/integration`:
//
// - history_tree_concurrent_test.ts: concurrent overlapping deletions undone (and redone) after
//   garbage collection purged them, for the six overlap relationships; undo of one of two
//   concurrent splits of one node; and its two `it.skip` KNOWN cases (a whole element deleted
//   while a peer edits inside it), which only assert convergence.
// - history_tree_opinfo_test.ts: the operation infos of an undo and a redo are enough to mirror
//   the document (Yorkie's `follow`), and the positions they report.
// - history_tree_split_repro_test.ts: the redo of a block insertion does not grow from cycle to
//   cycle of typing, undoing and redoing.
//
// Two replicas (actors …01 and …02, Yorkie's client1 and client2) sync through the in-process
// `ChangeLog` (Support/Replicas.swift) in the order of the original's `client.sync()` calls,
// collecting garbage as a real client does.

private func xml(_ doc: Document) async -> String {
  ((try? await doc.tree(atPath: "$.t")?.xml) ?? nil) ?? "?"
}

private func edit(_ doc: Document, message: String? = nil, _ body: @escaping @Sendable (JSONTree) throws -> Void) async throws {
  try await doc.update(message: message) { root, _ in
    guard let tree = root.tree("t") else { throw YorkieError(.elementNotFound, "no tree at $.t") }
    try body(tree)
  }
}

/// `<p>` holding `text` (Yorkie's `para`).
private func para(_ text: String) -> TreeNode { .element("p", children: [.text(text)]) }

/// Two replicas of `<doc>` with `children` at `$.t`: client1 creates it and syncs, then client2.
/// The creation stays in client1's history, as in Yorkie.
private func twoTreeClients(_ children: [TreeNode]) async throws -> (Document, Document, ChangeLog) {
  let docs = try await makeReplicas(2)
  let log = ChangeLog(actors: [actor(1), actor(2)])
  try await docs[0].update(message: "init") { root, _ in _ = root.setNewTree("t", .element("doc", children: children)) }
  try await log.sync(docs[0])
  try await log.sync(docs[1])
  return (docs[0], docs[1], log)
}

/// Yorkie's `settle`: three rounds of client1 then client2, enough for the minimum version
/// vector to let garbage collection purge what both replicas removed.
private func settle(_ d1: Document, _ d2: Document, _ log: ChangeLog) async throws {
  for _ in 0..<3 {
    try await log.sync(d1)
    try await log.sync(d2)
  }
}

/// Yorkie's `c1.sync(); c2.sync(); c1.sync()`.
private func syncThree(_ d1: Document, _ d2: Document, _ log: ChangeLog) async throws {
  try await log.sync(d1)
  try await log.sync(d2)
  try await log.sync(d1)
}

/// Yorkie's `conv`: the replicas' sorted JSON is the same (their XML is shown when not).
private func expectConverged(_ d1: Document, _ d2: Document, _ label: String,
                             sourceLocation: SourceLocation = #_sourceLocation) async {
  let (json1, json2) = (await d1.toSortedJSON(), await d2.toSortedJSON())
  let (xml1, xml2) = (await xml(d1), await xml(d2))
  #expect(json1 == json2, "\(label) diverged: d1=\(xml1) d2=\(xml2)", sourceLocation: sourceLocation)
}

/// Both replicas show `expected`.
private func expectXML(_ d1: Document, _ d2: Document, _ expected: String, _ label: String,
                       sourceLocation: SourceLocation = #_sourceLocation) async {
  let (xml1, xml2) = (await xml(d1), await xml(d2))
  #expect(xml1 == expected, "d1 \(label)", sourceLocation: sourceLocation)
  #expect(xml2 == expected, "d2 \(label)", sourceLocation: sourceLocation)
}

/// `doc` shows `expected`.
private func expectXML(_ doc: Document, _ expected: String, _ label: String = "",
                       sourceLocation: SourceLocation = #_sourceLocation) async {
  let actual = await xml(doc)
  #expect(actual == expected, "\(label)", sourceLocation: sourceLocation)
}

private func expectSound(_ docs: Document..., sourceLocation: SourceLocation = #_sourceLocation) async {
  for doc in docs { #expect(await doc.checkInvariants() == nil, sourceLocation: sourceLocation) }
}

// MARK: - history_tree_concurrent_test.ts

/// One overlap relationship: the range client1 deletes, the range client2 deletes (tree
/// indexes in `<doc><p>0123456789</p></doc>`), and the text left once both deletions apply.
struct OverlapCase: Sendable, CustomTestStringConvertible {
  let name: String
  let d1: (Int, Int)
  let d2: (Int, Int)
  let afterDeletes: String
  var testDescription: String { name }
}

@Suite("Yorkie's tree history cases: concurrent overlapping undo after GC")
struct YorkieTreeHistoryConcurrentCaseTests {
  static let digits = "<doc><p>0123456789</p></doc>"

  static let overlaps: [OverlapCase] = [
    OverlapCase(name: "contained_by", d1: (5, 7), d2: (3, 9), afterDeletes: "<doc><p>0189</p></doc>"),
    OverlapCase(name: "contains", d1: (3, 9), d2: (5, 7), afterDeletes: "<doc><p>0189</p></doc>"),
    OverlapCase(name: "overlap_start", d1: (5, 9), d2: (3, 7), afterDeletes: "<doc><p>0189</p></doc>"),
    OverlapCase(name: "overlap_end", d1: (3, 7), d2: (5, 9), afterDeletes: "<doc><p>0189</p></doc>"),
    OverlapCase(name: "identical", d1: (3, 7), d2: (3, 7), afterDeletes: "<doc><p>016789</p></doc>"),
    OverlapCase(name: "adjacent", d1: (3, 5), d2: (5, 7), afterDeletes: "<doc><p>016789</p></doc>"),
  ]

  /// Both replicas delete their range, then settle twice so the removed nodes are purged.
  private static func deleteAndPurge(_ overlap: OverlapCase) async throws -> (Document, Document, ChangeLog) {
    let (d1, d2, log) = try await twoTreeClients([para("0123456789")])
    #expect(await xml(d1) == digits)
    let (r1, r2) = (overlap.d1, overlap.d2)
    try await edit(d1, message: "d1 delete") { try $0.edit(r1.0, r1.1) }
    try await edit(d2, message: "d2 delete") { try $0.edit(r2.0, r2.1) }
    try await settle(d1, d2, log)
    try await settle(d1, d2, log)  // lets GC purge the tombstones
    await expectConverged(d1, d2, "after deletes")
    await expectXML(d1, d2, overlap.afterDeletes, "after deletes")
    return (d1, d2, log)
  }

  /// Yorkie's "converges on undo" and "converges on undo+redo" of overlapping deletes: the first
  /// is the second stopped after the undos.
  @Test("converges on undo (and redo) of overlapping deletes", arguments: overlaps, [false, true])
  func undoRedoOverlappingDeletes(_ overlap: OverlapCase, redoes: Bool) async throws {
    let (d1, d2, log) = try await Self.deleteAndPurge(overlap)
    try await d1.undo()
    try await d2.undo()
    try await settle(d1, d2, log)
    await expectConverged(d1, d2, "after undo")
    await expectXML(d1, d2, Self.digits, "after undo")
    if redoes {
      try await d1.redo()
      try await d2.redo()
      try await settle(d1, d2, log)
      await expectConverged(d1, d2, "after redo")
      await expectXML(d1, d2, overlap.afterDeletes, "after redo")
    }
    await expectSound(d1, d2)
  }

  /// Yorkie's two skipped cases (KNOWN limitation there: the visible content converges, the
  /// text-node segmentation may not; in the second, d1's text is segmented "a","aa","a" and
  /// d2's "aaaa"): d1 deletes whole paragraphs while d2 edits inside the first, both undo. They
  /// assert convergence only; the XML is the visible content their comments say both replicas
  /// reach.
  struct SegmentationCase: Sendable, CustomTestStringConvertible {
    let name: String
    let paragraphs: [String]
    let deleted: (Int, Int)
    let replaced: (Int, Int)
    let afterOps: String
    var testDescription: String { name }
  }

  static let segmentationCases = [
    SegmentationCase(name: "a whole <p> vs an edit inside it", paragraphs: ["hello", "world"], deleted: (0, 7),
                     replaced: (3, 5), afterOps: "<doc><p>world</p></doc>"),
    SegmentationCase(name: "two <p> vs an edit inside the first", paragraphs: ["aaaa", "bbbb", "cccc"], deleted: (0, 12),
                     replaced: (2, 4), afterOps: "<doc><p>cccc</p></doc>"),
  ]

  @Test("KNOWN (skipped in Yorkie): paragraphs deleted while a peer edits inside, both undo", arguments: segmentationCases)
  func undoDeletedParagraphsVsInsideEdit(_ testCase: SegmentationCase) async throws {
    let (d1, d2, log) = try await twoTreeClients(testCase.paragraphs.map(para))
    let original = "<doc>" + testCase.paragraphs.map { "<p>\($0)</p>" }.joined() + "</doc>"
    try await edit(d1, message: "d1 delete") { try $0.edit(testCase.deleted.0, testCase.deleted.1) }
    try await edit(d2, message: "d2 edit inside") { try $0.edit(testCase.replaced.0, testCase.replaced.1, [.text("XY")]) }
    try await settle(d1, d2, log)
    try await settle(d1, d2, log)
    await expectConverged(d1, d2, "after ops")
    await expectXML(d1, d2, testCase.afterOps, "after ops")
    try await d1.undo()
    try await d2.undo()
    try await settle(d1, d2, log)
    await expectConverged(d1, d2, "after undo")
    await expectXML(d1, d2, original, "after undo")
    await expectSound(d1, d2)
  }

  @Test("undo one of two concurrent splits of the same node")
  func undoOneOfTwoSplits() async throws {
    let (d1, d2, log) = try await twoTreeClients([.element("p", children: [.element("span", children: [.text("abcde")])])])
    try await edit(d1) { try $0.editByPath([0, 0, 1], [0, 0, 1], splitLevel: 1) }
    try await edit(d2) { try $0.editByPath([0, 0, 4], [0, 0, 4], splitLevel: 1) }
    try await settle(d1, d2, log)
    await expectConverged(d1, d2, "after splits")
    await expectXML(d1, d2, "<doc><p><span>a</span><span>bcd</span><span>e</span></p></doc>", "after splits")
    try await d2.undo()
    try await settle(d1, d2, log)
    await expectXML(d1, d2, "<doc><p><span>a</span><span>bcde</span></p></doc>", "after undo")
    await expectConverged(d1, d2, "after undo")
    await expectSound(d1, d2)
  }
}

// MARK: - history_tree_opinfo_test.ts

/// Yorkie's `follow`: a detached mirror of `source`'s tree that changes only by the tree-edit
/// operation infos `source` publishes (local and remote), as an editor binding would. If the
/// infos describe the changes, the mirror reads as `source` does.
private struct TreeFollower {
  let source: Document
  let mirror = Document(key: "mirror")
  private var events: AsyncStream<DocEvent>.AsyncIterator
  /// The tree-edit infos of this replica's undos and redos, in order.
  private(set) var undoRedoInfos: [OperationInfo] = []
  /// The infos the mirror refused (an invalid path), each with the error.
  private(set) var refused: [String] = []

  init(_ source: Document) async throws {
    self.source = source
    let start = try await source.tree(atPath: "$.t")?.root ?? .element("doc")
    try await mirror.update { root, _ in _ = root.setNewTree("t", start) }
    events = await source.events().makeAsyncIterator()
  }

  /// Applies every event `source` published since the last call. `undoRedo`: the local changes
  /// among them are undos or redos (Yorkie's `source === 'undoredo'`). The events are all in the
  /// stream's buffer already (a document emits before its call returns); a marker event emitted
  /// to this document's subscribers ends the batch.
  mutating func catchUp(undoRedo: Bool = false) async {
    await source.emit([.initialized([])])
    while let event = await events.next() {
      let change: ChangeEvent
      var isLocal = false
      switch event {
      case .initialized: return
      case .localChange(let local):
        change = local
        isLocal = true
      case .remoteChange(let remote): change = remote
      default: continue
      }
      for info in change.operations where info.type == .treeEdit {
        if undoRedo && isLocal { undoRedoInfos.append(info) }
        let (from, to, contents) = (info.fromPath ?? [], info.toPath ?? [], info.treeContents ?? [])
        do {
          try await edit(mirror) { try $0.editByPath(from, to, contents) }
        } catch {
          refused.append("\(info): \(error)")
        }
      }
    }
  }

  /// The mirror's XML.
  func mirrorXML() async -> String { await xml(mirror) }
}

/// An edit of the op-info cases: its name, the texts of the paragraphs it starts from, the edit
/// (by path) and the XML it leaves. (Texts, not `TreeNode`s: an indirect enum held by a stored
/// global is reported as a leak by LeakSanitizer, the CI run under AddressSanitizer.)
struct OpInfoCase: Sendable, CustomTestStringConvertible {
  let name: String
  let paragraphs: [String]
  let edit: @Sendable (JSONTree) throws -> Void
  let after: String
  var testDescription: String { name }
}

@Suite("Yorkie's tree history cases: undo/redo OpInfo positions")
struct YorkieTreeHistoryOpInfoCaseTests {
  static let cases: [OpInfoCase] = [
    OpInfoCase(name: "insert text", paragraphs: ["abcd"], edit: { try $0.editByPath([0, 2], [0, 2], [.text("X")]) },
               after: "<doc><p>abXcd</p></doc>"),
    OpInfoCase(name: "delete text", paragraphs: ["abcd"], edit: { try $0.editByPath([0, 1], [0, 3]) },
               after: "<doc><p>ad</p></doc>"),
    OpInfoCase(name: "insert element", paragraphs: ["ab"], edit: { try $0.editByPath([1], [1], [para("cd")]) },
               after: "<doc><p>ab</p><p>cd</p></doc>"),
    OpInfoCase(name: "delete element", paragraphs: ["ab", "cd"], edit: { try $0.editByPath([0], [1]) },
               after: "<doc><p>cd</p></doc>"),
    OpInfoCase(name: "delete two elements", paragraphs: ["ab", "cd", "ef"],
               edit: { try $0.editByPath([0], [2]) }, after: "<doc><p>ef</p></doc>"),
  ]

  /// Both mirrors read as their replicas.
  private static func expectMirrors(_ m1: TreeFollower, _ m2: TreeFollower, _ label: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) async {
    for (name, follower) in [("d1", m1), ("d2", m2)] {
      let (mirrored, actual) = (await follower.mirrorXML(), await xml(follower.source))
      #expect(mirrored == actual, "\(name) \(label)", sourceLocation: sourceLocation)
      #expect(follower.refused.isEmpty, "\(name) \(label)", sourceLocation: sourceLocation)
    }
  }

  @Test("reports where undo and redo landed", arguments: cases)
  func undoRedoLanded(_ opCase: OpInfoCase) async throws {
    let (d1, d2, log) = try await twoTreeClients(opCase.paragraphs.map(para))
    let before = await xml(d1)
    var m1 = try await TreeFollower(d1)
    var m2 = try await TreeFollower(d2)
    func step(_ label: String, expected: String) async throws {
      try await syncThree(d1, d2, log)
      await m1.catchUp()
      await m2.catchUp()
      await Self.expectMirrors(m1, m2, label)
      await expectConverged(d1, d2, label)
      await expectXML(d1, d2, expected, label)
    }

    try await edit(d1, opCase.edit)
    try await step("after edit", expected: opCase.after)
    try await d1.undo()
    await m1.catchUp(undoRedo: true)
    try await step("after undo", expected: before)
    try await d1.redo()
    await m1.catchUp(undoRedo: true)
    try await step("after redo", expected: opCase.after)

    #expect(!m1.undoRedoInfos.isEmpty)
    for info in m1.undoRedoInfos { #expect((info.fromPath ?? []).count > 0, "undo/redo reports a path") }
    await expectSound(d1, d2)
  }

  @Test("reports shifted positions when a peer edited before the undone text")
  func shiftedPositions() async throws {
    let (d1, d2, log) = try await twoTreeClients([para("ab")])
    var m1 = try await TreeFollower(d1)
    var m2 = try await TreeFollower(d2)
    func sync() async throws {
      try await syncThree(d1, d2, log)
      await m1.catchUp()
      await m2.catchUp()
    }

    try await edit(d1) { try $0.editByPath([0, 2], [0, 2], [.text("cd")]) }
    try await sync()
    try await edit(d2) { try $0.editByPath([0, 0], [0, 0], [.text("XYZ")]) }
    try await sync()
    await expectXML(d1, d2, "<doc><p>XYZabcd</p></doc>", "after edits")

    try await d1.undo()
    await m1.catchUp(undoRedo: true)
    try await sync()
    await expectXML(d1, "<doc><p>XYZab</p></doc>")
    await expectConverged(d1, d2, "after undo")
    await Self.expectMirrors(m1, m2, "after undo")
    #expect(m1.undoRedoInfos.map { [$0.fromPath ?? [], $0.toPath ?? []] } == [[[0, 5], [0, 7]]])
    await expectSound(d1, d2)
  }

  @Test("reports nothing when the undone nodes stay under a removed ancestor")
  func nothingUnderRemovedAncestor() async throws {
    let (d1, d2, log) = try await twoTreeClients([para("ab"), para("cd")])
    var m1 = try await TreeFollower(d1)
    var m2 = try await TreeFollower(d2)
    func sync() async throws {
      try await syncThree(d1, d2, log)
      await m1.catchUp()
      await m2.catchUp()
    }

    // d1 empties the first paragraph, then d2 removes it: d1's undo brings the text back under a
    // removed ancestor, which takes no room in the index, so there is no position to report.
    try await edit(d1) { try $0.editByPath([0, 0], [0, 2]) }
    try await sync()
    try await edit(d2) { try $0.editByPath([0], [1]) }
    try await sync()
    await expectXML(d1, "<doc><p>cd</p></doc>")
    await expectConverged(d1, d2, "after edits")

    try await d1.undo()
    await m1.catchUp(undoRedo: true)
    try await sync()
    #expect(m1.undoRedoInfos.isEmpty, "undo reports no position")
    await expectXML(d1, "<doc><p>cd</p></doc>")
    await expectConverged(d1, d2, "after d1's undo")
    await Self.expectMirrors(m1, m2, "after undo")

    // The undo reported nothing but reached d2: undoing d2's removal brings the paragraph back
    // with the text only if d1's restore landed there too.
    try await d2.undo()
    await m2.catchUp(undoRedo: true)
    try await sync()
    await expectXML(d2, "<doc><p>ab</p><p>cd</p></doc>")
    await expectXML(d1, await xml(d2))
    await expectConverged(d1, d2, "after d2's undo")
    await expectSound(d1, d2)
  }

  @Test("reports a restored subtree parent first, then its children")
  func parentThenChildren() async throws {
    let (d1, d2, log) = try await twoTreeClients([para("ab"), para("cd")])
    var m1 = try await TreeFollower(d1)
    var m2 = try await TreeFollower(d2)

    try await edit(d1) { try $0.editByPath([1], [2]) }
    try await log.sync(d1)
    try await log.sync(d2)
    await m1.catchUp()
    await m2.catchUp()
    try await d1.undo()
    await m1.catchUp(undoRedo: true)
    try await log.sync(d1)
    try await log.sync(d2)
    await m1.catchUp()
    await m2.catchUp()

    await expectXML(d2, "<doc><p>ab</p><p>cd</p></doc>")
    await expectConverged(d1, d2, "after undo")
    await Self.expectMirrors(m1, m2, "after undo")
    let reported = m1.undoRedoInfos.map { ($0.fromPath ?? [], $0.treeContents ?? []) }
    #expect(reported.map(\.0) == [[1], [1, 0]])
    #expect(reported.map(\.1) == [[.element("p")], [.text("cd")]])
    await expectSound(d1, d2)
  }
}

// MARK: - history_tree_split_repro_test.ts

@Suite("Yorkie's tree history cases: split-redo accumulation")
struct YorkieTreeHistorySplitReproCaseTests {
  /// What the redo's TreeEdit carries on the wire: the nodes of its contents, and the nodes it
  /// revives or removes again by identity.
  struct Payload: Equatable, CustomStringConvertible {
    var contents = 0
    var restoreSpans = 0
    var retombstoneSpans = 0
    var description: String { "contents \(contents), restore \(restoreSpans), retombstone \(retombstoneSpans)" }
  }

  /// The payload of the tree edits of `doc`'s latest change. Yorkie reads the top of the redo
  /// stack just before the redo; here the change the redo made is read from the pack it would
  /// push, which is what reaches the server.
  private static func latestPayload(_ doc: Document) async throws -> Payload {
    var payload = Payload()
    guard let change = try await doc.createChangePack().changes.last else { return payload }
    for operation in change.operations {
      guard case .treeEdit(let treeEdit) = operation else { continue }
      payload.contents += treeEdit.contents.reduce(0) { $0 + $1.count }
      payload.restoreSpans += treeEdit.restoreSpans.count
      payload.retombstoneSpans += treeEdit.retombstoneSpans.count
    }
    return payload
  }

  /// Types `character` at the end of the second block's inline element.
  private static func typeInSecondBlock(_ doc: Document, _ character: String) async throws {
    try await edit(doc, message: "type-\(character)") { tree in
      var length = 0
      if case .element(_, _, let blocks) = tree.root, blocks.count > 1,
         case .element(_, _, let inlines) = blocks[1], let inline = inlines.first,
         case .element(_, _, let texts) = inline {
        for case .text(let value) in texts { length += value.utf16.count }
      }
      try tree.editByPath([1, 0, length], [1, 0, length], [.text(character)])
    }
  }

  @Test("the redo of a block insertion carries the same payload in every cycle")
  func redoPayloadStaysTheSame() async throws {
    let doc = Document(key: "split-repro")
    try await doc.setActor(actor(1))  // a pack is only made for a replica with an actor
    try await doc.update(message: "init") { root, _ in
      _ = root.setNewTree("t", .element("doc", children: [.element("p", children: [.element("inline")])]))
    }
    try await edit(doc, message: "insert-block") { try $0.editByPath([1], [1], [.element("p", children: [.element("inline")])]) }

    var payloads: [Payload] = []
    for cycle in 0..<4 {
      for character in ["a", "s", "d", "f"] { try await Self.typeInSecondBlock(doc, character) }
      await expectXML(doc, "<doc><p><inline></inline></p><p><inline>asdf</inline></p></doc>", "cycle \(cycle)")
      for _ in 0..<4 { try await doc.undo() }
      try await doc.undo()  // the block insertion
      await expectXML(doc, "<doc><p><inline></inline></p></doc>", "cycle \(cycle) before redo")
      try await doc.redo()
      await expectXML(doc, "<doc><p><inline></inline></p><p><inline></inline></p></doc>", "cycle \(cycle) after redo")
      payloads.append(try await Self.latestPayload(doc))
    }
    print("split-repro: redo payloads per cycle: \(payloads)")
    #expect(payloads == Array(repeating: payloads[0], count: payloads.count))
    #expect(await doc.checkInvariants() == nil)
  }
}
