// Revived pieces and the deletions made concurrently with their revival.
//
// An undo revives removed pieces by identity (``restore(_:executedAt:fallback:journal:)``).
// Yorkie revives a piece by clearing its removal ticket and forgets the revival. A range
// deletion whose author had not seen the revival then removes the piece on the replicas where
// the revival arrived first and leaves it on the others, where the revival came last: their
// texts differ for good (the three-replica fuzzer with undo found it within five steps).
//
// Here a revived piece keeps a ``Revival`` record, and removals and revivals of one piece act
// as a last-writer-wins register ordered by ticket:
//
// 1. A piece is live when it was never removed, or when its latest revival is newer than its
//    latest removal.
// 2. A revival at ticket U raises the latest revival to max(V, U).
// 3. A deletion whose author had seen the piece's latest removal but not its latest revival
//    leaves the piece alone: where it was made, the piece was removed.
// 4. Any other deletion its author could make (the author had seen the piece inserted) raises
//    the latest removal to max(R, D) — for a piece without a record, this is Yorkie's rule.
//
// Every step is a max or a decision read from what the author had seen, which every replica
// has applied before the step, so the outcome does not depend on the order of concurrent
// steps. A piece recreated after garbage collection purged it gets a record whose outlived
// removal is the zero ticket, which every author has seen: a replica that had purged the piece
// decides deletions as one that had kept its tombstone.
//
// Records live in a side table keyed by handle (revivals are rare: a live piece without one
// pays nothing), are copied to both parts of a split, and go with the piece when it is
// unlinked. Snapshots do not carry them (Yorkie's TextNode has no field for them): a replica
// loaded from a snapshot taken before every peer had seen a revival decides a concurrent
// deletion of that piece as Yorkie does.
//
// Invariants (checked by ``checkInvariants()``):
// R1. Every record names a linked piece.
// R2. A live piece's record has no outlived removal, or a revival newer than it.
// R3. A removed piece's record has a revival older than the piece's removal (its outlived
//     removal means nothing then: a revival sets it anew).
extension CRDTText {
  /// The latest revival of a piece, and while the piece is live, the latest removal it outlived.
  package struct Revival: Equatable {
    /// The ticket of the piece's latest revival.
    var revivedAt: PackedTicket
    /// While the piece is live: its latest removal, older than `revivedAt` (nil when it had
    /// none on this replica). Meaningless while the piece is removed.
    var outlived: PackedTicket?
  }

  /// The zero ticket, which every author has seen: the outlived removal of a recreated piece.
  static let purgedRemoval = PackedTicket(lamport: 0, delimiter: 0, actor: 0)

  /// What a remote deletion does to a live piece.
  enum DeletionOutcome {
    /// The author had seen the piece removed: nothing.
    case skip
    /// The deletion is older than the piece's latest revival: the piece stays live, and the
    /// deletion becomes the removal it outlived when it is the newest.
    case outlive
    /// The piece is removed at the deletion's ticket.
    case remove
  }

  /// What a deletion at `editedAt` by an author who had seen what `knowledge` holds does to live
  /// piece `handle` (rules 3 and 4; the author had seen the piece inserted).
  func deletionOutcome(ofLive handle: Int32, editedAt: TimeTicket, knowledge: inout Knowledge) -> DeletionOutcome {
    guard let record = revivals[handle] else { return .remove }
    if !knowledge.knows(record.revivedAt, in: self), let outlived = record.outlived, knowledge.knows(outlived, in: self) {
      return .skip
    }
    return isAfter(record.revivedAt, editedAt) ? .outlive : .remove
  }

  /// Records that a deletion at `editedAt` was outlived by live piece `handle`'s revival (rule 4).
  func outlive(_ handle: Int32, deletedAt editedAt: TimeTicket, journal: Journal) {
    guard var record = revivals[handle] else { return }
    if let outlived = record.outlived, isAfter(outlived, editedAt) { return }
    journal.append(self, .revival(handle, record))
    record.outlived = pack(editedAt)
    revivals[handle] = record
  }

  /// Revives piece `handle` at `revivedAt` (rule 2): a removed piece becomes live when the
  /// revival is newer than its removal. A live piece's record, if it has one, notes the revival;
  /// a live piece without one was never removed here and is left alone (recording the revival
  /// would mean splitting the piece at the span's ends, which changes Yorkie's node count).
  ///
  /// - Returns: whether the piece became live.
  func revive(_ handle: Int32, at revivedAt: TimeTicket, journal: Journal) -> Bool {
    let old = revivals[handle]
    let slot = arena[Int(handle)].removal
    guard slot >= 0 || old != nil else { return false }
    let ticket = pack(revivedAt)
    var record = old ?? Revival(revivedAt: ticket, outlived: nil)
    if isAfter(ticket, record.revivedAt) { record.revivedAt = ticket }
    var becameLive = false
    if slot >= 0 {
      let removal = removals[Int(slot)]
      if isAfter(record.revivedAt, removal) {
        record.outlived = removal
        journal.append(self, .removal(handle, unpack(removal)))
        setRemovedAt(handle, nil)
        index.setWeight(handle, Int(arena[Int(handle)].length))
        becameLive = true
      }
    }
    if record != old {
      journal.append(self, .revival(handle, old))
      revivals[handle] = record
    }
    return becameLive
  }

  /// Gives recreated piece `handle` its record: revived at `revivedAt`, after a removal every
  /// author had seen.
  func noteRecreated(_ handle: Int32, at revivedAt: TimeTicket, journal: Journal) {
    journal.append(self, .revival(handle, revivals[handle]))
    revivals[handle] = Revival(revivedAt: pack(revivedAt), outlived: CRDTText.purgedRemoval)
  }

  /// The record of piece `handle` as it was (rollback only).
  func restoreRevival(_ handle: Int32, _ record: Revival?) {
    revivals[handle] = record
  }

  /// Checks invariants R1–R3.
  func checkRevivalInvariants(linked: Set<Int32>) -> String? {
    for (handle, record) in revivals {
      guard linked.contains(handle) else { return "revival record of unlinked piece \(handle)" }
      let slot = arena[Int(handle)].removal
      if slot >= 0 {
        if !isAfter(removals[Int(slot)], record.revivedAt) { return "removed piece \(id(of: handle)) has a newer revival" }
      } else if let outlived = record.outlived, !isAfter(record.revivedAt, outlived) {
        return "live piece \(id(of: handle)) outlived a newer removal"
      }
    }
    return nil
  }
}
