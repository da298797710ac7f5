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
    // A fresh ticket (every local Set, almost every remote one) is newer than every member's:
    // no search then.
    var restores = false
    var laterRemoval: TimeTicket? = nil
    if let last = object.members.last, !element.createdAt.isAfter(last.element.createdAt),
      let holder = object.element(createdAt: element.createdAt) {
      // The value names an identity this object already holds: an undo restoring it.
      guard try takeOut(holder, restoredAs: element, key: key, from: object, executedAt: executedAt, root: root, journal: journal) else {
        return []
      }
      restores = true
      // A removal of the element newer than this restore (concurrent with it: the removal the
      // undo reverses is older) removes the copy too, as it would have, arriving after it.
      if let removedAt = holder.removedAt, removedAt.isAfter(executedAt) { laterRemoval = removedAt }
    }
    let result = try object.set(key, element, executedAt: executedAt)
    if let laterRemoval, !element.isRemoved {
      _ = element.remove(at: laterRemoval)
    }
    root.register(element, parent: object, journal: journal)
    if restores || (!mode.adoptsValues && element.kind.holdsContent && CRDTRoot.carriesOlderIdentities(element)) {
      // A copy restoring elements (CRDTRoot+RestoredCopies.swift).
      root.noteRestoredCopy(element, placedAt: executedAt, journal: journal)
    }
    var tombstoned = CRDTObject.SetTombstone.none
    if laterRemoval != nil && result.tombstone !== element {
      root.registerRemoved(element, parent: object, journal: journal)
      journal.append(.root(.unregisterRemoved(element.createdAt)))
    }
    if let tombstone = result.tombstone {
      // Only a live occupant can be evicted, so its removedAt was nil before.
      tombstoned = tombstone === result.previous ? .previousWinner : .element
      root.registerRemoved(tombstone, parent: object, journal: journal)
    }
    journal.append(object, .set(element: element.createdAt, previousWinner: result.previous?.createdAt, tombstone: tombstoned))
    guard mode.describes, let path = root.path(of: object.createdAt) else { return [] }
    return [OperationInfo(type: .set, path: path, key: key)]
  }

  /// Restoring an element under its own identity (Yorkie's undo of a Remove or of a Set puts
  /// back a copy of the element as it was, under the creation ticket it had): the member that
  /// holds that ticket leaves the object, and the copy is then set like any value. Returns
  /// false, changing nothing, when the Set must not apply.
  ///
  /// Two shapes come from real histories, as in Yorkie:
  /// - the holder is a tombstone under the same key: the element was removed or overwritten,
  ///   and this is its undo. The tombstone and everything below it leave the document (with
  ///   their garbage: the copy brings its own), so the key holds the element again, once.
  /// - the holder is the live value of the key: two replicas restored the same element
  ///   concurrently. The newer restore wins (last writer wins, by the Set's ticket against the
  ///   time the holder was placed); the older copy leaves the document, or, arriving second,
  ///   is not taken in.
  /// Any other holder (an element of another key, a live one the key no longer shows) is an
  /// identity no undo restores here: the change is forged or corrupted, and refused whole
  /// (Yorkie skips the Set; a replica that applied the rest of such a change would hold what
  /// no honest peer made).
  ///
  /// - Throws: `invalidChangePack` for such a holder; nothing has changed then.
  private static func takeOut(_ holder: CRDTElement, restoredAs element: CRDTElement, key: String, from object: CRDTObject,
                              executedAt: TimeTicket, root: CRDTRoot, journal: Journal) throws(YorkieError) -> Bool {
    let wasWinner = object.winningElement(key) === holder
    guard object.key(of: holder.createdAt) == key, holder.isRemoved || wasWinner else {
      throw YorkieError(.invalidChangePack, "object \(object.createdAt) already has a member created at \(element.createdAt) under another key")
    }
    // A concurrent restore of the live value that arrives second loses: not taken in.
    if !holder.isRemoved && !executedAt.isAfter(holder.positionedAt) { return false }
    journal.noteSizeChange(root)
    root.size = root.size - CRDTRoot.subtreeSize(of: holder, garbage: root.isGarbage(object))
    journal.append(object, .restoredOver(CRDTObject.RestoredHolder(element: holder, key: key, wasWinner: wasWinner)))
    root.noteDropped(under: holder, keptBy: element, placedAt: executedAt, journal: journal)
    root.deregister(holder)
    object.purge(holder)
    return true
  }
}
