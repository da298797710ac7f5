import Testing
@testable import CRDT

/// Random edits on one tree with every invariant checked after each step.
@Suite("CRDTTree random edits")
struct TreeModelTests {
  @Test("random inserts, deletes, splits and styles keep the invariants", arguments: SeededRandom.seeds(4, base: 2024))
  func randomEdits(seed: UInt64) throws {
    print("CRDTTree random edits seed \(seed)")
    var random = SeededRandom(seed: seed)
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p", children: [.text("ab")])])
    for step in 0..<300 {
      let size = replica.tree.size
      let from = Int.random(in: 0...size, using: &random)
      let to = Int.random(in: from...min(size, from + 4), using: &random)
      let before = replica.tree.toRecords()
      do {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: try replica.edit(from, from, [.text(String("xyz".randomElement(using: &random)!))])
        case 2: try replica.edit(from, from, [.element("p", children: [.text("q")])])
        case 3: try replica.edit(from, to)
        case 4: try replica.edit(from, from, splitLevel: 1)
        default: try replica.style(from, to, ["k": String(step)])
        }
      } catch {
        // A refused edit changes nothing.
        #expect(replica.tree.toRecords() == before, "seed \(seed) step \(step)")
      }
      do {
        try replica.tree.checkTreeInvariants()
      } catch {
        Issue.record("seed \(seed) step \(step): \(error)")
        return
      }
      for index in stride(from: 0, through: replica.tree.size, by: max(1, replica.tree.size / 7)) {
        let path = try replica.tree.indexToPath(index)
        // Yorkie's paths count text offsets across mixed text and elements one way and child
        // offsets the other, so only unmixed elements round-trip (as in Yorkie).
        var node = replica.tree.root
        for step in path.dropLast() { node = node.liveChild(at: step)! }
        let live = node.liveChildren
        guard live.allSatisfy(\.isText) || !live.contains(where: \.isText) else { continue }
        #expect(try replica.tree.pathToIndex(path) == index, "seed \(seed) step \(step) index \(index) path \(path)")
      }
      let copy = try CRDTTree(records: replica.tree.toRecords(), createdAt: .initial)
      #expect(copy.toXML() == replica.xml)
    }
  }

  @Test("10,000 one-character inserts at the end of one paragraph")
  func manyInserts() throws {
    let replica = TreeReplica(actorNumber: 1)
    try replica.edit(0, 0, [.element("p")])
    for index in 0..<10_000 { try replica.edit(index + 1, index + 1, [.text("a")]) }
    #expect(replica.tree.size == 10_002)
    #expect(replica.tree.root.firstChild?.liveChildCount == 10_000)
    try replica.tree.checkTreeInvariants()
  }
}
