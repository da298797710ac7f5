/// TreeStyle: sets or removes attributes of the elements in a range of a tree (Yorkie's
/// `TreeStyleOperation`). One operation does one or the other, as Yorkie's proxies make it.
extension Operation {
  static func executeTreeStyle(on parent: CRDTElement, _ style: TreeStylePayload,
                               root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .tree(let tree) = parent.kind else { throw mismatch("TreeStyle", parent, expected: "a tree") }
    tree.clearSplitGarbage()
    let tally = tree.sizeTally
    var changes: [TreeChange] = []
    if !style.attributes.isEmpty || style.attributesToRemove.isEmpty {
      let result = try tree.style(from: style.from, to: style.to, attributes: style.attributes, editedAt: style.executedAt,
                                  versionVector: mode.authorVector, journal: journal)
      registerTreeGarbage(result.gcPairs, of: tree, in: root, journal: journal)
      changes += result.changes
    }
    if !style.attributesToRemove.isEmpty {
      let result = try tree.removeStyle(from: style.from, to: style.to, keys: style.attributesToRemove, editedAt: style.executedAt,
                                        versionVector: mode.authorVector, journal: journal)
      registerTreeGarbage(result.gcPairs, of: tree, in: root, journal: journal)
      changes += result.changes
    }
    root.charge(tree.sizeTally - tally, in: tree, journal: journal)
    guard mode.describes, let path = root.path(of: tree.createdAt) else { return [] }
    return changes.map { OperationInfo(treeChange: $0, path: path) }
  }
}
