import Foundation
import Testing
@testable import CRDT

/// `TreeLoader`, which builds a tree from its post-order node list in one pass (placeholder
/// parents, child treaps built as the children arrive, the registry and the garbage found on
/// the way): it must make exactly the tree the general path makes (`init(root:)`, which walks
/// the finished tree to register it), and that tree must answer and edit the same.
@Suite("Tree loading")
struct TreeLoaderTests {
  /// A tree with splits, merges (moved children with `mergedFrom`), tombstones, styles and
  /// removed attributes, from seeded random edits on one replica.
  private func randomTree(seed: UInt64, steps: Int) throws -> TreeReplica {
    var random = SeededRandom(seed: seed)
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [
      .element("p", children: [.text("ab")]),
      .element("div", children: [.element("p", children: [.text("cd")]), .element("p", children: [.text("ef")])]),
    ])
    for step in 0..<steps {
      let size = replica.tree.size
      let from = Int.random(in: 0...size, using: &random)
      let to = Int.random(in: from...min(size, from + 5), using: &random)
      // A refused edit changes nothing (TreeModelTests checks it): the draw is just lost.
      switch Int.random(in: 0..<8, using: &random) {
      case 0, 1: _ = try? replica.edit(from, from, [.text(String("xyz".randomElement(using: &random)!))])
      case 2: _ = try? replica.edit(from, from, [.element("p", children: [.text("q")])])
      case 3, 4: _ = try? replica.edit(from, to)
      case 5: _ = try? replica.edit(from, from, splitLevel: Int.random(in: 1...2, using: &random))
      case 6: _ = try? replica.style(from, to, ["k": "\"\(step)\"", "m": "1"])
      default: _ = try? replica.removeStyle(from, to, ["k"])
      }
    }
    return replica
  }

  /// What a GC pair names, comparable.
  private func describe(_ pairs: [TreeGCPair]) -> [String] {
    pairs.map { pair in
      switch pair {
      case .node(let node): "node \(node.id) \(String(describing: node.removedAt))"
      case .attribute(let node, let key, let removedAt): "attribute \(node.id) \(key) \(removedAt)"
      }
    }
  }

  /// Every element's child treap as text (entry, left, right, up, sums), in document order.
  private func treaps(of tree: CRDTTree) -> [String] {
    var result: [String] = []
    tree.root.forEachPreOrder { node in
      var entries: [String] = []
      node.forEachChild { child in
        entries.append("\(child.id) l\(child.treapLeft.map { "\($0.id)" } ?? "-") r\(child.treapRight.map { "\($0.id)" } ?? "-")"
                       + " u\(child.treapUp.map { "\($0.id)" } ?? "-") \(child.subtreeWeight)/\(child.subtreeLive)/\(child.subtreeLiveElements)")
      }
      result.append("\(node.id) root \(node.childRoot.map { "\($0.id)" } ?? "-"): " + entries.joined(separator: ", "))
    }
    return result
  }

  @Test("a loaded tree is the tree the general path builds: registry, pieces, merges, treaps, garbage",
        arguments: SeededRandom.seeds(6, base: 4_100))
  func loadedEqualsBuilt(seed: UInt64) throws {
    print("Tree loading seed \(seed)")
    let original = try randomTree(seed: seed, steps: 160)
    let records = original.tree.toRecords()
    // The six default seeds are chosen to cover merges, split pieces and removed attributes;
    // the many more of a long run (CRDT_LONG_TESTS) need not each cover all three.
    if (0..<6).contains(where: { 4_100 &+ UInt64($0) &* 7919 == seed }) {
      #expect(records.contains { $0.mergedFrom != nil }, "seed \(seed): the random edits made no merge")
      #expect(records.contains { $0.id.offset != 0 }, "seed \(seed): the random edits made no split piece")
      #expect(records.contains { $0.attributes.contains(where: \.isRemoved) }, "seed \(seed): no removed attribute")
    }

    var loader = TreeLoader(expectedCount: records.count)
    for record in records { try loader.add(record) }
    let nodes = try loader.finish()
    let loaded = CRDTTree(loaded: nodes, createdAt: .initial)
    let built = CRDTTree(root: try CRDTTree.buildSubtree(records), createdAt: .initial)
    try loaded.checkTreeInvariants()

    #expect(loaded.toRecords() == records)
    #expect(loaded.nodeCount == built.nodeCount)
    #expect(loaded.pieceOffsets == built.pieceOffsets)
    for (id, node) in built.nodesByID {
      #expect(loaded.node(id)?.mergedInto == node.mergedInto, "seed \(seed): mergedInto of \(id)")
    }
    #expect(treaps(of: loaded) == treaps(of: built))
    #expect(describe(nodes.garbage) == describe(built.gcPairs()))
    #expect(describe(loaded.gcPairs()) == describe(built.gcPairs()))
    #expect(!nodes.garbage.isEmpty)
  }

  @Test("a loaded tree answers index and path questions and edits as the tree it was saved from",
        arguments: SeededRandom.seeds(4, base: 4_200))
  func loadedEditsLikeTheOriginal(seed: UInt64) throws {
    print("Tree loading edits seed \(seed)")
    let original = try randomTree(seed: seed, steps: 120)
    let copy = TreeReplica(actorNumber: 1, copying: original)
    copy.tree = try CRDTTree(records: original.tree.toRecords(), createdAt: .initial)
    var random = SeededRandom(seed: seed &+ 1)
    for step in 0..<120 {
      let size = original.tree.size
      #expect(copy.tree.size == size)
      for index in 0...size {
        #expect(try copy.tree.indexToPath(index) == original.tree.indexToPath(index), "seed \(seed) step \(step) index \(index)")
        #expect(try copy.tree.indexRangeToPosRange(index, index) == original.tree.indexRangeToPosRange(index, index))
      }
      let from = Int.random(in: 0...size, using: &random)
      let to = Int.random(in: from...min(size, from + 5), using: &random)
      let kind = Int.random(in: 0..<6, using: &random)
      for replica in [original, copy] {
        switch kind {
        case 0, 1: _ = try? replica.edit(from, from, [.text("w")])
        case 2: _ = try? replica.edit(from, to)
        case 3: _ = try? replica.edit(from, from, splitLevel: 1)
        case 4: _ = try? replica.style(from, to, ["k": "\"\(step)\""])
        default: _ = try? replica.removeStyle(from, to, ["m"])
        }
      }
      #expect(copy.tree.toRecords() == original.tree.toRecords(), "seed \(seed) step \(step)")
      try copy.tree.checkTreeInvariants()
    }
  }

  @Test("a document loaded from a snapshot holds the tree's garbage and collects it as the original")
  func snapshotGarbage() async throws {
    let doc = Document(key: "tree")
    try await doc.setActor(try ActorID(hex: "000000000000000000000001"))
    try await doc.update { root, _ in
      let tree = root.setNewTree("t", .element("doc", children: [
        .element("p", attributes: ["align": "left"], children: [.text("hello")]), .element("p", children: [.text("world")]),
      ]))
      try tree.edit(2, 4)                      // removes "el": a split text and a tombstone
      try tree.edit(3, 7)                      // merges "o</p><p>w"
      try tree.removeStyle(0, 1, keys: ["align"])
    }
    let garbage = await doc.garbageLength
    #expect(garbage > 2)
    let fresh = Document(key: "tree")
    try await fresh.applyChangePack(ChangePack(
      key: "tree", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
      versionVector: await doc.versionVector, snapshot: await doc.snapshot()))
    #expect(await fresh.garbageLength == garbage)
    #expect(await fresh.checkInvariants() == nil)
    let vector = VersionVector([try ActorID(hex: "000000000000000000000001"): 100])
    #expect(await fresh.garbageCollect(minSyncedVersionVector: vector) == (await doc.garbageCollect(minSyncedVersionVector: vector)))
    #expect(await fresh.garbageLength == 0)
    #expect(await fresh.snapshot() == (await doc.snapshot()))
  }

  @Test("a depth of Int32.max is refused, not an overflow")
  func largestDepth() throws {
    let ticket = TimeTicket(lamport: 1, delimiter: 1, actorID: .initial)
    let records = [
      TreeNodeRecord(id: TreeNodeID(createdAt: ticket), type: "p", depth: 1),
      TreeNodeRecord(id: TreeNodeID(createdAt: ticket, offset: 1), type: "p", depth: .max),
      TreeNodeRecord(id: TreeNodeID(createdAt: .initial), type: "r"),
    ]
    var seen = Set<TreeNodeID>()
    #expect(throws: TreeNodeListDefect(index: 1, field: "depth", reason: "depth 2147483647 is more than one level below the next node's 0")) {
      try TreeNodeRecord.checkPostOrder(records, seen: &seen)
    }
    #expect(throws: YorkieError.self) { try CRDTTree(records: records, createdAt: .initial) }
    #expect(throws: YorkieError.self) { try CRDTTree.buildSubtree(records) }
  }
}
