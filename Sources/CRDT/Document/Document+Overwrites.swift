// Telling the app when a remote change replaced or removed an element that held edits of this
// replica its author had not seen (DocEvent.overwritten): "last writer wins" keeps replicas
// equal, and this keeps the losing side's edits from vanishing without a trace.

extension Document {
  /// An element a remote operation is about to replace or remove, holding this replica's
  /// unseen edits, with what is needed to report it once the operation did remove it.
  struct OverwriteCandidate {
    let element: CRDTElement
    let path: String
    let content: JSONValue
    let operation: OperationInfo.Kind
  }

  /// The live element that `operation` would replace or remove, when it holds edits of this
  /// replica made after lamport `horizon` (what the operation's change had not seen); nil
  /// otherwise. Reads only.
  func overwriteCandidate(of operation: Operation, horizon: Int64) -> OverwriteCandidate? {
    let container: CRDTElement
    let victim: TimeTicket?
    let kind: OperationInfo.Kind
    switch operation {
    case .set(let parentCreatedAt, let key, _, _):
      guard case .object(let object)? = root.element(parentCreatedAt)?.kind else { return nil }
      (container, victim, kind) = (object, object.get(key)?.createdAt, .set)
    case .remove(let parentCreatedAt, let createdAt, _):
      guard let parent = root.element(parentCreatedAt) else { return nil }
      (container, victim, kind) = (parent, createdAt, .remove)
    case .arraySet(let parentCreatedAt, let createdAt, _, _):
      guard case .array(let array)? = root.element(parentCreatedAt)?.kind else { return nil }
      (container, victim, kind) = (array, createdAt, .arraySet)
    case .add, .move, .increase, .dedupIncrease, .edit, .style, .restoreEdit, .treeEdit, .treeStyle:
      // These never take an element out of the document.
      return nil
    }
    guard let victim, let member = liveMember(victim, of: container), holdsUnseenEdits(member.element, after: horizon),
      let containerPath = root.path(of: container.createdAt)
    else { return nil }
    return OverwriteCandidate(
      element: member.element, path: containerPath + "." + member.name, content: member.element.kind.toJSONValue(), operation: kind)
  }

  /// Whether `element` was created by this replica after lamport `horizon`, or holds a
  /// container that this replica edited after it.
  private func holdsUnseenEdits(_ element: CRDTElement, after horizon: Int64) -> Bool {
    let me = changeID.actorID
    if element.createdAt.actorID == me && element.createdAt.lamport > horizon { return true }
    var checked = Set<TimeTicket>()
    for target in editLog.targets(after: horizon) where checked.insert(target).inserted {
      if root.isElement(target, within: element) { return true }
    }
    return false
  }

  /// The live member `createdAt` of an object or array, with the key or live index that names
  /// it in a path.
  private func liveMember(_ createdAt: TimeTicket, of container: CRDTElement) -> (element: CRDTElement, name: String)? {
    switch container.kind {
    case .object(let object):
      guard let member = object.element(createdAt: createdAt), !member.isRemoved, let key = object.key(of: createdAt) else { return nil }
      return (member, key)
    case .array(let array):
      guard let member = array.element(createdAt: createdAt), !member.isRemoved, let index = array.index(ofElement: createdAt)
      else { return nil }
      return (member, String(index))
    case .primitive, .text, .counter, .tree:
      return nil  // hold no elements
    }
  }
}
