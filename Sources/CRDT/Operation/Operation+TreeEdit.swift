/// TreeEdit: replaces a range of a tree with subtrees after splitting element levels, merging
/// the elements whose opening tag the range deletes (Yorkie's `TreeEditOperation`).
extension Operation {
  static func executeTreeEdit(on parent: CRDTElement, _ edit: TreeEditPayload,
                              root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    try runTreeEdit(on: parent, edit, root: root, journal: journal, mode: mode, tracing: false).infos
  }

  /// Executes a TreeEdit of this replica's update and reads what its reverse needs
  /// (`Operation+TreeReverse.swift`): nil when it has none.
  static func executeTreeEditForHistory(on parent: CRDTElement, _ edit: TreeEditPayload, root: CRDTRoot, journal: Journal,
                                        mode: ExecutionMode) throws(YorkieError) -> (infos: [OperationInfo], capture: HistoryCapture?) {
    let run = try runTreeEdit(on: parent, edit, root: root, journal: journal, mode: mode, tracing: true)
    guard let trace = run.trace, case .tree(let tree) = parent.kind else { return (run.infos, nil) }
    return (run.infos, historyCapture(of: trace, edit: edit, tree: tree))
  }

  private static func runTreeEdit(on parent: CRDTElement, _ edit: TreeEditPayload, root: CRDTRoot, journal: Journal,
                                  mode: ExecutionMode, tracing: Bool) throws(YorkieError) -> (infos: [OperationInfo], trace: CRDTTree.EditTrace?) {
    guard case .tree(let tree) = parent.kind else { throw mismatch("TreeEdit", parent, expected: "a tree") }
    // Applied in ticket order (CRDTTree+Ordering.swift); each execution builds its subtrees
    // afresh from the records: an operation is kept and may run again.
    tree.clearSplitGarbage()
    let command: CRDTTree.Command
    if edit.restoreSpans.isEmpty && edit.retombstoneSpans.isEmpty {
      command = CRDTTree.Command(.edit(from: edit.from, to: edit.to, contents: edit.contents, splitLevel: Int(edit.splitLevel),
                                       splitTickets: edit.splitTickets), editedAt: edit.executedAt)
    } else {
      command = try restoreCommand(edit, tree: tree, mode: mode)
    }
    let tally = tree.sizeTally
    let result = try tree.apply(command, versionVector: mode.authorVector, ownVector: ownVector(mode, root),
                                describing: mode.describes, tracing: tracing, journal: journal)
    root.charge(tree.sizeTally - tally, in: tree, journal: journal)
    root.noteOrderedTree(tree)
    registerTreeGarbage(result.gcPairs, of: tree, in: root, journal: journal)
    unregisterRevived(result.revived, of: tree, in: root, journal: journal)
    guard mode.describes, let path = root.path(of: tree.createdAt) else { return ([], result.trace) }
    return (result.changes.map { OperationInfo(treeChange: $0, path: path) }, result.trace)
  }

  /// The vector of the change a tree operation of this replica's own belongs to
  /// (``CRDTRoot/ownChangeVector``); nil for another replica's.
  static func ownVector(_ mode: ExecutionMode, _ root: CRDTRoot) -> VersionVector? {
    if case .remote = mode { return nil }
    return root.ownChangeVector
  }

  /// Forgets the GC pairs of the tombstones a restore revived (Yorkie's `UnregisterGCPair`):
  /// they are garbage no more. (One removed again by a later operation keeps its pair.)
  private static func unregisterRevived(_ nodes: [CRDTTreeNode], of tree: CRDTTree, in root: CRDTRoot, journal: Journal) {
    for node in nodes where !node.isRemoved {
      let key = CRDTRoot.GCPairKey(parent: tree.createdAt, child: .treeNode(node.id))
      guard let previous = root.gcPair(key) else { continue }
      journal.append(.root(.restoreGCPair(previous)))
      root.unregisterGCPair(key)
    }
  }

  /// The command of a TreeEdit that undoes or redoes by identity (Yorkie v0.7.14+, what a
  /// Yorkie JS client sends for undo/redo of a tree edit): its positions and contents are not
  /// used, as in Yorkie. Spans name nodes by identity, so the change must have seen every node it
  /// names (Yorkie's `validateTreeRestoreIdentities`); this replica's own edit knows everything.
  private static func restoreCommand(_ edit: TreeEditPayload, tree: CRDTTree, mode: ExecutionMode) throws(YorkieError) -> CRDTTree.Command {
    if let knowledge = mode.authorVector {
      for span in edit.restoreSpans + edit.retombstoneSpans {
        guard let known = knowledge[span.id.createdAt.actorID], known >= span.id.createdAt.lamport else {
          throw YorkieError(.unknownRestoreIdentity, "restore span \(span.id) names a tree node its change had not seen")
        }
      }
    }
    try tree.validateRestore(edit.restoreSpans + edit.retombstoneSpans)
    let (restoring, removing) = edit.restoreMode == .retombstone
      ? (edit.retombstoneSpans, edit.restoreSpans) : (edit.restoreSpans, edit.retombstoneSpans)
    return CRDTTree.Command(.restore(restoring: restoring, removing: removing), editedAt: edit.executedAt)
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
