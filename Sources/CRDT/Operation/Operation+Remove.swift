/// Remove: removes a member of an object or an element of an array (Yorkie's
/// `RemoveOperation`).
extension Operation {
  @inline(__always)
  static func executeRemove(on parent: CRDTElement, _ createdAt: TimeTicket, executedAt: TimeTicket,
                            root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    switch parent.kind {
    case .object(let object):
      // A member that garbage collection already purged was removed by someone else too:
      // nothing left to do (Yorkie ignores it the same way).
      guard let element = object.element(createdAt: createdAt) else { return [] }
      // A copy restored under this ticket after a removal its author had not seen is removed
      // only by a newer removal (CRDTRoot+RestoredCopies.swift): the order of arrival must not
      // matter.
      if root.hasRestoredCopies, let authorVector = mode.authorVector,
        let placedAt = root.restoredCopies[createdAt], !CRDTRoot.knows(authorVector, placedAt), !executedAt.isAfter(placedAt) {
        return []
      }
      let key = object.key(of: createdAt)
      let oldRemovedAt = element.removedAt
      if object.remove(createdAt: createdAt, executedAt: executedAt) != nil || element.removedAt != oldRemovedAt {
        journal.append(.removedAt(element, oldRemovedAt))
        if oldRemovedAt == nil {
          root.registerRemoved(element, parent: object, journal: journal)
          journal.append(.root(.unregisterRemoved(createdAt)))
        }
      }
      // Reported even when a concurrent removal got there first, as the JS SDK does.
      guard mode.describes, let path = root.path(of: object.createdAt) else { return [] }
      return [OperationInfo(type: .remove, path: path, key: key)]
    case .array(let array):
      guard let element = array.element(createdAt: createdAt) else { return [] }
      let oldRemovedAt = element.removedAt
      let index = mode.describes ? CRDTArray.infoIndex(array, createdAt) : nil
      if array.remove(createdAt: createdAt, executedAt: executedAt) != nil || element.removedAt != oldRemovedAt {
        journal.append(array, .restoreElement(element, removedAt: oldRemovedAt))
        if oldRemovedAt == nil {
          root.registerRemoved(element, parent: array, journal: journal)
          journal.append(.root(.unregisterRemoved(createdAt)))
        }
      }
      guard mode.describes, let path = root.path(of: array.createdAt) else { return [] }
      return [OperationInfo(type: .remove, path: path, index: index)]
    case .primitive, .text, .counter, .tree:
      throw mismatch("Remove", parent, expected: "an object or an array")
    }
  }
}
