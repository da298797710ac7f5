/// TreeEdit: replaces a range of a tree with subtrees after splitting element levels, merging
/// the elements whose opening tag the range deletes (Yorkie's `TreeEditOperation`).
extension Operation {
  static func executeTreeEdit(on parent: CRDTElement, _ edit: TreeEditPayload,
                              root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .tree(let tree) = parent.kind else { throw mismatch("TreeEdit", parent, expected: "a tree") }
    // Undo and redo by identity (Yorkie v0.7.14+) come with issue 24; until then such an edit is
    // refused whole rather than applied as a plain edit that would lose what it restores.
    guard edit.restoreSpans.isEmpty, edit.retombstoneSpans.isEmpty else {
      throw YorkieError(.unsupported, "a TreeEdit that restores nodes by identity (undo/redo) is not supported yet")
    }
    // Applied in ticket order (CRDTTree+Ordering.swift); each execution builds its subtrees
    // afresh from the records: an operation is kept and may run again.
    tree.clearSplitGarbage()
    let command = CRDTTree.Command(.edit(from: edit.from, to: edit.to, contents: edit.contents, splitLevel: Int(edit.splitLevel),
                                         splitTickets: edit.splitTickets), editedAt: edit.executedAt)
    let tally = tree.sizeTally
    let result = try tree.apply(command, versionVector: mode.authorVector, describing: mode.describes, journal: journal)
    root.charge(tree.sizeTally - tally, in: tree, journal: journal)
    root.noteOrderedTree(tree)
    registerTreeGarbage(result.gcPairs, of: tree, in: root, journal: journal)
    guard mode.describes, let path = root.path(of: tree.createdAt) else { return [] }
    return result.changes.map { OperationInfo(treeChange: $0, path: path) }
  }

  /// Registers what a tree operation tombstoned (and the tombstones its splits made) as GC
  /// pairs. A node removed again by a later concurrent deletion is registered anew with its
  /// newer ticket (replacing its pair), so that collection waits for that removal too.
  static func registerTreeGarbage(_ pairs: [TreeGCPair], of tree: CRDTTree, in root: CRDTRoot, journal: Journal) {
    for pair in pairs { register(CRDTRoot.gcPair(pair, in: tree), in: root, journal: journal) }
    for pair in tree.splitGarbage { register(CRDTRoot.gcPair(pair, in: tree), in: root, journal: journal) }
    tree.clearSplitGarbage()
  }
}

extension OperationInfo {
  /// The description of one of Yorkie's tree changes.
  init(treeChange change: TreeChange, path: String) {
    switch change.kind {
    case .content:
      self.init(type: .treeEdit, path: path, from: change.from, to: change.to, fromPath: change.fromPath, toPath: change.toPath,
                treeContents: change.contents, splitLevel: change.splitLevel)
    case .style:
      self.init(type: .treeStyle, path: path, from: change.from, to: change.to,
                attributes: OperationInfo.decode(change.attributes), fromPath: change.fromPath, toPath: change.toPath)
    case .removeStyle:
      self.init(type: .treeStyle, path: path, from: change.from, to: change.to, attributesToRemove: change.removedKeys,
                fromPath: change.fromPath, toPath: change.toPath)
    }
  }
}
