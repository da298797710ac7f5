// The invariants of a text, checked by tests after every step.
extension CRDTText {
  // MARK: Invariants

  /// Verifies the invariants listed on the type; returns the first violation.
  package func checkInvariants() -> String? {
    if let problem = index.checkInvariants() { return "index: \(problem)" }
    var order: [Int32] = []
    var previous = CRDTText.head
    var handle = nodes[Int(CRDTText.head)].next
    while handle >= 0 {
      let node = nodes[Int(handle)]
      if index.contains(handle), self.previous(of: handle) != previous { return "piece \(handle) follows \(self.previous(of: handle)) in the index, \(previous) in the chain" }
      if index.weight(of: handle) != (node.isRemoved ? 0 : Int(node.length)) { return "piece \(node.id) has a wrong weight" }
      if node.insNext >= 0 {
        let next = nodes[Int(node.insNext)]
        if next.insPrev != handle { return "insNext/insPrev disagree at \(node.id)" }
        if next.id.createdAt != node.id.createdAt || next.id.offset <= node.id.offset { return "insNext of \(node.id) is \(next.id)" }
      }
      if node.insPrev < 0, firstPiece(of: node.id.createdAt) != handle { return "firstPiece does not name \(node.id)" }
      order.append(handle)
      if order.count > nodes.count { return "the chain has a cycle" }
      previous = handle
      handle = node.next
    }
    if order != index.handles { return "index order differs from the chain" }
    var slots = Set(freeRemovals)
    if slots.count != freeRemovals.count { return "a removal slot is free twice" }
    for handle in order where arena[Int(handle)].isRemoved {
      if !slots.insert(arena[Int(handle)].removal).inserted { return "removal slot \(arena[Int(handle)].removal) is shared or free" }
    }
    if slots.count != removals.count { return "removal slots leak: \(slots.count) used or free of \(removals.count)" }
    if !livenessSteps.isEmpty, let problem = checkLivenessInvariants(linked: Set(order)) { return problem }
    if !purgeNotes.isEmpty, let problem = checkPurgeNoteInvariants(linked: Set(order)) { return problem }
    return nil
  }
}
