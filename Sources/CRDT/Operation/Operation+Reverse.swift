/// Undo and redo (issue 24): what an operation must read while it runs so that it can be
/// reversed (``captureBeforeExecution(target:)``, ``captureAfterExecution(records:)``), its
/// reverse (``reverse(capture:text:)``), and a reverse made into an operation of a new change
/// (``restamped(_:issue:resolve:)``). Each is an exhaustive switch with no `default`: a new
/// operation kind does not compile until it says how it is reversed.
extension Operation {
  // MARK: Capturing

  /// What the reverse needs from the state before the operation runs on `target` (nil: nothing,
  /// or nothing until it ran).
  package func captureBeforeExecution(target: CRDTElement) -> HistoryCapture? {
    switch self {
    case .set(_, let key, _, _):
      guard case .object(let object) = target.kind else { return nil }
      return HistoryCapture.replaced(object.get(key))
    case .remove(_, let createdAt, _):
      switch target.kind {
      case .object(let object):
        guard let element = object.element(createdAt: createdAt), !element.isRemoved, let key = object.key(of: createdAt) else {
          return .nothing
        }
        return .removedMember(key: key, value: ElementSnapshot(element))
      case .array(let array):
        guard let element = array.element(createdAt: createdAt), !element.isRemoved,
          let anchor = array.previousLivePositionID(before: createdAt) else { return .nothing }
        return .removedElement(anchor: anchor, value: ElementSnapshot(element))
      case .primitive, .text, .counter, .tree:
        return nil
      }
    case .move(_, _, let createdAt, _):
      guard case .array(let array) = target.kind, let anchor = array.previousLivePositionID(before: createdAt) else { return nil }
      return .previousAnchor(anchor)
    case .arraySet(_, let createdAt, _, _):
      guard case .array(let array) = target.kind, let element = array.element(createdAt: createdAt), !element.isRemoved else {
        return .nothing
      }
      return .replacedElement(ElementSnapshot(element))
    case .add, .increase, .edit, .style, .restoreEdit, .dedupIncrease, .treeEdit, .treeStyle:
      return nil
    }
  }

  /// What the reverse needs from what the operation did on `target`, read from the records it
  /// journaled since `savepoint`: the pieces a text edit removed, the attributes a text or tree
  /// style replaced. Nil for the other kinds (a tree edit reads its own trace, see
  /// ``executeTreeEditForHistory(on:_:root:journal:mode:)``).
  package func captureAfterExecution(journal: Journal, since savepoint: Journal.Savepoint, target: CRDTElement) -> HistoryCapture? {
    switch self {
    case .edit:
      return Operation.removedText(in: journal, since: savepoint)
    case .restoreEdit(_, _, _, let restoreSpans, _, let retombstoneSpans, _):
      // With no spans it is a plain deletion.
      guard restoreSpans.isEmpty && retombstoneSpans.isEmpty else { return nil }
      return Operation.removedText(in: journal, since: savepoint)
    case .style(_, _, _, let attributes, let attributesToRemove, _):
      return Operation.previousStyles(in: journal, since: savepoint, keys: Array(attributes.keys) + attributesToRemove)
    case .treeStyle(let style):
      guard case .tree(let tree) = target.kind else { return nil }
      return Operation.previousTreeStyles(in: journal.treeRecords(since: savepoint, of: tree), of: tree,
                                          keys: Array(style.attributes.keys) + style.attributesToRemove)
    case .set, .add, .move, .remove, .arraySet, .increase, .dedupIncrease, .treeEdit:
      return nil
    }
  }

  /// The characters that the removal records since `savepoint` name (pieces live before: a
  /// removal record whose previous removal is nil), by identity, with their attributes; their
  /// content is read later (``HistoryCapture/RemovedRun``). One run (a keystroke's deletion,
  /// most deletions) is held inline (``HistoryCapture/removedRun(_:)``): no array to allocate,
  /// fill and free per deletion.
  package static func removedText(in journal: Journal, since savepoint: Journal.Savepoint) -> HistoryCapture? {
    var first: HistoryCapture.RemovedRun? = nil
    var runs: [HistoryCapture.RemovedRun] = []
    var count = 0
    journal.forEachRemovedPiece(since: savepoint) { text, handle in
      // The piece as stored: only its insertion's ticket is unpacked (``CRDTText/node(_:)``
      // would unpack its removal too), and attributes are read only when it has some.
      let piece = text.arena[Int(handle)]
      var attributes: [String: String]? = nil
      if piece.attributes >= 0, let stored = text.attributes(of: handle) {
        var live: [String: String] = [:]
        for entry in stored.entries where !entry.isRemoved { live[entry.key] = entry.value }
        if !live.isEmpty { attributes = live }
      }
      let run = HistoryCapture.RemovedRun(createdAt: text.unpack(piece.createdAt), start: piece.offset,
                                          end: piece.offset + piece.length, piece: handle, attributes: attributes)
      // Moved, never copied, in the one-run case.
      if count == 0 {
        first = consume run
      } else {
        if count == 1, let only = first.take() { runs.append(only) }
        runs.append(run)
      }
      count += 1
    }
    switch count {
    case 0: return nil
    case 1: return first.take().map { .removedRun($0) }
    default: return .removedText(runs)
    }
  }

  /// The restore spans that bring back the characters a deletion removed (`capture`'s
  /// ``HistoryCapture/removedRuns``), their content read from `text` where the step has not read
  /// it. A run whose characters cannot be read is left out: the history reads every run before
  /// garbage collection purges (``History/readRemovedContent(in:)``), so none is, and an undo
  /// that cannot restore some characters restores the others rather than failing.
  private static func restoreSpans(_ capture: HistoryCapture?, text: () -> CRDTText?) -> [RestoreSpan] {
    guard let runs = capture?.removedRuns else { return [] }
    var spans: [RestoreSpan] = []
    spans.reserveCapacity(runs.count)
    // Looked up only for a run not read yet (the replay reads them first: see
    // ``History/readRemovedContent(of:in:)``): a lookup per undone edit showed in `undo_redo`.
    var container: CRDTText? = nil
    var lookedUp = false
    for run in runs {
      if run.content == nil && !lookedUp {
        container = text()
        lookedUp = true
      }
      let span = run.restoreSpan(in: container)
      assert(span != nil, "removed characters \(run.createdAt) \(run.start)..<\(run.end) were purged before the history read them")
      if let span { spans.append(span) }
    }
    return spans
  }

  /// Each restyled live piece, by identity, with the values `keys` had on it before.
  private static func previousStyles(in journal: Journal, since savepoint: Journal.Savepoint, keys: [String]) -> HistoryCapture? {
    var runs: [HistoryCapture.StyleRun] = []
    var seen = Set<Int32>()
    journal.forEachTextRecord(since: savepoint) { text, record in
      guard case .attributes(let handle, let before) = record, seen.insert(handle).inserted, !text.isRemoved(handle) else { return }
      let node = text.node(handle)
      var previous: [String: String?] = [:]
      for key in keys {
        previous[key] = .some(before?.entries.first { $0.key == key && !$0.isRemoved }?.value)
      }
      runs.append(HistoryCapture.StyleRun(createdAt: node.id.createdAt, start: node.id.offset, end: node.id.offset + node.length,
                                          previous: previous))
    }
    return runs.isEmpty ? nil : .previousStyles(runs)
  }

  /// The Styles that put `runs` back, one per live piece of each run in `text` now: from the
  /// end of the live text before the piece (the head at the start) to the end of the piece, or
  /// of the run when the piece goes on past it. Positions name only live pieces, as a local
  /// Style's do: a removed piece may be purged on a peer before the undo reaches it (and here:
  /// a position on the piece left of the run, taken when the style ran, named a piece garbage
  /// collection could purge, which made the undo a no-op). A piece removed since is left as it is.
  package static func reverseStyle(_ parent: TimeTicket, runs: [HistoryCapture.StyleRun], text: CRDTText?) -> [Operation] {
    guard let text else { return [] }
    var operations: [Operation] = []
    for run in runs {
      var set: [String: String] = [:]
      var unset: [String] = []
      for (key, value) in run.previous.sorted(by: { $0.key < $1.key }) {
        if let value { set[key] = value } else { unset.append(key) }
      }
      for piece in text.piecesOverlapping(run.createdAt, run.start, run.end) where !text.isRemoved(piece) {
        let node = text.node(piece)
        let startInPiece = max(run.start - node.id.offset, 0)
        let endInPiece = min(run.end - node.id.offset, node.length)
        let from = startInPiece > 0 ? TextPosition(id: node.id, relativeOffset: startInPiece)
          : text.position(at: text.visibleIndex(of: piece))
        guard let from else { continue }
        operations.append(.style(parentCreatedAt: parent, from: from, to: TextPosition(id: node.id, relativeOffset: endInPiece),
                                 attributes: set, attributesToRemove: unset, executedAt: .initial))
      }
    }
    return operations
  }

  // MARK: Reversing

  /// The operations that undo this one, to run in order, with placeholder tickets
  /// (``restamped(_:issue:resolve:)`` gives them the undo change's). Empty when it has none.
  /// `text` finds a text as it is now (a Style's reverse positions are taken from it, and the
  /// characters a deletion removed are read from it when the step has not read them yet).
  package func reverse(capture: HistoryCapture?, text: (TimeTicket) -> CRDTText?) -> [Operation] {
    let none = TimeTicket.initial
    switch self {
    case .set(let parent, let key, let value, _):
      if case .replacedValue(let previous?) = capture {
        return [.set(parentCreatedAt: parent, key: key, value: OperationValue(previous), executedAt: none)]
      }
      if case .replacedPrimitive(let previous, let createdAt) = capture {
        // Placed anew by the Set that restores it: its old placement ticket does not matter.
        return [.set(parentCreatedAt: parent, key: key, value: OperationValue(.primitive(previous, ElementSnapshot.Meta(createdAt: createdAt))),
                     executedAt: none)]
      }
      return [.remove(parentCreatedAt: parent, createdAt: value.createdAt, executedAt: none)]
    case .add(let parent, _, let value, _):
      return [.remove(parentCreatedAt: parent, createdAt: value.createdAt, executedAt: none)]
    case .move(let parent, _, let createdAt, _):
      guard case .previousAnchor(let anchor) = capture else { return [] }
      return [.move(parentCreatedAt: parent, previousCreatedAt: anchor, createdAt: createdAt, executedAt: none)]
    case .remove(let parent, _, _):
      switch capture {
      case .removedMember(let key, let value):
        return [.set(parentCreatedAt: parent, key: key, value: OperationValue(value), executedAt: none)]
      case .removedElement(let anchor, let value):
        return [.add(parentCreatedAt: parent, previousCreatedAt: anchor, value: OperationValue(value), executedAt: none)]
      default:
        return []
      }
    case .arraySet(let parent, _, let value, _):
      guard case .replacedElement(let previous) = capture else { return [] }
      return [.arraySet(parentCreatedAt: parent, createdAt: value.createdAt, value: OperationValue(previous), executedAt: none)]
    case .increase(let parent, let operand, _):
      switch operand {
      case .integer(let v): return [.increase(parentCreatedAt: parent, value: .integer(0 &- v), executedAt: none)]
      case .long(let v): return [.increase(parentCreatedAt: parent, value: .long(0 &- v), executedAt: none)]
      default: return []
      }
    case .edit(let edit):
      let removed = Operation.restoreSpans(capture) { text(edit.parentCreatedAt) }
      let count = Int32(edit.content.utf16.count)
      let inserted = count == 0 ? [] : [RestoreSpan(createdAt: edit.executedAt, start: 0, end: count, content: edit.content,
                                                    attributes: edit.attributes ?? [:])]
      if removed.isEmpty && inserted.isEmpty { return [] }
      return [.restoreEdit(parentCreatedAt: edit.parentCreatedAt, from: edit.from, to: edit.from, restoreSpans: removed,
                           restoreMode: .restore, retombstoneSpans: inserted, executedAt: none)]
    case .restoreEdit(let parent, let from, _, let restoreSpans, let restoreMode, let retombstoneSpans, _):
      if restoreSpans.isEmpty && retombstoneSpans.isEmpty {
        let spans = Operation.restoreSpans(capture) { text(parent) }
        guard !spans.isEmpty else { return [] }
        return [.restoreEdit(parentCreatedAt: parent, from: from, to: from, restoreSpans: spans, restoreMode: .restore,
                             retombstoneSpans: [], executedAt: none)]
      }
      let flipped: RestoreMode = restoreMode == .retombstone ? .restore : .retombstone
      return [.restoreEdit(parentCreatedAt: parent, from: from, to: from, restoreSpans: restoreSpans, restoreMode: flipped,
                           retombstoneSpans: retombstoneSpans, executedAt: none)]
    case .style(let parent, _, _, _, _, _):
      guard case .previousStyles(let runs) = capture else { return [] }
      return Operation.reverseStyle(parent, runs: runs, text: text(parent))
    case .dedupIncrease:
      // A deduplicating counter counts actors in HyperLogLog registers, which cannot forget
      // one: there is nothing to undo (Yorkie's dedup Increase has no reverse either).
      return []
    case .treeEdit(let edit):
      return Operation.reverseTreeEdit(edit, capture: capture)
    case .treeStyle(let style):
      guard case .previousTreeStyles(let runs) = capture else { return [] }
      return Operation.reverseTreeStyle(style, runs: runs)
    }
  }

  /// A reverse operation as an operation of a new change: `issue` gives its ticket (and the
  /// tickets of every element it creates), `resolve` the ticket an element named by an older
  /// step lives on as (see ``History/resolve(_:)``).
  package func restamped(_ issue: () -> TimeTicket, resolve: (TimeTicket) -> TimeTicket) -> Operation {
    let ticket = issue()
    switch self {
    case .set(let parent, let key, let value, _):
      // As Yorkie: a Set puts the element back under the identity it had (the copy replaces its
      // tombstone, see `Operation+Set.swift`), so every replica's steps and peers' operations
      // that name it still find it.
      // Under the identities the element and those below it have now, when a later undo that
      // copied the container holding it (an ArraySet's, every element with a new ticket)
      // re-created them: restored under its first ticket, the element sat in the copy beside
      // its re-created tombstone while the original stayed in the old container, twice in the
      // document (fuzz seed 3643284: a snapshot of it did not load). An element not re-created
      // keeps its tickets and those below it: restoring it takes out its tombstone with
      // everything below it (`Operation+Set.swift`), and an alias below it may name what took
      // an array slot, not a copy.
      var restored = value.snapshot.restoredCopy()
      if resolve(restored.meta.createdAt) != restored.meta.createdAt { restored = restored.resolvingIdentities(resolve) }
      return .set(parentCreatedAt: resolve(parent), key: key, value: OperationValue(restored), executedAt: ticket)
    case .add(let parent, let previous, let value, _):
      return .add(parentCreatedAt: resolve(parent), previousCreatedAt: resolve(previous),
                  value: OperationValue(value.snapshot.reticketed(root: ticket, issue)), executedAt: ticket)
    case .move(let parent, let previous, let createdAt, _):
      return .move(parentCreatedAt: resolve(parent), previousCreatedAt: resolve(previous), createdAt: resolve(createdAt), executedAt: ticket)
    case .remove(let parent, let createdAt, _):
      return .remove(parentCreatedAt: resolve(parent), createdAt: resolve(createdAt), executedAt: ticket)
    case .arraySet(let parent, let createdAt, let value, _):
      return .arraySet(parentCreatedAt: resolve(parent), createdAt: resolve(createdAt),
                       value: OperationValue(value.snapshot.reticketed(root: ticket, issue)), executedAt: ticket)
    case .increase(let parent, let value, _):
      return .increase(parentCreatedAt: resolve(parent), value: value, executedAt: ticket)
    case .edit(let edit):
      return .edit(parentCreatedAt: resolve(edit.parentCreatedAt), from: edit.from, to: edit.to, content: edit.content,
                   attributes: edit.attributes, executedAt: ticket)
    case .style(let parent, let from, let to, let attributes, let attributesToRemove, _):
      return .style(parentCreatedAt: resolve(parent), from: from, to: to, attributes: attributes,
                    attributesToRemove: attributesToRemove, executedAt: ticket)
    case .restoreEdit(let parent, let from, let to, let restoreSpans, let restoreMode, let retombstoneSpans, _):
      return .restoreEdit(parentCreatedAt: resolve(parent), from: from, to: to, restoreSpans: restoreSpans,
                          restoreMode: restoreMode, retombstoneSpans: retombstoneSpans, executedAt: ticket)
    case .dedupIncrease(let parent, let value, let actor, _):
      return .dedupIncrease(parentCreatedAt: resolve(parent), value: value, actor: actor, executedAt: ticket)
    case .treeEdit(let edit):
      // A reverse carries no contents (it revives, removes, splits or deletes a boundary): the
      // split levels take the tickets after the edit's, as a local edit issues them.
      let splitTickets = (0..<edit.splitLevel).map { _ in issue() }
      return .treeEdit(TreeEditPayload(parentCreatedAt: resolve(edit.parentCreatedAt), from: edit.from, to: edit.to,
                                       contents: edit.contents, splitLevel: edit.splitLevel, executedAt: ticket,
                                       splitTickets: splitTickets, restoreSpans: edit.restoreSpans, restoreMode: edit.restoreMode,
                                       retombstoneSpans: edit.retombstoneSpans))
    case .treeStyle(let style):
      return .treeStyle(TreeStylePayload(parentCreatedAt: resolve(style.parentCreatedAt), from: style.from, to: style.to,
                                         attributes: style.attributes, attributesToRemove: style.attributesToRemove, executedAt: ticket))
    }
  }

  /// The elements an executed reverse operation re-created under a new ticket, for the
  /// history's aliases: a Set or an Add restores a removed value as a new element, an ArraySet
  /// puts an old value back as a new element in place of the current one. `old` is the
  /// ticket older steps name. Every element below the value is re-created too: an older
  /// operation of the same step (an ArraySet inside an array the step then replaced) names it.
  package func recreated(from template: Operation) -> [(old: TimeTicket, new: TimeTicket)] {
    switch (template, self) {
    case (.set(_, _, let old, _), .set(_, _, let new, _)), (.add(_, _, let old, _), .add(_, _, let new, _)):
      return [(old.createdAt, new.createdAt)] + old.snapshot.nestedTickets(pairedWith: new.snapshot)
    case (.arraySet(_, _, let old, _), .arraySet(_, let replaced, let new, _)):
      return [(old.createdAt, new.createdAt), (replaced, new.createdAt)] + old.snapshot.nestedTickets(pairedWith: new.snapshot)
    default:
      return []
    }
  }
}

extension Operation {
  /// Whether this reverse operation would act on an element a peer removed (or replaced)
  /// meanwhile: an ArraySet would then bring back a second value beside the peer's, a Remove
  /// would change nothing, and a Move would move what nobody sees (and name, to peers that
  /// already purged it, an element they no longer have), so the undo skips them (as Yorkie does:
  /// with nothing applied, an undo sends no change and pushes no redo step), as it skips
  /// operations on removed containers.
  package func targetsRemovedElement(in target: CRDTElement) -> Bool {
    switch (self, target.kind) {
    case (.arraySet(_, let createdAt, _, _), .array(let array)), (.remove(_, let createdAt, _), .array(let array)),
      (.move(_, _, let createdAt, _), .array(let array)):
      return array.element(createdAt: createdAt)?.isRemoved ?? true
    case (.remove(_, let createdAt, _), .object(let object)):
      return object.element(createdAt: createdAt)?.isRemoved ?? true
    default:
      return false
    }
  }
}

extension HistoryCapture {
  /// What a Set that replaces `value` (nil: the key had none) captures.
  @inline(__always) package static func replaced(_ value: CRDTElement?) -> HistoryCapture {
    guard let value else { return .replacedValue(nil) }
    if case .primitive(let primitive) = value.kind { return .replacedPrimitive(primitive.value, createdAt: primitive.createdAt) }
    return .replacedValue(ElementSnapshot(value))
  }
}

extension ElementSnapshot {
  /// This value as a Set restores it: the same identities all the way down, tombstones below it
  /// included (they are garbage of the copy, as they were of the original), but not removed itself.
  package func restoredCopy() -> ElementSnapshot {
    with(Meta(createdAt: meta.createdAt, movedAt: meta.movedAt))
  }

  /// This value with the ticket of every element in it, and of every array position, passed
  /// through `resolve` (the history's aliases: what a copy re-created them as); the moves and
  /// removals kept.
  package func resolvingIdentities(_ resolve: (TimeTicket) -> TimeTicket) -> ElementSnapshot {
    let resolved = with(Meta(createdAt: resolve(meta.createdAt), movedAt: meta.movedAt, removedAt: meta.removedAt))
    switch resolved {
    case .object(let members, let meta):
      return .object(members.map { (key: $0.key, value: $0.value.resolvingIdentities(resolve)) }, meta)
    case .array(let nodes, let meta):
      return .array(nodes.map { node in
        ArrayNode(element: node.element?.resolvingIdentities(resolve), positionID: node.positionID.map(resolve),
                  positionMovedAt: node.positionMovedAt, positionRemovedAt: node.positionRemovedAt)
      }, meta)
    default:
      return resolved
    }
  }

  /// The ticket of each element below this value paired with the ticket of its copy in
  /// `copy`, which ``reticketed(root:_:)`` made of this value (same members, same order).
  ///
  /// Removed elements (and what they hold) are left out: their copies are removed too, so a
  /// reverse operation that named one would be skipped on the copy as on the original, and an
  /// alias to a removed copy would hide where the element lives on. A tombstone's element may
  /// have been re-created by an earlier undo, its new ticket aliased; the copy of a container
  /// holding both then paired the tombstone with its removed copy, replacing that alias, and an
  /// undo that added to the element was skipped (editing fuzz seed 1597760).
  package func nestedTickets(pairedWith copy: ElementSnapshot) -> [(old: TimeTicket, new: TimeTicket)] {
    var pairs: [(old: TimeTicket, new: TimeTicket)] = []
    func walk(_ original: ElementSnapshot, _ copy: ElementSnapshot) {
      switch (original, copy) {
      case (.object(let members, _), .object(let copies, _)):
        for (member, copied) in zip(members, copies) where member.value.meta.removedAt == nil {
          pairs.append((member.value.meta.createdAt, copied.value.meta.createdAt))
          walk(member.value, copied.value)
        }
      case (.array(let nodes, _), .array(let copies, _)):
        for (element, copied) in zip(nodes.compactMap(\.element), copies.compactMap(\.element)) where element.meta.removedAt == nil {
          pairs.append((element.meta.createdAt, copied.meta.createdAt))
          walk(element, copied)
        }
      default:
        break
      }
    }
    walk(self, copy)
    return pairs
  }

  /// A copy of this value as a new element: the value gets `root`, every element below it a
  /// ticket from `issue`. The copy has what the value had: its tombstones (removed again, under
  /// a new ticket, so they are garbage of the copy as they were of the value) and its placement
  /// tickets, so that the copy costs what the value cost (Yorkie re-creates an array element
  /// from a deep copy). Text pieces and tree nodes keep their identities (they are unique
  /// within their text or tree, and older text steps name them).
  package func reticketed(root: TimeTicket, _ issue: () -> TimeTicket) -> ElementSnapshot {
    reticketed(Meta(createdAt: root, movedAt: meta.movedAt == nil ? nil : root), issue)
  }

  private func reticketed(_ meta: Meta, _ issue: () -> TimeTicket) -> ElementSnapshot {
    /// The metadata of a copied child: a new ticket, placed and removed where the child was.
    func copiedMeta(of child: Meta) -> Meta {
      let createdAt = issue()
      return Meta(createdAt: createdAt, movedAt: child.movedAt == nil ? nil : createdAt,
                  removedAt: child.removedAt == nil ? nil : issue())
    }
    switch self {
    case .primitive(let value, _): return .primitive(value, meta)
    case .counter(let value, _): return .counter(value, meta)
    case .dedupCounter(let registers, _): return .dedupCounter(registers, meta)
    case .object(let members, _):
      // New tickets in the order of the members' placements: the member of a key placed last
      // shows (`CRDTObject`, `positionedAt`), and list order is not placement order (fuzz seed
      // 7483999: a member an undo had restored, placed after a newer one that was then
      // removed, was copied first, and the removed one won the copy's key).
      func placed(_ meta: Meta) -> TimeTicket { meta.movedAt ?? meta.createdAt }
      let order = members.indices.sorted { placed(members[$0].value.meta) < placed(members[$1].value.meta) }
      var copies = [ElementSnapshot?](repeating: nil, count: members.count)
      for index in order {
        copies[index] = members[index].value.reticketed(copiedMeta(of: members[index].value.meta), issue)
      }
      return .object(members.indices.map { (key: members[$0].key, value: copies[$0]!) }, meta)
    case .array(let nodes, _):
      // Elements get new tickets; a moved element's position too. The position a moved element
      // left (dead, named by the element's old ticket) is kept, under the element's new ticket:
      // an older step's Add names it as the place after which to put an element back, and it
      // sits where the element was, not where it went (an undo after one that re-created the
      // array put the element back after the wrong neighbour). A dead position whose element
      // is gone (purged) is garbage of no copy.
      let present = Set(nodes.compactMap { $0.element?.meta.createdAt })
      var copies: [TimeTicket: ElementSnapshot] = [:]
      for node in nodes {
        guard let element = node.element else { continue }
        copies[element.meta.createdAt] = element.reticketed(copiedMeta(of: element.meta), issue)
      }
      func fresh(_ ticket: TimeTicket?) -> TimeTicket? { ticket == nil ? nil : issue() }
      return .array(nodes.compactMap { node in
        if let element = node.element, let copy = copies[element.meta.createdAt] {
          guard node.positionID != nil else { return ArrayNode(element: copy) }
          return ArrayNode(element: copy, positionID: issue(), positionMovedAt: fresh(node.positionMovedAt),
                           positionRemovedAt: fresh(node.positionRemovedAt))
        }
        guard let left = node.positionID, present.contains(left), let copy = copies[left] else { return nil }
        return ArrayNode(element: nil, positionID: copy.meta.createdAt, positionMovedAt: fresh(node.positionMovedAt),
                         positionRemovedAt: fresh(node.positionRemovedAt))
      }, meta)
    case .text(let nodes, _):
      return .text(nodes, meta)
    case .tree(let content, _):
      return .tree(content, meta)
    }
  }
}

extension CRDTRoot {
  /// Whether the element `createdAt` is in the document and neither it nor a container above
  /// it is removed: where an undo may still act (Yorkie skips a reverse operation otherwise).
  package func isLive(_ createdAt: TimeTicket) -> Bool {
    var current = registry[createdAt]
    while let entry = current {
      if entry.element.isRemoved { return false }
      guard let parent = entry.parent else { return true }
      current = registry[parent.createdAt]
    }
    return false
  }
}
