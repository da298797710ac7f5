/// TreeEdit: insert, delete, merge and split (Yorkie v0.7.x's `CRDTTree.Edit`).
extension CRDTTree {
  /// What an edit or style did, for events and garbage collection.
  package struct ChangeResult {
    /// Yorkie's TreeChange list.
    package var changes: [TreeChange] = []
    /// What the operation tombstoned: nodes and attributes to register for GC.
    package var gcPairs: [TreeGCPair] = []
  }

  /// Replaces `from..<to` with `contents` after splitting `splitLevel` element levels at `from`.
  ///
  /// Steps as Yorkie's: (1) resolve both positions, splitting text pieces; (2) collect the
  /// visible tokens between them; (3) remove what the author could delete (the version-vector
  /// rule: a node it had seen created, whose tombstone, if any, it had not seen and is older);
  /// (4) merge: the live children of an element whose opening tag is in the range and closing
  /// tag is not move to the end of `from`'s parent, remembering `mergedFrom`/`mergedAt`;
  /// (5) split the element levels, the new elements taking `splitTickets` in order; (6) insert
  /// the contents after `from`'s left node (tombstoned at once when the parent is removed).
  ///
  /// Everything is validated before the first change: unknown nodes, `from` after `to`, a split
  /// level without a ticket per level or deeper than the position, contents whose identities
  /// the tree already has. Every change is journaled.
  ///
  /// - Parameters:
  ///   - contents: detached subtrees (``buildSubtree(_:)``), inserted in order.
  ///   - versionVector: the author's vector for a remote edit; nil or empty for a local one.
  /// - Throws: `treeNodeNotFound`, `invalidTreeRange`, `invalidSplitLevel`, `invalidTreeContent`.
  package func edit(from: CRDTTreePos, to: CRDTTreePos, contents: [CRDTTreeNode] = [], splitLevel: Int = 0,
                    editedAt: TimeTicket, splitTickets: [TimeTicket] = [], versionVector: VersionVector? = nil,
                    journal: Journal) throws(YorkieError) -> ChangeResult {
    // 01. Validate everything first.
    let fromResolved = try resolve(from, editedAt: editedAt)
    let toResolved = try resolve(to, editedAt: editedAt)
    let startIndex = fromResolved.index(in: self)
    let endIndex = toResolved.index(in: self)
    guard startIndex <= endIndex else {
      throw YorkieError(.invalidTreeRange, "the tree range starts at \(startIndex), after its end \(endIndex)")
    }
    try checkSplit(fromResolved.left, fromResolved)
    try checkSplit(toResolved.left, toResolved)
    guard splitLevel >= 0 else { throw YorkieError(.invalidSplitLevel, "a split level cannot be negative (\(splitLevel))") }
    guard splitTickets.count == splitLevel else {
      throw YorkieError(.invalidSplitLevel, "a split of \(splitLevel) levels needs \(splitLevel) tickets, got \(splitTickets.count)")
    }
    var depth = 0
    var ancestor = fromResolved.parent
    while depth < splitLevel, let up = ancestor.parent {
      depth += 1
      ancestor = up
    }
    guard depth >= splitLevel else {
      throw YorkieError(.invalidSplitLevel, "cannot split \(splitLevel) levels at a position \(depth) levels deep")
    }
    try checkNew(contents, splitTickets: splitTickets)
    let fromPath = fromResolved.path(in: self)
    let toPath = toResolved.path(in: self)

    // 02. Split text at both ends (the end resolved again: the start's split may have cut its piece).
    let (fromParent, fromLeft) = split(fromResolved, journal: journal)
    let (toParent, toLeft) = split(try resolve(to, editedAt: editedAt), journal: journal)

    var result = ChangeResult()
    result.changes.append(TreeChange(
      kind: .content, actor: editedAt.actorID, from: startIndex, to: endIndex, fromPath: fromPath, toPath: toPath,
      contents: nil, splitLevel: splitLevel))

    // 03. Collect, then delete.
    let tokens = self.tokens(between: toIndex(parent: fromParent, left: fromLeft), and: self.toIndex(parent: toParent, left: toLeft))
    var removals: [CRDTTreeNode] = []
    var removing = Set<ObjectIdentifier>()
    var merges: [CRDTTreeNode] = []
    for token in tokens {
      let node = token.node
      if token.type == .start && !token.ended { merges.append(contentsOf: node.liveChildren) }
      let parentRemoving = node.parent.map { removing.contains(ObjectIdentifier($0)) } ?? false
      if canDelete(node, editedAt: editedAt, versionVector: versionVector) || parentRemoving {
        if token.type == .text || token.type == .start {
          removals.append(node)
          removing.insert(ObjectIdentifier(node))
        }
      }
    }
    for node in removals where removeNode(node, editedAt: editedAt, versionVector: versionVector, journal: journal) {
      result.gcPairs.append(.node(node))
    }

    // 04. Merge.
    for node in merges where !node.isRemoved && node.parent !== fromParent {
      move(node, to: fromParent, after: fromParent.lastChild, mergedAt: editedAt, journal: journal)
    }

    // 05. Split element levels.
    var parent = fromParent
    var left = fromLeft
    for ticket in splitTickets {
      splitElement(parent, after: left === parent ? nil : left, ticket: ticket, journal: journal)
      left = parent
      parent = parent.parent!
    }

    // 06. Insert.
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
      leftInChildren = content
      if !content.isRemoved { alive.append(CRDTTree.treeNode(content)) }
    }
    if !alive.isEmpty { result.changes[0].contents = alive }
    return result
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

  /// Whether the author of a change with `versionVector` had seen `ticket` (always, locally).
  private func knows(_ ticket: TimeTicket, _ versionVector: VersionVector?) -> Bool {
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

  /// Tombstones `node` at `editedAt` when ``canDelete(_:editedAt:versionVector:)`` allows.
  private func removeNode(_ node: CRDTTreeNode, editedAt: TimeTicket, versionVector: VersionVector?, journal: Journal) -> Bool {
    guard canDelete(node, editedAt: editedAt, versionVector: versionVector) else { return false }
    journal.append(.tree(self, .removedAt(node, node.removedAt)))
    node.removedAt = editedAt
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
    journal.append(.tree(self, .splitText(left: node, right: right, leftValue: node.value)))
    node.value = leftText
    node.length = offset
    link(right, after: node, journal: journal)
    let parent = node.parent!
    parent.insertChild(right, after: node)
    CRDTTreeNode.recomputeUp(from: node)
    register(right)
    if right.isRemoved { splitGarbage.append(.node(right)) }
  }

  /// Makes `split` the next piece of `node` in its split chain.
  private func link(_ split: CRDTTreeNode, after node: CRDTTreeNode, journal: Journal) {
    split.insPrevID = node.id
    if let nextID = node.insNextID, let next = floorNode(nextID) {
      journal.append(.tree(self, .insLinks(next, previous: next.insPrevID, next: next.insNextID)))
      next.insPrevID = split.id
      split.insNextID = nextID
    }
    journal.append(.tree(self, .insLinks(node, previous: node.insPrevID, next: node.insNextID)))
    node.insNextID = split.id
  }

  /// Splits the element `node` after its child `left` (before its first child when nil): a new
  /// element of the same type, identity `ticket` and removal, takes the children after `left`
  /// and goes right after `node`. The new element takes a copy of the attributes, removed ones
  /// included (Yorkie v0.7.17: a paragraph split off an aligned paragraph stays aligned; the
  /// recorded `08-attach-tree.json` shows it).
  private func splitElement(_ node: CRDTTreeNode, after left: CRDTTreeNode?, ticket: TimeTicket, journal: Journal) {
    let split = CRDTTreeNode(id: TreeNodeID(createdAt: ticket), type: node.type, attributes: node.attributes)
    for entry in node.attributes?.entries ?? [] where entry.isRemoved {
      splitGarbage.append(.attribute(split, key: entry.key, removedAt: entry.updatedAt))
    }
    split.removedAt = node.removedAt
    split.recomputeSubtree()
    let parent = node.parent!
    parent.insertChild(split, after: node)
    register(split)
    if split.isRemoved { splitGarbage.append(.node(split)) }
    journal.append(.tree(self, .inserted(split)))
    link(split, after: node, journal: journal)
    var moving = left.map { $0.nextSibling } ?? node.firstChild
    var previous: CRDTTreeNode?
    while let child = moving {
      moving = child.nextSibling
      journal.append(.tree(self, .moved(child, from: node, after: left, mergedFrom: child.mergedFrom, mergedAt: child.mergedAt)))
      node.removeChild(child)
      split.insertChild(child, after: previous)
      previous = child
    }
    node.propagateSizeChange()
    split.propagateSizeChange()
  }

  /// Moves a live node to `target` after `previous` for a merge, remembering where it came from.
  private func move(_ node: CRDTTreeNode, to target: CRDTTreeNode, after previous: CRDTTreeNode?, mergedAt: TimeTicket, journal: Journal) {
    let source = node.parent!
    journal.append(.tree(self, .moved(node, from: source, after: node.previousSibling, mergedFrom: node.mergedFrom, mergedAt: node.mergedAt)))
    source.removeChild(node)
    source.propagateSizeChange()
    node.mergedFrom = source.id
    node.mergedAt = mergedAt
    target.insertChild(node, after: previous)
    target.propagateSizeChange()
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
