/// Increase: adds to a plain counter (Yorkie's `IncreaseOperation`).
extension Operation {
  @inline(__always)
  static func executeIncrease(on parent: CRDTElement, operand: PrimitiveValue,
                              root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .counter(let counter) = parent.kind else { throw mismatch("Increase", parent, expected: "a counter") }
    guard !counter.isDeduplicating else {
      throw YorkieError(.typeMismatch, "a deduplicating counter \(counter.createdAt) is increased by an actor, not by \(operand)")
    }
    let delta: Int64
    switch operand {
    case .integer(let v): delta = Int64(v)
    case .long(let v): delta = v
    default: throw YorkieError(.typeMismatch, "a counter increases by an Integer or a Long, not \(operand)")
    }
    return applyIncrease(counter, by: delta, operand: operand, root: root, journal: journal, mode: mode)
  }

  /// Adds `delta` (the operand's value) to a plain counter.
  @inline(__always)
  static func applyIncrease(_ counter: CRDTCounter, by delta: Int64, operand: PrimitiveValue,
                            root: CRDTRoot, journal: Journal, mode: ExecutionMode) -> [OperationInfo] {
    journal.appendCounterValue(counter)
    counter.increase(by: delta)
    guard mode.describes, let path = root.path(of: counter.createdAt) else { return [] }
    return [OperationInfo(type: .increase, path: path, value: operand.jsonValue)]
  }
}
