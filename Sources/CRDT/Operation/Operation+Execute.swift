/// Execution of operations against a root. The same code runs for local edits (right after a
/// proxy builds the operation) and for remote changes.
extension Operation {
  /// Sets `element` (just built for this Set) under `key` in `object`: the Set of a remote
  /// change, or of a local edit, which calls it directly with the element it made.
  @inline(__always)
  static func applySet(_ object: CRDTObject, _ key: String, _ element: CRDTElement, executedAt: TimeTicket,
                       root: CRDTRoot, journal: Journal, wantsInfo: Bool) throws(YorkieError) -> [OperationInfo] {
    let result = try object.set(key, element, executedAt: executedAt)
    root.register(element, parent: object)
    var tombstoned = CRDTObject.SetTombstone.none
    if let tombstone = result.tombstone {
      // Only a live occupant can be evicted, so its removedAt was nil before.
      tombstoned = tombstone === result.previous ? .previousWinner : .element
      root.registerRemoved(tombstone, parent: object)
    }
    journal.append(object, .set(element: element.createdAt, previousWinner: result.previous?.createdAt, tombstone: tombstoned))
    guard wantsInfo, let path = root.path(of: object.createdAt) else { return [] }
    return [OperationInfo(type: .set, path: path, key: key)]
  }

  /// Inserts `element` (just built for this Add) into `array` after the position
  /// `previousCreatedAt`, which the caller checked exists.
  @inline(__always)
  static func applyAdd(_ array: CRDTArray, _ element: CRDTElement, after previousCreatedAt: TimeTicket, executedAt: TimeTicket,
                       anchorHint: Int32 = -1, root: CRDTRoot, journal: Journal, wantsInfo: Bool) -> [OperationInfo] {
    array.insert(element, afterPosition: previousCreatedAt, executedAt: executedAt, anchorHint: anchorHint)
    root.register(element, parent: array)
    journal.append(array, .insert(element.createdAt))
    if element.isRemoved {
      root.registerRemoved(element, parent: array)
      journal.append(.root(.unregisterRemoved(element.createdAt)))
    }
    guard wantsInfo, let path = root.path(of: array.createdAt) else { return [] }
    return [OperationInfo(type: .add, path: path, index: array.index(ofElement: element.createdAt))]
  }

  /// Adds `delta` (the operand's value) to a plain counter.
  @inline(__always)
  static func applyIncrease(_ counter: CRDTCounter, by delta: Int64, operand: PrimitiveValue,
                            root: CRDTRoot, journal: Journal, wantsInfo: Bool) -> [OperationInfo] {
    journal.appendCounterValue(counter)
    counter.increase(by: delta)
    guard wantsInfo, let path = root.path(of: counter.createdAt) else { return [] }
    return [OperationInfo(type: .increase, path: path, value: operand.jsonValue)]
  }

  /// Replaces `from..<to` of `text` with `content`. `knownRange` is the visible index range
  /// the positions name, when the caller (a local edit) has it.
  @inline(__always)
  static func applyEdit(_ text: CRDTText, from: TextPosition, to: TextPosition, content: String, attributes: [String: String]?,
                        executedAt: TimeTicket, versionVector: VersionVector?, knownRange: (Int, Int)?,
                        root: CRDTRoot, journal: Journal, wantsInfo: Bool) throws(YorkieError) -> [OperationInfo] {
    let result = try text.edit(from: from, to: to, content: content, attributes: attributes, editedAt: executedAt,
                               versionVector: versionVector, journal: journal, wantsIndexes: wantsInfo, knownRange: knownRange)
    if !text.splitGarbage.isEmpty { registerSplitGarbage(of: text, in: root, journal: journal) }
    if result.removedCount > 0 { root.noteTextGarbage(text) }
    guard wantsInfo, let path = root.path(of: text.createdAt) else { return [] }
    return [OperationInfo(type: .edit, path: path, from: result.fromIndex, to: result.toIndex, value: .string(content),
                          attributes: attributes.map(OperationInfo.decode))]
  }

  /// Applies the operation.
  ///
  /// - Parameters:
  ///   - root: the document's root.
  ///   - journal: records how to undo each mutation.
  ///   - wantsInfo: whether to describe the operation for change events (paths cost a lookup).
  /// - Returns: what changed, for events (empty when `wantsInfo` is false or nothing changed).
  /// - Throws: ``YorkieError`` when the operation names an element the document does not have
  ///   or one of the wrong kind. Nothing has been mutated when it throws.
  ///   - target: the element named by `parentCreatedAt` when the caller already holds it (a local
  ///     edit); nil looks it up.
  ///   - versionVector: the version vector of the change the operation belongs to; nil (or empty)
  ///     for a local edit, which knows everything. Text edits use it to leave alone what their
  ///     author had not seen.
  ///   - adopting: true only for the local execution right after a proxy built the operation:
  ///     a fresh primitive the operation holds goes into the tree as it is (see
  ///     ``OperationValue``).
  package func execute(on root: CRDTRoot, journal: Journal, wantsInfo: Bool, target: CRDTElement? = nil,
                       versionVector: VersionVector? = nil, adopting: Bool = false) throws(YorkieError) -> [OperationInfo] {
    guard let parent = target ?? root.element(parentCreatedAt) else {
      throw YorkieError(.elementNotFound, "no element created at \(parentCreatedAt) to apply \(kindName) to")
    }
    switch self {
    case .set(_, let key, let value, let executedAt):
      guard case .object(let object) = parent.kind else { throw mismatch(parent, expected: "an object") }
      return try Operation.applySet(object, key, value.materialize(adopting: adopting), executedAt: executedAt,
                                root: root, journal: journal, wantsInfo: wantsInfo)

    case .add(_, let previousCreatedAt, let value, let executedAt):
      guard case .array(let array) = parent.kind else { throw mismatch(parent, expected: "an array") }
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
      return Operation.applyAdd(array, value.materialize(adopting: adopting), after: previousCreatedAt, executedAt: executedAt,
                                root: root, journal: journal, wantsInfo: wantsInfo)

    case .move(_, let previousCreatedAt, let createdAt, let executedAt):
      guard case .array(let array) = parent.kind else { throw mismatch(parent, expected: "an array") }
      guard array.position(withID: previousCreatedAt) != nil, array.position(ofElement: createdAt) != nil else {
        throw YorkieError(.elementNotFound, "array \(array.createdAt) cannot move \(createdAt) after \(previousCreatedAt)")
      }
      let previousIndex = wantsInfo ? CRDTArray.infoIndex(array, createdAt) : nil
      guard let result = array.move(createdAt, afterPosition: previousCreatedAt, executedAt: executedAt) else {
        throw YorkieError(.elementNotFound, "array \(array.createdAt) cannot move \(createdAt) after \(previousCreatedAt)")
      }
      journal.append(array, .move(result))
      let dead = array.nodes[Int(result.deadPosition)]
      let pair = CRDTRoot.GCPair(parent: array, child: .arrayPosition(dead.id), removedAt: dead.removedAt ?? executedAt)
      root.registerGCPair(pair)
      journal.append(.root(.unregisterPositionGCPair(array, dead.id)))
      guard wantsInfo, let path = root.path(of: array.createdAt) else { return [] }
      return [OperationInfo(type: .move, path: path, index: CRDTArray.infoIndex(array, createdAt), previousIndex: previousIndex)]

    case .remove(_, let createdAt, let executedAt):
      switch parent.kind {
      case .object(let object):
        // A member that garbage collection already purged was removed by someone else too:
        // nothing left to do (Yorkie ignores it the same way).
        guard let element = object.element(createdAt: createdAt) else { return [] }
        let key = object.key(of: createdAt)
        let oldRemovedAt = element.removedAt
        if object.remove(createdAt: createdAt, executedAt: executedAt) != nil || element.removedAt != oldRemovedAt {
          journal.append(.removedAt(element, oldRemovedAt))
          if oldRemovedAt == nil {
            root.registerRemoved(element, parent: object)
            journal.append(.root(.unregisterRemoved(createdAt)))
          }
        }
        // Reported even when a concurrent removal got there first, as the JS SDK does.
        guard wantsInfo, let path = root.path(of: object.createdAt) else { return [] }
        return [OperationInfo(type: .remove, path: path, key: key)]
      case .array(let array):
        guard let element = array.element(createdAt: createdAt) else { return [] }
        let oldRemovedAt = element.removedAt
        let index = wantsInfo ? CRDTArray.infoIndex(array, createdAt) : nil
        if array.remove(createdAt: createdAt, executedAt: executedAt) != nil || element.removedAt != oldRemovedAt {
          journal.append(array, .restoreElement(element, removedAt: oldRemovedAt))
          if oldRemovedAt == nil {
            root.registerRemoved(element, parent: array)
            journal.append(.root(.unregisterRemoved(createdAt)))
          }
        }
        guard wantsInfo, let path = root.path(of: array.createdAt) else { return [] }
        return [OperationInfo(type: .remove, path: path, index: index)]
      case .primitive, .text, .counter:
        throw mismatch(parent, expected: "an object or an array")
      }

    case .arraySet(_, let createdAt, let value, let executedAt):
      guard case .array(let array) = parent.kind else { throw mismatch(parent, expected: "an array") }
      guard let target = array.element(createdAt: createdAt),
        let anchor = array.arraySetAnchor(of: createdAt, authorVector: versionVector) else {
        throw YorkieError(.elementNotFound, "array \(array.createdAt) has no element created at \(createdAt)")
      }
      // The new value goes where the ArraySet's author saw the target: its current position
      // unless the author had not seen the move that put it there (see arraySetAnchor). Never
      // the original position merely because garbage collection has not purged it yet: that
      // made the result depend on when each replica collected.
      let element = value.materialize(adopting: adopting)
      array.insert(element, afterPosition: anchor, executedAt: executedAt)
      journal.append(array, .unlink(element))
      root.register(element, parent: array)
      journal.append(.root(.deregister(element)))
      let oldRemovedAt = target.removedAt
      // A target a concurrent removal got first still takes this later removal time (as in
      // Remove): journal that too, or a rollback would keep it.
      if array.remove(createdAt: createdAt, executedAt: executedAt) != nil || target.removedAt != oldRemovedAt {
        journal.append(array, .restoreElement(target, removedAt: oldRemovedAt))
        if oldRemovedAt == nil {
          root.registerRemoved(target, parent: array)
          journal.append(.root(.unregisterRemoved(createdAt)))
        }
      }
      guard wantsInfo, let path = root.path(of: array.createdAt) else { return [] }
      return [OperationInfo(type: .arraySet, path: path)]

    case .edit(let edit):
      guard case .text(let text) = parent.kind else { throw mismatch(parent, expected: "a text") }
      return try Operation.applyEdit(text, from: edit.from, to: edit.to, content: edit.content, attributes: edit.attributes,
                                     executedAt: edit.executedAt,
                                     versionVector: versionVector.flatMap { $0.isEmpty ? nil : $0 }, knownRange: nil,
                                     root: root, journal: journal, wantsInfo: wantsInfo)

    case .style(_, let from, let to, let attributes, let attributesToRemove, let executedAt):
      guard case .text(let text) = parent.kind else { throw mismatch(parent, expected: "a text") }
      let knowledge = versionVector.flatMap { $0.isEmpty ? nil : $0 }
      let result = try text.style(from: from, to: to, attributes: attributes, attributesToRemove: attributesToRemove,
                                  editedAt: executedAt, versionVector: knowledge, journal: journal)
      Operation.registerSplitGarbage(of: text, in: root, journal: journal)
      for (handle, name) in result.tombstones {
        Operation.register(CRDTRoot.GCPair(parent: text, child: .textAttribute(text.id(of: handle), name), removedAt: executedAt, handle: handle), in: root, journal: journal)
      }
      for (id, name, _) in result.revived {
        let key = CRDTRoot.GCPairKey(parent: text.createdAt, child: .textAttribute(id, name))
        if let previous = root.gcPair(key) {
          journal.append(.root(.restoreGCPair(previous)))
          root.unregisterGCPair(key)
        }
      }
      guard wantsInfo, let path = root.path(of: text.createdAt) else { return [] }
      return [OperationInfo(type: .style, path: path, from: result.fromIndex, to: result.toIndex,
                            attributes: OperationInfo.decode(attributes), attributesToRemove: attributesToRemove)]

    case .restoreEdit(let parentCreatedAt, let from, let to, let restoreSpans, let restoreMode, let retombstoneSpans, let executedAt):
      guard case .text(let text) = parent.kind else { throw mismatch(parent, expected: "a text") }
      // Spans name pieces by identity: the change must have seen every insertion it names
      // (Yorkie's validateRestoreIdentities). A local edit (no vector) knows everything.
      if let knowledge = versionVector, !knowledge.isEmpty {
        for span in restoreSpans + retombstoneSpans {
          guard let known = knowledge[span.createdAt.actorID], known >= span.createdAt.lamport else {
            throw YorkieError(.unknownRestoreIdentity,
                              "restore span \(span.createdAt) names an insertion its change had not seen")
          }
        }
      }
      if restoreSpans.isEmpty && retombstoneSpans.isEmpty {
        let edit = Operation.edit(parentCreatedAt: parentCreatedAt, from: from, to: to, content: "", attributes: nil, executedAt: executedAt)
        return try edit.execute(on: root, journal: journal, wantsInfo: wantsInfo, target: text, versionVector: versionVector)
      }
      let (restoring, removing) = restoreMode == .retombstone ? (retombstoneSpans, restoreSpans) : (restoreSpans, retombstoneSpans)
      try CRDTText.validate(restoring: restoring, removing: removing)
      var changes: [(from: Int, to: Int, value: String)] = []
      // 1. Remove again what the reversed edit inserted.
      if !removing.isEmpty {
        let result = text.retombstone(removing, executedAt: executedAt, journal: journal, wantsIndexes: wantsInfo)
        Operation.registerSplitGarbage(of: text, in: root, journal: journal)
        if !result.removed.isEmpty { root.noteTextGarbage(text) }
        for range in result.ranges { changes.append((range.from, range.to, "")) }
      }
      // 2. Revive what it removed. Parts split off a tombstone stay garbage (registered here);
      // revived pieces are garbage no more.
      if !restoring.isEmpty {
        let result = text.restore(restoring, executedAt: executedAt, fallback: from, journal: journal)
        // Revived pieces are garbage no more: they are live again in the text, which is where
        // removed pieces are counted.
        Operation.registerSplitGarbage(of: text, in: root, journal: journal)
        if wantsInfo {
          var insertions = (result.revived + result.recreated).map { handle in
            let index = text.visibleIndex(of: handle)
            return (from: index, to: index, value: text.content(of: handle))
          }
          insertions.sort { $0.from < $1.from }
          changes.append(contentsOf: insertions)
        }
      }
      guard wantsInfo, let path = root.path(of: text.createdAt) else { return [] }
      return changes.map { OperationInfo(type: .edit, path: path, from: $0.from, to: $0.to, value: .string($0.value)) }

    case .dedupIncrease(let parentCreatedAt, let operand, let actor, let executedAt):
      guard case .counter(let counter) = parent.kind else { throw mismatch(parent, expected: "a counter") }
      // Yorkie: an increase that names no actor, or one on a plain counter, is a plain increase.
      guard counter.isDeduplicating, !actor.isEmpty else {
        let increase = Operation.increase(parentCreatedAt: parentCreatedAt, value: operand, executedAt: executedAt)
        return try increase.execute(on: root, journal: journal, wantsInfo: wantsInfo, target: counter, versionVector: versionVector)
      }
      switch operand {
      case .integer(1), .long(1): break
      default: throw YorkieError(.typeMismatch, "a deduplicating counter only counts by 1, not by \(operand)")
      }
      if let change = counter.count(actor) {
        journal.append(.counter(counter, .register(index: change.index, register: change.oldRegister, value: change.oldValue)))
      }
      guard wantsInfo, let path = root.path(of: counter.createdAt) else { return [] }
      return [OperationInfo(type: .increase, path: path, value: operand.jsonValue)]

    case .increase(_, let operand, _):
      guard case .counter(let counter) = parent.kind else { throw mismatch(parent, expected: "a counter") }
      guard !counter.isDeduplicating else {
        throw YorkieError(.typeMismatch, "a deduplicating counter \(counter.createdAt) is increased by an actor, not by \(operand)")
      }
      let delta: Int64
      switch operand {
      case .integer(let v): delta = Int64(v)
      case .long(let v): delta = v
      default: throw YorkieError(.typeMismatch, "a counter increases by an Integer or a Long, not \(operand)")
      }
      return Operation.applyIncrease(counter, by: delta, operand: operand, root: root, journal: journal, wantsInfo: wantsInfo)
    }
  }

  /// Registers node-level garbage, remembering how to undo the registration.
  private static func register(_ pair: CRDTRoot.GCPair, in root: CRDTRoot, journal: Journal) {
    let key = CRDTRoot.GCPairKey(parent: pair.parent.createdAt, child: pair.child)
    if let previous = root.replaceGCPair(pair, key: key) { journal.append(.root(.restoreGCPair(previous))) } else { journal.appendUnregister(key, parent: pair.parent) }
  }

  /// Pieces split off a tombstone are tombstones too, and attribute tombstones are copied into
  /// both halves of a split: each is garbage of its own (Yorkie counts them one by one).
  private static func registerSplitGarbage(of text: CRDTText, in root: CRDTRoot, journal: Journal) {
    for handle in text.splitGarbage {
      let node = text.node(handle)
      if node.isRemoved { root.noteTextGarbage(text) }
      for entry in text.attributes(of: handle)?.entries ?? [] where entry.isRemoved {
        register(CRDTRoot.GCPair(parent: text, child: .textAttribute(node.id, entry.key), removedAt: entry.updatedAt, handle: handle), in: root, journal: journal)
      }
    }
  }

  private var kindName: String {
    switch self {
    case .set: return "Set"
    case .add: return "Add"
    case .move: return "Move"
    case .remove: return "Remove"
    case .arraySet: return "ArraySet"
    case .increase: return "Increase"
    case .edit: return "Edit"
    case .style: return "Style"
    case .restoreEdit: return "Edit"
    case .dedupIncrease: return "Increase"
    }
  }

  private func mismatch(_ element: CRDTElement, expected: String) -> YorkieError {
    YorkieError(.typeMismatch, "\(kindName) needs \(expected), but \(element.createdAt) is \(type(of: element))")
  }
}
