/// The physical undo log of one transaction (a local update, or the application of a change
/// pack). Every mutation that execution performs appends the record that reverses it exactly;
/// rolling back replays the records in reverse. Committing simply drops the journal.
///
/// This is not Yorkie's undo/redo history (which issues new operations): it restores the
/// replica's memory to the state before the transaction, so a failed update or a malformed
/// pack leaves no trace.
package final class Journal {
  package enum Record {
    case deregister(Borrowed<CRDTElement>)
    case unregisterRemoved(TimeTicket)
    /// Forgets the GC pair of a dead array position (kept inline).
    case unregisterPositionGCPair(Borrowed<CRDTElement>, TimeTicket)
    /// Forgets any other GC pair. Boxed: a key is 72 bytes, and every record would pay for it.
    indirect case unregisterGCPair(CRDTRoot.GCPairKey)
    case restoreRemovedAt(Borrowed<CRDTElement>, TimeTicket?)
    case restoreArrayElement(Borrowed<CRDTArray>, Borrowed<CRDTElement>, TimeTicket?)
    /// Undoes an object Set in one record: forgets the tombstone the Set registered (reviving
    /// the evicted winner), forgets the new element and its subtree, and gives the key back to
    /// the previous winner.
    case undoObjectSet(Borrowed<CRDTObject>, key: String, element: Borrowed<CRDTElement>, previousWinner: Borrowed<CRDTElement>?, tombstone: SetTombstone)
    case unlinkArrayElement(Borrowed<CRDTArray>, Borrowed<CRDTElement>)
    /// Undoes an insertion into an array: unlinks the element and forgets it (and its subtree).
    case undoArrayInsert(Borrowed<CRDTArray>, Borrowed<CRDTElement>)
    case undoMove(Borrowed<CRDTArray>, CRDTArray.MoveResult)
    case restoreCounter(Borrowed<CRDTCounter>, CounterValue)
    /// Undoes counting an actor in a deduplicating counter.
    case restoreDedupRegister(Borrowed<CRDTCounter>, index: Int, register: UInt8, value: CounterValue)
    case textUndoSplit(Borrowed<CRDTText>, Int32, Int32)
    case textRestoreRemoved(Borrowed<CRDTText>, Int32, TimeTicket?)
    /// Unlinks the pieces `first...last` of a text, inserted in that order with nothing else
    /// recorded in between (typing: one record per run of insertions).
    case textUnlinkInserted(Borrowed<CRDTText>, first: Int32, last: Int32)
    case textRestoreAttributes(Borrowed<CRDTText>, Int32, TextAttributes?)
    /// Undoes the recreation of a purged piece by a restore: unlinks it from the text and from
    /// its insertion's chain.
    case textPurgeRecreated(Borrowed<CRDTText>, Int32)
    /// Puts back a GC pair that a newer one replaced (rare; boxed like `unregisterGCPair`).
    indirect case restoreGCPair(CRDTRoot.GCPair)
  }

  /// A reference a record holds without retaining it.
  ///
  /// Records never own what they name: every element, container and text a record names is
  /// owned by the document's tree for as long as the record exists. Committing drops records
  /// without touching them. Rolling back undoes them newest first, so an element the
  /// transaction created is unlinked from the tree (and may be freed) only after every record
  /// naming it was undone; an element older than the transaction stays in the tree throughout
  /// (garbage collection never runs inside a transaction). Skipping the retain and release of
  /// two or three references per record is about a tenth of an object Set.
  package struct Borrowed<Object: AnyObject> {
    package unowned(unsafe) let object: Object
    @inline(__always) package init(_ object: Object) { self.object = object }
  }

  /// Which element an object Set turned into a tombstone.
  package enum SetTombstone: UInt8 {
    /// None: the key was free, or its winner was already removed.
    case none
    /// The previous winner, which the new element evicted.
    case previousWinner
    /// The new element itself, which lost to a newer concurrent Set.
    case element
  }

  /// The records of this transaction: the current chunk, and the full chunks before it. A
  /// large transaction (a whole trace in one update) grows by chunks instead of copying every
  /// record each time its buffer doubles.
  @exclusivity(unchecked) private var records: [Record] = []
  @exclusivity(unchecked) private var fullChunks: [[Record]] = []
  private static let chunkSize = 4096
  /// The counter whose value before this transaction is already recorded: a run of increases
  /// of one counter needs one record (rollback restores the oldest value anyway).
  @exclusivity(unchecked) private var journaledCounter: CRDTCounter?

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

  /// Records how to forget a GC pair that was just registered.
  package func appendUnregister(_ key: CRDTRoot.GCPairKey, parent: CRDTElement) {
    switch key.child {
    case .arrayPosition(let id): append(.unregisterPositionGCPair(Borrowed(parent), id))
    case .textAttribute: append(.unregisterGCPair(key))
    }
  }

  /// Records how to unlink the piece `handle` just inserted into `text`: the last record grows
  /// when it unlinks the piece made right before.
  @inline(__always) package func appendUnlinkInserted(_ text: CRDTText, _ handle: Int32) {
    if let last = records.last, case .textUnlinkInserted(let held, let first, let end) = last,
      held.object === text, end &+ 1 == handle {
      records[records.count - 1] = .textUnlinkInserted(held, first: first, last: handle)
      return
    }
    append(.textUnlinkInserted(Borrowed(text), first: handle, last: handle))
  }

  /// Records `counter`'s value unless this transaction already recorded it last.
  @inline(__always) package func appendCounterValue(_ counter: CRDTCounter) {
    if journaledCounter === counter { return }
    journaledCounter = counter
    append(.restoreCounter(Borrowed(counter), counter.value))
  }

  /// Forgets the records, keeping the buffer for the next transaction.
  package func commit() {
    journaledCounter = nil
    if let first = fullChunks.first {
      // Keep one chunk's buffer for the next transaction.
      fullChunks.removeAll()
      records = first
    }
    records.removeAll(keepingCapacity: true)
  }

  /// Reverses every recorded mutation, newest first.
  package func rollBack(_ root: CRDTRoot) {
    undo(records, root)
    for chunk in fullChunks.reversed() { undo(chunk, root) }
    commit()
  }

  private func undo(_ chunk: [Record], _ root: CRDTRoot) {
    for record in chunk.reversed() {
      switch record {
      case .deregister(let element):
        root.deregister(element.object)
      case .unregisterRemoved(let createdAt):
        root.unregisterRemoved(createdAt)
      case .unregisterPositionGCPair(let array, let id):
        root.unregisterGCPair(CRDTRoot.GCPairKey(parent: array.object.createdAt, child: .arrayPosition(id)))
      case .unregisterGCPair(let key):
        root.unregisterGCPair(key)
      case .restoreRemovedAt(let element, let old):
        element.object.removedAt = old
      case .restoreArrayElement(let array, let element, let old):
        array.object.restore(element.object, removedAt: old)
      case .undoObjectSet(let heldObject, let key, let heldElement, let heldPrevious, let tombstone):
        let object = heldObject.object, element = heldElement.object, previousWinner = heldPrevious?.object
        switch tombstone {
        case .none:
          break
        case .previousWinner:
          if let previousWinner {
            root.unregisterRemoved(previousWinner.createdAt)
            previousWinner.removedAt = nil
          }
        case .element:
          root.unregisterRemoved(element.createdAt)
        }
        if !(element is CRDTPrimitive) { root.deregister(element) }
        object.purge(element)
        object.restoreWinner(key, previousWinner)
      case .unlinkArrayElement(let array, let element):
        array.object.purge(element.object)
      case .undoArrayInsert(let array, let element):
        root.deregister(element.object)
        array.object.purge(element.object)
      case .undoMove(let array, let result):
        array.object.undoMove(result)
      case .restoreCounter(let counter, let value):
        counter.object.restore(value)
      case .restoreDedupRegister(let counter, let index, let register, let value):
        counter.object.restoreRegister(index, register, value: value)
      case .textUndoSplit(let text, let left, let right):
        text.object.undoSplit(left, right)
      case .textRestoreRemoved(let text, let handle, let removedAt):
        text.object.restoreRemoved(handle, removedAt)
      case .textUnlinkInserted(let text, let first, let last):
        var handle = last
        while handle >= first {
          text.object.undoInsert(handle)
          handle -= 1
        }
      case .textRestoreAttributes(let text, let handle, let attributes):
        text.object.restoreAttributes(handle, attributes)
      case .textPurgeRecreated(let text, let handle):
        text.object.purge(handle)
      case .restoreGCPair(let pair):
        root.registerGCPair(pair)
      }
    }
  }
}
