/// The state of one `Document.update` call: it issues tickets, executes each operation as soon
/// as a proxy builds it, and collects the operations into the change it will record.
package final class UpdateContext {
  package let root: CRDTRoot
  package let journal: Journal
  /// The ID the recorded change will have if it carries operations.
  package let nextID: ChangeID
  /// Whether the operations are described for events.
  package let describes: Bool
  /// How the update's operations run: ``ExecutionMode/local(describing:)``, describing them
  /// when someone listens. Built where it is used rather than stored: a stored enum whose
  /// remote case holds a vector is copied with a call that retains, and the compiler cannot
  /// fold it to `describes` (`counter_10000` took 0.18 ms instead of 0.15 ms).
  @inline(__always) package var mode: ExecutionMode {
    replaysHistory ? .undoRedo(describing: describes) : .local(describing: describes)
  }
  /// Whether the operations are an undo or a redo (``ExecutionMode/undoRedo(describing:)``).
  package let replaysHistory: Bool
  /// Whether the operations are captured for the history (see ``HistoryCapture``).
  package let recordsHistory: Bool
  #if CRDT_INTERNAL_CHECKS
  /// What the history needs beyond the operations, every access checked at run time (see the
  /// unchecked declaration below).
  private var historyRecording = HistoryRecording()
  #else
  /// What the history needs beyond the operations (captures by operation index, empty for
  /// typing; ArraySets' replaced elements; presence), taken whole at the end
  /// (``takeHistoryRecording(into:)``). Not checked at run time, under the invariant stated on
  /// ``CRDTElement`` (its methods call nothing that reaches the context); the build with
  /// `CRDT_INTERNAL_CHECKS` checks every access, and `.ci/run` runs the suites in it under
  /// AddressSanitizer. Measured: `history_interleaved` (Benchmarks/history.md).
  @exclusivity(unchecked) private var historyRecording = HistoryRecording()
  #endif
  /// The capture of the update's first operation when it is a keystroke's deletion, held flat
  /// (``HistoryStep/PlainRemovedRun``): moved into ``historyRecording`` ahead of any later
  /// capture (``appendCapture(_:)``), or recorded as it is when the update ends there.
  private var plainRemoval: HistoryStep.PlainRemovedRun?
  /// The text the update's first operation edits, while that edit is its only operation (a
  /// keystroke, which the history keeps as a pending keystroke: ``History/PendingKeystroke``).
  package private(set) var keystrokeText: TimeTicket?
  /// The presence keys set with `addToHistory`, with the values they had before the update.
  package var reversePresence: [String: JSONValue?]? {
    get { historyRecording.presence }
    set { historyRecording.presence = newValue }
  }
  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  @exclusivity(unchecked) package private(set) var delimiter: UInt32 = 0
  /// The first operation, and the count: a keystroke's update records one operation, which
  /// then needs no store at all.
  @exclusivity(unchecked) private var firstOperation: Operation = .increase(parentCreatedAt: .initial, value: .null, executedAt: .initial)
  @exclusivity(unchecked) package private(set) var operationCount = 0
  /// Every operation (the first included) once there are two or more.
  @exclusivity(unchecked) private var operations = OperationList.Builder()
  @exclusivity(unchecked) package private(set) var infos: [OperationInfo] = []
  /// The containers this update's operations edited, a run on one container once: the first
  /// inline (a keystroke's update edits one text and allocates nothing for this), the others
  /// in order. What the document's ``LocalEditLog`` keeps.
  package private(set) var firstEdited: CRDTElement?
  package private(set) var laterEdited: [TimeTicket] = []
  private var lastEdited: CRDTElement?
  /// False once the update has returned: proxies refuse to work after that.
  @exclusivity(unchecked) package var isActive = true
  /// The first error a non-throwing setter met; `update` throws it and rolls back.
  @exclusivity(unchecked) package private(set) var deferredError: YorkieError?

  /// - Parameter describing: whether someone listens, so that each operation is described
  ///   for events.
  ///   - recordsHistory: whether each operation captures what its reverse needs.
  ///   - replaysHistory: whether the operations are an undo or a redo.
  package init(root: CRDTRoot, journal: Journal, nextID: ChangeID, describing: Bool,
               recordsHistory: Bool = false, replaysHistory: Bool = false) {
    self.root = root
    self.journal = journal
    self.nextID = nextID
    self.describes = describing
    self.recordsHistory = recordsHistory
    self.replaysHistory = replaysHistory
  }

  /// The next ticket of this change.
  @inline(__always) package func issueTicket() -> TimeTicket {
    delimiter += 1
    return nextID.ticket(delimiter)
  }

  /// Executes a locally built operation and records it. An operation that fails changes
  /// nothing (what it did before failing is rolled back) and is not recorded, so an update that
  /// catches the error and goes on records exactly what it applied.
  package func push(_ operation: consuming Operation, target: CRDTElement) throws(YorkieError) {
    assert(target.createdAt == operation.parentCreatedAt, "a local operation targets the element its proxy holds")
    let savepoint = journal.savepoint(root)
    var before = recordsHistory ? operation.captureBeforeExecution(target: target) : nil
    switch operation {
    case .treeEdit, .treeStyle:
      // Set here rather than once per update: typing pays no vector copy.
      root.ownChangeVector = nextID.versionVector
    default:
      break
    }
    let result: [OperationInfo]
    var traced: HistoryCapture? = nil
    do {
      if recordsHistory, case .treeEdit(let edit) = operation {
        // A tree edit says itself what its reverse needs (the siblings a removed node had
        // before the insertion, whether it merged): the journal alone does not tell.
        (result, traced) = try Operation.executeTreeEditForHistory(on: target, edit, root: root, journal: journal, mode: mode)
      } else {
        result = try operation.execute(on: root, journal: journal, mode: mode, target: target)
      }
    } catch {
      journal.rollBack(to: savepoint, root)
      throw error
    }
    if describes { infos.append(contentsOf: result) }
    if recordsHistory {
      if let capture = before.take() ?? traced.take() ?? operation.captureAfterExecution(journal: journal, since: savepoint, target: target) {
        appendCapture(HistoryStep.IndexedCapture(index: operationCount, capture: capture))
        if case .arraySet(_, let createdAt, let value, _) = operation {
          historyRecording.replacedElements.append(HistoryRecording.ReplacedElement(old: createdAt, new: value.createdAt))
        }
      }
    }
    noteEdited(target)
    record(operation)
  }

  /// Executes a reverse operation of an undo or redo (already restamped), unless what it
  /// targets is gone or removed (Yorkie skips it then): a reverse that no longer applies is
  /// left out of the change. Returns the operation as recorded, nil when it was left out.
  package func pushReverse(_ operation: Operation) -> Operation? {
    guard root.isLive(operation.parentCreatedAt), let target = root.element(operation.parentCreatedAt),
      !operation.targetsRemovedElement(in: target) else { return nil }
    var operation = operation
    // An Add or a Move back names the position the element followed then, which may have died
    // since: a peer that already purged it could not apply the change. The nearest live
    // position before it stands in (every replica keeps live positions).
    if case .array(let array) = target.kind {
      switch operation {
      case .add(let parent, let previous, let value, let executedAt):
        guard let anchor = array.liveAnchor(atOrBefore: previous) else { return nil }
        operation = .add(parentCreatedAt: parent, previousCreatedAt: anchor, value: value, executedAt: executedAt)
      case .move(let parent, let previous, let createdAt, let executedAt):
        guard let anchor = array.liveAnchor(atOrBefore: previous) else { return nil }
        operation = .move(parentCreatedAt: parent, previousCreatedAt: anchor, createdAt: createdAt, executedAt: executedAt)
      default:
        break
      }
    }
    do {
      try push(operation, target: target)
      return operation
    } catch {
      return nil
    }
  }

  /// Notes that an operation edited `container` (see ``firstEdited``): a pointer comparison
  /// when the update keeps editing one container.
  @inline(__always) private func noteEdited(_ container: CRDTElement) {
    if container === lastEdited { return }
    lastEdited = container
    if firstEdited == nil { firstEdited = container } else { laterEdited.append(container.createdAt) }
  }

  /// Sets a fresh primitive under `key` in `object` and records the Set: what ``push(_:target:)``
  /// does for it, without building the operation first and taking it apart again.
  @inline(__always) package func pushSet(_ object: CRDTObject, _ key: String, _ element: CRDTPrimitive) throws(YorkieError) {
    // The capture reads the value the Set replaces, so it is taken before the Set runs: built
    // straight into the list (a capture held aside was copied into it through its outlined
    // copy and then destroyed, per Set: Benchmarks/history.md), and taken back if the Set fails.
    if recordsHistory {
      appendCapture(HistoryStep.IndexedCapture(index: operationCount, capture: .replaced(object.get(key))))
    }
    let result: [OperationInfo]
    do {
      result = try Operation.applySet(object, key, element, executedAt: element.createdAt, root: root, journal: journal, mode: mode)
    } catch {
      if recordsHistory { historyRecording.removeLastCapture() }
      throw error
    }
    if describes { infos.append(contentsOf: result) }
    noteEdited(object)
    record(.set(parentCreatedAt: object.createdAt, key: key, value: OperationValue(adopting: element), executedAt: element.createdAt), knownOther: true)
  }

  /// Inserts a fresh primitive into `array` after the position `anchor` (which exists) and
  /// records the Add, as ``pushSet(_:_:_:)`` does for a Set.
  /// `anchorHint` is the anchor's handle when the caller knows it (checked before use).
  @inline(__always) package func pushAdd(_ array: CRDTArray, _ element: CRDTPrimitive, after anchor: TimeTicket, anchorHint: Int32 = -1) {
    let result = Operation.applyAdd(array, element, after: anchor, executedAt: element.createdAt, anchorHint: anchorHint,
                                    root: root, journal: journal, mode: mode)
    if describes { infos.append(contentsOf: result) }
    noteEdited(array)
    record(.add(parentCreatedAt: array.createdAt, previousCreatedAt: anchor, value: OperationValue(adopting: element), executedAt: element.createdAt), knownOther: true)
  }

  /// Adds to a plain counter and records the Increase, as ``pushSet(_:_:_:)`` does for a Set.
  @inline(__always) package func pushIncrease(_ counter: CRDTCounter, by delta: Int64, operand: PrimitiveValue) {
    let result = Operation.applyIncrease(counter, by: delta, operand: operand, root: root, journal: journal, mode: mode)
    if describes { infos.append(contentsOf: result) }
    noteEdited(counter)
    record(.increase(parentCreatedAt: counter.createdAt, value: operand, executedAt: issueTicket()), knownOther: true)
  }

  /// Replaces the visible range `range` of `text` (named by `from` and `to`) with `content`
  /// and records the Edit, as ``pushSet(_:_:_:)`` does for a Set.
  @inline(__always) package func pushEdit(_ text: CRDTText, from: TextPosition, to: TextPosition, range: (Int, Int),
                                          content: String, attributes: [String: String]?) throws(YorkieError) {
    let ticket = issueTicket()
    let savepoint = journal.savepoint(root)
    let result: Operation.AppliedEdit
    do {
      result = try Operation.applyEdit(text, from: from, to: to, content: content, attributes: attributes, executedAt: ticket,
                                       knownRange: range, root: root, journal: journal, mode: mode)
    } catch {
      journal.rollBack(to: savepoint, root)
      throw error
    }
    if describes { infos.append(contentsOf: result.infos) }
    if recordsHistory, from != to {
      if operationCount == 0, let piece = result.soleRemovedPiece, let run = HistoryStep.PlainRemovedRun(piece: piece, in: text) {
        #if CRDT_INTERNAL_CHECKS
        let general = Operation.removedText(in: journal, since: savepoint)
        guard case .removedRun(let expected)? = general, case .removedRun(let flat) = run.capture, expected == flat else {
          preconditionFailure("the flat capture \(run) of a keystroke's deletion differs from the journal's: \(String(describing: general))")
        }
        #endif
        plainRemoval = run
      } else if let removed = Operation.removedText(in: journal, since: savepoint) {
        appendCapture(HistoryStep.IndexedCapture(index: operationCount, capture: removed))
      }
    }
    noteEdited(text)
    if operationCount == 0 {
      if recordsHistory { keystrokeText = text.createdAt }
      record(.edit(parentCreatedAt: text.createdAt, from: from, to: to, content: content, attributes: attributes, executedAt: ticket))
    } else {
      // Stored in parts: the builder packs them without building a TextEdit.
      moveFirstIntoBuilder()
      operations.appendEdit(parentCreatedAt: text.createdAt, from: from, to: to, content: content, attributes: attributes,
                            executedAt: ticket)
      operationCount += 1
    }
  }

  /// A fresh primitive for `value`, with the next ticket; nil for a container (which needs a
  /// snapshot). Throws before issuing a ticket when the value cannot be stored.
  @inline(__always) package func primitiveElement(of value: JSONValue) throws(YorkieError) -> CRDTPrimitive? {
    let primitive: PrimitiveValue
    switch value {
    case .null: primitive = .null
    case .bool(let b): primitive = .bool(b)
    case .integer(let i): primitive = .integer(i)
    case .long(let l): primitive = .long(l)
    case .double(let d):
      guard d.isFinite else { throw YorkieError(.invalidNumber, "a document cannot hold the double \(d)") }
      primitive = .double(d)
    case .string(let s): primitive = .string(s)
    case .bytes(let b): primitive = .bytes(b)
    case .date(let d): primitive = .date(try PrimitiveValue.milliseconds(d))
    case .array, .object: return nil
    }
    return CRDTPrimitive(primitive, createdAt: issueTicket())
  }

  /// Records an executed operation. `knownOther` says the caller knows it is not a text edit
  /// (the builder then skips checking its kind).
  @inline(__always) private func record(_ operation: consuming Operation, knownOther: Bool = false) {
    if operationCount == 0 {
      firstOperation = operation
    } else {
      moveFirstIntoBuilder()
      if knownOther { operations.append(other: operation) } else { operations.append(operation) }
    }
    operationCount += 1
  }

  /// Before the second operation goes into the builder: the first, held inline, goes first.
  @inline(__always) private func moveFirstIntoBuilder() {
    if operationCount == 1 {
      operations.append(firstOperation)
      keystrokeText = nil
    }
  }

  /// Appends the capture of the operation being recorded, after the flat capture of the
  /// update's first operation when it is held apart (captures stay in operation order).
  @inline(__always) private func appendCapture(_ indexed: consuming HistoryStep.IndexedCapture) {
    if let run = plainRemoval.take() { historyRecording.append(HistoryStep.IndexedCapture(index: 0, capture: run.capture)) }
    historyRecording.append(indexed)
  }

  /// Whether the update collected anything for its undo step besides its operations and the
  /// flat capture of a keystroke's deletion (typing collects nothing else: its step is
  /// recorded without taking a recording, see ``takePlainRemoval()``).
  package var hasHistoryRecording: Bool { !historyRecording.isEmpty }

  /// The flat capture of the update's one deletion, moved out (see ``hasHistoryRecording``).
  package func takePlainRemoval() -> HistoryStep.PlainRemovedRun? { plainRemoval.take() }

  /// Swaps what the update collected for its undo step with `recording` (empty): moved out in
  /// one access, no copy of it made or destroyed. A flat capture still held apart goes in
  /// first (no other capture followed it).
  package func takeHistoryRecording(into recording: inout HistoryRecording) {
    if let run = plainRemoval.take() { historyRecording.append(HistoryStep.IndexedCapture(index: 0, capture: run.capture)) }
    swap(&recording, &historyRecording)
  }

  /// The operations recorded, moved out of the context (which is left with none).
  package func takeOperations() -> OperationList {
    defer { operationCount = 0 }
    if operationCount == 1 {
      var taken = Operation.increase(parentCreatedAt: .initial, value: .null, executedAt: .initial)
      swap(&taken, &firstOperation)
      return OperationList(single: taken)
    }
    var taken = OperationList.Builder()
    swap(&taken, &operations)
    return OperationList(taken)
  }

  /// Throws unless the update that created a proxy is still running.
  @inline(__always) package func ensureActive() throws(YorkieError) {
    guard isActive else {
      throw YorkieError(.proxyExpired, "a proxy was used after the update that handed it out returned")
    }
  }

  /// Remembers the first error of a setter that cannot throw.
  package func record(_ error: YorkieError) {
    if deferredError == nil { deferredError = error }
  }

  /// The value of a new element for `value`: a fresh primitive element (which the local
  /// execution adopts), or a snapshot of a container with tickets for everything inside it.
  @inline(__always) package func operationValue(of value: JSONValue) throws(YorkieError) -> OperationValue {
    if let element = try primitiveElement(of: value) { return OperationValue(adopting: element) }
    return OperationValue(try snapshot(of: value))
  }

  /// Describes `value` as a new element, issuing tickets for it and everything inside it
  /// (container first, then members in order, as the JS SDK does).
  package func snapshot(of value: JSONValue) throws(YorkieError) -> ElementSnapshot {
    let meta = ElementSnapshot.Meta(createdAt: issueTicket())
    switch value {
    case .null: return .primitive(.null, meta)
    case .bool(let b): return .primitive(.bool(b), meta)
    case .integer(let i): return .primitive(.integer(i), meta)
    case .long(let l): return .primitive(.long(l), meta)
    case .double(let d):
      guard d.isFinite else { throw YorkieError(.invalidNumber, "a document cannot hold the double \(d)") }
      return .primitive(.double(d), meta)
    case .string(let s): return .primitive(.string(s), meta)
    case .bytes(let b): return .primitive(.bytes(b), meta)
    case .date(let d): return .primitive(.date(try PrimitiveValue.milliseconds(d)), meta)
    case .array(let items):
      var nodes: [ElementSnapshot.ArrayNode] = []
      nodes.reserveCapacity(items.count)
      for item in items { nodes.append(ElementSnapshot.ArrayNode(element: try snapshot(of: item))) }
      return .array(nodes, meta)
    case .object(let object):
      var members: [(key: String, value: ElementSnapshot)] = []
      for member in object.members {
        try JSONObject.validate(key: member.key)
        // Placed at its creation (Yorkie's CRDTObject.create puts each member of a literal in
        // with ElementRHT.set, which gives it a movedAt): the document size counts that ticket,
        // as it counts the placement of a member set on its own, and the JS SDK sends it.
        members.append((key: member.key, value: try snapshot(of: member.value).placedAtCreation()))
      }
      return .object(members, meta)
    }
  }

  /// Checks a value before any ticket is issued for it.
  package static func validate(_ value: JSONValue) throws(YorkieError) {
    switch value {
    case .double(let d):
      guard d.isFinite else { throw YorkieError(.invalidNumber, "a document cannot hold the double \(d)") }
    case .date(let d):
      _ = try PrimitiveValue.milliseconds(d)
    case .array(let items):
      for item in items { try validate(item) }
    case .object(let object):
      for member in object.members {
        try JSONObject.validate(key: member.key)
        try validate(member.value)
      }
    default: break
    }
  }
}
