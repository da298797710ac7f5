/// The Increase of a deduplicating counter: counts an actor once (Yorkie's `IncreaseOperation`
/// with an actor, v0.7.5+).
extension Operation {
  @inline(__always)
  static func executeDedupIncrease(on parent: CRDTElement, parentCreatedAt: TimeTicket, operand: PrimitiveValue, actor: String,
                                   executedAt: TimeTicket, root: CRDTRoot, journal: Journal,
                                   mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .counter(let counter) = parent.kind else { throw mismatch("Increase", parent, expected: "a counter") }
    // Yorkie: an increase that names no actor, or one on a plain counter, is a plain increase.
    guard counter.isDeduplicating, !actor.isEmpty else {
      let increase = Operation.increase(parentCreatedAt: parentCreatedAt, value: operand, executedAt: executedAt)
      return try increase.execute(on: root, journal: journal, mode: mode, target: counter)
    }
    switch operand {
    case .integer(1), .long(1): break
    default: throw YorkieError(.typeMismatch, "a deduplicating counter only counts by 1, not by \(operand)")
    }
    if let change = counter.count(actor) {
      journal.append(.counter(counter, .register(index: change.index, register: change.oldRegister, value: change.oldValue)))
    }
    guard mode.describes, let path = root.path(of: counter.createdAt) else { return [] }
    return [OperationInfo(type: .increase, path: path, value: operand.jsonValue)]
  }
}
