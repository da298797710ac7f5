/// The range collection and merge steps of a TreeEdit, with Yorkie v0.7.17's concurrent-merge
/// rules (design document *Concurrent Merge and Split*, phases 1, 3, 4 and 5).
extension CRDTTree {
  /// What step 04 of an edit collected.
  struct Collected {
    /// Nodes to tombstone, parents before children, each once.
    var removals: [CRDTTreeNode] = []
    /// The elements whose children the edit merges away (their opening tag is in the range, the
    /// closing tag is not).
    var mergeSources = Set<ObjectIdentifier>()
    /// The children of the merge sources, tombstones included, in order.
    var moving: [CRDTTreeNode] = []
    /// The visible tokens of the range, from `startIndex` on, and for each whether the edit
    /// removes it (Yorkie's `tokensToBeRemoved`): the runs of removed tokens are the deletion
    /// changes an event reports.
    var tokens: [Token] = []
    var removedTokens: [Bool] = []
    var startIndex = 0
  }

  /// Resolves a position for an edit or style: Yorkie's `FindTreeNodesWithSplitText`, then the
  /// left node moves past the split siblings the author had not seen (§2 Split Sibling Advance,
  /// yorkie#1723): the author meant a place after every part of the element it saw.
  func resolveForEdit(_ pos: CRDTTreePos, editedAt: TimeTicket, versionVector: VersionVector?) throws(YorkieError) -> Resolved {
    var resolved = try resolve(pos, editedAt: editedAt, versionVector: versionVector)
    if resolved.splitOffset == nil && resolved.left !== resolved.parent {
      resolved.left = advancePastUnknownSplitSiblings(resolved.left, versionVector)
    }
    return resolved
  }

  /// Where a position whose parent a merge tombstoned lands (§1.1 Merge-Tombstone Redirect,
  /// yorkie#1722): in the live merge target, before the first child the merge moved there (so
  /// RGA order decides against those children), or at the target's start.
  func mergeRedirect(_ parent: CRDTTreeNode) -> Resolved? {
    guard parent.isRemoved, let targetID = parent.mergedInto, let target = floorNode(targetID), !target.isRemoved else {
      return nil
    }
    var previous: CRDTTreeNode?
    var child = target.firstChild
    while let current = child {
      if current.mergedFrom == parent.id { return Resolved(parent: target, left: previous ?? target, splitOffset: nil) }
      previous = current
      child = current.nextSibling
    }
    return Resolved(parent: target, left: target, splitOffset: nil)
  }

  /// Collects what an edit between two resolved places removes and merges (Yorkie's
  /// `collectBetween`).
  func collect(fromParent: CRDTTreeNode, fromLeft: CRDTTreeNode, toParent: CRDTTreeNode, toLeft: CRDTTreeNode,
               editedAt: TimeTicket, versionVector: VersionVector?) -> Collected {
    // §3 Range Narrowing (yorkie#1776 Fix 18): when the range ends in a half of a split element
    // and starts in the other, only the part in the end's half is collected; the start keeps
    // its place for the merge, split and insert steps.
    var collectParent = fromParent
    var collectLeft = fromLeft
    if fromLeft !== fromParent && fromParent !== toParent && toLeft !== toParent {
      var current = fromLeft
      while let nextID = current.insNextID, let next = floorNode(nextID), !next.isText {
        if next.parent === toParent {
          collectParent = toParent
          collectLeft = next
          break
        }
        current = next
      }
    }
    let startIndex = toIndex(parent: collectParent, left: collectLeft)
    let tokens = self.tokens(between: startIndex, and: toIndex(parent: toParent, left: toLeft))
    var collected = Collected()
    collected.startIndex = startIndex
    collected.tokens = tokens
    collected.removedTokens = Array(repeating: false, count: tokens.count)
    var removing = Set<ObjectIdentifier>()
    func remove(_ node: CRDTTreeNode) {
      if removing.insert(ObjectIdentifier(node)).inserted { collected.removals.append(node) }
    }
    for (position, token) in tokens.enumerated() {
      let node = token.node
      // §4.3 Skip Concurrent Element Merge (yorkie#1725 Fix 9): crossing into an element the
      // author never saw is an artifact of a concurrent split, not a merge it meant.
      if token.type == .start && !token.ended && !node.isRemoved && knows(node.id.createdAt, versionVector) {
        collected.mergeSources.insert(ObjectIdentifier(node))
        collected.moving.append(contentsOf: node.allChildren)
      }
      // §4.2 Moved Children Guard (yorkie#1722 Fix 2): a merge source's children move, they are
      // not removed with it.
      let parentRemoving = node.parent.map {
        removing.contains(ObjectIdentifier($0)) && !collected.mergeSources.contains(ObjectIdentifier($0))
      } ?? false
      guard canDelete(node, editedAt: editedAt, versionVector: versionVector) || parentRemoving else { continue }
      collected.removedTokens[position] = true
      guard token.type == .text || token.type == .start else { continue }
      remove(node)
      // §4.1 Split Sibling Cascade (yorkie#1722 Fix 1): the parts a concurrent split made of a
      // removed element, which the author could not name, go with it.
      if !node.isText && !collected.mergeSources.contains(ObjectIdentifier(node)) {
        forEachUnknownSplitSibling(of: node, versionVector) { sibling in
          sibling.forEachPreOrder { remove($0) }
        }
      }
    }
    return collected
  }

  /// Yorkie's `makeDeletionChanges`: one content change per run of removed tokens (runs that
  /// touch are one), newest range first, in this replica's indexes before the deletion. A
  /// range holding content the author had not seen is reported around it, so that an editor
  /// applying the changes keeps that content as the tree does.
  func deletionChanges(_ collected: Collected, actor: ActorID, edgePaths: (from: (Int, [Int]), to: (Int, [Int]))) -> [TreeChange] {
    var runs: [(from: Int, to: Int)] = []
    var index = collected.startIndex
    for (token, removed) in zip(collected.tokens, collected.removedTokens) {
      let width = token.type == .text ? token.node.length : 1
      if removed {
        if let last = runs.last, last.to == index { runs[runs.count - 1].to = index + width } else { runs.append((index, index + width)) }
      }
      index += width
    }
    func path(_ index: Int) -> [Int] {
      if index == edgePaths.from.0 { return edgePaths.from.1 }
      if index == edgePaths.to.0 { return edgePaths.to.1 }
      return (try? indexToPath(index)) ?? []
    }
    return runs.reversed().map { run in
      TreeChange(kind: .content, actor: actor, from: run.from, to: run.to, fromPath: path(run.from), toPath: path(run.to),
                 contents: nil, splitLevel: 0)
    }
  }

  /// Calls `body` with each element after `node` in its split chain whose creation the author
  /// had not seen (none for a local edit).
  private func forEachUnknownSplitSibling(of node: CRDTTreeNode, _ versionVector: VersionVector?, _ body: (CRDTTreeNode) -> Void) {
    guard CRDTTree.isRemote(versionVector) else { return }
    var visited = Set<ObjectIdentifier>()
    var nextID = node.insNextID
    while let id = nextID, let next = floorNode(id), visited.insert(ObjectIdentifier(next)).inserted {
      if !knows(next.id.createdAt, versionVector) { body(next) }
      nextID = next.insNextID
    }
  }

  /// The live end of a chain of merges from `node` (Yorkie's `resolveMergeTarget`, chained-merge
  /// flattening): children merged into an element a concurrent merge already merged away go on
  /// to where that element's children went.
  func resolveMergeTarget(_ node: CRDTTreeNode) -> CRDTTreeNode {
    var target = node
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(node)]
    while target.isRemoved, let id = target.mergedInto, let next = floorNode(id), seen.insert(ObjectIdentifier(next)).inserted {
      target = next
    }
    return target
  }

  /// Moves `children` to the end of the merge target of `fromParent` (§5.1 Child Migration,
  /// yorkie#1722/#1724): each keeps the source and ticket of its first merge (`mergedFrom`,
  /// `mergedAt`), and the source forwards to the target (`mergedInto`).
  ///
  /// - Returns: the merge target.
  func merge(_ children: [CRDTTreeNode], into fromParent: CRDTTreeNode, mergedAt: TimeTicket, journal: Journal) -> CRDTTreeNode {
    let target = resolveMergeTarget(fromParent)
    for child in children {
      guard let source = child.parent, source !== target else { continue }
      journal.append(.tree(self, .moved(child, from: source, after: child.previousSibling, mergedFrom: child.mergedFrom, mergedAt: child.mergedAt)))
      source.removeChild(child)
      source.propagateSizeChange()
      if child.mergedFrom == nil {
        child.mergedFrom = source.id
        child.mergedAt = mergedAt
      }
      target.insertChild(child, after: target.lastChild)
      target.propagateSizeChange()
      if let sourceID = child.mergedFrom, let origin = floorNode(sourceID), origin.mergedInto != target.id {
        journal.append(.tree(self, .mergedInto(origin, origin.mergedInto)))
        origin.mergedInto = target.id
      }
    }
    return target
  }

  /// §5.2 Delete Propagation (yorkie#1722 Fix 4): an element this edit removed (not merged) that
  /// an earlier merge emptied takes the children it gave away with it; not when it forwards to
  /// this edit's own merge target (two merges of the same elements, not a delete).
  func propagateMergeDeletes(_ collected: Collected, target: CRDTTreeNode, editedAt: TimeTicket, journal: Journal,
                             into result: inout ChangeResult) {
    for node in collected.removals {
      guard let intoID = node.mergedInto, intoID != target.id, !collected.mergeSources.contains(ObjectIdentifier(node)),
        let holder = floorNode(intoID) else { continue }
      for child in holder.allChildren where child.mergedFrom == node.id && !child.isRemoved {
        child.forEachPreOrder { descendant in
          if !descendant.isRemoved && self.tombstone(descendant, editedAt: editedAt, journal: journal) {
            result.gcPairs.append(.node(descendant))
          }
        }
      }
    }
  }
}
