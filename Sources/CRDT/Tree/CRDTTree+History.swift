/// What this replica's own tree edits and styles did, for their reverse (undo and redo, issue 24):
/// the tree side of Yorkie's tree history (`CRDTTree.edit`'s `removedSpans`/`insertedSpans`,
/// `mergeLevel` and `preEditFromIdx`). The operation layer turns it into a ``HistoryCapture``.
extension CRDTTree {
  /// What a local edit did (filled only when ``apply(_:versionVector:describing:tracing:journal:)``
  /// is asked to trace: a remote edit or a replay is never undone by this replica).
  package struct EditTrace {
    /// The index of the edit's start before it ran (Yorkie's `preEditFromIdx`).
    package var fromIndex: Int
    /// The tree's size before the edit: a pure split opened `size - sizeBefore` tokens.
    package var sizeBefore: Int
    /// The nodes the deletion took from live to removed, parents first, each with the siblings it
    /// had then (before the insertion put contents next to it).
    package var removed: [TreeRestoreSpanRecord] = []
    /// The nodes the edit inserted, parents first, each with its siblings right after its
    /// content went in.
    package var inserted: [TreeRestoreSpanRecord] = []
    /// How many elements the deletion merged away (Yorkie's `mergeLevel`).
    package var mergeLevel = 0
    /// Whether the deletion's range held any node to remove, live or already removed (Yorkie's
    /// `removedNodes` is not empty).
    package var touchedNodes = false
    /// False when the spans do not describe everything the edit did (Yorkie's `spansComplete`):
    /// a merge, a deletion a former merge propagated, contents born removed under a removed parent.
    package var spansComplete = true

    init(fromIndex: Int, sizeBefore: Int) {
      self.fromIndex = fromIndex
      self.sizeBefore = sizeBefore
    }
  }

  /// `node`'s restore span as Yorkie's `makeRestoreSpan` makes it: its identity, content and
  /// attributes (tombstones too), its parent and the siblings next to it, live or not. A text
  /// left sibling is named by its last unit, which a later split leaves at the piece that still
  /// ends there; a right sibling by its identity.
  package func restoreSpan(of node: CRDTTreeNode) -> TreeRestoreSpanRecord {
    let left = node.previousSibling.map { sibling in
      sibling.isText ? TreeNodeID(createdAt: sibling.id.createdAt, offset: sibling.id.offset + Int32(sibling.length) - 1) : sibling.id
    }
    return TreeRestoreSpanRecord(id: node.id, nodeType: node.type, isText: node.isText, length: node.isText ? Int32(node.length) : 0,
                                 value: node.isText ? node.value : "", attributes: node.attributes?.entries ?? [],
                                 parentID: node.parent?.id, leftSiblingID: left, rightSiblingID: node.nextSibling?.id)
  }

  /// The positions around the opening tag of the live element `node` (a style of that range
  /// styles it alone), nil when it is removed or detached.
  package func openingTagRange(of node: CRDTTreeNode) -> (from: CRDTTreePos, to: CRDTTreePos)? {
    guard !node.isText, let parent = node.parent else { return nil }
    var ancestor: CRDTTreeNode? = node
    while let current = ancestor {
      if current.isRemoved { return nil }
      ancestor = current.parent
    }
    let index = toIndex(parent: parent, left: node.previousSibling ?? parent)
    guard let from = try? findPos(index), let to = try? findPos(index + 1) else { return nil }
    return (from, to)
  }
}
