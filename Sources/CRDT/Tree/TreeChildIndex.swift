/// The child index of an element: its children (live and tombstones, in document order) kept in
/// a treap whose entries are the child nodes themselves.
///
/// Yorkie's `IndexTree` keeps children in an array and scans it for every index, offset and
/// size update, so inserting n nodes into one paragraph costs O(n²). Here every element owns a
/// treap over its children, ordered by position (in-order = document order), heap-ordered by a
/// priority derived from the node's identity, and each entry carries the sums of its treap
/// subtree. Every question the tree asks about one level is answered in O(log k) for k children,
/// and a question about a position costs O(depth · log k):
///
/// ```
///  <p> [a]{x}[bc]<b>…</b> </p>        p's children in order: a, x(tombstone), bc, b
///
///             bc (w 2, Σw 6, live 3)         Σw = visible padded size of the treap subtree
///            /             \                 live = live nodes, elems = live elements
///     a (w 1, Σw 1)     b (w 3, Σw 3, elems 1)
///           \
///            x (w 0, Σw 0, live 0)
/// ```
///
/// Invariants (checked by `CRDTTree.checkInvariants()`):
/// 1. An element's treap holds exactly its children; `treapUp` links agree with
///    `treapLeft`/`treapRight`, and the root's `treapUp` is nil.
/// 2. Heap order: no entry has a higher priority than its `treapUp`.
/// 3. Each entry's sums equal its own contribution (padded size, 1 if live, 1 if a live element)
///    plus its treap children's sums; so an element's `size` is its root's `subtreeWeight`.
/// 4. Every child's `parent` is the element.
/// 5. A tombstone weighs 0, and so does everything below it as far as its ancestors see.
extension CRDTTreeNode {
  // MARK: - Sums

  /// Recomputes this entry's sums from its own contribution and its treap children.
  @inline(__always) func recomputeSubtree() {
    let live: Int32 = removedAt == nil ? 1 : 0
    var weight = paddedSize
    var liveCount = live
    var liveElements: Int32 = isText ? 0 : live
    if let left = treapLeft {
      weight += left.subtreeWeight
      liveCount += left.subtreeLive
      liveElements += left.subtreeLiveElements
    }
    if let right = treapRight {
      weight += right.subtreeWeight
      liveCount += right.subtreeLive
      liveElements += right.subtreeLiveElements
    }
    subtreeWeight = weight
    subtreeLive = liveCount
    subtreeLiveElements = liveElements
  }

  /// Recomputes the sums from `entry` up to the root of the treap it sits in.
  @inline(__always) static func recomputeUp(from entry: CRDTTreeNode) {
    var node: CRDTTreeNode? = entry
    while let current = node {
      current.recomputeSubtree()
      node = current.treapUp
    }
  }

  /// After this node's own padded size or liveness changed: fixes the sums of every treap on
  /// the way up to the tree's root. Stops above a tombstone, whose size its ancestors ignore.
  func propagateSizeChange() {
    var node = self
    CRDTTreeNode.recomputeUp(from: node)
    while let parent = node.parent {
      if parent.isRemoved { return }
      CRDTTreeNode.recomputeUp(from: parent)
      node = parent
    }
  }

  // MARK: - Order

  private static func leftmost(_ entry: CRDTTreeNode) -> CRDTTreeNode {
    var node = entry
    while let left = node.treapLeft { node = left }
    return node
  }

  private static func rightmost(_ entry: CRDTTreeNode) -> CRDTTreeNode {
    var node = entry
    while let right = node.treapRight { node = right }
    return node
  }

  /// The first child (live or not).
  package var firstChild: CRDTTreeNode? { childRoot.map(CRDTTreeNode.leftmost) }
  /// The last child (live or not).
  package var lastChild: CRDTTreeNode? { childRoot.map(CRDTTreeNode.rightmost) }

  /// The next sibling, live or not.
  package var nextSibling: CRDTTreeNode? {
    if let right = treapRight { return CRDTTreeNode.leftmost(right) }
    var node = self
    while let up = node.treapUp {
      if up.treapLeft === node { return up }
      node = up
    }
    return nil
  }

  /// The previous sibling, live or not.
  package var previousSibling: CRDTTreeNode? {
    if let left = treapLeft { return CRDTTreeNode.rightmost(left) }
    var node = self
    while let up = node.treapUp {
      if up.treapRight === node { return up }
      node = up
    }
    return nil
  }

  /// The next live sibling.
  package var nextLiveSibling: CRDTTreeNode? {
    var node = nextSibling
    while let current = node, current.isRemoved { node = current.nextSibling }
    return node
  }

  /// Calls `body` with every child in order, tombstones included.
  package func forEachChild(_ body: (CRDTTreeNode) -> Void) {
    var node = firstChild
    while let current = node {
      let next = current.nextSibling
      body(current)
      node = next
    }
  }

  /// Whether a live node is below this one, however deep: a removed element can hold one (a
  /// restore revives a node under its removed parent), which its `size` does not show when a
  /// removed child holds it.
  package var holdsLiveDescendant: Bool {
    guard !isText else { return false }
    if size > 0 { return true }  // a live child weighs something, even an empty element (its tags)
    var node = firstChild
    while let current = node {
      if !current.isRemoved || current.holdsLiveDescendant { return true }
      node = current.nextSibling
    }
    return false
  }

  /// The children in order, tombstones included.
  package var allChildren: [CRDTTreeNode] {
    var result: [CRDTTreeNode] = []
    forEachChild { result.append($0) }
    return result
  }

  /// The live children in order.
  package var liveChildren: [CRDTTreeNode] { allChildren.filter { !$0.isRemoved } }

  /// The number of live children.
  package var liveChildCount: Int { Int(childRoot?.subtreeLive ?? 0) }

  /// Whether the live children are all text, and there is one (Yorkie's `hasTextChild`).
  package var hasOnlyTextChildren: Bool {
    guard let root = childRoot else { return false }
    return root.subtreeLive > 0 && root.subtreeLiveElements == 0
  }

  // MARK: - Ranks

  /// The visible size of the children before `child` (a child of this element).
  func weight(before child: CRDTTreeNode) -> Int {
    var sum = child.treapLeft?.subtreeWeight ?? 0
    var node = child
    while let up = node.treapUp {
      if up.treapRight === node { sum += (up.treapLeft?.subtreeWeight ?? 0) + up.paddedSize }
      node = up
    }
    return sum
  }

  /// The number of live children before `child` (Yorkie's `findOffset`).
  func liveCount(before child: CRDTTreeNode) -> Int {
    var sum = Int(child.treapLeft?.subtreeLive ?? 0)
    var node = child
    while let up = node.treapUp {
      if up.treapRight === node { sum += Int(up.treapLeft?.subtreeLive ?? 0) + (up.isRemoved ? 0 : 1) }
      node = up
    }
    return sum
  }

  /// The live child at live offset `offset`, nil past the end.
  func liveChild(at offset: Int) -> CRDTTreeNode? {
    guard offset >= 0 else { return nil }
    var remaining = offset
    var node = childRoot
    while let current = node {
      let left = Int(current.treapLeft?.subtreeLive ?? 0)
      if remaining < left {
        node = current.treapLeft
        continue
      }
      remaining -= left
      if !current.isRemoved {
        if remaining == 0 { return current }
        remaining -= 1
      }
      node = current.treapRight
    }
    return nil
  }

  /// The first live child whose end reaches `index` (the visible size before it plus its own
  /// is at least `index`), with the visible size before it; nil when none does.
  func firstLiveChild(reaching index: Int) -> (child: CRDTTreeNode, before: Int)? {
    var accumulated = 0
    var node = childRoot
    while let current = node {
      if let left = current.treapLeft, left.subtreeLive > 0, accumulated + left.subtreeWeight >= index {
        node = left
        continue
      }
      accumulated += current.treapLeft?.subtreeWeight ?? 0
      if !current.isRemoved && accumulated + current.paddedSize >= index { return (current, accumulated) }
      accumulated += current.paddedSize
      node = current.treapRight
    }
    return nil
  }

  // MARK: - Updates

  /// Inserts the detached `child` right after `previous` (a child of this element), or first.
  /// Sums are fixed in this treap only; the caller propagates size changes further up.
  func insertChild(_ child: CRDTTreeNode, after previous: CRDTTreeNode?) {
    child.parent = self
    child.treapLeft = nil
    child.treapRight = nil
    child.treapUp = nil
    child.recomputeSubtree()
    guard let root = childRoot else {
      childRoot = child
      return
    }
    if let previous {
      if let right = previous.treapRight {
        let successor = CRDTTreeNode.leftmost(right)
        successor.treapLeft = child
        child.treapUp = successor
      } else {
        previous.treapRight = child
        child.treapUp = previous
      }
    } else {
      let first = CRDTTreeNode.leftmost(root)
      first.treapLeft = child
      child.treapUp = first
    }
    CRDTTreeNode.recomputeUp(from: child)
    while let up = child.treapUp, up.priority < child.priority { rotateUp(child) }
  }

  /// Unlinks `child` (a child of this element) from the treap and clears its parent. Sums are
  /// fixed in this treap only.
  func removeChild(_ child: CRDTTreeNode) {
    while let left = child.treapLeft, let right = child.treapRight {
      rotateUp(left.priority > right.priority ? left : right)
    }
    let replacement = child.treapLeft ?? child.treapRight
    let up = child.treapUp
    replacement?.treapUp = up
    if let up {
      if up.treapLeft === child { up.treapLeft = replacement } else { up.treapRight = replacement }
      CRDTTreeNode.recomputeUp(from: up)
    } else {
      childRoot = replacement
    }
    child.treapLeft = nil
    child.treapRight = nil
    child.treapUp = nil
    child.parent = nil
  }

  /// Moves `entry` one level up its treap by a rotation, keeping the in-order sequence.
  private func rotateUp(_ entry: CRDTTreeNode) {
    guard let up = entry.treapUp else { return }
    let grand = up.treapUp
    if up.treapLeft === entry {
      up.treapLeft = entry.treapRight
      up.treapLeft?.treapUp = up
      entry.treapRight = up
    } else {
      up.treapRight = entry.treapLeft
      up.treapRight?.treapUp = up
      entry.treapLeft = up
    }
    up.treapUp = entry
    entry.treapUp = grand
    if let grand {
      if grand.treapLeft === up { grand.treapLeft = entry } else { grand.treapRight = entry }
    } else {
      childRoot = entry
    }
    up.recomputeSubtree()
    entry.recomputeSubtree()
  }

  /// Replaces the children with `children` (detached nodes, in order) in O(k): the treap is
  /// built as a Cartesian tree with a stack. Each child's own subtree must be complete.
  /// (`TreeLoader` builds its treaps the same way, one child at a time as they arrive.)
  func setChildren(_ children: [CRDTTreeNode]) {
    childRoot = nil
    var stack: [CRDTTreeNode] = []
    stack.reserveCapacity(32)
    for child in children {
      child.parent = self
      child.treapLeft = nil
      child.treapRight = nil
      child.treapUp = nil
      var popped: CRDTTreeNode?
      while let top = stack.last, top.priority < child.priority {
        popped = stack.removeLast()
      }
      if let popped {
        child.treapLeft = popped
        popped.treapUp = child
      }
      if let top = stack.last {
        top.treapRight = child
        child.treapUp = top
      }
      stack.append(child)
    }
    guard let root = stack.first else { return }
    childRoot = root
    CRDTTreeNode.recomputeAll(root)
  }

  /// Recomputes the sums of a whole treap, children first (the treap's depth is O(log k)).
  private static func recomputeAll(_ entry: CRDTTreeNode) {
    if let left = entry.treapLeft { recomputeAll(left) }
    if let right = entry.treapRight { recomputeAll(right) }
    entry.recomputeSubtree()
  }
}
