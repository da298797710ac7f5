/// TreeStyle: setting and removing attributes of the elements in a range (Yorkie's `Style` and
/// `RemoveStyle`).
extension CRDTTree {
  /// Sets `attributes` (JSON-encoded values, applied in key order) on every element whose
  /// opening or closing tag lies in `from..<to` and that the author could style: it had seen the
  /// element created (its actor's lamport in `versionVector` reaches the element's) and the
  /// element is live or removed before this style.
  ///
  /// - Returns: one `style` change per element whose attributes changed (from its opening tag
  ///   to just inside it, as Yorkie), and the GC pairs (none: a set never tombstones).
  /// - Throws: `treeNodeNotFound`, `invalidTreeRange`; nothing changes then.
  package func style(from: CRDTTreePos, to: CRDTTreePos, attributes: [String: String], editedAt: TimeTicket,
                     versionVector: VersionVector? = nil, journal: Journal) throws(YorkieError) -> ChangeResult {
    let keys = attributes.keys.sorted()
    return try forEachStylable(from: from, to: to, editedAt: editedAt, versionVector: versionVector, journal: journal) { node, result in
      guard !keys.isEmpty else { return }
      var table = node.attributes ?? TreeAttributes()
      var affected: [String: String] = [:]
      for key in keys where table.set(key, attributes[key]!, at: editedAt).applied { affected[key] = attributes[key]! }
      guard !affected.isEmpty else { return }
      journal.append(.tree(self, .attributes(node, node.attributes)))
      tallying(node) { node.attributes = table }
      result.changes.append(styleChange(.style, node, editedAt: editedAt, attributes: affected))
    }
  }

  /// Removes `keys` from every element in `from..<to` the author could style (tombstones, so an
  /// older concurrent set cannot revive them).
  ///
  /// - Returns: one `removeStyle` change per styled token (as Yorkie, an element with both tags
  ///   in the range reports twice), and the attribute tombstones as GC pairs.
  package func removeStyle(from: CRDTTreePos, to: CRDTTreePos, keys: [String], editedAt: TimeTicket,
                           versionVector: VersionVector? = nil, journal: Journal) throws(YorkieError) -> ChangeResult {
    try forEachStylable(from: from, to: to, editedAt: editedAt, versionVector: versionVector, journal: journal) { node, result in
      guard !keys.isEmpty else { return }
      var table = node.attributes ?? TreeAttributes()
      var tombstones: [TreeAttributeRecord] = []
      for key in keys {
        if let tombstone = table.remove(key, at: editedAt) { tombstones.append(tombstone) }
      }
      if table != node.attributes {
        journal.append(.tree(self, .attributes(node, node.attributes)))
        tallying(node) { node.attributes = table }
      }
      for tombstone in tombstones { result.gcPairs.append(.attribute(node, key: tombstone.key, removedAt: tombstone.updatedAt)) }
      var change = styleChange(.removeStyle, node, editedAt: editedAt, attributes: [:])
      change.removedKeys = keys
      result.changes.append(change)
    }
  }

  /// Resolves the range (splitting text at its ends, each end moved past unseen split parts as
  /// for an edit), then calls `body` with each element token in it that the author could style,
  /// with Yorkie v0.7.17's split rules (design document phase 7):
  ///
  /// - §7.1 End-Token Split Sibling Guard (yorkie#1776): a closing tag is in the range only
  ///   because a split the author had not seen moved it there; it is skipped.
  /// - §7.2 Style Propagation (yorkie-js-sdk#1224): styling an element through its opening tag
  ///   styles the parts of it a split the author had not seen made, as the split copied the
  ///   attributes on the replicas that styled first.
  ///
  /// A remote range that a merge redirect inverted is empty.
  private func forEachStylable(from: CRDTTreePos, to: CRDTTreePos, editedAt: TimeTicket, versionVector: VersionVector?,
                               journal: Journal, _ body: (CRDTTreeNode, inout ChangeResult) -> Void) throws(YorkieError) -> ChangeResult {
    let fromResolved = try resolveForEdit(from, editedAt: editedAt, versionVector: versionVector)
    let toResolved = try resolveForEdit(to, editedAt: editedAt, versionVector: versionVector)
    let startIndex = fromResolved.index(in: self)
    let endIndex = toResolved.index(in: self)
    if startIndex > endIndex && !CRDTTree.isRemote(versionVector) {
      throw YorkieError(.invalidTreeRange, "the tree range starts at \(startIndex), after its end \(endIndex)")
    }
    try checkSplit(fromResolved.left, fromResolved)
    try checkSplit(toResolved.left, toResolved)
    if let offset = fromResolved.splitOffset { splitText(fromResolved.left, at: offset, journal: journal) }
    let toAfterSplit = try resolveForEdit(to, editedAt: editedAt, versionVector: versionVector)
    if let offset = toAfterSplit.splitOffset { splitText(toAfterSplit.left, at: offset, journal: journal) }
    var result = ChangeResult()
    let remote = CRDTTree.isRemote(versionVector)
    for token in tokens(between: startIndex, and: endIndex) where canStyle(token.node, editedAt: editedAt, versionVector: versionVector) {
      if remote && token.type == .end && hasUnknownSplitSibling(token.node, versionVector) { continue }
      body(token.node, &result)
      guard remote && token.type == .start else { continue }
      var current = token.node
      var visited: Set<ObjectIdentifier> = [ObjectIdentifier(current)]
      while let nextID = current.insNextID, let next = floorNode(nextID), !next.isText, !knows(next.id.createdAt, versionVector),
        visited.insert(ObjectIdentifier(next)).inserted {
        body(next, &result)
        current = next
      }
    }
    return result
  }

  /// Whether the next part of `node`'s split chain is an element the author had not seen
  /// (Yorkie's `hasUnknownSplitSibling`; no parent check, §6.5's reason).
  private func hasUnknownSplitSibling(_ node: CRDTTreeNode, _ versionVector: VersionVector?) -> Bool {
    guard let nextID = node.insNextID, let next = floorNode(nextID), !next.isText else { return false }
    return !knows(next.id.createdAt, versionVector)
  }

  /// Yorkie's `canStyle`: an element the author had seen created, live or removed before `editedAt`.
  private func canStyle(_ node: CRDTTreeNode, editedAt: TimeTicket, versionVector: VersionVector?) -> Bool {
    guard !node.isText else { return false }
    var lamportAtChange = TimeTicket.maxLamport
    if let versionVector, !versionVector.isEmpty { lamportAtChange = versionVector[node.id.createdAt.actorID] ?? 0 }
    guard node.id.createdAt.lamport <= lamportAtChange else { return false }
    return node.removedAt.map { editedAt.isAfter($0) } ?? true
  }

  /// A style change for `node`: from before it to just inside it, as Yorkie reports.
  private func styleChange(_ kind: TreeChange.Kind, _ node: CRDTTreeNode, editedAt: TimeTicket, attributes: [String: String]) -> TreeChange {
    let parent = node.parent!
    var previous = node.previousSibling
    while let current = previous, current.isRemoved { previous = current.previousSibling }
    let left = previous ?? parent
    return TreeChange(kind: kind, actor: editedAt.actorID, from: toIndex(parent: parent, left: left), to: toIndex(parent: node, left: node),
                      fromPath: toPath(parent: parent, left: left), toPath: toPath(parent: node, left: node),
                      contents: nil, attributes: attributes)
  }
}
