/// TreeEdit: insert, delete, merge and split (Yorkie v0.7.x's `CRDTTree.Edit`).
extension CRDTTree {
  /// What an edit or style did, for events and garbage collection.
  package struct ChangeResult {
    /// Yorkie's TreeChange list.
    package var changes: [TreeChange] = []
    /// What the operation tombstoned: nodes and attributes to register for GC.
    package var gcPairs: [TreeGCPair] = []
    /// The tombstones a restore revived (`CRDTTree+Restore.swift`), whose GC pairs are stale.
    package var revived: [CRDTTreeNode] = []
    /// What a traced local edit did, for its reverse (`CRDTTree+History.swift`).
    package var trace: EditTrace?
  }

  /// Replaces `from..<to` with `contents` after splitting `splitLevel` element levels at `from`,
  /// with Yorkie v0.7.17's concurrency rules (its design document *Concurrent Merge and Split*,
  /// phases 1–6; each rule names the Yorkie change it follows):
  ///
  /// 1. Resolve both positions, splitting text pieces; a position inside an element a concurrent
  ///    merge tombstoned is redirected to the merge target (§1.1, yorkie#1722).
  /// 2. Move each left node past the split siblings the author had not seen (§2, yorkie#1723).
  /// 3. Narrow the deleted range when its ends lie in two halves of a split element (§3, yorkie#1776).
  /// 4. Collect the visible tokens between them and remove what the author could delete
  ///    (`canDelete`), cascading to unseen split siblings (§4.1) but not to the children of a
  ///    merged element (§4.2); an element the author had not seen is never merged (§4.3, yorkie#1725).
  /// 5. Merge: every child (tombstones too) of an element whose opening tag is in the range and
  ///    closing tag is not moves to the end of the merge target, stamped `mergedFrom`/`mergedAt`;
  ///    deleting a merged-away element deletes the children it gave away (§5.2, yorkie#1722).
  /// 6. Split the element levels (see `CRDTTree+Split.swift`), then insert the contents after
  ///    `from`'s left node (tombstoned at once when the parent is removed).
  ///
  /// Everything is validated before the first change: unknown nodes, a local `from` after `to`
  /// (a remote range a merge redirect inverted is empty, §1.2), a split level with a ticket count
  /// other than 0 or `splitLevel`, a local split deeper than the position, contents whose
  /// identities the tree already has. Every change is journaled.
  ///
  /// - Parameters:
  ///   - contents: detached subtrees (``buildSubtree(_:)``), inserted in order.
  ///   - splitTickets: the identities of the elements the split creates, in order; empty in a
  ///     change made before Yorkie v0.7.16, which derives them (``derivedSplitTickets(editedAt:contentCount:splitLevel:)``).
  ///   - versionVector: the author's vector for a remote edit; nil or empty for a local one.
  ///   - describing: whether the result describes the change for events (paths, inserted nodes);
  ///     false leaves them empty.
  ///   - tracing: whether the result says what the edit did for its reverse (``EditTrace``): a
  ///     local edit that the history records.
  /// - Throws: `treeNodeNotFound`, `invalidTreeRange`, `invalidSplitLevel`, `invalidTreeContent`.
  package func edit(from: CRDTTreePos, to: CRDTTreePos, contents: [CRDTTreeNode] = [], splitLevel: Int = 0,
                    editedAt: TimeTicket, splitTickets: [TimeTicket] = [], versionVector: VersionVector? = nil,
                    describing: Bool = true, tracing: Bool = false, journal: Journal) throws(YorkieError) -> ChangeResult {
    let isRemote = CRDTTree.isRemote(versionVector)
    // 01. Validate everything first.
    let fromResolved = try resolveForEdit(from, editedAt: editedAt, versionVector: versionVector)
    let toResolved = try resolveForEdit(to, editedAt: editedAt, versionVector: versionVector)
    let startIndex = fromResolved.index(in: self)
    let endIndex = toResolved.index(in: self)
    if startIndex > endIndex && !isRemote {
      throw YorkieError(.invalidTreeRange, "the tree range starts at \(startIndex), after its end \(endIndex)")
    }
    try checkSplit(fromResolved.left, fromResolved)
    try checkSplit(toResolved.left, toResolved)
    guard splitLevel >= 0 else { throw YorkieError(.invalidSplitLevel, "a split level cannot be negative (\(splitLevel))") }
    guard splitTickets.isEmpty || splitTickets.count == splitLevel else {
      throw YorkieError(.invalidSplitLevel, "a split of \(splitLevel) levels needs \(splitLevel) tickets, got \(splitTickets.count)")
    }
    let tickets = splitTickets.isEmpty
      ? CRDTTree.derivedSplitTickets(editedAt: editedAt, contentCount: contents.count, splitLevel: splitLevel) : splitTickets
    if !isRemote {
      // A remote split stops below the root instead (as Yorkie's SDKs): its author checked the depth.
      var depth = 0
      var ancestor = fromResolved.parent
      while depth < splitLevel, let up = ancestor.parent {
        depth += 1
        ancestor = up
      }
      guard depth >= splitLevel else {
        throw YorkieError(.invalidSplitLevel, "cannot split \(splitLevel) levels at a position \(depth) levels deep")
      }
    }
    try checkNew(contents, splitTickets: tickets)
    // Paths and inserted nodes are for the change event only: a replay, or an update nobody
    // listens to, does not walk the tree for them (about a tenth of `tree_10000`).
    let fromPath = describing ? fromResolved.path(in: self) : []
    let toPath = describing ? toResolved.path(in: self) : []

    // 02. Split text at both ends (the end resolved again: the start's split may have cut its piece).
    let (fromParent, fromLeft) = split(fromResolved, journal: journal)
    let (toParent, toLeft) = split(try resolveForEdit(to, editedAt: editedAt, versionVector: versionVector), journal: journal)

    var result = ChangeResult()
    var trace = tracing ? EditTrace(fromIndex: startIndex, sizeBefore: size) : nil

    // 03–04. Collect (the deletion changes are described before anything is removed), then delete.
    let collected = collect(fromParent: fromParent, fromLeft: fromLeft, toParent: toParent, toLeft: toLeft,
                            editedAt: editedAt, versionVector: versionVector)
    if describing {
      result.changes = deletionChanges(collected, actor: editedAt.actorID,
                                       edgePaths: ((startIndex, fromPath), (max(startIndex, endIndex), startIndex <= endIndex ? toPath : fromPath)))
    }
    for node in collected.removals {
      let wasLive = !node.isRemoved
      guard tombstone(node, editedAt: editedAt, journal: journal) else { continue }
      result.gcPairs.append(.node(node))
      // Only what this edit took from live to removed is revived by its undo (Yorkie's
      // `applyDeletions`): an older tombstone stays the deletion it was.
      if wasLive && trace != nil { trace?.removed.append(restoreSpan(of: node)) }
    }

    // 05. Merge, then delete what merged-away elements gave away.
    let target = merge(collected.moving, into: fromParent, mergedAt: editedAt, journal: journal)
    let pairsBeforePropagation = result.gcPairs.count
    propagateMergeDeletes(collected, target: target, editedAt: editedAt, journal: journal, into: &result)
    if trace != nil {
      trace?.mergeLevel = collected.mergeSources.count
      trace?.touchedNodes = !collected.removals.isEmpty
      trace?.spansComplete = collected.mergeSources.isEmpty && result.gcPairs.count == pairsBeforePropagation
        && !(fromParent.isRemoved && !contents.isEmpty)
    }

    // 06. Split element levels.
    splitLevels(from: fromParent, left: fromLeft, tickets: tickets, editedAt: editedAt, versionVector: versionVector, journal: journal)
    if describing && splitLevel > 0 {
      result.changes.append(TreeChange(kind: .content, actor: editedAt.actorID, from: startIndex, to: startIndex, fromPath: fromPath,
                                       toPath: fromPath, contents: nil, splitLevel: splitLevel))
    }

    // 07. Insert.
    var leftInChildren: CRDTTreeNode? = fromLeft === fromParent ? nil : fromLeft
    var alive: [TreeNode] = []
    for content in contents {
      if fromParent.isRemoved {
        content.forEachPostOrder { node, _ in
          node.removedAt = editedAt
          node.recomputeSubtree()
          result.gcPairs.append(.node(node))
        }
      }
      fromParent.insertChild(content, after: leftInChildren)
      fromParent.propagateSizeChange()
      content.forEachPostOrder { node, _ in self.register(node) }
      journal.append(.tree(self, .inserted(content)))
      if trace != nil { content.forEachPreOrder { node in trace?.inserted.append(restoreSpan(of: node)) } }
      leftInChildren = content
      if describing && !content.isRemoved { alive.append(CRDTTree.treeNode(content)) }
    }
    // The insertion joins the change that ends at its place (a replacement), as Yorkie reports it.
    if !alive.isEmpty {
      if let last = result.changes.indices.last, result.changes[last].from == startIndex {
        result.changes[last].contents = alive
      } else {
        result.changes.append(TreeChange(kind: .content, actor: editedAt.actorID, from: startIndex, to: startIndex, fromPath: fromPath,
                                         toPath: fromPath, contents: alive, splitLevel: 0))
      }
    }
    result.trace = trace
    return result
  }

  /// The identities of the elements a split creates when its change carries none (made before
  /// Yorkie v0.7.16 added `splitTickets`): as every Yorkie SDK simulates them, the edit's lamport
  /// and actor with delimiters counting on from the edit's delimiter plus the number of
  /// top-level contents (`TreeEditOperation.execute`'s `issueTimeTicket`).
  package static func derivedSplitTickets(editedAt: TimeTicket, contentCount: Int, splitLevel: Int) -> [TimeTicket] {
    guard splitLevel > 0 else { return [] }
    let base = editedAt.delimiter &+ UInt32(truncatingIfNeeded: contentCount)
    return (1...splitLevel).map {
      TimeTicket(lamport: editedAt.lamport, delimiter: base &+ UInt32(truncatingIfNeeded: $0), actorID: editedAt.actorID)
    }
  }

  /// Edits by index, for tests and local callers: positions from ``findPos(_:preferText:)``.
  package func edit(_ from: Int, _ to: Int, contents: [CRDTTreeNode] = [], splitLevel: Int = 0, editedAt: TimeTicket,
                    splitTickets: [TimeTicket] = [], journal: Journal) throws(YorkieError) -> ChangeResult {
    let (fromPos, toPos) = try indexRangeToPosRange(from, to)
    return try edit(from: fromPos, to: toPos, contents: contents, splitLevel: splitLevel, editedAt: editedAt,
                    splitTickets: splitTickets, versionVector: nil, journal: journal)
  }

  // MARK: - Validation

  /// Refuses a split inside a surrogate pair (a Swift string cannot hold half of one).
  func checkSplit(_ node: CRDTTreeNode, _ resolved: Resolved) throws(YorkieError) {
    guard let offset = resolved.splitOffset else { return }
    let units = node.value.utf16
    let index = units.index(units.startIndex, offsetBy: offset)
    if UTF16.isTrailSurrogate(units[index]) {
      throw YorkieError(.invalidTreeRange, "tree offset \(offset) of \(node.id) falls inside a surrogate pair")
    }
  }

  /// Refuses contents or split tickets whose identities the tree (or another content) already has.
  private func checkNew(_ contents: [CRDTTreeNode], splitTickets: [TimeTicket]) throws(YorkieError) {
    var seen = Set<TreeNodeID>()
    var duplicate: TreeNodeID?
    for content in contents {
      guard content.parent == nil else { throw YorkieError(.invalidTreeContent, "the content \(content.id) is already in a tree") }
      content.forEachPostOrder { node, _ in
        if nodesByID[node.id] != nil || !seen.insert(node.id).inserted { duplicate = duplicate ?? node.id }
      }
    }
    for ticket in splitTickets {
      let id = TreeNodeID(createdAt: ticket)
      if nodesByID[id] != nil || !seen.insert(id).inserted { duplicate = duplicate ?? id }
    }
    if let duplicate { throw YorkieError(.invalidTreeContent, "the tree already has a node \(duplicate)") }
  }

  // MARK: - Deletion rule

  /// Whether a vector is a remote author's (nil or empty means a local edit, as Yorkie).
  static func isRemote(_ versionVector: VersionVector?) -> Bool {
    guard let versionVector else { return false }
    return !versionVector.isEmpty
  }

  /// Whether the author of a change with `versionVector` had seen `ticket` (always, locally).
  func knows(_ ticket: TimeTicket, _ versionVector: VersionVector?) -> Bool {
    guard let versionVector, !versionVector.isEmpty else { return true }
    guard let lamport = versionVector[ticket.actorID] else { return false }
    return lamport >= ticket.lamport
  }

  /// Yorkie v0.7.x's `canDelete`: the author saw the node created, and the node is live or its
  /// tombstone is one the author had not seen and that is older than this edit.
  func canDelete(_ node: CRDTTreeNode, editedAt: TimeTicket, versionVector: VersionVector?) -> Bool {
    guard knows(node.id.createdAt, versionVector) else { return false }
    guard let removedAt = node.removedAt else { return true }
    return !knows(removedAt, versionVector) && editedAt.isAfter(removedAt)
  }

  /// Tombstones `node` at `editedAt` (Yorkie's `TreeNode.remove`): a live node is removed, a
  /// tombstone takes the newer ticket. Callers decide whether the author may (``canDelete``).
  ///
  /// - Returns: whether the node changed.
  func tombstone(_ node: CRDTTreeNode, editedAt: TimeTicket, journal: Journal) -> Bool {
    if let removedAt = node.removedAt, !editedAt.isAfter(removedAt) { return false }
    journal.append(.tree(self, .removedAt(node, node.removedAt)))
    tallying(node) { node.removedAt = editedAt }
    node.propagateSizeChange()
    return true
  }

  // MARK: - Structural steps

  /// Splits the text piece of `resolved` when the position falls inside it, returning the
  /// parent and the left node of the position.
  private func split(_ resolved: Resolved, journal: Journal) -> (CRDTTreeNode, CRDTTreeNode) {
    if let offset = resolved.splitOffset { splitText(resolved.left, at: offset, journal: journal) }
    return (resolved.parent, resolved.left)
  }

  /// Splits a text piece at a UTF-16 offset strictly inside it: the right part becomes a new
  /// piece `(createdAt, offset + split)` right after it, linked in the insertion chain.
  func splitText(_ node: CRDTTreeNode, at offset: Int, journal: Journal) {
    let units = node.value.utf16
    let cut = units.index(units.startIndex, offsetBy: offset)
    let leftText = String(node.value[..<cut])
    let rightText = String(node.value[cut...])
    let right = CRDTTreeNode(id: TreeNodeID(createdAt: node.id.createdAt, offset: node.id.offset + Int32(offset)), text: rightText)
    right.removedAt = node.removedAt
    // The right piece is the same moved text: it keeps the merge stamp, so a later split and an
    // earlier one agree (Yorkie's `cloneText`, yorkie-android-sdk#307).
    right.mergedFrom = node.mergedFrom
    right.mergedAt = node.mergedAt
    journal.append(.tree(self, .splitText(left: node, right: right, leftValue: node.value)))
    tallying(node) {
      node.value = leftText
      node.length = offset
    }
    link(right, after: node, journal: journal)
    let parent = node.parent!
    parent.insertChild(right, after: node)
    CRDTTreeNode.recomputeUp(from: node)
    register(right)
    if right.isRemoved { splitGarbage.append(.node(right)) }
  }

}

/// One change of a tree as Yorkie reports it in events (`TreeChange`).
package struct TreeChange: Equatable, Sendable {
  package enum Kind: String, Sendable {
    case content
    case style
    case removeStyle
  }
  package var kind: Kind
  package var actor: ActorID
  package var from: Int
  package var to: Int
  package var fromPath: [Int]
  package var toPath: [Int]
  /// The inserted live nodes of a content change (nil for a pure deletion or split).
  package var contents: [TreeNode]?
  /// The attributes a style set (JSON-encoded values).
  package var attributes: [String: String] = [:]
  /// The keys a removeStyle removed.
  package var removedKeys: [String] = []
  package var splitLevel: Int = 0
}

/// What a tree operation tombstoned, for garbage collection.
package enum TreeGCPair {
  /// A removed node of the tree.
  case node(CRDTTreeNode)
  /// A removed attribute of an element: the key and the ticket of its removal.
  case attribute(CRDTTreeNode, key: String, removedAt: TimeTicket)
}
