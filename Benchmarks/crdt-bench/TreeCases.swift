import CRDT
import Foundation
import YorkieProtocol

// Yorkie's Tree workloads, shaped as its Go benchmarks (test/bench/document_bench_test.go:
// benchmarkTree, benchmarkTreeEditGC, benchmarkTreeSplitGC; tree_editing_bench_test.go:
// BenchmarkTree's "N vertices to/from protobuf" over buildTree(N)), plus remote application and
// snapshot loading of the same shapes.

let treeCases: [BenchCase] = [
  treeCase(1000), treeCase(10_000),
  treeEditGCCase(1000), treeSplitGCCase(1000),
  treeRemoteInsertCase(1600), treeRemoteDeleteCase(1600),
  treeSnapshotCase(30_000),
  treeToWireCase(10_000), treeToWireCase(20_000), treeToWireCase(30_000),
  treeFromWireCase(10_000), treeFromWireCase(20_000), treeFromWireCase(30_000),
]

/// Yorkie's starting tree: a root holding one empty paragraph (`<root><p></p></root>`).
let paragraphTree = TreeNode.element("root", children: [.element("p")])

/// `<root><p>` + `count` copies of `character` + `</p></root>`.
func paragraphXML(_ character: String, _ count: Int) -> String {
  "<root><p>" + String(repeating: character, count: count) + "</p></root>"
}

/// Go's `buildTree(N)`: a root "r" holding N paragraphs, each with the text "a".
func wideTree(_ paragraphs: Int) -> TreeNode {
  .element("r", children: Array(repeating: .element("p", children: [.text("a")]), count: paragraphs))
}

/// The process's CPU seconds over a measured region (see ``processCPUSeconds()``): on the shared
/// machine the wall-clock `seconds` include waiting for a core, this does not.
func cpuField(since start: Double) -> Field {
  Field("cpu_seconds", .double(rounded(processCPUSeconds() - start)))
}

extension Document {
  /// Yorkie `tree N`: one update that creates the tree and inserts the text "a" at indexes
  /// 1 … N (each edit a text node of its own, after the previous one).
  func benchTreeType(count: Int) throws -> (Measured, cpu: Field) {
    var deciles = Deciles(total: count)
    let cpuStart = processCPUSeconds()
    let start = benchClock.now
    try update { root, _ in
      let tree = root.setNewTree("t", paragraphTree)
      for c in 1...count {
        deciles.tick(c - 1)
        try tree.edit(c, c, [.text("a")])
      }
      deciles.tick(count)
    }
    return (Measured(seconds: (benchClock.now - start).seconds, deciles: deciles), cpuField(since: cpuStart))
  }

  /// The tree "t" as XML ("" when there is none).
  func treeXML() -> String {
    (try? tree(atPath: "$.t"))?.xml ?? ""
  }
}

/// `tree N`: N single-character inserts into a paragraph, one update.
func treeCase(_ n: Int) -> BenchCase {
  BenchCase(name: "tree_\(n)", ops: n, summary: "insert \(grouped(n)) one-character texts into a tree's paragraph, one update") {
    let expected = paragraphXML("a", n)
    return {
      await guarded {
        let doc = Document(key: "d1")
        let (measured, cpu) = try await doc.benchTreeType(count: n)
        var checks = Checks()
        let xml = await doc.treeXML()
        checks.expect(xml == expected, "tree XML differs: " + firstDifference(xml, expected))
        await checkInvariants(of: doc, &checks)
        return checks.trial(measured.seconds, [cpu] + decileFields(measured), windows: measured.windows)
      }
    }
  }
}

/// Yorkie's tree GC benchmarks: fill the paragraph, replace every character one by one in a
/// second update (`edit(c, c + 1, "b")`), then GC with a maximal vector. Yorkie expects N
/// garbage nodes and N purged. Timed together, as Go times its loop body.
func treeReplaceGCCase(name: String, _ n: Int, summary: String,
                       fill: @escaping @Sendable (JSONTree) throws -> Void) -> BenchCase {
  BenchCase(name: name, ops: n, summary: summary) {
    {
      await guarded {
        let doc = Document(key: "d1")
        let cpuStart = processCPUSeconds()
        let start = benchClock.now
        try await doc.update { root, _ in try fill(root.setNewTree("t", paragraphTree)) }
        try await doc.update { root, _ in
          let tree = root.tree("t")!
          for c in 1...n { try tree.edit(c, c + 1, [.text("b")]) }
        }
        let garbage = await doc.garbageLength
        let purged = await doc.garbageCollect(minSyncedVersionVector: VersionVector([.initial: .max]))
        let seconds = (benchClock.now - start).seconds
        let cpu = cpuField(since: cpuStart)
        var checks = Checks()
        checks.expect(garbage == n, "garbageLength \(garbage), Yorkie expects \(n)")
        checks.expect(purged == n, "garbageCollect returned \(purged), Yorkie expects \(n)")
        checks.expect(await doc.garbageLength == 0, "garbage left after GC")
        let xml = await doc.treeXML()
        checks.expect(xml == paragraphXML("b", n), "tree differs: " + firstDifference(xml, paragraphXML("b", n)))
        await checkInvariants(of: doc, &checks)
        return checks.trial(seconds, [cpu, Field("purged", .int(purged))])
      }
    }
  }
}

/// Yorkie `tree edit gc N`: the paragraph is filled with N single-character inserts.
func treeEditGCCase(_ n: Int) -> BenchCase {
  treeReplaceGCCase(name: "tree_edit_gc_\(n)", n,
                    summary: "insert \(grouped(n)) one-character texts into a tree, replace each in one update, GC") { tree in
    for c in 1...n { try tree.edit(c, c, [.text("a")]) }
  }
}

/// Yorkie `tree split gc N`: the paragraph is one N-character text, split by every replacement.
func treeSplitGCCase(_ n: Int) -> BenchCase {
  treeReplaceGCCase(name: "tree_split_gc_\(n)", n,
                    summary: "insert one \(grouped(n))-character text into a tree, replace each character in one update, GC") { tree in
    try tree.edit(1, 1, [.text(String(repeating: "a", count: n))])
  }
}

/// The changes of a replica (actor 1) that creates the tree in one change, then makes `count`
/// changes of one edit each; with the XML it ends with.
func recordTreeChanges(setup: @escaping @Sendable (JSONTree) throws -> Void, count: Int,
                       edit: @escaping @Sendable (JSONTree, Int) throws -> Void) -> (setup: [Change], edits: [Change], xml: String) {
  let box = BlockingBox<([Change], [Change], String)>()
  Task.detached {
    let doc = Document(key: "tree")
    try! await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
    try! await doc.update { root, _ in try setup(root.setNewTree("t", paragraphTree)) }
    for c in 1...count {
      try! await doc.update { root, _ in try edit(root.tree("t")!, c) }
    }
    let changes = await doc.pendingChanges
    box.set((Array(changes.prefix(1)), Array(changes.dropFirst()), await doc.treeXML()))
  }
  return box.wait()
}

/// Applies a source's changes to a fresh replica (actor 2): the setup pack untimed, then the
/// `edits` pack timed. Checks the XML, the garbage left and the invariants.
func treeRemoteTrial(_ recorded: (setup: [Change], edits: [Change], xml: String), expectedXML: String,
                     expectedGarbage: Int) async -> Trial {
  await guarded {
    let doc = Document(key: "tree")
    try await doc.setActor(try ActorID(hex: "000000000000000000000002"))
    try await doc.applyChangePack(ChangePack(key: "tree", checkpoint: .initial, changes: recorded.setup))
    let cpuStart = processCPUSeconds()
    let start = benchClock.now
    try await doc.applyChangePack(ChangePack(key: "tree", checkpoint: .initial, changes: recorded.edits))
    let seconds = (benchClock.now - start).seconds
    let cpu = cpuField(since: cpuStart)
    var checks = Checks()
    checks.expect(recorded.xml == expectedXML, "the source's tree differs: " + firstDifference(recorded.xml, expectedXML))
    let xml = await doc.treeXML()
    checks.expect(xml == expectedXML, "the replica's tree differs: " + firstDifference(xml, expectedXML))
    let garbage = await doc.garbageLength
    checks.expect(garbage == expectedGarbage, "garbageLength \(garbage), expected \(expectedGarbage)")
    await checkInvariants(of: doc, &checks)
    return checks.trial(seconds, [cpu, Field("changes", .int(recorded.edits.count)), Field("garbage", .int(garbage))])
  }
}

/// `tree remote insert N`: N changes, each typing "a" at the end of the paragraph, applied
/// from one pack.
func treeRemoteInsertCase(_ n: Int) -> BenchCase {
  BenchCase(name: "tree_remote_insert_\(n)", ops: n,
            summary: "apply \(grouped(n)) one-character tree inserts (one change each) from a pack") {
    let recorded = recordTreeChanges(setup: { _ in }, count: n) { tree, c in try tree.edit(c, c, [.text("a")]) }
    return { await treeRemoteTrial(recorded, expectedXML: paragraphXML("a", n), expectedGarbage: 0) }
  }
}

/// `tree remote delete N`: the paragraph holds N one-character texts (the setup change); N
/// changes, each deleting the paragraph's first character, applied from one pack. The N
/// removed texts wait for GC.
func treeRemoteDeleteCase(_ n: Int) -> BenchCase {
  BenchCase(name: "tree_remote_delete_\(n)", ops: n,
            summary: "apply \(grouped(n)) one-character tree deletes (one change each) from a pack") {
    let recorded = recordTreeChanges(setup: { tree in for c in 1...n { try tree.edit(c, c, [.text("a")]) } },
                                     count: n) { tree, _ in try tree.edit(1, 2) }
    return { await treeRemoteTrial(recorded, expectedXML: paragraphXML("", 0), expectedGarbage: n) }
  }
}

/// `tree snapshot N`: Go's `buildTree(N)` in a document, encoded as a snapshot (not timed),
/// then loaded into a fresh replica through a snapshot pack (timed).
func treeSnapshotCase(_ n: Int) -> BenchCase {
  BenchCase(name: "tree_snapshot_\(n)", ops: n, maxRepeats: 20,
            summary: "load a snapshot of a tree of \(grouped(n)) paragraphs into a fresh replica") {
    let source: (data: Data, versionVector: VersionVector, xml: String) = {
      let box = BlockingBox<(Data, VersionVector, String)>()
      Task.detached {
        let doc = Document(key: "tree")
        try! await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
        try! await doc.update { root, _ in _ = root.setNewTree("t", wideTree(n)) }
        box.set((await doc.snapshot(), await doc.versionVector, await doc.treeXML()))
      }
      return box.wait()
    }()
    let expectedXML = "<r>" + String(repeating: "<p>a</p>", count: n) + "</r>"
    return {
      await guarded {
        let target = Document(key: "tree")
        let pack = ChangePack(key: "tree", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                              versionVector: source.versionVector, snapshot: source.data)
        let cpuStart = processCPUSeconds()
        let start = benchClock.now
        try await target.applyChangePack(pack)
        let seconds = (benchClock.now - start).seconds
        let cpu = cpuField(since: cpuStart)
        var checks = Checks()
        checks.expect(source.xml == expectedXML, "the source's tree differs: " + firstDifference(source.xml, expectedXML))
        let xml = await target.treeXML()
        checks.expect(xml == expectedXML, "the loaded tree differs: " + firstDifference(xml, expectedXML))
        checks.expect(await target.snapshot() == source.data, "re-encoding the loaded document gives other bytes")
        await checkInvariants(of: target, &checks)
        return checks.trial(seconds, [cpu, Field("bytes", .int(source.data.count))])
      }
    }
  }
}

/// A tree handed to a case's runner: only read there, by one repetition at a time.
struct ReadOnlyTree: @unchecked Sendable {
  let tree: CRDTTree
}

/// Go's `buildTree(N)` as a CRDT tree (tickets from one local update).
func builtWideTree(_ paragraphs: Int) -> ReadOnlyTree {
  let box = BlockingBox<CRDTTree>()
  Task.detached {
    let doc = Document(key: "tree")
    try! await doc.update { root, _ in
      box.set(root.setNewTree("t", wideTree(paragraphs)).element!.deepCopy())
    }
  }
  return ReadOnlyTree(tree: box.wait())
}

/// Go's `N vertices to protobuf` (`converter.ToTreeNodes`): the tree's post-order node list as
/// wire messages.
func treeToWireCase(_ paragraphs: Int) -> BenchCase {
  BenchCase(name: "tree_to_wire_\(paragraphs)", ops: paragraphs, maxRepeats: 20,
            summary: "convert a tree of \(grouped(paragraphs)) paragraphs to its wire node list") {
    let built = builtWideTree(paragraphs)
    return {
      let cpuStart = processCPUSeconds()
      let start = benchClock.now
      let wire = PBTreeNodes(built.tree.toRecords())
      let seconds = (benchClock.now - start).seconds
      let cpu = cpuField(since: cpuStart)
      var checks = Checks()
      checks.expect(wire.content.count == 2 * paragraphs + 1, "\(wire.content.count) wire nodes, expected \(2 * paragraphs + 1)")
      checks.expect(wire.content.last?.type == "r" && wire.content.last?.depth == 0, "the list does not end with the root")
      return checks.trial(seconds, [cpu, Field("nodes", .int(wire.content.count))])
    }
  }
}

/// Go's `N vertices from protobuf` (`ToTreeNodes` then `FromTreeNodes`): to the wire node
/// list and back to a checked tree.
func treeFromWireCase(_ paragraphs: Int) -> BenchCase {
  BenchCase(name: "tree_from_wire_\(paragraphs)", ops: paragraphs, maxRepeats: 20,
            summary: "convert a tree of \(grouped(paragraphs)) paragraphs to its wire node list and back") {
    let built = builtWideTree(paragraphs)
    let expectedXML = "<r>" + String(repeating: "<p>a</p>", count: paragraphs) + "</r>"
    return {
      await guarded {
        let tree = built.tree
        let cpuStart = processCPUSeconds()
        let start = benchClock.now
        let wire = PBTreeNodes(tree.toRecords())
        var seen = Set<TreeNodeID>()
        let records = try wire.model("nodes", seen: &seen)
        let decoded = try CRDTTree(records: records, createdAt: tree.createdAt)
        let seconds = (benchClock.now - start).seconds
        let cpu = cpuField(since: cpuStart)
        var checks = Checks()
        checks.expect(decoded.toXML() == expectedXML, "the decoded tree differs: " + firstDifference(decoded.toXML(), expectedXML))
        checks.expect(decoded.toRecords() == records, "the decoded tree's records differ from the wire's")
        if let problem = decoded.checkInvariants() { checks.expect(false, "invariants: \(problem)") }
        return checks.trial(seconds, [cpu, Field("nodes", .int(records.count))])
      }
    }
  }
}
