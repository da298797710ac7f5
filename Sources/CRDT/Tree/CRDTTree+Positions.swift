/// Conversions between indexes, paths and ``CRDTTreePos`` (Yorkie's `findPos`, `toIndex`,
/// `toPath`, `pathToIndex`, `indexToPath` and the range forms), each O(depth · log k).
extension CRDTTree {
  /// A physical place in the current tree (Yorkie's `index.TreePos`): inside a text piece at a
  /// UTF-16 offset, or in an element before its live child number `offset`.
  package struct LocalPos {
    package var node: CRDTTreeNode
    package var offset: Int
  }

  // MARK: - Index → position

  /// The physical place of `index` (Yorkie's `findTreePos`): with `preferText`, a place on
  /// either side of a text piece lies inside it.
  ///
  /// - Throws: `indexOutOfBounds` when `index` is negative or past the root's size.
  package func findLocalPos(_ index: Int, preferText: Bool = true) throws(YorkieError) -> LocalPos {
    guard index >= 0 && index <= root.size else {
      throw YorkieError(.indexOutOfBounds, "tree index \(index) is out of 0...\(root.size)")
    }
    var node = root
    var index = index
    while true {
      guard let (child, before) = node.firstLiveChild(reaching: index) else {
        return LocalPos(node: node, offset: node.liveChildCount)
      }
      let local = index - before
      if preferText && child.isText && child.length >= local { return LocalPos(node: child, offset: local) }
      if local == 0 { return LocalPos(node: node, offset: node.liveCount(before: child)) }
      if !preferText && child.paddedSize == local { return LocalPos(node: node, offset: node.liveCount(before: child) + 1) }
      if child.paddedSize > local {
        // Yorkie skips an opening tag here even for text (reachable only without preferText).
        if child.isText { return LocalPos(node: child, offset: local - 1) }
        node = child
        index = local - 1
        continue
      }
      // The index is right after an element and text is preferred: it belongs to the next
      // live child's left edge, or the end of the element.
      let offset = node.liveCount(before: child) + 1
      if let next = child.nextLiveSibling, preferText && next.isText { return LocalPos(node: next, offset: 0) }
      return LocalPos(node: node, offset: offset)
    }
  }

  /// The ``CRDTTreePos`` of a physical place (Yorkie's `CRDTTreePos.fromTreePos`, including
  /// its offset arithmetic on the left sibling's identity).
  package func position(of local: LocalPos) -> CRDTTreePos {
    var node = local.node
    let left: CRDTTreeNode
    if node.isText && local.offset == 0, let parent = node.parent {
      // The left edge of a text that follows a live sibling (an element: `findLocalPos` gives
      // the end of a preceding text instead). Yorkie names the text itself here, which every
      // replica resolves to after the text (or, for a split piece, after the piece before it,
      // wherever that is), so an insert landed one text to the right, a deletion starting here
      // had its end before its start and one ending here deleted the text too. The place after
      // the sibling says what is meant.
      let before = parent.liveCount(before: node)
      if before > 0 {
        let previous = parent.liveChild(at: before - 1)!
        return position(of: previous.isText ? LocalPos(node: previous, offset: previous.length) : LocalPos(node: parent, offset: before))
      }
    }
    if node.isText {
      let parent = node.parent!
      left = (parent.liveChild(at: 0) === node && local.offset == 0) ? parent : node
      node = parent
    } else {
      left = local.offset == 0 ? node : node.liveChild(at: local.offset - 1)!
    }
    return CRDTTreePos(parentID: node.id, leftSiblingID: TreeNodeID(
      createdAt: left.id.createdAt, offset: left.id.offset + Int32(local.offset)))
  }

  /// The position of `index` (Yorkie's `findPos`).
  package func findPos(_ index: Int, preferText: Bool = true) throws(YorkieError) -> CRDTTreePos {
    position(of: try findLocalPos(index, preferText: preferText))
  }

  // MARK: - Physical place → index and path

  /// The index of a physical place (Yorkie's `indexOf`).
  package func index(of local: LocalPos) -> Int {
    var node = local.node
    var index: Int
    if node.isText {
      let parent = node.parent!
      index = local.offset + parent.weight(before: node)
      node = parent
    } else {
      index = local.offset < node.liveChildCount ? node.weight(before: node.liveChild(at: local.offset)!) : node.size
    }
    while let parent = node.parent {
      index += parent.weight(before: node) + 1
      node = parent
    }
    return index
  }

  /// The path of a physical place (Yorkie's `treePosToPath`): live child offsets from the root,
  /// then a text offset across the element's text (or a child offset when it holds elements).
  package func path(of local: LocalPos) -> [Int] {
    var reversed: [Int] = []
    var node = local.node
    if node.isText {
      let parent = node.parent!
      reversed.append(parent.weight(before: node) + local.offset)
      node = parent
    } else if node.hasOnlyTextChildren {
      reversed.append(local.offset < node.liveChildCount ? node.weight(before: node.liveChild(at: local.offset)!) : node.size)
    } else {
      reversed.append(local.offset)
    }
    while let parent = node.parent {
      reversed.append(parent.liveCount(before: node))
      node = parent
    }
    return reversed.reversed()
  }

  /// The physical place of a resolved (parent, left sibling) pair (Yorkie's `toTreePos`).
  func localPos(parent: CRDTTreeNode, left: CRDTTreeNode) -> LocalPos {
    if parent.isRemoved {
      // The place of the nearest live ancestor, before the removed branch.
      var child = parent
      var ancestor = parent
      while ancestor.isRemoved, let up = ancestor.parent {
        child = ancestor
        ancestor = up
      }
      return LocalPos(node: ancestor, offset: ancestor.liveCount(before: child))
    }
    if parent === left { return LocalPos(node: parent, offset: 0) }
    var offset = parent.liveCount(before: left)
    if !left.isRemoved {
      if left.isText { return LocalPos(node: left, offset: left.paddedSize) }
      offset += 1
    }
    return LocalPos(node: parent, offset: offset)
  }

  /// The index of a resolved (parent, left sibling) pair (Yorkie's `toIndex`).
  package func toIndex(parent: CRDTTreeNode, left: CRDTTreeNode) -> Int { index(of: localPos(parent: parent, left: left)) }

  /// The path of a resolved (parent, left sibling) pair (Yorkie's `toPath`).
  package func toPath(parent: CRDTTreeNode, left: CRDTTreeNode) -> [Int] { path(of: localPos(parent: parent, left: left)) }

  // MARK: - Paths

  /// The physical place of a path (Yorkie's `pathToTreePos`).
  ///
  /// - Throws: `invalidPath` for an empty path or one that leaves the tree.
  package func localPos(path: [Int]) throws(YorkieError) -> LocalPos {
    guard let last = path.last else { throw YorkieError(.invalidPath, "a tree path has at least one element") }
    var node = root
    for step in path.dropLast() {
      guard let child = node.liveChild(at: step), !child.isText else {
        throw YorkieError(.invalidPath, "the tree path \(path) leaves the tree at \(step)")
      }
      node = child
    }
    if node.hasOnlyTextChildren {
      guard last >= 0 && last <= node.size else { throw YorkieError(.invalidPath, "the tree path \(path) is past the text (\(node.size))") }
      // Yorkie's findTextPos: the first text child whose end reaches the offset.
      guard let (child, before) = node.firstLiveChild(reaching: last) else { return LocalPos(node: node, offset: 0) }
      return LocalPos(node: child, offset: last - before)
    }
    guard last >= 0 && last <= node.liveChildCount else {
      throw YorkieError(.invalidPath, "the tree path \(path) is past the children (\(node.liveChildCount))")
    }
    return LocalPos(node: node, offset: last)
  }

  /// The index of a path (Yorkie's `pathToIndex`).
  package func pathToIndex(_ path: [Int]) throws(YorkieError) -> Int { index(of: try localPos(path: path)) }

  /// The path of an index (Yorkie's `indexToPath`).
  package func indexToPath(_ index: Int) throws(YorkieError) -> [Int] { path(of: try findLocalPos(index)) }

  /// The position of a path (Yorkie's `pathToPos`).
  package func pathToPos(_ path: [Int]) throws(YorkieError) -> CRDTTreePos { try findPos(try pathToIndex(path)) }

  // MARK: - Ranges

  /// Positions for an index range (Yorkie's `indexRangeToPosRange`).
  package func indexRangeToPosRange(_ from: Int, _ to: Int) throws(YorkieError) -> (CRDTTreePos, CRDTTreePos) {
    let fromPos = try findPos(from)
    return (fromPos, from == to ? fromPos : try findPos(to))
  }

  /// Positions for a path range (Yorkie's `pathRangeToPosRange` of the JSON tree).
  package func pathRangeToPosRange(_ from: [Int], _ to: [Int]) throws(YorkieError) -> (CRDTTreePos, CRDTTreePos) {
    try indexRangeToPosRange(try pathToIndex(from), try pathToIndex(to))
  }

  /// Indexes of a position range (Yorkie's `posRangeToIndexRange`), without changing the tree.
  package func posRangeToIndexRange(_ from: CRDTTreePos, _ to: CRDTTreePos) throws(YorkieError) -> (Int, Int) {
    (try resolve(from, editedAt: nil).index(in: self), try resolve(to, editedAt: nil).index(in: self))
  }

  /// Paths of a position range (Yorkie's `posRangeToPathRange`), without changing the tree.
  package func posRangeToPathRange(_ from: CRDTTreePos, _ to: CRDTTreePos) throws(YorkieError) -> ([Int], [Int]) {
    (try resolve(from, editedAt: nil).path(in: self), try resolve(to, editedAt: nil).path(in: self))
  }

  // MARK: - Resolving positions

  /// A ``CRDTTreePos`` resolved against this replica without changing it: the parent, the
  /// left node, and where the left text piece would be split (Yorkie's `findNodesAndSplitText`
  /// before its split).
  package struct Resolved {
    package var parent: CRDTTreeNode
    package var left: CRDTTreeNode
    /// The UTF-16 offset inside `left` (a text piece) where it must be split, when strictly inside.
    package var splitOffset: Int?

    /// The index of the place. A place inside a removed text piece is where the piece would be
    /// (Yorkie splits it first, and its `toTreePos` of a removed left node counts no offset into
    /// it): counting the offset into a tombstone would move the place past live content.
    func index(in tree: CRDTTree) -> Int {
      if let splitOffset, !left.isRemoved { return tree.index(of: LocalPos(node: left, offset: splitOffset)) }
      return tree.toIndex(parent: parent, left: left)
    }

    /// The path of the place.
    func path(in tree: CRDTTree) -> [Int] {
      if let splitOffset, !left.isRemoved { return tree.path(of: LocalPos(node: left, offset: splitOffset)) }
      return tree.toPath(parent: parent, left: left)
    }
  }

  /// Resolves `pos` (Yorkie's `toTreeNodePair` and `findNodesAndSplitText`, steps 01–04) without
  /// splitting: when `editedAt` is given, the left node moves right past siblings inserted
  /// concurrently after it with newer tickets (as RGA).
  ///
  /// - Throws: `treeNodeNotFound` when the parent or left node is unknown, or the parent is text.
  ///
  /// With a remote author's `versionVector`, the left node first moves past the parts of it a
  /// split the author had not seen made, then the RGA step runs from there: the author meant a
  /// place after the whole element, and a concurrent insert placed after the element by an
  /// author who had seen the split (so between the parts) must not stop the move, or the order
  /// would depend on whether that insert arrived first (fuzz seed 4410207 of kinds 0,3).
  package func resolve(_ pos: CRDTTreePos, editedAt: TimeTicket?, versionVector: VersionVector? = nil) throws(YorkieError) -> Resolved {
    guard let parentNode = floorNode(pos.parentID), var leftNode = floorNode(pos.leftSiblingID) else {
      throw YorkieError(.treeNodeNotFound, "cannot find the nodes of the tree position \(pos)")
    }
    if pos.leftSiblingID != pos.parentID && pos.leftSiblingID.offset > 0 && pos.leftSiblingID.offset == leftNode.id.offset,
      let previousID = leftNode.insPrevID, let previous = floorNode(previousID) {
      leftNode = previous
    }
    let isLeftMost = parentNode === leftNode
    let realParent = !isLeftMost ? (leftNode.parent ?? parentNode) : parentNode
    guard !realParent.isText else {
      throw YorkieError(.treeNodeNotFound, "the parent of the tree position \(pos) is a text node")
    }
    if isLeftMost, let redirected = mergeRedirect(realParent) { return redirected }
    if !isLeftMost && leftNode.parent == nil {
      throw YorkieError(.treeNodeNotFound, "the left node of the tree position \(pos) is no longer in the tree")
    }
    if leftNode.isText {
      let offset = Int(pos.leftSiblingID.offset - leftNode.id.offset)
      if offset > 0 && offset < leftNode.length {
        // The split's right piece has the left's ticket, never newer: the RGA step stops there.
        return Resolved(parent: realParent, left: leftNode, splitOffset: offset)
      }
    }
    if !isLeftMost { leftNode = advancePastUnknownSplitSiblings(leftNode, versionVector) }
    if let editedAt {
      var next = isLeftMost ? realParent.firstChild : leftNode.nextSibling
      while let candidate = next, candidate.id.createdAt.isAfter(editedAt) {
        leftNode = candidate
        next = candidate.nextSibling
      }
    }
    return Resolved(parent: realParent, left: leftNode, splitOffset: nil)
  }
}
