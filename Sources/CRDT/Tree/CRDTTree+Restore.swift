/// Undo and redo of tree edits by identity (Yorkie v0.7.14+'s `Tree.Restore`/`Retombstone`):
/// the TreeEdit a Yorkie JS client sends when it undoes or redoes a tree edit names the nodes
/// it revives and those it removes again by identity (restore spans), not by position.
///
/// ```
///   removing spans ─► retombstone: live pieces inside a span are cut out and removed
///   restoring spans ─► restore, per span (parent before child):
///        node there, removed ──► revived in place (where it is now: a merge may have moved it)
///        node there, live    ──► nothing (idempotent)
///        node purged         ──► recreated from the span under its parent: after the piece of
///                                 its insertion or the left sibling it had, before the right
///                                 one, else in identity order among the parent's children
/// ```
///
/// Decisions where Yorkie's behaviour is open (DocC *Convergence*, "Trees"):
/// - A node whose parent is removed is revived all the same, and one recreated under a removed
///   parent is born live, as Yorkie's JS SDK revives it (history_tree_opinfo_test.ts, "reports
///   nothing when the undone nodes stay under a removed ancestor"): the node is invisible under
///   its tombstone (its parent weighs nothing in the index) and counted live, and it comes back
///   with its parent when an undo revives that parent. Left removed, the content of an undo was
///   lost for good when a peer removed its parent meanwhile and then undid that removal. Born
///   live also when recreated, so a replica that purged the node shows what one that revived it
///   shows. An element holding live content is not purged (`CRDTRoot.collectGarbage`).
///   Spans are processed parent first; a span whose parent a later span of the same edit
///   revives waits for it, so either order of the spans revives a subtree.
/// - A node detached from the tree (its parent purged, it waits for its own purge) is neither
///   revived nor recreated, as Yorkie skips a node whose parent is gone.
///
/// Every change is journaled with the records edits use (`splitText`, `removedAt`,
/// `inserted`), so the ordering log undoes and repeats a restore exactly.
extension CRDTTree {
  /// Refuses spans no Yorkie client makes (`invalidWireData`), before anything changes: a span
  /// naming the root, a kind that disagrees with its type, a text span without text or whose
  /// length is not its value's, an element with text or an offset.
  package func validateRestore(_ spans: [TreeRestoreSpanRecord]) throws(YorkieError) {
    for span in spans {
      guard span.id != root.id else { throw YorkieError(.invalidWireData, "a restore span cannot name the root of a tree (\(span.id))") }
      guard span.isText == (span.nodeType == TreeNodeRecord.textType), !span.nodeType.isEmpty else {
        throw YorkieError(.invalidWireData, "restore span \(span.id) is \(span.isText ? "text" : "an element") of type \"\(span.nodeType)\"")
      }
      if span.isText {
        // A zero-length text span names nothing (Yorkie's JS would remove one unit past it).
        guard span.id.offset >= 0, span.length > 0, Int(span.length) == span.value.utf16.count,
          Int(span.id.offset) + Int(span.length) <= Int(Int32.max)
        else {
          throw YorkieError(.invalidWireData,
                            "restore span \(span.id) of length \(span.length) carries \(span.value.utf16.count) UTF-16 units of text")
        }
      } else {
        guard span.id.offset == 0, span.value.isEmpty else {
          throw YorkieError(.invalidWireData, "restore span \(span.id) names an element with an offset or text")
        }
      }
    }
  }

  /// Removes `removing` again, then revives (or recreates) `restoring`, at `editedAt`.
  ///
  /// - Returns: what it removed (nodes it re-removed, nodes born removed, attribute tombstones
  ///   of recreated elements) as GC pairs, and the nodes it revived; no changes (the caller
  ///   describes the difference).
  /// - Throws: `invalidWireData` for a span whose kind disagrees with the node it names or
  ///   whose parent is text, `invalidTreeRange` for a span boundary inside a surrogate pair.
  func restore(restoring: [TreeRestoreSpanRecord], removing: [TreeRestoreSpanRecord], editedAt: TimeTicket,
               journal: Journal) throws(YorkieError) -> ChangeResult {
    var result = ChangeResult()
    for span in removing { try retombstone(span, editedAt: editedAt, journal: journal, into: &result) }
    var queue = restoring
    var waiting = Set(restoring.map(\.id))
    while !queue.isEmpty {
      var later: [TreeRestoreSpanRecord] = []
      for span in queue {
        if waitsForParent(span, waiting: waiting) {
          later.append(span)
          continue
        }
        try restore(span, editedAt: editedAt, journal: journal, into: &result)
        waiting.remove(span.id)
      }
      // No progress: the parents named later stay removed, and so do their children.
      if later.count == queue.count { waiting.removeAll() }
      queue = later
    }
    return result
  }

  /// Whether `span`'s parent is removed or absent and another span of the edit revives it.
  private func waitsForParent(_ span: TreeRestoreSpanRecord, waiting: Set<TreeNodeID>) -> Bool {
    guard let parentID = span.parentID, waiting.contains(parentID) else { return false }
    return nodesByID[parentID]?.isRemoved ?? true
  }

  // MARK: - Retombstone

  /// Removes the live nodes `span` names (Yorkie's `Retombstone`): the pieces of a text
  /// insertion inside it, cut at its ends, or the element itself. Purged ones are skipped.
  private func retombstone(_ span: TreeRestoreSpanRecord, editedAt: TimeTicket, journal: Journal,
                           into result: inout ChangeResult) throws(YorkieError) {
    guard span.isText else {
      guard let node = try element(named: span), !node.isRemoved else { return }
      if tombstone(node, editedAt: editedAt, journal: journal) { result.gcPairs.append(.node(node)) }
      return
    }
    let start = span.id.offset
    let end = start + span.length
    for piece in try pieces(of: span, from: start, to: end) where !piece.isRemoved {
      let pieceStart = piece.id.offset
      let target = try isolate(piece, from: Swift.max(pieceStart, start), to: Swift.min(pieceStart + Int32(piece.length), end),
                               journal: journal)
      if tombstone(target, editedAt: editedAt, journal: journal) { result.gcPairs.append(.node(target)) }
    }
  }

  // MARK: - Restore

  /// Revives or recreates what `span` names.
  private func restore(_ span: TreeRestoreSpanRecord, editedAt: TimeTicket, journal: Journal,
                       into result: inout ChangeResult) throws(YorkieError) {
    guard span.isText else {
      if let node = try element(named: span) {
        revive(node, journal: journal, into: &result)
      } else {
        try recreate(span, offset: 0, length: 0, editedAt: editedAt, journal: journal, into: &result)
      }
      return
    }
    // Pieces may be cut finer than the span, or straddle its ends (a concurrent edit, an
    // earlier recreation): each is cut at the span's ends, so that every replica ends with the
    // same pieces, and the runs no piece covers any more (purged) are recreated.
    let start = span.id.offset
    let end = start + span.length
    var cursor = start
    for piece in try pieces(of: span, from: start, to: end) {
      let pieceStart = piece.id.offset
      let pieceEnd = pieceStart + Int32(piece.length)
      if cursor < pieceStart {
        try recreate(span, offset: cursor, length: pieceStart - cursor, editedAt: editedAt, journal: journal, into: &result)
      }
      let from = Swift.max(cursor, pieceStart)
      let to = Swift.min(pieceEnd, end)
      // A detached piece (its parent purged) waits for its own purge: it stays as it is.
      if piece.parent != nil {
        revive(try isolate(piece, from: from, to: to, journal: journal), journal: journal, into: &result)
      }
      cursor = to
    }
    if cursor < end {
      try recreate(span, offset: cursor, length: end - cursor, editedAt: editedAt, journal: journal, into: &result)
    }
  }

  /// Clears `node`'s removal, unless it is detached (its parent purged; see the decisions above).
  private func revive(_ node: CRDTTreeNode, journal: Journal, into result: inout ChangeResult) {
    guard node.isRemoved, node.parent != nil else { return }
    journal.append(.tree(self, .removedAt(node, node.removedAt)))
    tallying(node) { node.removedAt = nil }
    node.propagateSizeChange()
    result.revived.append(node)
  }

  /// Rebuilds the purged node `span` names (for text, the run `offset..<offset + length` of
  /// it) under its original identity, and places it (Yorkie's `recreateFromSpan`); skipped
  /// when the parent is gone.
  private func recreate(_ span: TreeRestoreSpanRecord, offset: Int32, length: Int32, editedAt: TimeTicket,
                        journal: Journal, into result: inout ChangeResult) throws(YorkieError) {
    guard let parentID = span.parentID, let parent = nodesByID[parentID], parent === root || parent.parent != nil else { return }
    guard !parent.isText else { throw YorkieError(.invalidWireData, "restore span \(span.id) names the text \(parentID) as its parent") }
    let id = TreeNodeID(createdAt: span.id.createdAt, offset: offset)
    guard nodesByID[id] == nil else { throw YorkieError(.invalidTreeContent, "the tree already has a node \(id)") }
    let node: CRDTTreeNode
    if span.isText {
      let units = span.value.utf16
      let first = units.index(units.startIndex, offsetBy: Int(offset - span.id.offset))
      let last = units.index(first, offsetBy: Int(length))
      node = CRDTTreeNode(id: id, text: String(decoding: units[first..<last], as: UTF16.self))
    } else {
      node = CRDTTreeNode(id: id, type: span.nodeType, attributes: span.attributes.isEmpty ? nil : TreeAttributes(span.attributes))
      for entry in span.attributes where entry.isRemoved {
        result.gcPairs.append(.attribute(node, key: entry.key, removedAt: entry.updatedAt))
      }
    }
    parent.insertChild(node, after: place(node, of: span, in: parent, offset: offset, length: length))
    parent.propagateSizeChange()
    register(node)
    journal.append(.tree(self, .inserted(node)))
    if span.isText { linkIntoInsertion(node, journal: journal) }
    // The tree holds these tickets again (its knowledge covers every ticket it holds).
    noteKnown(id.createdAt, journal: journal)
    for entry in span.attributes { noteKnown(entry.updatedAt, journal: journal) }
  }

  /// Links a recreated text piece into its insertion's chain of split pieces, between the
  /// registered pieces before and after its offset, as the split that made it had: a position
  /// at its start then resolves to the end of the piece before it (Yorkie's
  /// `findFloorNodePreferToLeft`), as on a replica that never purged it. Unlinked, such a
  /// position landed after the recreated piece (tree fuzz seed 761548 with undo).
  private func linkIntoInsertion(_ node: CRDTTreeNode, journal: Journal) {
    let ticket = node.id.createdAt
    guard let offsets = pieceOffsets[ticket], let index = offsets.firstIndex(of: node.id.offset) else { return }
    let previous = index > 0 ? nodesByID[TreeNodeID(createdAt: ticket, offset: offsets[index - 1])] : nil
    let next = index + 1 < offsets.count ? nodesByID[TreeNodeID(createdAt: ticket, offset: offsets[index + 1])] : nil
    func link(_ piece: CRDTTreeNode, previous: TreeNodeID?, next: TreeNodeID?) {
      journal.append(.tree(self, .insLinks(piece, previous: piece.insPrevID, next: piece.insNextID)))
      piece.insPrevID = previous
      piece.insNextID = next
    }
    link(node, previous: previous?.id, next: next?.id)
    if let previous { link(previous, previous: previous.insPrevID, next: node.id) }
    if let next { link(next, previous: node.id, next: next.insNextID) }
  }

  /// The child of `parent` a recreated node goes after (nil: first), by the first that holds:
  /// (a) next to a piece of the same insertion (before the one it ends at, after the one it
  /// starts after); (b) after its former left sibling; (c) before its former right sibling;
  /// (d) before the first child with a greater identity (a function of identities only).
  private func place(_ node: CRDTTreeNode, of span: TreeRestoreSpanRecord, in parent: CRDTTreeNode,
                     offset: Int32, length: Int32) -> CRDTTreeNode? {
    if span.isText {
      if let next = nodesByID[TreeNodeID(createdAt: span.id.createdAt, offset: offset + length)], next.isText, next.parent === parent {
        return next.previousSibling
      }
      if offset > 0, let previous = floorNode(TreeNodeID(createdAt: span.id.createdAt, offset: offset - 1)),
        previous.isText, previous.parent === parent {
        return previous
      }
    }
    if let leftID = span.leftSiblingID, let left = floorNode(leftID), left.parent === parent { return left }
    if let rightID = span.rightSiblingID, let right = floorNode(rightID), right.parent === parent { return right.previousSibling }
    var after: CRDTTreeNode?
    var child = parent.firstChild
    while let current = child, !(current.id > node.id) {
      after = current
      child = current.nextSibling
    }
    return after
  }

  // MARK: - Lookup

  /// The registered element `span` names exactly, nil when purged.
  private func element(named span: TreeRestoreSpanRecord) throws(YorkieError) -> CRDTTreeNode? {
    guard let node = nodesByID[span.id] else { return nil }
    guard !node.isText else { throw YorkieError(.invalidWireData, "restore span \(span.id) names a text node as an element") }
    return node
  }

  /// The registered pieces (live, removed or detached) of `span`'s insertion that overlap
  /// `start..<end`, in offset order.
  private func pieces(of span: TreeRestoreSpanRecord, from start: Int32, to end: Int32) throws(YorkieError) -> [CRDTTreeNode] {
    let ticket = span.id.createdAt
    let offsets = pieceOffsets[ticket] ?? [0]
    var found: [CRDTTreeNode] = []
    var index = Swift.max(offsets.partitioningIndex { $0 > start } - 1, 0)
    while index < offsets.count, offsets[index] < end {
      defer { index += 1 }
      guard let piece = nodesByID[TreeNodeID(createdAt: ticket, offset: offsets[index])] else { continue }
      guard piece.isText else { throw YorkieError(.invalidWireData, "restore span \(span.id) names an element as text") }
      if piece.id.offset + Int32(piece.length) > start { found.append(piece) }
    }
    return found
  }

  /// Cuts `piece` so that one piece covers exactly `from..<to` of its insertion, and returns it.
  private func isolate(_ piece: CRDTTreeNode, from: Int32, to: Int32, journal: Journal) throws(YorkieError) -> CRDTTreeNode {
    var node = piece
    if from > node.id.offset {
      try checkCut(node, at: Int(from - node.id.offset))
      splitText(node, at: Int(from - node.id.offset), journal: journal)
      node = nodesByID[TreeNodeID(createdAt: node.id.createdAt, offset: from)]!
    }
    if to < node.id.offset + Int32(node.length) {
      try checkCut(node, at: Int(to - node.id.offset))
      splitText(node, at: Int(to - node.id.offset), journal: journal)
    }
    return node
  }

  /// Refuses a cut inside a surrogate pair (a span boundary no client makes).
  private func checkCut(_ node: CRDTTreeNode, at offset: Int) throws(YorkieError) {
    let units = node.value.utf16
    if UTF16.isTrailSurrogate(units[units.index(units.startIndex, offsetBy: offset)]) {
      throw YorkieError(.invalidTreeRange, "restore span boundary \(offset) of \(node.id) falls inside a surrogate pair")
    }
  }
}
