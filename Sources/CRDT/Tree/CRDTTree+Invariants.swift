/// Checks every invariant of a tree and its child indexes (see ``CRDTTree`` and
/// `TreeChildIndex.swift`); for tests and `CRDT_INTERNAL_CHECKS`.
extension CRDTTree {
  /// A violated invariant, with where it was found.
  package struct InvariantViolation: Error, CustomStringConvertible {
    package var description: String
  }

  /// Throws the first violated invariant.
  package func checkTreeInvariants() throws(InvariantViolation) {
    func fail(_ message: String) -> InvariantViolation { InvariantViolation(description: message) }
    guard !root.isText else { throw fail("3: the root is text") }
    guard root.parent == nil else { throw fail("the root has a parent") }
    var reachable = Set<ObjectIdentifier>()
    var stack = [root]
    while let node = stack.popLast() {
      reachable.insert(ObjectIdentifier(node))
      guard nodesByID[node.id] === node else { throw fail("1: \(node.id) is reachable but not registered") }
      if node.isText {
        guard node.childRoot == nil else { throw fail("3: text \(node.id) has children") }
        guard !node.value.isEmpty, node.length == node.value.utf16.count else { throw fail("3: text \(node.id) length") }
        continue
      }
      try checkTreap(of: node, fail)
      node.forEachChild { stack.append($0) }
    }
    for (id, node) in nodesByID {
      guard node.id == id else { throw fail("1: \(id) registered as \(node.id)") }
      if !reachable.contains(ObjectIdentifier(node)) && !node.isRemoved {
        throw fail("1: the live node \(id) is registered but not in the tree")
      }
    }
    var expected: [TimeTicket: [Int32]] = [:]
    for id in nodesByID.keys { expected[id.createdAt, default: []].append(id.offset) }
    for (ticket, offsets) in expected {
      let sorted = offsets.sorted()
      let wanted: [Int32]? = sorted == [0] ? nil : sorted
      guard pieceOffsets[ticket] == wanted else { throw fail("2: piece offsets of \(ticket): \(String(describing: pieceOffsets[ticket])) vs \(sorted)") }
    }
    for ticket in pieceOffsets.keys where expected[ticket] == nil { throw fail("2: stale piece offsets for \(ticket)") }
    try checkOrderLog()
  }

  /// Invariants 1–5 of the child index of `element`.
  private func checkTreap(of element: CRDTTreeNode, _ fail: (String) -> InvariantViolation) throws(InvariantViolation) {
    guard let root = element.childRoot else { return }
    guard root.treapUp == nil else { throw fail("child index 1: the treap root of \(element.id) has an up link") }
    var stack = [root]
    while let entry = stack.popLast() {
      guard entry.parent === element else { throw fail("child index 4: \(entry.id) does not name \(element.id) as parent") }
      var weight = entry.paddedSize
      var live: Int32 = entry.isRemoved ? 0 : 1
      var elements: Int32 = entry.isRemoved || entry.isText ? 0 : 1
      for child in [entry.treapLeft, entry.treapRight] {
        guard let child else { continue }
        guard child.treapUp === entry else { throw fail("child index 1: \(child.id)'s up link") }
        guard child.priority <= entry.priority else { throw fail("child index 2: heap order at \(child.id)") }
        weight += child.subtreeWeight
        live += child.subtreeLive
        elements += child.subtreeLiveElements
        stack.append(child)
      }
      guard weight == entry.subtreeWeight, live == entry.subtreeLive, elements == entry.subtreeLiveElements else {
        throw fail("child index 3: sums of \(entry.id) are \(entry.subtreeWeight)/\(entry.subtreeLive)/\(entry.subtreeLiveElements), expected \(weight)/\(live)/\(elements)")
      }
    }
  }
}
