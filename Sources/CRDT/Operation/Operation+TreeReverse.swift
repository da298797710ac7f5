/// Undo and redo of tree edits and styles (issue 24), as Yorkie's tree history makes them
/// (JS SDK `TreeEditOperation.toReverseOperation`/`toSplitReverseOperation`, Go
/// `TreeEdit.selectReverseOperation`, `TreeStyleOperation`'s reverse):
///
/// ```
///   edit, no split level:
///     merged elements ──────────────► split them again where they were joined (levels = merged)
///     spans describe it all ────────► TreeEdit with restore spans: revive what it removed,
///                                      remove again what it inserted, by identity
///     otherwise ────────────────────► no reverse (see below)
///   edit with a split level:
///     a pure split (no contents, nothing in the range) ► delete the boundary it opened
///     otherwise ────────────────────► no reverse (Yorkie makes none either)
///   TreeEdit with restore spans ────► the same spans, the other way (restore ⇄ retombstone)
///   style ──────────────────────────► per element: set the values its keys had, remove the
///                                      keys it did not have
/// ```
///
/// The reverse of a merge is a split, and the reverse of a split is a merge, so a merge or
/// split undone and redone alternates between the two; the elements a split undo makes are new
/// (their identities are the undo's), as in Yorkie.
///
/// Where we differ: Yorkie keeps a split's and a merge's reverse as indexes that it shifts when
/// peers' edits arrive (`reconcileOperation`); here they are positions by identity
/// (``CRDTTreePos``), taken right after the edit, which peers' edits do not move. Yorkie
/// reverses an edit whose spans are incomplete without a merge (a deletion a former merge
/// propagated, contents inserted under a parent a peer removed) by inserting copies of the
/// removed nodes under fresh identities; here such an edit has no reverse (its step undoes the
/// update's other operations), since copies would duplicate what a peer's concurrent undo
/// revives.
extension Operation {
  // MARK: Capturing

  /// What the reverse of `edit`, which just ran on `tree` and left `trace`, needs.
  static func historyCapture(of trace: CRDTTree.EditTrace, edit: TreeEditPayload, tree: CRDTTree) -> HistoryCapture? {
    guard edit.splitLevel == 0 else {
      // Yorkie's `isPureSplit`: a split that also inserted or removed has no reverse.
      let opened = tree.size - trace.sizeBefore
      guard edit.contents.isEmpty, !trace.touchedNodes, opened > 0,
        let from = try? tree.findPos(trace.fromIndex), let to = try? tree.findPos(trace.fromIndex + opened) else { return nil }
      return .treeBoundary(from: from, to: to)
    }
    if trace.mergeLevel > 0 {
      guard let at = try? tree.findPos(trace.fromIndex) else { return nil }
      return .treeSplit(at: at, levels: trace.mergeLevel)
    }
    guard trace.spansComplete, !trace.removed.isEmpty || !trace.inserted.isEmpty else { return nil }
    return .treeSpans(removed: trace.removed, inserted: trace.inserted)
  }

  /// Each element a tree style changed (its first attribute record in `records`), live, with
  /// the values `keys` had on it before.
  static func previousTreeStyles(in records: [CRDTTree.Undo], of tree: CRDTTree, keys: [String]) -> HistoryCapture? {
    var runs: [HistoryCapture.TreeStyleRun] = []
    var seen = Set<ObjectIdentifier>()
    for record in records {
      guard case .attributes(let node, let before) = record, seen.insert(ObjectIdentifier(node)).inserted,
        let range = tree.openingTagRange(of: node) else { continue }
      var previous: [String: String?] = [:]
      for key in keys {
        previous[key] = .some(before?.entries.first { $0.key == key && !$0.isRemoved }?.value)
      }
      runs.append(HistoryCapture.TreeStyleRun(from: range.from, to: range.to, previous: previous))
    }
    return runs.isEmpty ? nil : .previousTreeStyles(runs)
  }

  // MARK: Reversing

  /// The reverse of a tree edit, with placeholder tickets.
  static func reverseTreeEdit(_ edit: TreeEditPayload, capture: HistoryCapture?) -> [Operation] {
    let none = TimeTicket.initial
    let parent = edit.parentCreatedAt
    if !edit.restoreSpans.isEmpty || !edit.retombstoneSpans.isEmpty {
      // An undo or redo by identity: the same spans the other way (no mode counts as restore).
      let flipped: RestoreMode = edit.restoreMode == .retombstone ? .restore : .retombstone
      return [.treeEdit(TreeEditPayload(parentCreatedAt: parent, from: edit.from, to: edit.to, executedAt: none,
                                        restoreSpans: edit.restoreSpans, restoreMode: flipped, retombstoneSpans: edit.retombstoneSpans))]
    }
    switch capture {
    case .treeSpans(let removed, let inserted):
      // The positions are the edit's own, which a restore does not use (as Yorkie sends them).
      return [.treeEdit(TreeEditPayload(parentCreatedAt: parent, from: edit.from, to: edit.to, executedAt: none,
                                        restoreSpans: removed, restoreMode: .restore, retombstoneSpans: inserted))]
    case .treeSplit(let at, let levels):
      return [.treeEdit(TreeEditPayload(parentCreatedAt: parent, from: at, to: at, splitLevel: Int32(levels), executedAt: none))]
    case .treeBoundary(let from, let to):
      return [.treeEdit(TreeEditPayload(parentCreatedAt: parent, from: from, to: to, executedAt: none))]
    default:
      return []
    }
  }

  /// The reverse of a tree style: per element, a style that sets the values its keys had and a
  /// removal of the keys it did not have (one operation does one or the other, as Yorkie's
  /// proxies make them).
  static func reverseTreeStyle(_ style: TreeStylePayload, runs: [HistoryCapture.TreeStyleRun]) -> [Operation] {
    var operations: [Operation] = []
    for run in runs {
      var set: [String: String] = [:]
      var unset: [String] = []
      for (key, value) in run.previous.sorted(by: { $0.key < $1.key }) {
        if let value { set[key] = value } else { unset.append(key) }
      }
      if !set.isEmpty {
        operations.append(.treeStyle(TreeStylePayload(parentCreatedAt: style.parentCreatedAt, from: run.from, to: run.to,
                                                      attributes: set, executedAt: .initial)))
      }
      if !unset.isEmpty {
        operations.append(.treeStyle(TreeStylePayload(parentCreatedAt: style.parentCreatedAt, from: run.from, to: run.to,
                                                      attributesToRemove: unset, executedAt: .initial)))
      }
    }
    return operations
  }
}
