/// TreeStyle: sets or removes attributes of the elements in a range of a tree (Yorkie's
/// `TreeStyleOperation`). One operation does one or the other, as Yorkie's proxies make it.
extension Operation {
  static func executeTreeStyle(on parent: CRDTElement, _ style: TreeStylePayload,
                               root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .tree(let tree) = parent.kind else { throw mismatch("TreeStyle", parent, expected: "a tree") }
    tree.clearSplitGarbage()
    let command = CRDTTree.Command(.style(from: style.from, to: style.to, attributes: style.attributes,
                                          keysToRemove: style.attributesToRemove), editedAt: style.executedAt)
    let tally = tree.sizeTally
    let result = try tree.apply(command, versionVector: mode.authorVector, ownVector: ownVector(mode, root),
                                describing: mode.describes, journal: journal)
    registerTreeGarbage(result.gcPairs, of: tree, in: root, journal: journal)
    root.charge(tree.sizeTally - tally, in: tree, journal: journal)
    root.noteOrderedTree(tree)
    let changes = result.changes
    guard mode.describes, let path = root.path(of: tree.createdAt) else { return [] }
    return changes.map { OperationInfo(treeChange: $0, path: path) }
  }
}
