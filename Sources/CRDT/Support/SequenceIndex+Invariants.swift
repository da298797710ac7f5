// The invariants of a SequenceIndex, checked by tests after every step.
extension SequenceIndex {
  // MARK: - Invariants

  /// Verifies the invariants listed on the type; returns a description of the first violation.
  package func checkInvariants() -> String? {
    var seen = 0
    var weightSum = 0
    var fingerFound = fingerLeaf < 0
    var weightBefore = 0
    func visit(_ node: Int32, level: Int, parent: Int32) -> (Int, String?) {
      if level == 0 {
        if leafParent[Int(node)] != parent { return (0, "leaf \(node) has parent \(leafParent[Int(node)]), expected \(parent)") }
        if node == fingerLeaf {
          if weightBefore != fingerStart { return (0, "the finger says \(fingerStart) before leaf \(node), actual \(weightBefore)") }
          fingerFound = true
        }
        let n = Int(leafCount[Int(node)])
        if n > capacity || (n == 0 && node != root) { return (0, "leaf \(node) holds \(n) entries") }
        var sum = 0
        for i in 0..<n {
          let h = leafHandles[Int(node) * capacity + i]
          if leafOf[Int(h)] != node { return (0, "leafOf[\(h)] = \(leafOf[Int(h)]), expected \(node)") }
          sum += Int(leafWeights[Int(node) * capacity + i])
          seen += 1
        }
        weightBefore += sum
        return (sum, nil)
      }
      if innerParent[Int(node)] != parent { return (0, "inner \(node) has parent \(innerParent[Int(node)]), expected \(parent)") }
      let n = Int(innerCount[Int(node)])
      if n < 1 || n > capacity { return (0, "inner \(node) holds \(n) children") }
      var sum = 0
      for i in 0..<n {
        let child = innerChildren[Int(node) * capacity + i]
        let recorded = level == 1 ? leafSlot[Int(child)] : innerSlot[Int(child)]
        if recorded != Int32(i) { return (0, "\(level == 1 ? "leaf" : "inner") \(child) records slot \(recorded) in \(node), it is in \(i)") }
        let (childSum, problem) = visit(child, level: level - 1, parent: node)
        if let problem { return (0, problem) }
        if childSum != innerWeights[Int(node) * capacity + i] {
          return (0, "inner \(node) records weight \(innerWeights[Int(node) * capacity + i]) for child \(i), actual \(childSum)")
        }
        sum += childSum
      }
      return (sum, nil)
    }
    let (sum, problem) = visit(root, level: height, parent: -1)
    if let problem { return problem }
    weightSum = sum
    if seen != count { return "index holds \(seen) handles, count says \(count)" }
    if weightSum != totalWeight { return "weights add up to \(weightSum), totalWeight says \(totalWeight)" }
    if leafOf.filter({ $0 >= 0 }).count != count { return "leafOf names more handles than the index holds" }
    if !fingerFound { return "the finger names leaf \(fingerLeaf), which is not in the tree" }
    return nil
  }
}
