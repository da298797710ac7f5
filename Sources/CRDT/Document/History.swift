/// Whether this replica can undo and redo now: what ``Document/historyStates()`` sends so that
/// an app enables its Undo and Redo buttons without polling.
public struct HistoryState: Sendable, Equatable {
  /// Whether ``Document/undo()`` has a step to undo.
  public var canUndo: Bool
  /// Whether ``Document/redo()`` has a step to redo.
  public var canRedo: Bool

  /// Creates a state.
  public init(canUndo: Bool, canRedo: Bool) {
    self.canUndo = canUndo
    self.canRedo = canRedo
  }
}

/// The undo and redo stacks of one replica (Yorkie's `History`): at most ``maxDepth`` steps
/// each, the oldest dropped first. The history lives as long as its ``Document``: it is not
/// stored, not sent, and a snapshot that replaces the content clears it (as in Yorkie).
///
/// Every update records a step, so recording is one mutating call
/// (``recordUpdate(operations:recording:)``) that also says whether the Undo/Redo flags changed,
/// and the step is written into a slot of a ring allocated once, without an optional
/// around it (an optional step was moved and destroyed through the runtime's generic value
/// witnesses, looked up per keystroke: Benchmarks/history.md).
package struct History: Sendable {
  /// Yorkie's `MaxUndoRedoStackDepth`.
  package static let maxDepth = 50

  /// The undo stack as a ring of ``maxDepth`` slots (allocated by the first push; a slot not in
  /// use holds an empty step): pushing the 51st step overwrites the oldest without moving the
  /// others (a keystroke pushes a step; shifting 50 entries each time would show).
  ///
  /// A slot holds its step in one of two forms, which two bit sets tell apart (bit `i` for
  /// slot `i`; ``maxDepth`` fits in 64):
  /// - ``filledSlots``: the step is in ``undoRing``, whole.
  /// - ``pendingSlots``: a keystroke whose change the document has not had acknowledged yet
  ///   (``PendingKeystroke``): the step is in ``keystrokes``, and its operation is the change's,
  ///   read from the document's pending changes when the step is needed. The document hands
  ///   over the changes it is about to drop (``adoptKeystrokes(leaving:)``), and the slot's
  ///   step is then written whole. A keystroke thus writes a few words into a slot (its
  ///   change, its text, its deletion's run) instead of a step: copying the change's operation
  ///   into a slot, and releasing the operation the slot held fifty keystrokes earlier (read
  ///   from memory the cache had let go), was what the history still cost typing
  ///   (Benchmarks/history.md, seventh round).
  /// Invariants: the two sets are disjoint, and hold exactly the slots of the stack's
  /// ``undoCount`` steps; an empty step is in every other slot of ``undoRing``, and in every
  /// pending one; every pending keystroke names a change the document still holds
  /// (``Document/checkInvariants()`` checks it).
  private var undoRing: [HistoryStep] = []
  private var keystrokes: [PendingKeystroke] = []
  private var filledSlots: UInt64 = 0
  private var pendingSlots: UInt64 = 0
  private var undoStart = 0
  private(set) var undoCount = 0
  private var redoStack: [HistoryStep] = []
  /// Elements an undo or redo re-created under a new ticket (a removed member set again, an
  /// array element added again), or an ArraySet replaced: older steps still name the old
  /// ticket. Resolved when a step's reverse is built (Yorkie's `reconcileCreatedAt`, which
  /// rewrites the stacks instead). Every undo of a removal adds one, so the map is pruned to
  /// the tickets the kept steps name once it outgrows ``aliasLimit`` (``pruneAliases()``).
  private var aliases: [TimeTicket: TimeTicket] = [:]
  /// The alias count above which the next push prunes the map: twice what the last pruning
  /// kept, at least ``minimumAliasLimit``, so that the pruning (a walk over the kept steps)
  /// runs once per that many aliases added.
  private var aliasLimit = History.minimumAliasLimit
  /// The smallest ``aliasLimit``: what the map may hold before a pruning walks the steps.
  package static let minimumAliasLimit = 64
  /// The state ``Document/historyStates()`` subscribers were last sent (or would have been:
  /// it follows the stacks whether or not anyone listens).
  private var published = HistoryState(canUndo: false, canRedo: false)
  /// Whether a kept step holds removed text whose characters were not read yet
  /// (``HistoryCapture/RemovedRun``): garbage collection must read them before it purges.
  private(set) var holdsUnreadRemovals = false

  package init() {}

  package var canUndo: Bool { undoCount > 0 }
  package var canRedo: Bool { !redoStack.isEmpty }
  package var state: HistoryState { HistoryState(canUndo: canUndo, canRedo: canRedo) }
  /// The redo stack's depth (tests).
  package var redoCount: Int { redoStack.count }

  /// The state to send to ``Document/historyStates()`` subscribers, when it changed since the
  /// last one this returned; nil otherwise.
  package mutating func unpublishedState() -> HistoryState? {
    let state = self.state
    guard state != published else { return nil }
    published = state
    return state
  }

  /// Records an update that executed `operations` and collected `recording`: its step goes
  /// on the undo stack, and, when it changed the content, the redo stack is emptied (Yorkie
  /// clears it when the update has operation infos). A local ArraySet replaces its target by a
  /// new element, which older steps name by the old one: the recording's replaced elements are
  /// noted before the push, whose pruning then counts them.
  ///
  /// The step is written into its slot of the ring part by part, `recording`'s parts swapped
  /// in (it is left with the parts of the step the slot held, if any, to destroy): built as a
  /// value and passed in, the step was copied and destroyed on the way, each part retained and
  /// released, per keystroke (Benchmarks/history.md).
  ///
  /// - Returns: the new Undo/Redo state when it changed (``unpublishedState()``).
  package mutating func recordUpdate(operations: OperationList, recording: inout HistoryRecording) -> HistoryState? {
    for element in recording.replacedElements { alias(element.old, to: element.new) }
    if !operations.isEmpty, !redoStack.isEmpty { redoStack.removeAll(keepingCapacity: true) }
    pushUndo(operations: operations, recording: &recording)
    forgetAliasesIfEmpty()
    return unpublishedState()
  }

  /// Pushes the step of `operations` and `recording` on the undo stack (a redo's, or an
  /// update's), written into its slot in place (see ``recordUpdate(operations:recording:)``).
  /// A step that would change nothing is not pushed.
  package mutating func pushUndo(operations: OperationList, recording: inout HistoryRecording) {
    guard !operations.isEmpty || recording.presence != nil else { return }
    if recording.removesText { holdsUnreadRemovals = true }
    undoRing[nextFilledSlot()].replace(operations: operations, recording: &recording)
    if aliases.count > aliasLimit { pruneAliases() }
  }

  /// Pushes the step of an undo's change on the redo stack, written in place. A step that
  /// would change nothing is not pushed.
  package mutating func pushRedo(operations: OperationList, recording: inout HistoryRecording) {
    guard !operations.isEmpty || recording.presence != nil else { return }
    if recording.removesText { holdsUnreadRemovals = true }
    if redoStack.count >= History.maxDepth { redoStack.removeFirst() }
    // Its buffer is kept when a new update empties it: a series of undos after typing does
    // not grow it again from one step, copying the steps at each doubling.
    if redoStack.capacity < History.maxDepth { redoStack.reserveCapacity(History.maxDepth) }
    redoStack.append(HistoryStep())
    redoStack[redoStack.count - 1].replace(operations: operations, recording: &recording)
    if aliases.count > aliasLimit { pruneAliases() }
  }

  /// Records an update that executed `operations` and collected nothing else (typing an
  /// insertion), or only the flat capture `plainRemoval` of its one deletion (typing a
  /// deletion): as ``recordUpdate(operations:recording:)`` with that recording, without one to
  /// move in and destroy.
  package mutating func recordUpdate(operations: OperationList, plainRemoval: HistoryStep.PlainRemovedRun? = nil) -> HistoryState? {
    if !operations.isEmpty {
      if !redoStack.isEmpty { redoStack.removeAll(keepingCapacity: true) }
      if plainRemoval != nil { holdsUnreadRemovals = true }
      undoRing[nextFilledSlot()].replace(operations: operations, plainRemoval: plainRemoval)
      if aliases.count > aliasLimit { pruneAliases() }
    }
    forgetAliasesIfEmpty()
    return unpublishedState()
  }

  /// A keystroke on the undo stack while its change is pending (see ``undoRing``): the
  /// change's client sequence number, the text its edit targets, and the flat capture of its
  /// deletion if it removed text. Plain values: writing one releases nothing.
  package struct PendingKeystroke: Sendable {
    package var clientSeq: UInt32
    package var parent: TimeTicket
    package var removal: HistoryStep.PlainRemovedRun?
  }

  /// Records a keystroke: an update whose only operation is a text edit of `parent`, recorded
  /// as the change `clientSeq`, which the document holds until it is acknowledged; with the
  /// flat capture `plainRemoval` of its deletion, if any. As
  /// ``recordUpdate(operations:plainRemoval:)``, the operation read from the change later.
  package mutating func recordKeystroke(clientSeq: UInt32, parent: TimeTicket,
                                        plainRemoval: HistoryStep.PlainRemovedRun?) -> HistoryState? {
    if !redoStack.isEmpty { redoStack.removeAll(keepingCapacity: true) }
    if plainRemoval != nil { holdsUnreadRemovals = true }
    let slot = nextUndoSlot()
    let bit = UInt64(1) << UInt64(slot)
    if filledSlots & bit != 0 {
      // The oldest step, dropped: a whole step leaves the slot empty (the ring, allocated by
      // the first whole step, is touched only then).
      undoRing[slot] = HistoryStep()
      filledSlots &= ~bit
    }
    if keystrokes.isEmpty {
      keystrokes = Array(repeating: PendingKeystroke(clientSeq: 0, parent: .initial, removal: nil), count: History.maxDepth)
    }
    keystrokes[slot] = PendingKeystroke(clientSeq: clientSeq, parent: parent, removal: plainRemoval)
    pendingSlots |= bit
    if aliases.count > aliasLimit { pruneAliases() }
    forgetAliasesIfEmpty()
    return unpublishedState()
  }

  /// Writes whole the step of every pending keystroke whose change is among `changes`, which
  /// the document is about to drop (acknowledged): its operations are copied from the change.
  /// The document calls it before every drop of pending changes (the invariant of
  /// ``undoRing``). Nothing to do when no keystroke is pending.
  package mutating func adoptKeystrokes<C: BidirectionalCollection>(leaving changes: C) where C.Element == Change {
    guard pendingSlots != 0, let first = changes.first, let last = changes.last else { return }
    let range = first.id.clientSeq...last.id.clientSeq
    History.forEachSlot(in: pendingSlots) { slot in
      guard range.contains(keystrokes[slot].clientSeq),
        let operations = History.operations(of: keystrokes[slot].clientSeq, in: changes) else { return }
      fill(slot, with: operations)
    }
  }

  /// Makes pending `slot` a filled one, the step of `operations` and the keystroke's capture.
  private mutating func fill(_ slot: Int, with operations: OperationList) {
    if undoRing.isEmpty { undoRing = Array(repeating: HistoryStep(), count: History.maxDepth) }
    let bit = UInt64(1) << UInt64(slot)
    undoRing[slot].replace(operations: operations, plainRemoval: keystrokes[slot].removal)
    pendingSlots &= ~bit
    filledSlots |= bit
  }

  /// Calls `body` with each slot of the set `slots` (a value: `body` may change the history's).
  private static func forEachSlot(in slots: UInt64, _ body: (Int) -> Void) {
    var remaining = slots
    while remaining != 0 {
      let slot = remaining.trailingZeroBitCount
      remaining &= remaining - 1
      body(slot)
    }
  }

  /// The operations of change `clientSeq` among `changes` (contiguous by client sequence, as a
  /// document's pending changes are: found by offset, searched otherwise).
  private static func operations<C: BidirectionalCollection>(of clientSeq: UInt32, in changes: C) -> OperationList?
  where C.Element == Change {
    if let first = changes.first, clientSeq >= first.id.clientSeq {
      let offset = Int(clientSeq - first.id.clientSeq)
      if offset < changes.count {
        let change = changes[changes.index(changes.startIndex, offsetBy: offset)]
        if change.id.clientSeq == clientSeq { return change.operations }
      }
    }
    return changes.first { $0.id.clientSeq == clientSeq }?.operations
  }

  /// The pending keystrokes on the undo stack (tests and ``Document/checkInvariants()``).
  package var pendingKeystrokes: [PendingKeystroke] {
    var found: [PendingKeystroke] = []
    History.forEachSlot(in: pendingSlots) { found.append(keystrokes[$0]) }
    return found
  }

  /// Checks the invariants of ``undoRing``'s slots; returns the first violation.
  package func checkSlots() -> String? {
    if filledSlots & pendingSlots != 0 { return "a slot is both filled and pending" }
    var inUse: UInt64 = 0
    for offset in 0..<undoCount { inUse |= UInt64(1) << UInt64((undoStart + offset) % History.maxDepth) }
    if filledSlots | pendingSlots != inUse { return "the filled and pending slots are not the stack's" }
    for slot in undoRing.indices where inUse & (UInt64(1) << UInt64(slot)) == 0 || pendingSlots & (UInt64(1) << UInt64(slot)) != 0 {
      if !undoRing[slot].isEmpty { return "slot \(slot) holds a step outside the stack or under a pending keystroke" }
    }
    return nil
  }

  /// The slot of the undo ring the next step goes into, counted in: past the newest step, or
  /// the oldest's when the stack is full (which drops the oldest).
  @inline(__always) private mutating func nextUndoSlot() -> Int {
    var slot = undoStart + undoCount
    if slot >= History.maxDepth { slot -= History.maxDepth }
    if undoCount == History.maxDepth {
      undoStart = slot + 1 == History.maxDepth ? 0 : slot + 1
    } else {
      undoCount += 1
    }
    return slot
  }

  /// ``nextUndoSlot()`` for a whole step: the slot is marked filled (a pending keystroke it
  /// held, the oldest step, is dropped with it).
  @inline(__always) private mutating func nextFilledSlot() -> Int {
    if undoRing.isEmpty { undoRing = Array(repeating: HistoryStep(), count: History.maxDepth) }
    let slot = nextUndoSlot()
    let bit = UInt64(1) << UInt64(slot)
    pendingSlots &= ~bit
    filledSlots |= bit
    return slot
  }

  package mutating func pushUndo(_ step: consuming HistoryStep) {
    if step.holdsUnreadRemovals { holdsUnreadRemovals = true }
    // Swapped in rather than assigned: an assignment copied the step and then destroyed the
    // copy. The step it displaces goes with `incoming`.
    var incoming = consume step
    swap(&undoRing[nextFilledSlot()], &incoming)
    if aliases.count > aliasLimit { pruneAliases() }
  }

  /// Takes the top undo step, whole: a pending keystroke's operation is read from
  /// `pendingChanges` (the document's).
  package mutating func popUndo(pendingChanges: [Change]) -> HistoryStep? {
    guard undoCount > 0 else { return nil }
    undoCount -= 1
    var slot = undoStart + undoCount
    if slot >= History.maxDepth { slot -= History.maxDepth }
    let bit = UInt64(1) << UInt64(slot)
    var taken = HistoryStep()
    if pendingSlots & bit != 0 {
      pendingSlots &= ~bit
      let keystroke = keystrokes[slot]
      guard let operations = History.operations(of: keystroke.clientSeq, in: pendingChanges) else {
        // Ruled out by the invariant of ``undoRing``, which ``Document/checkInvariants()``
        // reports (after every mutation in the checked build); were it broken, the step could
        // not be undone, and the next is.
        return popUndo(pendingChanges: pendingChanges)
      }
      taken.replace(operations: operations, plainRemoval: keystroke.removal)
    } else {
      filledSlots &= ~bit
      swap(&taken, &undoRing[slot])
    }
    taken.expandPlainRemoval()
    return taken
  }

  package mutating func pushRedo(_ step: consuming HistoryStep) {
    if step.holdsUnreadRemovals { holdsUnreadRemovals = true }
    if redoStack.count >= History.maxDepth { redoStack.removeFirst() }
    redoStack.append(consume step)
    if aliases.count > aliasLimit { pruneAliases() }
  }

  /// The top redo step (the steps an undo pushes are never held flat: nothing to expand).
  package mutating func popRedo() -> HistoryStep? { redoStack.popLast() }

  /// Reads the characters of every removed run a kept step holds but has not read, while the
  /// texts still hold them: the document calls it before garbage collection purges anything,
  /// which keeps the invariant of ``HistoryCapture/RemovedRun``. Nothing to do (one flag read)
  /// when no step was pushed with unread runs since the last call.
  ///
  /// Each run is read from the text its operation names, through the aliases (an undo may have
  /// restored the text as a copy), and from the original when the copy does not hold it.
  /// Pending keystrokes that removed text are written whole first, their operations read from
  /// `pendingChanges` (the document's).
  package mutating func readRemovedContent(in root: CRDTRoot, pendingChanges: [Change]) {
    guard holdsUnreadRemovals else { return }
    History.forEachSlot(in: pendingSlots) { slot in
      guard keystrokes[slot].removal != nil,
        let operations = History.operations(of: keystrokes[slot].clientSeq, in: pendingChanges) else { return }
      fill(slot, with: operations)
    }
    let read = contentReader(root)
    for offset in 0..<undoCount {
      var slot = undoStart + offset
      if slot >= History.maxDepth { slot -= History.maxDepth }
      if filledSlots & (UInt64(1) << UInt64(slot)) != 0 { undoRing[slot].readRemovedContent(read) }
    }
    for index in redoStack.indices { redoStack[index].readRemovedContent(read) }
    holdsUnreadRemovals = false
  }

  /// Reads the characters of the removed runs `step` (popped, on neither stack) holds but has
  /// not read: before its reverse is built, which then finds them read whatever text it
  /// restores into.
  package func readRemovedContent(of step: inout HistoryStep, in root: CRDTRoot) {
    guard step.holdsUnreadRemovals else { return }
    step.readRemovedContent(contentReader(root))
  }

  /// Reads a removed run of the text named `parent` from that text as it lives on now (through
  /// the aliases), else from the original (an undo may have restored the text as a copy that
  /// does not hold the removed pieces, while the original, removed, still does).
  private func contentReader(_ root: CRDTRoot) -> (TimeTicket, HistoryCapture.RemovedRun) -> String? {
    let aliases = self.aliases
    return { parent, run in
      let resolved = History.resolve(parent, in: aliases)
      if case .text(let text)? = root.element(resolved)?.kind, let characters = run.characters(in: text) { return characters }
      guard resolved != parent, case .text(let text)? = root.element(parent)?.kind else { return nil }
      return run.characters(in: text)
    }
  }

  /// The number of aliases kept (tests: it stays bounded however many undos ran).
  package var aliasCount: Int { aliases.count }

  /// Notes that the element `old` now lives on as `new`. Never prunes: an undo adds aliases
  /// while its step, popped, is on neither stack; the push that follows prunes.
  package mutating func alias(_ old: TimeTicket, to new: TimeTicket) {
    guard old != new else { return }
    aliases[old] = new
  }

  /// The ticket an element created at `ticket` lives on as.
  /// Whether any identity is aliased (``resolve(_:)`` may then change one).
  package var hasAliases: Bool { !aliases.isEmpty }

  package func resolve(_ ticket: TimeTicket) -> TimeTicket {
    History.resolve(ticket, in: aliases)
  }

  private static func resolve(_ ticket: TimeTicket, in aliases: [TimeTicket: TimeTicket]) -> TimeTicket {
    var current = ticket
    var hops = 0
    while let next = aliases[current], hops <= aliases.count {
      current = next
      hops += 1
    }
    return current
  }

  /// Empties both stacks (Yorkie's `clearHistory`, and what a snapshot does).
  package mutating func clear() {
    undoRing = []
    keystrokes = []
    filledSlots = 0
    pendingSlots = 0
    undoStart = 0
    undoCount = 0
    redoStack = []
    aliases = [:]
    aliasLimit = History.minimumAliasLimit
    holdsUnreadRemovals = false
  }

  /// Keeps only the aliases of tickets a kept step names, each now pointing straight at the
  /// ticket its chain ends on: the tickets in between, which no step names, go with their
  /// entries (an alias added later starts from that end, so chains keep resolving). What the
  /// map holds is then bounded by the steps, not by how many undos ran. Called only when every
  /// step is on a stack (after a push), never while an undo's step is out.
  private mutating func pruneAliases() {
    let current = aliases
    var kept: [TimeTicket: TimeTicket] = [:]
    func visit(_ ticket: TimeTicket) {
      if kept[ticket] == nil, current[ticket] != nil { kept[ticket] = History.resolve(ticket, in: current) }
    }
    for offset in 0..<undoCount {
      let slot = (undoStart + offset) % History.maxDepth
      if pendingSlots & (UInt64(1) << UInt64(slot)) != 0 {
        // A keystroke's edit names its text only (text positions are not resolved).
        visit(keystrokes[slot].parent)
      } else {
        undoRing[slot].forEachNamedTicket(visit)
      }
    }
    for step in redoStack { step.forEachNamedTicket(visit) }
    aliases = kept
    aliasLimit = max(History.minimumAliasLimit, 2 * kept.count)
  }

  private mutating func forgetAliasesIfEmpty() {
    if undoCount == 0 && redoStack.isEmpty && !aliases.isEmpty { aliases = [:] }
  }
}
