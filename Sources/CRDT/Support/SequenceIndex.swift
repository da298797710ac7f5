/// A weighted sequence of caller-owned handles, indexed by a B+ tree: the order-statistic index
/// behind arrays (weight 1 for a live element, 0 for a tombstone) and text (weight = visible
/// UTF-16 length of a node).
///
/// The index knows nothing about CRDTs. The caller owns the handles (small dense integers, such
/// as slots of its own node arena), keeps document order in its own linked list, and tells the
/// index where each handle goes. The index answers "which handle covers position p" and "how
/// much weight lies before handle h", both in O(log n).
///
/// ```
///                 root (inner): children [L0, L1, L2]  weights [7, 3, 5]
///                /               |                \
///   leaf L0: [h4 h9 h1]   leaf L1: [h2 h7]   leaf L2: [h3 h8 h5 h6]
///   weights: [ 3  0  4]            [ 1  2]            [ 0  5  0  0]
/// ```
///
/// Storage is flat: every leaf and inner node owns `capacity` slots in shared arrays, so the
/// whole index is a handful of buffers (no object per node, no reference counting).
///
/// Invariants (checked by ``checkInvariants()``):
/// 1. Every leaf sits at depth `height`; every inner node has between 1 and `capacity` children.
/// 2. An inner node's weight for a child equals the total weight stored below that child.
/// 3. `leafOf[h]` names the leaf holding `h`, for every handle in the index, and -1 otherwise.
/// 4. Parent links agree with child lists.
/// 5. The finger, when set, names a leaf and the total weight of the handles before it.
/// 6. Leaf `l` owns the slots `l * capacity ..< (l + 1) * capacity` of `leafHandles` and
///    `leafWeights`, of which the first `leafCount[l] <= capacity` are in use.
///
/// `scan`, `slot(of:inLeaf:)` and `place` read and write a leaf's slots through unsafe buffer
/// pointers (no bounds check in release builds): by invariant 6 every index they form lies in
/// the leaf's own range, and `slot(of:inLeaf:)` is only asked for a handle that invariant 3
/// places in that leaf, so its scan stops inside it. The SequenceIndex tests (random edits
/// against an array model, ``checkInvariants()`` after every step) run under AddressSanitizer
/// in CI. The unchecked loops are the hot path of local typing (`automerge_paper_batched`).
///
/// The finger remembers the leaf the last ``find(_:inclusiveEnd:)`` ended in: editing mostly
/// happens near the previous edit, so the next lookup usually starts there and reads one leaf
/// instead of descending from the root. Weight changes and insertions inside that leaf keep it
/// (they move nothing before it); any other change forgets it.
package struct SequenceIndex: Sendable {
  // Stored properties and node helpers are internal, not private: bulk loading and the
  // invariant checks live in their own files (SequenceIndex+BulkLoad, +Invariants).

  /// Slots per leaf and per inner node.
  package let capacity: Int

  var leafHandles: [Int32] = []
  var leafWeights: [Int32] = []
  var leafCount: [Int32] = []
  var leafParent: [Int32] = []
  /// The slot of each leaf in its parent (so that walking up never scans a parent for it).
  var leafSlot: [Int32] = []
  var freeLeaves: [Int32] = []

  var innerChildren: [Int32] = []
  var innerWeights: [Int] = []
  var innerCount: [Int32] = []
  var innerParent: [Int32] = []
  /// The slot of each inner node in its parent.
  var innerSlot: [Int32] = []
  var freeInners: [Int32] = []

  /// Number of inner levels above the leaves (0: the root is a leaf).
  var height = 0
  var root: Int32 = 0
  var leafOf: [Int32] = []

  /// A guess at the slot ``slot(of:inLeaf:)`` looks for next: where the last insertion or
  /// weight change happened, in whichever leaf (always below `capacity`).
  var slotHint = 0

  /// The leaf of the last lookup, or -1, and the total weight before it.
  var fingerLeaf: Int32 = -1
  var fingerStart = 0

  /// The sum of all weights.
  package internal(set) var totalWeight = 0
  /// Counts the changes of the index (insertions, removals, weight changes): a position
  /// computed from it stays valid while this has not moved.
  package internal(set) var version = 0
  /// The number of handles in the index.
  package internal(set) var count = 0

  /// Creates an empty index whose nodes hold up to `capacity` entries (at least 3).
  package init(capacity: Int = 32) {
    precondition(capacity >= 3, "SequenceIndex needs a capacity of at least 3")
    self.capacity = capacity
    root = allocateLeaf()
  }

  /// Bytes held by the index's buffers (their capacities).
  package var memoryFootprint: Int { memoryBreakdown.reduce(0) { $0 + $1.bytes } }

  /// The number of leaves in use (allocated and not free), for tests of how full they are.
  package var leavesInUse: Int { leafCount.count - freeLeaves.count }

  /// ``memoryFootprint`` per part: leaves, inner nodes, the handle → leaf map, free lists.
  package var memoryBreakdown: [(name: String, bytes: Int)] {
    [
      ("leaves", (leafHandles.capacity + leafWeights.capacity + leafCount.capacity + leafParent.capacity + leafSlot.capacity) * 4),
      ("inners", (innerChildren.capacity + innerCount.capacity + innerParent.capacity + innerSlot.capacity) * 4
        + innerWeights.capacity * 8),
      ("leafOf", leafOf.capacity * 4),
      ("free", (freeLeaves.capacity + freeInners.capacity) * 4),
    ]
  }

  // MARK: - Queries

  /// Whether `handle` is in the index.
  @inline(__always) package func contains(_ handle: Int32) -> Bool {
    Int(handle) < leafOf.count && leafOf[Int(handle)] >= 0
  }

  /// The weight stored for `handle`.
  ///
  /// - Complexity: O(capacity).
  package func weight(of handle: Int32) -> Int {
    let leaf = leafOf[Int(handle)]
    return Int(leafWeights[Int(leaf) * capacity + slot(of: handle, inLeaf: leaf)])
  }

  /// The handle whose weight covers `position` and the offset of `position` inside it.
  ///
  /// With `inclusiveEnd == false` the answer is the handle with `before <= position < before + weight`
  /// (the unit at `position`). With `inclusiveEnd == true` it is the first handle with weight > 0
  /// and `before < position <= before + weight`, so a position on a boundary belongs to the
  /// handle on its left (the caret convention of text). Returns nil when no handle qualifies.
  ///
  /// - Complexity: O(log n · capacity).
  package mutating func find(_ position: Int, inclusiveEnd: Bool = false) -> (handle: Int32, offset: Int)? {
    guard position >= 0, position < totalWeight || (inclusiveEnd && position <= totalWeight && position > 0)
    else { return nil }
    // The finger's leaf first: a position inside it has the same answer as a full descent
    // (the qualifying handle is unique), and one on its left edge belongs to a leaf before it.
    if fingerLeaf >= 0, inclusiveEnd ? position > fingerStart : position >= fingerStart,
      let found = scan(leaf: fingerLeaf, position - fingerStart, inclusiveEnd: inclusiveEnd) {
      return found
    }
    var remaining = position
    var node = root
    var level = height
    while level > 0 {
      let base = Int(node) * capacity
      let n = Int(innerCount[Int(node)])
      var chosen = -1
      for i in 0..<n {
        let w = innerWeights[base + i]
        if inclusiveEnd ? (remaining <= w && w > 0) : (remaining < w) {
          chosen = i
          break
        }
        remaining -= w
      }
      if chosen < 0 { return nil }
      node = innerChildren[base + chosen]
      level -= 1
    }
    fingerLeaf = node
    fingerStart = position - remaining
    return scan(leaf: node, remaining, inclusiveEnd: inclusiveEnd)
  }

  /// The entry of `leaf` covering `remaining` (the position minus the weight before the leaf),
  /// by the rule of ``find(_:inclusiveEnd:)``; nil when it lies past the leaf.
  @inline(__always) private func scan(leaf: Int32, _ remaining: Int, inclusiveEnd: Bool) -> (handle: Int32, offset: Int)? {
    let base = Int(leaf) * capacity
    let n = Int(leafCount[Int(leaf)])
    // The hot loop of local editing: read the leaf's weights without per-element checks (the
    // slots base..<base + n belong to this leaf) and test the two rules in separate loops.
    let found: (slot: Int, offset: Int)? = leafWeights.withUnsafeBufferPointer { all in
      guard let weights = UnsafeBufferPointer(rebasing: all[base..<base + n]).baseAddress else { return nil }
      var remaining = remaining
      var i = 0
      if inclusiveEnd {
        while i < n {
          let w = Int(weights[i])
          if remaining <= w && w > 0 { return (i, remaining) }
          remaining &-= w
          i &+= 1
        }
      } else {
        while i < n {
          let w = Int(weights[i])
          if remaining < w { return (i, remaining) }
          remaining &-= w
          i &+= 1
        }
      }
      return nil
    }
    guard let found else { return nil }
    return (leafHandles[base + found.slot], found.offset)
  }

  /// The total weight of the handles before `handle`.
  ///
  /// - Complexity: O(log n · capacity).
  package func offset(of handle: Int32) -> Int {
    let leaf = leafOf[Int(handle)]
    let base = Int(leaf) * capacity
    var sum = 0
    var i = 0
    while leafHandles[base + i] != handle {
      sum += Int(leafWeights[base + i])
      i += 1
    }
    if leaf == fingerLeaf { return fingerStart + sum }
    var child = leaf
    var parent = leafParent[Int(leaf)]
    while parent >= 0 {
      let pbase = Int(parent) * capacity
      var j = 0
      while innerChildren[pbase + j] != child {
        sum += innerWeights[pbase + j]
        j += 1
      }
      child = parent
      parent = innerParent[Int(parent)]
    }
    return sum
  }

  /// The handle right before `handle`, nil when it is the first.
  ///
  /// - Complexity: O(log n · capacity).
  package func handle(before handle: Int32) -> Int32? {
    let leaf = leafOf[Int(handle)]
    let position = slot(of: handle, inLeaf: leaf)
    if position > 0 { return leafHandles[Int(leaf) * capacity + position - 1] }
    var child = leaf
    var parent = leafParent[Int(leaf)]
    var childLevel = 0
    while parent >= 0 {
      let j = slot(ofChild: child, level: childLevel)
      if j > 0 {
        // The last handle below the child on the left.
        var node = innerChildren[Int(parent) * capacity + j - 1]
        var level = childLevel
        while level > 0 {
          node = innerChildren[Int(node) * capacity + Int(innerCount[Int(node)]) - 1]
          level -= 1
        }
        return leafHandles[Int(node) * capacity + Int(leafCount[Int(node)]) - 1]
      }
      child = parent
      parent = innerParent[Int(parent)]
      childLevel += 1
    }
    return nil
  }

  /// The handles in order, for tests and debugging.
  package var handles: [Int32] {
    var result: [Int32] = []
    result.reserveCapacity(count)
    collect(node: root, level: height, into: &result)
    return result
  }

  private func collect(node: Int32, level: Int, into result: inout [Int32]) {
    let base = Int(node) * capacity
    if level == 0 {
      for i in 0..<Int(leafCount[Int(node)]) { result.append(leafHandles[base + i]) }
    } else {
      for i in 0..<Int(innerCount[Int(node)]) { collect(node: innerChildren[base + i], level: level - 1, into: &result) }
    }
  }

  // MARK: - Updates

  /// Inserts `handle` with `weight` right after `previous`, or at the front when `previous` is nil.
  ///
  /// - Precondition: `handle` is not in the index; `previous`, when given, is.
  /// - Complexity: O(log n · capacity).
  package mutating func insert(_ handle: Int32, weight: Int, after previous: Int32?) {
    precondition(!contains(handle), "handle \(handle) is already indexed")
    version &+= 1
    let leaf: Int32
    let position: Int
    if let previous {
      leaf = leafOf[Int(previous)]
      position = slot(of: previous, inLeaf: leaf) + 1
    } else {
      var node = root
      var level = height
      while level > 0 {
        node = innerChildren[Int(node) * capacity]
        level -= 1
      }
      leaf = node
      position = 0
    }
    if Int(handle) >= leafOf.count {
      let extra = Int(handle) - leafOf.count + 1
      SequenceIndex.reserve(&leafOf, adding: extra)
      if extra == 1 {
        leafOf.append(-1)  // the usual case: handles are allocated in order
      } else {
        leafOf.append(contentsOf: repeatElement(-1, count: extra))
      }
    }
    // An insertion into the finger's leaf keeps it (a split keeps the leaf's start; passing an
    // entry to the left sibling moves it, see insertThroughSibling); one anywhere else may move
    // the finger leaf's start.
    if leaf != fingerLeaf { fingerLeaf = -1 }
    count += 1
    totalWeight += weight
    // Where the handle lands unless the leaf overflows (a guess either way).
    slotHint = Swift.min(position, capacity - 1)
    insertIntoLeaf(leaf, at: position, handle: handle, weight: Int32(weight))
  }

  /// Removes `handle` from the index.
  ///
  /// - Complexity: O(log n · capacity).
  package mutating func remove(_ handle: Int32) {
    _ = remove(handle, wantsPrevious: false)
  }

  /// Removes `handle` from the index and returns the handle that was right before it (nil when
  /// it was the first), finding both in one search.
  ///
  /// - Complexity: O(log n · capacity).
  package mutating func removeReturningPrevious(_ handle: Int32) -> Int32? {
    remove(handle, wantsPrevious: true)
  }

  @inline(__always) private mutating func remove(_ handle: Int32, wantsPrevious: Bool) -> Int32? {
    fingerLeaf = -1
    version &+= 1
    let leaf = leafOf[Int(handle)]
    let base = Int(leaf) * capacity
    let position = slot(of: handle, inLeaf: leaf)
    let previous = !wantsPrevious ? nil : position > 0 ? leafHandles[base + position - 1] : self.handle(before: handle)
    let weight = Int(leafWeights[base + position])
    let n = Int(leafCount[Int(leaf)])
    for i in position..<(n - 1) {
      leafHandles[base + i] = leafHandles[base + i + 1]
      leafWeights[base + i] = leafWeights[base + i + 1]
    }
    leafCount[Int(leaf)] = Int32(n - 1)
    leafOf[Int(handle)] = -1
    count -= 1
    totalWeight -= weight
    if n - 1 == 0 && height > 0 {
      removeChild(leaf, fromInner: leafParent[Int(leaf)], childLevel: 0, delta: -weight)
      freeLeaves.append(leaf)
    } else {
      propagate(delta: -weight, fromLeaf: leaf)
    }
    collapseRoot()
    return previous
  }

  /// Changes the weight of `handle`.
  ///
  /// - Complexity: O(log n · capacity).
  package mutating func setWeight(_ handle: Int32, _ weight: Int) {
    let leaf = leafOf[Int(handle)]
    let slot = slot(of: handle, inLeaf: leaf)
    slotHint = slot
    let index = Int(leaf) * capacity + slot
    let delta = weight - Int(leafWeights[index])
    guard delta != 0 else { return }
    version &+= 1
    // Weight moving inside the finger's leaf leaves the weight before it alone.
    if leaf != fingerLeaf { fingerLeaf = -1 }
    leafWeights[index] = Int32(weight)
    totalWeight += delta
    propagate(delta: delta, fromLeaf: leaf)
  }

  // MARK: - Internals

  /// Makes room for `extra` more elements: doubling while small (few copies), by an eighth
  /// past 64Ki elements, where the index's buffers are a large part of a long text's memory and
  /// their slack is what the allocator holds for nothing.
  @inline(__always) private static func reserve<T>(_ array: inout [T], adding extra: Int) {
    let needed = array.count + extra
    if needed > array.capacity {
      array.reserveCapacity(needed < 1 << 16 ? Swift.max(2 * needed, 64) : needed + needed / 8)
    }
  }

  /// The slot of `handle` in `leaf`. Guesses come first: the slot of the last insertion or
  /// weight change and the one before it (typing inserts after the handle inserted last, a
  /// run of backspaces zeroes the handle before the last one), then the last slot (appending
  /// always inserts after a leaf's last entry). A guess is checked, so it is never wrong.
  @inline(__always) private func slot(of handle: Int32, inLeaf leaf: Int32) -> Int {
    let base = Int(leaf) * capacity
    let last = Int(leafCount[Int(leaf)]) - 1
    let hint = slotHint
    return leafHandles.withUnsafeBufferPointer { buffer in
      if hint <= last {
        if buffer[base + hint] == handle { return hint }
        if hint > 0 && buffer[base + hint - 1] == handle { return hint - 1 }
      }
      if last >= 0 && buffer[base + last] == handle { return last }
      var i = 0
      while buffer[base + i] != handle { i += 1 }
      return i
    }
  }

  /// The slot of `child` (a leaf when `childLevel` is 0) in its parent.
  @inline(__always) private func slot(ofChild child: Int32, level childLevel: Int) -> Int {
    Int(childLevel == 0 ? leafSlot[Int(child)] : innerSlot[Int(child)])
  }

  /// Records the slots of the children of `inner` from `start` on, after they moved.
  mutating func renumber(_ inner: Int32, from start: Int, childLevel: Int) {
    let base = Int(inner) * capacity
    let n = Int(innerCount[Int(inner)])
    guard start < n else { return }
    for i in start..<n {
      let child = Int(innerChildren[base + i])
      if childLevel == 0 { leafSlot[child] = Int32(i) } else { innerSlot[child] = Int32(i) }
    }
  }

  mutating func allocateLeaf() -> Int32 {
    if let leaf = freeLeaves.popLast() {
      leafCount[Int(leaf)] = 0
      leafParent[Int(leaf)] = -1
      leafSlot[Int(leaf)] = -1
      return leaf
    }
    let leaf = Int32(leafCount.count)
    SequenceIndex.reserve(&leafHandles, adding: capacity)
    SequenceIndex.reserve(&leafWeights, adding: capacity)
    SequenceIndex.reserve(&leafCount, adding: 1)
    SequenceIndex.reserve(&leafParent, adding: 1)
    SequenceIndex.reserve(&leafSlot, adding: 1)
    leafHandles.append(contentsOf: repeatElement(-1, count: capacity))
    leafWeights.append(contentsOf: repeatElement(0, count: capacity))
    leafCount.append(0)
    leafParent.append(-1)
    leafSlot.append(-1)
    return leaf
  }

  mutating func allocateInner() -> Int32 {
    if let inner = freeInners.popLast() {
      innerCount[Int(inner)] = 0
      innerParent[Int(inner)] = -1
      innerSlot[Int(inner)] = -1
      return inner
    }
    let inner = Int32(innerCount.count)
    SequenceIndex.reserve(&innerChildren, adding: capacity)
    SequenceIndex.reserve(&innerWeights, adding: capacity)
    SequenceIndex.reserve(&innerCount, adding: 1)
    SequenceIndex.reserve(&innerParent, adding: 1)
    SequenceIndex.reserve(&innerSlot, adding: 1)
    innerChildren.append(contentsOf: repeatElement(-1, count: capacity))
    innerWeights.append(contentsOf: repeatElement(0, count: capacity))
    innerCount.append(0)
    innerParent.append(-1)
    innerSlot.append(-1)
    return inner
  }

  /// Adds `delta` to the weight every ancestor of `leaf` holds for its path down to it.
  private mutating func propagate(delta: Int, fromLeaf leaf: Int32) {
    guard delta != 0 else { return }
    propagate(delta: delta, slot: Int(leafSlot[Int(leaf)]), parent: leafParent[Int(leaf)])
  }

  /// As ``propagate(delta:fromLeaf:)``, from the inner node `inner`.
  private mutating func propagate(delta: Int, fromInner inner: Int32) {
    guard delta != 0 else { return }
    propagate(delta: delta, slot: Int(innerSlot[Int(inner)]), parent: innerParent[Int(inner)])
  }

  /// Adds `delta` at `slot` of `parent`, then at the parent's slot in its own parent, up to
  /// the root.
  @inline(__always) private mutating func propagate(delta: Int, slot: Int, parent: Int32) {
    var slot = slot
    var parent = parent
    while parent >= 0 {
      innerWeights[Int(parent) * capacity + slot] += delta
      slot = Int(innerSlot[Int(parent)])
      parent = innerParent[Int(parent)]
    }
  }

  /// Writes an entry into the leaf slot `slot` after moving the entries of `slot..<end` one
  /// slot right (the slot `end` must be free).
  @inline(__always) private mutating func place(_ handle: Int32, _ weight: Int32, at slot: Int, shifting end: Int) {
    leafHandles.withUnsafeMutableBufferPointer { handles in
      leafWeights.withUnsafeMutableBufferPointer { weights in
        var i = end
        while i > slot {
          handles[i] = handles[i - 1]
          weights[i] = weights[i - 1]
          i -= 1
        }
        handles[slot] = handle
        weights[slot] = weight
      }
    }
  }

  private mutating func insertIntoLeaf(_ leaf: Int32, at position: Int, handle: Int32, weight: Int32) {
    let n = Int(leafCount[Int(leaf)])
    let base = Int(leaf) * capacity
    if n < capacity {
      place(handle, weight, at: base + position, shifting: base + n)
      leafCount[Int(leaf)] = Int32(n + 1)
      leafOf[Int(handle)] = leaf
      propagate(delta: Int(weight), fromLeaf: leaf)
      return
    }
    if insertThroughSibling(leaf, at: position, handle: handle, weight: weight) { return }
    // Split. Appending at the end keeps the left leaf full (sequential typing and bulk
    // appends then fill leaves completely); otherwise split in half.
    var entries: [(Int32, Int32)] = []
    entries.reserveCapacity(n + 1)
    for i in 0..<n { entries.append((leafHandles[base + i], leafWeights[base + i])) }
    entries.insert((handle, weight), at: position)
    let keep = position == n ? n : (n + 1) / 2
    let right = allocateLeaf()
    let rbase = Int(right) * capacity
    var leftWeight = 0
    var rightWeight = 0
    for (i, entry) in entries.enumerated() {
      if i < keep {
        leafHandles[base + i] = entry.0
        leafWeights[base + i] = entry.1
        leafOf[Int(entry.0)] = leaf
        leftWeight += Int(entry.1)
      } else {
        leafHandles[rbase + i - keep] = entry.0
        leafWeights[rbase + i - keep] = entry.1
        leafOf[Int(entry.0)] = right
        rightWeight += Int(entry.1)
      }
    }
    leafCount[Int(leaf)] = Int32(keep)
    leafCount[Int(right)] = Int32(entries.count - keep)
    insertChild(right, after: leaf, childLevel: 0, leftWeight: leftWeight, rightWeight: rightWeight, delta: Int(weight))
  }

  /// Inserts into the full `leaf` by first passing entries to a sibling that has room: half of
  /// the sibling's free slots, the leaf's first entries to the left sibling or its last ones to
  /// the right one (the new entry travels with them when it falls among them). Leaves then split
  /// only when their neighbours are full too, which keeps them about 80% full instead of 70%
  /// under random inserts, and moving several entries at once keeps the next inserts into the
  /// leaf plain. Returns false when neither sibling has room.
  private mutating func insertThroughSibling(_ leaf: Int32, at position: Int, handle: Int32, weight: Int32) -> Bool {
    let parent = leafParent[Int(leaf)]
    guard parent >= 0 else { return false }
    let pbase = Int(parent) * capacity
    let own = slot(ofChild: leaf, level: 0)
    let base = Int(leaf) * capacity
    let n = capacity
    // The leaf's entries with the new one at `position`: n + 1 of them.
    @inline(__always) func combined(_ i: Int) -> (Int32, Int32) {
      i < position ? (leafHandles[base + i], leafWeights[base + i])
        : i == position ? (handle, weight) : (leafHandles[base + i - 1], leafWeights[base + i - 1])
    }
    if own > 0 {
      let left = innerChildren[pbase + own - 1]
      let ln = Int(leafCount[Int(left)])
      if ln < capacity {
        let lbase = Int(left) * capacity
        let moved = Swift.max(1, (capacity - ln) / 2)
        var movedWeight = 0
        for i in 0..<moved {
          let (h, w) = combined(i)
          leafHandles[lbase + ln + i] = h
          leafWeights[lbase + ln + i] = w
          leafOf[Int(h)] = left
          movedWeight += Int(w)
        }
        // Reading ahead of writing: combined(moved + j) sits at index moved + j - 1 >= j or later.
        for j in 0..<(n + 1 - moved) {
          let (h, w) = combined(moved + j)
          leafHandles[base + j] = h
          leafWeights[base + j] = w
        }
        if position >= moved { leafOf[Int(handle)] = leaf }
        leafCount[Int(left)] = Int32(ln + moved)
        leafCount[Int(leaf)] = Int32(n + 1 - moved)
        innerWeights[pbase + own - 1] += movedWeight
        innerWeights[pbase + own] += Int(weight) - movedWeight
        // The leaf now starts after the weight it passed to the left.
        if leaf == fingerLeaf { fingerStart += movedWeight }
        propagate(delta: Int(weight), fromInner: parent)
        return true
      }
    }
    if own + 1 < Int(innerCount[Int(parent)]) {
      let right = innerChildren[pbase + own + 1]
      let rn = Int(leafCount[Int(right)])
      if rn < capacity {
        let rbase = Int(right) * capacity
        let moved = Swift.max(1, (capacity - rn) / 2)
        let kept = n + 1 - moved
        var i = rn - 1
        while i >= 0 {
          leafHandles[rbase + i + moved] = leafHandles[rbase + i]
          leafWeights[rbase + i + moved] = leafWeights[rbase + i]
          i -= 1
        }
        var movedWeight = 0
        for k in 0..<moved {
          let (h, w) = combined(kept + k)
          leafHandles[rbase + k] = h
          leafWeights[rbase + k] = w
          leafOf[Int(h)] = right
          movedWeight += Int(w)
        }
        if position < kept {
          place(handle, weight, at: base + position, shifting: base + kept - 1)
          leafOf[Int(handle)] = leaf
        }
        leafCount[Int(right)] = Int32(rn + moved)
        leafCount[Int(leaf)] = Int32(kept)
        innerWeights[pbase + own + 1] += movedWeight
        innerWeights[pbase + own] += Int(weight) - movedWeight
        propagate(delta: Int(weight), fromInner: parent)
        return true
      }
    }
    return false
  }

  /// Puts `newChild` after `child` in the parent of `child`, splitting upwards as needed.
  /// `leftWeight`/`rightWeight` are the new totals of the two children; `delta` is the weight the
  /// pair gained in total, which every ancestor above the parent also gains.
  private mutating func insertChild(_ newChild: Int32, after child: Int32, childLevel: Int, leftWeight: Int, rightWeight: Int, delta: Int) {
    let parent = childLevel == 0 ? leafParent[Int(child)] : innerParent[Int(child)]
    if parent < 0 {
      let newRoot = allocateInner()
      let base = Int(newRoot) * capacity
      innerChildren[base] = child
      innerChildren[base + 1] = newChild
      innerWeights[base] = leftWeight
      innerWeights[base + 1] = rightWeight
      innerCount[Int(newRoot)] = 2
      setParent(of: child, level: childLevel, to: newRoot)
      setParent(of: newChild, level: childLevel, to: newRoot)
      renumber(newRoot, from: 0, childLevel: childLevel)
      root = newRoot
      height += 1
      return
    }
    let base = Int(parent) * capacity
    let n = Int(innerCount[Int(parent)])
    let position = slot(ofChild: child, level: childLevel)
    if n < capacity {
      var i = n
      while i > position + 1 {
        innerChildren[base + i] = innerChildren[base + i - 1]
        innerWeights[base + i] = innerWeights[base + i - 1]
        i -= 1
      }
      innerWeights[base + position] = leftWeight
      innerChildren[base + position + 1] = newChild
      innerWeights[base + position + 1] = rightWeight
      innerCount[Int(parent)] = Int32(n + 1)
      setParent(of: newChild, level: childLevel, to: parent)
      renumber(parent, from: position + 1, childLevel: childLevel)
      propagate(delta: delta, fromInner: parent)
      return
    }
    var entries: [(Int32, Int)] = []
    entries.reserveCapacity(n + 1)
    for i in 0..<n { entries.append((innerChildren[base + i], innerWeights[base + i])) }
    entries[position].1 = leftWeight
    entries.insert((newChild, rightWeight), at: position + 1)
    let keep = position + 1 == n ? n : (n + 1) / 2
    let sibling = allocateInner()
    let sbase = Int(sibling) * capacity
    var parentWeight = 0
    var siblingWeight = 0
    for (i, entry) in entries.enumerated() {
      if i < keep {
        innerChildren[base + i] = entry.0
        innerWeights[base + i] = entry.1
        setParent(of: entry.0, level: childLevel, to: parent)
        parentWeight += entry.1
      } else {
        innerChildren[sbase + i - keep] = entry.0
        innerWeights[sbase + i - keep] = entry.1
        setParent(of: entry.0, level: childLevel, to: sibling)
        siblingWeight += entry.1
      }
    }
    innerCount[Int(parent)] = Int32(keep)
    innerCount[Int(sibling)] = Int32(entries.count - keep)
    renumber(parent, from: 0, childLevel: childLevel)
    renumber(sibling, from: 0, childLevel: childLevel)
    insertChild(sibling, after: parent, childLevel: childLevel + 1, leftWeight: parentWeight, rightWeight: siblingWeight, delta: delta)
  }

  @inline(__always) private mutating func setParent(of node: Int32, level: Int, to parent: Int32) {
    if level == 0 { leafParent[Int(node)] = parent } else { innerParent[Int(node)] = parent }
  }

  /// Removes the empty `child` from `inner`, removing `inner` too when it becomes empty.
  private mutating func removeChild(_ child: Int32, fromInner inner: Int32, childLevel: Int, delta: Int) {
    let base = Int(inner) * capacity
    let n = Int(innerCount[Int(inner)])
    let position = slot(ofChild: child, level: childLevel)
    for i in position..<(n - 1) {
      innerChildren[base + i] = innerChildren[base + i + 1]
      innerWeights[base + i] = innerWeights[base + i + 1]
    }
    innerCount[Int(inner)] = Int32(n - 1)
    renumber(inner, from: position, childLevel: childLevel)
    if n - 1 == 0 && inner != root {
      removeChild(inner, fromInner: innerParent[Int(inner)], childLevel: childLevel + 1, delta: delta)
      freeInners.append(inner)
    } else {
      propagate(delta: delta, fromInner: inner)
    }
  }

  /// Shortens the tree while the root has a single child.
  private mutating func collapseRoot() {
    while height > 0 && innerCount[Int(root)] == 1 {
      let child = innerChildren[Int(root) * capacity]
      freeInners.append(root)
      root = child
      height -= 1
      setParent(of: child, level: height, to: -1)
    }
  }
}
