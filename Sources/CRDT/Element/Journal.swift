/// The physical undo log of one transaction (a local update, or the application of a change
/// pack). Every mutation that execution performs appends the record that reverses it exactly;
/// rolling back replays the records in reverse. Committing simply drops the journal.
///
/// This is not Yorkie's undo/redo history (which issues new operations): it restores the
/// replica's memory to the state before the transaction, so a failed update or a malformed
/// pack leaves no trace.
///
/// The journal lives with the elements, below the operations: each element kind defines its own
/// undo records (``CRDTObject/Undo``, ``CRDTArray/Undo``, ``CRDTCounter/Undo``,
/// ``CRDTText/Undo``, ``CRDTRoot/Undo``) and how to apply them; the journal only keeps them in
/// order with the element they belong to.
///
/// Records retain what they name. A record is undone newest first, so an element a transaction
/// created is unlinked only after every record naming it was undone; and an element that left
/// the tree (or never entered it) is still alive for every record that names it, so a rollback
/// can never touch freed memory, whatever the transaction did.
///
/// `@exclusivity(unchecked)` on the journal's state: see the invariant on ``CRDTElement``. The
/// journal is confined to its document's actor, and no access to its storage overlaps another:
/// an undo runs after its record was taken off the list, and element undo methods never reach
/// the journal. It pays: every mutation appends a record (without it on `records`,
/// `fullChunks` and `journaledCounter`, `swift run -c release crdt-bench automerge_paper_batched`
/// takes 72 ms instead of 56 ms). The held lists are touched by every record and cleared by
/// every transaction: without it on them, `swift run -c release crdt-bench
/// automerge_paper_per_change` takes 237–240 ms instead of 222–228 ms (two alternating runs of
/// three rounds each).
package final class Journal {
  package enum Record {
    /// Registry and garbage bookkeeping, undone by the root.
    case root(CRDTRoot.Undo)
    /// Gives an element back the removal ticket it had (object members and other tombstones).
    case removedAt(CRDTElement, TimeTicket?)
    /// An object's record names the object by its index in ``heldObjects``.
    case object(Int32, CRDTObject.Undo)
    /// An array's record names the array by its index in ``heldArrays``.
    case array(Int32, CRDTArray.Undo)
    case counter(CRDTCounter, CRDTCounter.Undo)
    /// A text's record names the text by its index in ``heldTexts`` (see ``append(_:_:)``).
    case text(Int32, CRDTText.Undo)
    /// A tree's record names the tree. Boxed: a tree's records are wide (a merge remembers
    /// where a node was), tree edits are rare next to typing, and every other record would pay
    /// for the width.
    indirect case tree(CRDTTree, CRDTTree.Undo)
  }

  /// The texts, arrays and objects that records of this transaction name (see ``HeldList``).
  @exclusivity(unchecked) private var heldTexts = HeldList<CRDTText>()
  @exclusivity(unchecked) private var heldArrays = HeldList<CRDTArray>()
  @exclusivity(unchecked) private var heldObjects = HeldList<CRDTObject>()

  /// The records of this transaction: the current chunk, and the full chunks before it. A
  /// large transaction (a whole trace in one update) grows by chunks instead of copying every
  /// record each time its buffer doubles.
  @exclusivity(unchecked) private var records: [Record] = []
  @exclusivity(unchecked) private var fullChunks: [[Record]] = []
  private static let chunkSize = 4096
  /// The counter whose value before this transaction is already recorded: a run of increases
  /// of one counter needs one record (rollback restores the oldest value anyway). Cleared with
  /// the records, and whenever a rollback to a savepoint may have dropped its record.
  @exclusivity(unchecked) private var journaledCounter: CRDTCounter?
  /// Where the record of the document's size at the start of the transaction is, once a
  /// change of the size made one (``noteSizeChange(_:)``).
  private var sizeRecordedAt: Int?

  package init() {}

  @inline(__always) package func append(_ record: Record) {
    if records.count == Journal.chunkSize { startChunk() }
    records.append(record)
  }

  private func startChunk() {
    fullChunks.append(records)
    records = []
    records.reserveCapacity(Journal.chunkSize)
  }

  /// The number of records of the running transaction.
  package var count: Int { fullChunks.count * Journal.chunkSize + records.count }

  /// The records of `tree` appended since `savepoint`, in order, without its ordering records.
  package func treeRecords(since savepoint: Savepoint, of tree: CRDTTree) -> [CRDTTree.Undo] {
    treeRecords(since: savepoint.count, of: tree)
  }

  /// The records of `tree` appended since `savepoint` (a ``count`` taken earlier), in order,
  /// without its ordering records: what the tree's ordering log keeps of one operation.
  package func treeRecords(since savepoint: Int, of tree: CRDTTree) -> [CRDTTree.Undo] {
    var found: [CRDTTree.Undo] = []
    var index = savepoint
    while index < count {
      let chunk = index / Journal.chunkSize
      let record = chunk < fullChunks.count ? fullChunks[chunk][index % Journal.chunkSize] : records[index - fullChunks.count * Journal.chunkSize]
      if case .tree(let owner, let undo) = record, owner === tree {
        if case .order = undo {} else { found.append(undo) }
      }
      index += 1
    }
    return found
  }

  /// A point of the running transaction that ``rollBack(to:_:)`` can return to.
  package struct Savepoint {
    fileprivate let count: Int
    /// The document's size there, given back by the rollback.
    fileprivate let size: DocSize
  }

  /// Marks the current point of the transaction, to roll back to it if what follows fails.
  package func savepoint(_ root: CRDTRoot) -> Savepoint { Savepoint(count: count, size: root.size) }

  /// Called before every change of the document's size (``CRDTRoot/size``): records the size
  /// once per transaction, before its first change, which is all rolling back the whole
  /// transaction needs to give it back (a savepoint carries its own). The size is a running
  /// total kept outside the elements, so no element's undo record restores it; one record
  /// per transaction instead of one per change (or per operation: a whole editing trace in
  /// one update takes a savepoint per edit).
  @inline(__always) package func noteSizeChange(_ root: CRDTRoot) {
    if sizeRecordedAt != nil { return }
    sizeRecordedAt = count
    append(.root(.size(root.size)))
  }

  /// Records how to forget a GC pair that was just registered.
  package func appendUnregister(_ key: CRDTRoot.GCPairKey, parent: CRDTElement) {
    switch key.child {
    case .arrayPosition(let id): append(.root(.unregisterPositionGCPair(parent, id)))
    case .textAttribute, .treeNode, .treeAttribute: append(.root(.unregisterGCPair(key)))
    }
  }

  /// Records how to undo a change of `text`.
  @inline(__always) package func append(_ text: CRDTText, _ undo: CRDTText.Undo) {
    append(.text(heldTexts.index(of: text), undo))
  }

  /// Records how to undo a change of `array`.
  @inline(__always) package func append(_ array: CRDTArray, _ undo: CRDTArray.Undo) {
    append(.array(heldArrays.index(of: array), undo))
  }

  /// Records how to undo a change of `object`.
  @inline(__always) package func append(_ object: CRDTObject, _ undo: CRDTObject.Undo) {
    append(.object(heldObjects.index(of: object), undo))
  }

  /// Records how to unlink the piece `handle` just inserted into `text`: the last record grows
  /// when it unlinks the piece made right before.
  @inline(__always) package func appendUnlinkInserted(_ text: CRDTText, _ handle: Int32) {
    if let last = records.last, case .text(let held, .unlinkInserted(let first, let end)) = last,
      heldTexts.isLast(held, text), end &+ 1 == handle {
      records[records.count - 1] = .text(held, .unlinkInserted(first: first, last: handle))
      return
    }
    append(text, .unlinkInserted(first: handle, last: handle))
  }

  /// Calls `body` with each text record appended since `savepoint`, oldest first, and its
  /// text: what the history reads after an edit or a style ran, to learn which pieces it
  /// removed or restyled and what they were before (see `HistoryCapture`). A visit rather than
  /// an array of the records: a keystroke's deletion allocated one just to read one record.
  package func forEachTextRecord(since savepoint: Savepoint, _ body: (CRDTText, CRDTText.Undo) -> Void) {
    var position = savepoint.count
    while position < count {
      let chunk = position / Journal.chunkSize
      let record = chunk < fullChunks.count ? fullChunks[chunk][position % Journal.chunkSize]
        : records[position - fullChunks.count * Journal.chunkSize]
      if case .text(let held, let undo) = record { body(heldTexts[held], undo) }
      position += 1
    }
  }

  /// Calls `body` with each piece a text removal record since `savepoint` took from live to
  /// removed (a removal record whose previous removal is nil), oldest first, and its text:
  /// what the history reads after a deletion. Each record is read where it lies (borrowed):
  /// copying it out, as ``forEachTextRecord(since:_:)`` does, retained and released its payload.
  package func forEachRemovedPiece(since savepoint: Savepoint, _ body: (CRDTText, Int32) -> Void) {
    var position = savepoint.count
    while position < count {
      let chunk = position / Journal.chunkSize
      let found = chunk < fullChunks.count ? Journal.removedPiece(fullChunks[chunk][position % Journal.chunkSize])
        : Journal.removedPiece(records[position - fullChunks.count * Journal.chunkSize])
      if let found { body(heldTexts[found.text], found.piece) }
      position += 1
    }
  }

  /// A piece a text removal record took from live to removed, and its text's index in
  /// ``heldTexts``.
  private struct RemovedPiece {
    var text: Int32
    var piece: Int32
  }

  /// The piece `record` took from live to removed, if it is such a record.
  @inline(__always) private static func removedPiece(_ record: borrowing Record) -> RemovedPiece? {
    switch record {
    case .text(let held, .removal(let handle, nil)): return RemovedPiece(text: held, piece: handle)
    default: return nil
    }
  }

  /// Records `counter`'s value unless this transaction already recorded it last.
  @inline(__always) package func appendCounterValue(_ counter: CRDTCounter) {
    if journaledCounter === counter { return }
    journaledCounter = counter
    append(.counter(counter, .value(counter.value)))
  }

  /// Forgets the records, keeping the buffer for the next transaction.
  package func commit() {
    journaledCounter = nil
    sizeRecordedAt = nil
    heldTexts.removeAll()
    heldArrays.removeAll()
    heldObjects.removeAll()
    if let first = fullChunks.first {
      // Keep one chunk's buffer for the next transaction.
      fullChunks.removeAll()
      records = first
    }
    records.removeAll(keepingCapacity: true)
  }

  /// Reverses every recorded mutation, newest first.
  package func rollBack(_ root: CRDTRoot) {
    rollBack(toCount: 0, root)
    commit()
  }

  /// Reverses the mutations recorded after `savepoint` (taken earlier by ``savepoint()``), newest
  /// first, and forgets their records: one operation that failed halfway leaves no trace while
  /// the transaction goes on.
  package func rollBack(to savepoint: Savepoint, _ root: CRDTRoot) {
    rollBack(toCount: savepoint.count, root)
    root.size = savepoint.size
  }

  private func rollBack(toCount savepoint: Int, _ root: CRDTRoot) {
    precondition(savepoint >= 0 && savepoint <= count, "a savepoint is a count taken in this transaction")
    journaledCounter = nil
    while count > savepoint {
      if records.isEmpty { records = fullChunks.removeLast() }
      undo(records.removeLast(), root)
    }
    if let at = sizeRecordedAt, at >= savepoint { sizeRecordedAt = nil }
  }

  private func undo(_ record: Record, _ root: CRDTRoot) {
    switch record {
    case .root(let undo): root.undo(undo)
    case .removedAt(let element, let old): element.removedAt = old
    case .object(let held, let undo): heldObjects[held].undo(undo, root: root)
    case .array(let held, let undo): heldArrays[held].undo(undo, root: root)
    case .counter(let counter, let undo): counter.undo(undo)
    case .text(let held, let undo): heldTexts[held].undo(undo)
    case .tree(let tree, let undo): tree.undo(undo)
    }
  }
}

/// Elements that a transaction's records name by index, each kept once per run of records: a
/// record holds an `Int32` instead of a reference, so typing (thousands of records on one text)
/// costs no reference counting per record. The list retains each element until the transaction
/// ends (a rollback to a savepoint keeps it), so every index a record holds names a live element.
struct HeldList<Element: AnyObject> {
  private var elements: [Element] = []
  /// The identity of `elements.last`, compared without the retain that reading `last` costs on
  /// every record. Sound because the list retains that element, so no other object can have
  /// its identity meanwhile.
  private var lastIdentity: ObjectIdentifier?

  /// The index of `element`, which is added unless it is the last one held.
  @inline(__always) mutating func index(of element: Element) -> Int32 {
    let identity = ObjectIdentifier(element)
    if lastIdentity != identity {
      elements.append(element)
      lastIdentity = identity
    }
    return Int32(elements.count - 1)
  }

  /// Whether `index` names the last element held and that element is `element`.
  @inline(__always) func isLast(_ index: Int32, _ element: Element) -> Bool {
    Int(index) == elements.count - 1 && lastIdentity == ObjectIdentifier(element)
  }

  /// The element a record names.
  subscript(index: Int32) -> Element { elements[Int(index)] }

  /// Forgets every element, keeping the buffer for the next transaction.
  mutating func removeAll() {
    elements.removeAll(keepingCapacity: true)
    lastIdentity = nil
  }
}
