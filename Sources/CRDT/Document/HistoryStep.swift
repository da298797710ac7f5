/// One undo or redo step: the operations a change executed (kept as the change holds them, so
/// that recording a step copies one reference; a keystroke whose change is pending copies none,
/// see ``History/PendingKeystroke``), what some of them replaced, and the presence keys to put
/// back. Its reverse is computed when it is undone (``Operation/reverse(capture:text:)``).
package struct HistoryStep: Sendable {
  package var operations: OperationList
  /// Captures by operation index, in order; operations without one need none.
  package private(set) var captures: CaptureList
  /// The presence keys an update set with `addToHistory`, with the values they had (nil: absent).
  package var presence: [String: JSONValue?]?
  /// Whether a capture holds removed characters not read yet (``HistoryCapture/RemovedRun``).
  package private(set) var holdsUnreadRemovals: Bool
  /// The capture of a keystroke's deletion (its only operation's), held flat while the step
  /// sits on the undo stack; nil for any other step. ``captures`` is empty while it is set, and
  /// a step is expanded (``expandPlainRemoval()``) before anything reads its captures.
  private var plainRemoval: PlainRemovedRun?

  /// An empty step (what a slot of the undo ring holds when no step is in it).
  package init() {
    operations = OperationList()
    captures = CaptureList()
    presence = nil
    holdsUnreadRemovals = false
    plainRemoval = nil
  }

  /// The removed run of a keystroke's deletion: one piece, without attributes, as
  /// ``Operation/removedText(in:since:)`` captures it, in plain values. Recording it writes
  /// these words into the step's slot; a ``HistoryCapture`` (an enum whose payloads hold
  /// strings and arrays) was built, moved through the update's recording and destroyed a step
  /// later for each of them: a third of what the history cost the automerge-paper typing
  /// (Benchmarks/history.md, seventh round).
  package struct PlainRemovedRun: Sendable, Equatable {
    var createdAt: TimeTicket
    var start: Int32
    var end: Int32
    var piece: Int32

    /// The run of piece `piece` of `text`, which a local edit just removed; nil when the piece
    /// has attributes (its capture carries them: the general path).
    @inline(__always) package init?(piece: Int32, in text: CRDTText) {
      let stored = text.arena[Int(piece)]
      guard stored.attributes < 0 else { return nil }
      createdAt = text.unpack(stored.createdAt)
      start = stored.offset
      end = stored.offset + stored.length
      self.piece = piece
    }

    /// The run as a capture holds it.
    package var capture: HistoryCapture {
      .removedRun(HistoryCapture.RemovedRun(createdAt: createdAt, start: start, end: end, piece: piece, attributes: nil))
    }
  }

  /// Moves ``plainRemoval`` into ``captures`` (the capture of operation 0).
  @inline(__always) mutating func expandPlainRemoval() {
    guard let run = plainRemoval.take() else { return }
    captures.append(IndexedCapture(index: 0, capture: run.capture))
  }

  /// Makes this step (a slot of the undo ring) the step of `operations` and `recording`,
  /// whose parts are swapped in: `recording` is left with this step's old parts.
  @inline(__always) mutating func replace(operations: OperationList, recording: inout HistoryRecording) {
    self.operations = operations
    swap(&captures, &recording.captures)
    swap(&presence, &recording.presence)
    holdsUnreadRemovals = recording.removesText
    plainRemoval = nil
  }

  /// Makes this step (a slot of the undo ring) the step of `operations` alone, with the flat
  /// capture of its deletion when it is a keystroke's.
  @inline(__always) mutating func replace(operations: OperationList, plainRemoval: PlainRemovedRun?) {
    self.operations = operations
    if !captures.isEmpty { captures = CaptureList() }
    if presence != nil { presence = nil }
    holdsUnreadRemovals = plainRemoval != nil
    self.plainRemoval = plainRemoval
  }

  package var isEmpty: Bool { operations.isEmpty && presence == nil }

  /// Reads the characters of the removed runs its captures hold but have not read: `read`
  /// reads a run from the text its operation edited (named by the operation's ticket).
  mutating func readRemovedContent(_ read: (TimeTicket, HistoryCapture.RemovedRun) -> String?) {
    guard holdsUnreadRemovals else { return }
    expandPlainRemoval()
    for position in captures.indices {
      let parent = operations[captures[position].index].parentCreatedAt
      switch captures[position].capture {
      case .removedRun(var run):
        guard run.content == nil else { continue }
        run.content = read(parent, run)
        captures[position].capture = .removedRun(run)
      case .removedText(var runs):
        guard runs.contains(where: { $0.content == nil }) else { continue }
        for index in runs.indices where runs[index].content == nil { runs[index].content = read(parent, runs[index]) }
        captures[position].capture = .removedText(runs)
      case .replacedValue, .replacedPrimitive, .removedMember, .removedElement, .previousAnchor, .replacedElement,
        .previousStyles, .treeSpans, .treeSplit, .treeBoundary, .previousTreeStyles, .nothing:
        continue
      }
    }
    holdsUnreadRemovals = false
  }

  /// The capture of the operation at `index` of ``operations``. A named struct rather than a
  /// tuple: an array of tuples is destroyed through the runtime's tuple metadata, looked up
  /// per update (it showed in the per-keystroke profile).
  package struct IndexedCapture: Sendable {
    package var index: Int
    package var capture: HistoryCapture

    package init(index: Int, capture: HistoryCapture) {
      self.index = index
      self.capture = capture
    }
  }

  /// The captures of a step, in order: the first held inline, the others in an array. Most
  /// updates that capture anything capture once (a keystroke's deletion, a Set): they then
  /// allocate no array, to fill per update and free when the step leaves the ring.
  package struct CaptureList: RandomAccessCollection, MutableCollection, Sendable {
    /// The first capture when ``count`` is 1 or more, else a placeholder. Not an optional: an
    /// optional capture was tested and moved through the runtime's generic value witnesses.
    private var first = IndexedCapture(index: -1, capture: .nothing)
    private var rest: [IndexedCapture] = []
    package private(set) var count = 0

    package init() {}

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(position: Int) -> IndexedCapture {
      get {
        precondition(position >= 0 && position < count, "CaptureList index \(position) out of range")
        return position == 0 ? first : rest[position - 1]
      }
      set {
        precondition(position >= 0 && position < count, "CaptureList index \(position) out of range")
        if position == 0 { first = newValue } else { rest[position - 1] = newValue }
      }
    }

    /// The operation index of the capture at `position`, read without copying the capture.
    package func operationIndex(at position: Int) -> Int {
      precondition(position >= 0 && position < count, "CaptureList index \(position) out of range")
      return position == 0 ? first.index : rest[position - 1].index
    }

    /// Appends a capture (its operation index must follow the last one's).
    @inline(__always) package mutating func append(_ capture: consuming IndexedCapture) {
      if count == 0 { first = capture } else { rest.append(capture) }
      count += 1
    }

    /// Removes the last capture (there must be one).
    package mutating func removeLast() {
      precondition(count > 0, "CaptureList is empty")
      if count == 1 { first = IndexedCapture(index: -1, capture: .nothing) } else { rest.removeLast() }
      count -= 1
    }
  }
}

/// What an update collects for its undo step as it runs, besides its operations: one stored
/// value of the ``UpdateContext``, taken whole when the update is recorded
/// (``UpdateContext/takeHistoryRecording(into:)``), or not at all when it holds nothing
/// (``isEmpty``: typing an insertion). Outside the checked build its accesses are not checked
/// at run time (see the declaration in ``UpdateContext``).
package struct HistoryRecording: Sendable {
  /// Captures by operation index, in order (see ``HistoryStep/captures``).
  package fileprivate(set) var captures = HistoryStep.CaptureList()
  /// Whether a capture holds removed text (``HistoryCapture/isRemovedText``).
  package fileprivate(set) var removesText = false
  /// The elements this update's ArraySets replaced (older steps name them): empty for an
  /// update with no ArraySet, so that the history spends nothing on them for the others.
  package var replacedElements: [ReplacedElement] = []
  /// The presence keys set with `addToHistory`, with the values they had before the update.
  package var presence: [String: JSONValue?]?

  package init() {}

  /// Whether the update collected nothing besides its operations (typing an insertion).
  package var isEmpty: Bool { captures.isEmpty && replacedElements.isEmpty && presence == nil }

  /// Appends the capture of the operation at `index` (after the last one's).
  @inline(__always) package mutating func append(_ indexed: consuming HistoryStep.IndexedCapture) {
    if indexed.capture.isRemovedText { removesText = true }
    captures.append(indexed)
  }

  /// Removes the last capture (there must be one): its operation failed.
  package mutating func removeLastCapture() {
    captures.removeLast()
    removesText = captures.contains { $0.capture.isRemovedText }
  }

  /// An element an ArraySet replaced, and the element now in its place.
  package struct ReplacedElement: Sendable {
    package var old: TimeTicket
    package var new: TimeTicket
  }
}

extension HistoryStep {
  /// Calls `body` with every element ticket the step's reverse may resolve through the aliases
  /// (see ``Operation/restamped(_:resolve:)`` and ``Operation/recreated(from:)``): the
  /// operations' containers and targets, and the elements and anchors the captures hold. Text
  /// positions name pieces, which keep their identities: not resolved, not listed.
  func forEachNamedTicket(_ body: (TimeTicket) -> Void) {
    for operation in operations {
      body(operation.parentCreatedAt)
      switch operation {
      case .set(_, _, let value, _):
        body(value.createdAt)
      case .add(_, let previous, let value, _):
        body(previous)
        body(value.createdAt)
      case .move(_, let previous, let createdAt, _):
        body(previous)
        body(createdAt)
      case .remove(_, let createdAt, _):
        body(createdAt)
      case .arraySet(_, let createdAt, let value, _):
        body(createdAt)
        body(value.createdAt)
      case .increase, .edit, .style, .restoreEdit, .dedupIncrease, .treeEdit, .treeStyle:
        break
      }
    }
    for indexed in captures {
      switch indexed.capture {
      case .replacedValue(let value):
        if let value { body(value.createdAt) }
      case .replacedPrimitive(_, let createdAt):
        body(createdAt)
      case .removedMember(_, let value), .replacedElement(let value):
        body(value.createdAt)
      case .removedElement(let anchor, let value):
        body(anchor)
        body(value.createdAt)
      case .previousAnchor(let anchor):
        body(anchor)
      case .removedRun, .removedText, .previousStyles, .nothing:
        break
      case .treeSpans, .treeSplit, .treeBoundary, .previousTreeStyles:
        // Tree nodes keep their identities (as text pieces do); only the tree, an operation's
        // container, is resolved.
        break
      }
    }
  }
}
