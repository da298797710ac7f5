/// The split step of a TreeEdit, with Yorkie v0.7.17's concurrent-split rules (design document
/// *Concurrent Merge and Split*, phases 2 and 6).
extension CRDTTree {
  /// Follows `node`'s split chain past the elements whose creation the author had not seen
  /// (Yorkie's `advancePastUnknownSplitSiblings`, §2, yorkie#1723): a place after an element
  /// the author saw is after every part a concurrent split made of it.
  ///
  /// - Parameters:
  ///   - relaxParentCheck: follow parts a concurrent ancestor split moved to another parent
  ///     (§6.5, yorkie#1776 Fix 13); otherwise stop at them.
  ///   - skipActor: stop at parts this actor made: in the split loop they are the edit's own
  ///     (§6.7, yorkie#1776 Fix 15).
  func advancePastUnknownSplitSiblings(_ node: CRDTTreeNode, _ versionVector: VersionVector?, relaxParentCheck: Bool = false,
                                       skipActor: ActorID? = nil) -> CRDTTreeNode {
    guard CRDTTree.isRemote(versionVector) else { return node }
    var current = node
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(node)]
    while let nextID = current.insNextID, let next = floorNode(nextID), !next.isText, visited.insert(ObjectIdentifier(next)).inserted {
      if !relaxParentCheck && next.parent !== current.parent { break }
      if let skipActor, next.id.createdAt.actorID == skipActor { break }
      if knows(next.id.createdAt, versionVector) { break }
      current = next
    }
    return current
  }

  /// Splits `tickets.count` element levels at (`fromParent`, `fromLeft`) (Yorkie's recursive
  /// `split`): at each level the left node first moves past unseen split parts (§6.5, the
  /// parent following it), and the partition counts tombstones (§6.6). The root is never split:
  /// a remote split deeper than this replica's position stops there.
  func splitLevels(from fromParent: CRDTTreeNode, left fromLeft: CRDTTreeNode, tickets: [TimeTicket], editedAt: TimeTicket,
                   versionVector: VersionVector?, journal: Journal) {
    var parent = fromParent
    var left = fromLeft
    for (level, ticket) in tickets.enumerated() {
      if left !== parent {
        left = advancePastUnknownSplitSiblings(left, versionVector, relaxParentCheck: true, skipActor: editedAt.actorID)
        if let leftParent = left.parent, leftParent !== parent { parent = leftParent }
      }
      guard let grand = parent.parent else {
        insertUnsplittableParts(tickets[level...], after: left, in: parent, editedAt: editedAt, journal: journal)
        return
      }
      let after = left === parent ? nil : left
      if let newer = newerConcurrentSplitAtEnd(of: parent, after: after, ticket: ticket, versionVector) {
        splitElement(newer, after: nil, ticket: ticket, versionVector: versionVector, journal: journal)
      } else {
        splitElement(parent, after: after, ticket: ticket, versionVector: versionVector, journal: journal)
      }
      left = parent
      parent = grand
    }
  }

  /// The parts of the levels a remote split cannot make here, because concurrent merges left
  /// its position fewer levels deep than its author saw it (the root is never split): each
  /// becomes an empty tombstone element after `left` in the root, forwarding to the root as a
  /// merged-away element does. Nothing shows, and the identities exist: the author's later
  /// operations name them, and would otherwise be refused whole on this replica.
  private func insertUnsplittableParts(_ tickets: ArraySlice<TimeTicket>, after left: CRDTTreeNode, in root: CRDTTreeNode,
                                       editedAt: TimeTicket, journal: Journal) {
    var previous: CRDTTreeNode? = left === root ? nil : left
    let type = previous.map { $0.isText ? root.type : $0.type } ?? root.type
    for ticket in tickets {
      let part = CRDTTreeNode(id: TreeNodeID(createdAt: ticket), type: type, attributes: nil)
      part.removedAt = editedAt
      part.mergedInto = root.id
      part.recomputeSubtree()
      root.insertChild(part, after: previous)
      root.propagateSizeChange()
      register(part)
      journal.append(.tree(self, .inserted(part)))
      splitGarbage.append(.node(part))
      previous = part
    }
  }

  /// Concurrent splits of one element at one boundary (yorkie-js-sdk#1373, where Yorkie orders
  /// the parts by arrival and replicas disagree): the parts are ordered as RGA orders inserts
  /// after one node, newest ticket first. A split at the end of `node`'s children (the place a
  /// concurrent split of the same boundary left) that follows split parts its author had not
  /// seen with newer tickets (empty ones, up to the first that holds children) splits the last
  /// of them at its start instead: the right part lives
  /// there on this replica, and moves into the new part as it would have moved out of `node` on
  /// a replica that applied this split first.
  ///
  /// - Returns: the part to split at its start, nil to split `node` itself.
  private func newerConcurrentSplitAtEnd(of node: CRDTTreeNode, after left: CRDTTreeNode?, ticket: TimeTicket,
                                         _ versionVector: VersionVector?) -> CRDTTreeNode? {
    guard CRDTTree.isRemote(versionVector), left === node.lastChild else { return nil }
    var current = node
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(node)]
    while let nextID = current.insNextID, let next = floorNode(nextID), !next.isText, next.parent === node.parent,
      !knows(next.id.createdAt, versionVector), next.id.createdAt.isAfter(ticket), visited.insert(ObjectIdentifier(next)).inserted {
      current = next
      // The parts of splits at this boundary are empty but the last, which holds the right
      // part; a part after it comes from a split at another boundary.
      if next.firstChild != nil { break }
    }
    return current === node ? nil : current
  }

  /// Splits the element `node` after its child `left` (before its first child when nil): a new
  /// element of the same type, identity `ticket`, removal, merge stamp and attributes (§6.2,
  /// yorkie#1776) goes right after `node` and takes the children after `left`, except:
  ///
  /// - a child a merge the author had not seen moved here from one of `node`'s own children stays
  ///   (§6.1, yorkie#1724 `mergedFrom`, narrowed to `sourceIsChild` by yorkie#1727);
  /// - the run of children the author had not seen at the start of the right part stays
  ///   (§6.3 Boundary Insert Migration, yorkie#1776 Fix 16): they were inserted relative to the
  ///   left part. Element split parts do not end the run.
  ///
  /// When `node`'s next split part already sits in another parent (a concurrent ancestor split)
  /// and the new element is empty, it joins that part (§6.4 Empty Sibling Re-Parenting, Fix 17).
  func splitElement(_ node: CRDTTreeNode, after left: CRDTTreeNode?, ticket: TimeTicket, versionVector: VersionVector?,
                    journal: Journal) {
    let split = CRDTTreeNode(id: TreeNodeID(createdAt: ticket), type: node.type, attributes: node.attributes)
    // The copied attribute tombstones, and the new element when `node` is a tombstone, are
    // garbage of their own (registered by the operation layer).
    for entry in node.attributes?.entries ?? [] where entry.isRemoved {
      splitGarbage.append(.attribute(split, key: entry.key, removedAt: entry.updatedAt))
    }
    if node.isRemoved { splitGarbage.append(.node(split)) }
    split.removedAt = node.removedAt
    split.mergedFrom = node.mergedFrom
    split.mergedAt = node.mergedAt
    split.recomputeSubtree()
    let parent = node.parent!
    parent.insertChild(split, after: node)
    register(split)
    journal.append(.tree(self, .inserted(split)))
    let previousNextID = node.insNextID
    link(split, after: node, journal: journal)

    let children = node.allChildren
    let start = left.map { left in children.firstIndex { $0 === left }! + 1 } ?? 0
    let staying = stayingChildren(of: node, children, from: start, versionVector)
    var previous: CRDTTreeNode?
    for child in children[start...] where !staying.contains(ObjectIdentifier(child)) {
      journal.append(.tree(self, .moved(child, from: node, after: child.previousSibling, mergedFrom: child.mergedFrom, mergedAt: child.mergedAt)))
      node.removeChild(child)
      split.insertChild(child, after: previous)
      previous = child
    }
    node.propagateSizeChange()
    split.propagateSizeChange()

    if !node.isText, let nextID = previousNextID, let next = floorNode(nextID), let nextParent = next.parent,
      !next.isRemoved, nextParent !== parent, split.firstChild == nil {
      journal.append(.tree(self, .moved(split, from: parent, after: node, mergedFrom: split.mergedFrom, mergedAt: split.mergedAt)))
      parent.removeChild(split)
      parent.propagateSizeChange()
      nextParent.insertChild(split, after: next.previousSibling)
      nextParent.propagateSizeChange()
    }
  }

  /// The children after `start` that stay in `node` when it splits (§6.1 and §6.3; none locally).
  private func stayingChildren(of node: CRDTTreeNode, _ children: [CRDTTreeNode], from start: Int,
                               _ versionVector: VersionVector?) -> Set<ObjectIdentifier> {
    guard CRDTTree.isRemote(versionVector), start < children.count else { return [] }
    var staying = Set<ObjectIdentifier>()
    let siblingIDs = Set(children.map(\.id))
    for child in children[start...] {
      if let source = child.mergedFrom, let mergedAt = child.mergedAt, !knows(mergedAt, versionVector), siblingIDs.contains(source) {
        staying.insert(ObjectIdentifier(child))
      }
    }
    for child in children[start...] {
      if !child.isText && child.insPrevID != nil { continue }
      guard !knows(child.id.createdAt, versionVector) else { break }
      staying.insert(ObjectIdentifier(child))
    }
    return staying
  }

  /// Makes `split` the next piece of `node` in its split chain.
  func link(_ split: CRDTTreeNode, after node: CRDTTreeNode, journal: Journal) {
    split.insPrevID = node.id
    if let nextID = node.insNextID, let next = floorNode(nextID) {
      journal.append(.tree(self, .insLinks(next, previous: next.insPrevID, next: next.insNextID)))
      next.insPrevID = split.id
      split.insNextID = nextID
    }
    journal.append(.tree(self, .insLinks(node, previous: node.insPrevID, next: node.insNextID)))
    node.insNextID = split.id
  }
}
