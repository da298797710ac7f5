/// ArraySet: replaces an array element by a new one (Yorkie's `ArraySetOperation`).
extension Operation {
  @inline(__always)
  static func executeArraySet(on parent: CRDTElement, _ createdAt: TimeTicket, value: OperationValue, executedAt: TimeTicket,
                              root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .array(let array) = parent.kind else { throw mismatch("ArraySet", parent, expected: "an array") }
    guard let target = array.element(createdAt: createdAt),
      let anchor = array.arraySetAnchor(of: createdAt, authorVector: mode.authorVector) else {
      throw YorkieError(.elementNotFound, "array \(array.createdAt) has no element created at \(createdAt)")
    }
    // The new value goes where the ArraySet's author saw the target: its current position
    // unless the author had not seen the move that put it there (see arraySetAnchor). Never
    // the original position merely because garbage collection has not purged it yet: that
    // made the result depend on when each replica collected.
    let element = value.materialize(for: mode)
    array.insert(element, afterPosition: anchor, executedAt: executedAt)
    journal.append(array, .unlink(element))
    root.register(element, parent: array, journal: journal)
    journal.append(.root(.deregister(element)))
    if !mode.adoptsValues && element.kind.holdsContent && CRDTRoot.carriesOlderIdentities(element) {
      root.noteRestoredCopy(element, placedAt: executedAt, journal: journal)
    }
    let oldRemovedAt = target.removedAt
    // A target a concurrent removal got first still takes this later removal time (as in
    // Remove): journal that too, or a rollback would keep it.
    if array.remove(createdAt: createdAt, executedAt: executedAt) != nil || target.removedAt != oldRemovedAt {
      journal.append(array, .restoreElement(target, removedAt: oldRemovedAt))
      if oldRemovedAt == nil {
        root.registerRemoved(target, parent: array, journal: journal)
        journal.append(.root(.unregisterRemoved(createdAt)))
      }
    }
    guard mode.describes, let path = root.path(of: array.createdAt) else { return [] }
    return [OperationInfo(type: .arraySet, path: path)]
  }
}
