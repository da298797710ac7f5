/// The Edit that undoes or redoes a text edit by identity (Yorkie's `EditOperation` with
/// `restoreSpans`/`retombstoneSpans`): revives removed pieces and removes inserted ones again.
extension Operation {
  @inline(__always)
  static func executeRestoreEdit(on parent: CRDTElement, parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition,
                                 restoreSpans: [RestoreSpan], restoreMode: RestoreMode, retombstoneSpans: [RestoreSpan],
                                 executedAt: TimeTicket, root: CRDTRoot, journal: Journal,
                                 mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .text(let text) = parent.kind else { throw mismatch("Edit", parent, expected: "a text") }
    // Spans name pieces by identity: the change must have seen every insertion it names
    // (Yorkie's validateRestoreIdentities). This replica's own edit knows everything.
    if let knowledge = mode.authorVector {
      func checkKnown(_ span: RestoreSpan) throws(YorkieError) {
        guard let known = knowledge[span.createdAt.actorID], known >= span.createdAt.lamport else {
          throw YorkieError(.unknownRestoreIdentity,
                            "restore span \(span.createdAt) names an insertion its change had not seen")
        }
      }
      for span in restoreSpans { try checkKnown(span) }
      for span in retombstoneSpans { try checkKnown(span) }
    }
    if restoreSpans.isEmpty && retombstoneSpans.isEmpty {
      let edit = Operation.edit(parentCreatedAt: parentCreatedAt, from: from, to: to, content: "", attributes: nil, executedAt: executedAt)
      return try edit.execute(on: root, journal: journal, mode: mode, target: text)
    }
    let (restoring, removing) = restoreMode == .retombstone ? (retombstoneSpans, restoreSpans) : (restoreSpans, retombstoneSpans)
    try CRDTText.validate(restoring: restoring, removing: removing)
    // Garbage collection compacts the steps a restore leaves (an undo of typing leaves none).
    defer { if !text.livenessSteps.isEmpty { root.noteLivenessSteps(of: text) } }
    let tally = text.sizeTally
    defer { root.charge(text.sizeTally - tally, in: text, journal: journal) }
    var changes: [(from: Int, to: Int, value: String)] = []
    // 1. Remove again what the reversed edit inserted.
    if !removing.isEmpty {
      let result = text.retombstone(removing, executedAt: executedAt, authorVector: mode.authorVector, journal: journal,
                                    wantsIndexes: mode.describes)
      registerSplitGarbage(of: text, in: root, journal: journal)
      if result.removedCount > 0 { root.noteTextGarbage(text) }
      for range in result.ranges { changes.append((range.from, range.to, "")) }
    }
    // 2. Revive what it removed. Parts split off a tombstone stay garbage (registered here);
    // revived pieces are garbage no more.
    if !restoring.isEmpty {
      let result = text.restore(restoring, executedAt: executedAt, fallback: from, authorVector: mode.authorVector, journal: journal)
      // Revived pieces are garbage no more: they are live again in the text, which is where
      // removed pieces are counted.
      registerSplitGarbage(of: text, in: root, journal: journal)
      registerStyleGarbage(result.attributes, of: text, in: root, journal: journal)
      if mode.describes {
        var insertions = (result.revived + result.recreated).map { handle in
          let index = text.visibleIndex(of: handle)
          return (from: index, to: index, value: text.content(of: handle))
        }
        insertions.sort { $0.from < $1.from }
        changes.append(contentsOf: insertions)
      }
    }
    guard mode.describes, let path = root.path(of: text.createdAt) else { return [] }
    return coalesced(changes).map { OperationInfo(type: .edit, path: path, from: $0.from, to: $0.to, value: .string($0.value)) }
  }

  /// Joins changes that read as one: pieces removed one after another at the same index (each
  /// range is in the text the previous ones left) and pieces revived next to each other, so
  /// that undoing the typing of "abc" reports one removal of 0..<3, as a plain edit would,
  /// not one per piece the text happens to be split into. Applying the result in order still
  /// turns the old text into the new one.
  private static func coalesced(_ changes: [(from: Int, to: Int, value: String)]) -> [(from: Int, to: Int, value: String)] {
    var result: [(from: Int, to: Int, value: String)] = []
    result.reserveCapacity(changes.count)
    for change in changes {
      if let last = result.last {
        let lastIsRemoval = last.value.isEmpty && last.from < last.to
        let isRemoval = change.value.isEmpty && change.from < change.to
        let lastIsInsertion = !last.value.isEmpty && last.from == last.to
        let isInsertion = !change.value.isEmpty && change.from == change.to
        if lastIsRemoval && isRemoval && change.from == last.from {
          result[result.count - 1].to += change.to - change.from
          continue
        }
        if lastIsInsertion && isInsertion && change.from == last.from + last.value.utf16.count {
          result[result.count - 1].value += change.value
          continue
        }
      }
      result.append(change)
    }
    return result
  }
}
