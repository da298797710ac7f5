/// Move: moves an array element after a position (Yorkie's `MoveOperation`).
extension Operation {
  @inline(__always)
  static func executeMove(on parent: CRDTElement, _ createdAt: TimeTicket, after previousCreatedAt: TimeTicket, executedAt: TimeTicket,
                          root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .array(let array) = parent.kind else { throw mismatch("Move", parent, expected: "an array") }
    // An element garbage collection already purged was removed, and every replica knew it: a
    // move of it shows nothing anywhere (Remove ignores such an element the same way). Yorkie
    // refuses the change instead, and a peer's undo that moves back an element another peer
    // removed then stops the sync of every replica that had collected it.
    if array.position(ofElement: createdAt) == nil { return [] }
    guard array.position(withID: previousCreatedAt) != nil, array.position(ofElement: createdAt) != nil else {
      throw YorkieError(.elementNotFound, "array \(array.createdAt) cannot move \(createdAt) after \(previousCreatedAt)")
    }
    let previousIndex = mode.describes ? CRDTArray.infoIndex(array, createdAt) : nil
    guard let result = array.move(createdAt, afterPosition: previousCreatedAt, executedAt: executedAt) else {
      throw YorkieError(.elementNotFound, "array \(array.createdAt) cannot move \(createdAt) after \(previousCreatedAt)")
    }
    journal.append(array, .move(result))
    let dead = array.nodes[Int(result.deadPosition)]
    let pair = CRDTRoot.GCPair(parent: array, child: .arrayPosition(dead.id), removedAt: dead.removedAt ?? executedAt)
    root.registerGCPair(pair)
    journal.append(.root(.unregisterPositionGCPair(array, dead.id)))
    // The position that died is garbage; an element moved for the first time takes a move
    // ticket (read off the result: no second lookup of the element).
    var change = DocSize(gc: array.deadPositionSize(result.deadPosition))
    if result.oldPosition != nil, result.previousElementMovedAt == nil, let moved = array.nodes[Int(result.newPosition)].element {
      change.add(DataSize(meta: DataSize.ticket), garbage: moved.isRemoved)
    }
    root.charge(change, in: array, journal: journal)
    guard mode.describes, let path = root.path(of: array.createdAt) else { return [] }
    return [OperationInfo(type: .move, path: path, index: CRDTArray.infoIndex(array, createdAt), previousIndex: previousIndex)]
  }
}
