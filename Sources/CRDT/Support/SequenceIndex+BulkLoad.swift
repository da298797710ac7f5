// Building a SequenceIndex from a sequence in one pass (loading a snapshot).
extension SequenceIndex {
  /// Fills an empty index with `handles` in order, in O(n): leaves and inner nodes are built
  /// bottom-up, three quarters full so that later inserts rarely split at once. Loading a
  /// snapshot uses it instead of n inserts.
  package mutating func bulkLoad(_ handles: [Int32], weights: [Int32]) {
    precondition(count == 0 && handles.count == weights.count, "bulkLoad needs an empty index and one weight per handle")
    fingerLeaf = -1
    version &+= 1
    guard !handles.isEmpty else { return }
    let fill = max(2, capacity * 3 / 4)
    if let largest = handles.max(), Int(largest) >= leafOf.count {
      leafOf.append(contentsOf: repeatElement(-1, count: Int(largest) - leafOf.count + 1))
    }
    var level: [Int32] = []
    var totals: [Int] = []
    var start = 0
    while start < handles.count {
      let leaf = level.isEmpty ? root : allocateLeaf()
      let n = min(fill, handles.count - start)
      let base = Int(leaf) * capacity
      var total = 0
      for j in 0..<n {
        let handle = handles[start + j]
        precondition(leafOf[Int(handle)] < 0, "handle \(handle) is already indexed")
        leafHandles[base + j] = handle
        leafWeights[base + j] = weights[start + j]
        leafOf[Int(handle)] = leaf
        total += Int(weights[start + j])
      }
      leafCount[Int(leaf)] = Int32(n)
      level.append(leaf)
      totals.append(total)
      start += n
    }
    var childrenAreLeaves = true
    while level.count > 1 {
      var parents: [Int32] = []
      var parentTotals: [Int] = []
      var k = 0
      while k < level.count {
        let inner = allocateInner()
        let n = min(fill, level.count - k)
        let base = Int(inner) * capacity
        var total = 0
        for j in 0..<n {
          let child = level[k + j]
          innerChildren[base + j] = child
          innerWeights[base + j] = totals[k + j]
          if childrenAreLeaves { leafParent[Int(child)] = inner } else { innerParent[Int(child)] = inner }
          total += totals[k + j]
        }
        innerCount[Int(inner)] = Int32(n)
        renumber(inner, from: 0, childLevel: childrenAreLeaves ? 0 : 1)
        parents.append(inner)
        parentTotals.append(total)
        k += n
      }
      level = parents
      totals = parentTotals
      childrenAreLeaves = false
      height += 1
    }
    root = level[0]
    if height == 0 { leafParent[Int(root)] = -1 } else { innerParent[Int(root)] = -1 }
    count = handles.count
    totalWeight = totals[0]
  }
}
