/// Set: puts an element under a key of an object (Yorkie's `SetOperation`).
extension Operation {
  @inline(__always)
  static func executeSet(on parent: CRDTElement, key: String, value: OperationValue, executedAt: TimeTicket,
                         root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .object(let object) = parent.kind else { throw mismatch("Set", parent, expected: "an object") }
    return try applySet(object, key, value.materialize(for: mode), executedAt: executedAt,
                        root: root, journal: journal, mode: mode)
  }

  /// Sets `element` (just built for this Set) under `key` in `object`: the Set of a remote
  /// change, or of a local edit, which calls it directly with the element it made.
  @inline(__always)
  static func applySet(_ object: CRDTObject, _ key: String, _ element: CRDTElement, executedAt: TimeTicket,
                       root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    let result = try object.set(key, element, executedAt: executedAt)
    root.register(element, parent: object, journal: journal)
    var tombstoned = CRDTObject.SetTombstone.none
    if let tombstone = result.tombstone {
      // Only a live occupant can be evicted, so its removedAt was nil before.
      tombstoned = tombstone === result.previous ? .previousWinner : .element
      root.registerRemoved(tombstone, parent: object, journal: journal)
    }
    journal.append(object, .set(element: element.createdAt, previousWinner: result.previous?.createdAt, tombstone: tombstoned))
    guard mode.describes, let path = root.path(of: object.createdAt) else { return [] }
    return [OperationInfo(type: .set, path: path, key: key)]
  }
}
