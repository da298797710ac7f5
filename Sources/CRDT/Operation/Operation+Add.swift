/// Add: inserts an element into an array after a position (Yorkie's `AddOperation`).
extension Operation {
  @inline(__always)
  static func executeAdd(on parent: CRDTElement, after previousCreatedAt: TimeTicket, value: OperationValue, executedAt: TimeTicket,
                         root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .array(let array) = parent.kind else { throw mismatch("Add", parent, expected: "an array") }
    guard previousCreatedAt == array.nodes[Int(array.last)].id || array.position(withID: previousCreatedAt) != nil
      || array.position(ofElement: previousCreatedAt) != nil else {
      throw YorkieError(.elementNotFound, "array \(array.createdAt) has no position \(previousCreatedAt)")
    }
    // Elements are found by creation ticket: a forged or corrupted Add may not repeat one.
    // Checked here rather than in CRDTArray.insert, which local appends (fresh tickets) also
    // take and which defers their lookup entries.
    guard array.position(withID: value.createdAt) == nil else {
      throw YorkieError(.invalidChangePack, "array \(array.createdAt) already has a position created at \(value.createdAt)")
    }
    return applyAdd(array, value.materialize(for: mode), after: previousCreatedAt, executedAt: executedAt,
                    root: root, journal: journal, mode: mode)
  }

  /// Inserts `element` (just built for this Add) into `array` after the position
  /// `previousCreatedAt`, which the caller checked exists.
  @inline(__always)
  static func applyAdd(_ array: CRDTArray, _ element: CRDTElement, after previousCreatedAt: TimeTicket, executedAt: TimeTicket,
                       anchorHint: Int32 = -1, root: CRDTRoot, journal: Journal, mode: ExecutionMode) -> [OperationInfo] {
    array.insert(element, afterPosition: previousCreatedAt, executedAt: executedAt, anchorHint: anchorHint)
    root.register(element, parent: array, journal: journal)
    journal.append(array, .insert(element.createdAt))
    if !mode.adoptsValues && element.kind.holdsContent && CRDTRoot.carriesOlderIdentities(element) {
      // A copy restoring elements (CRDTRoot+RestoredCopies.swift).
      root.noteRestoredCopy(element, placedAt: executedAt, journal: journal)
    }
    if element.isRemoved {
      root.registerRemoved(element, parent: array, journal: journal)
      journal.append(.root(.unregisterRemoved(element.createdAt)))
    }
    guard mode.describes, let path = root.path(of: array.createdAt) else { return [] }
    return [OperationInfo(type: .add, path: path, index: array.index(ofElement: element.createdAt))]
  }
}
