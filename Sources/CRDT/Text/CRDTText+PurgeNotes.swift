// Where purged characters were, for the restore that brings them back (an undo after garbage
// collection).
//
// A restore recreates characters garbage collection purged from the span's copy of them, and
// must put them where they were. The insertion's surviving pieces say roughly where; they cannot
// say on which side of a peer's text the characters sat when the peer's text lies between them:
//
//   before the purge:   a [bc] XY [de] f        "bcde" removed, XY typed after "c" meanwhile
//   after the purge:    a XY f                  a replica that revives in place: a bc XY de f
//   the insertion says: after "a" / before "f": "a XY bcde f" or "a bcde XY f", both wrong
//
// So the purge leaves a note on the piece right of each purged run: XY holds "characters 1..<3 of
// the insertion were just left of me", f holds "3..<5". A restore that recreates 1..<5 looks for
// the piece holding a note of its characters and puts them right before it: "a bc XY de f",
// what a replica that never purged shows. Notes are local: a replica that loaded a snapshot has
// none and places recreated characters as Yorkie does (DocC *Convergence*).
//
// Bounds: each piece keeps the notes of the runs nearest to it (``PurgeNotes/capacity``), runs of
// one insertion that were contiguous are joined, and a piece's notes go with it when it is purged
// in turn (to the piece right of it, before that piece's own). So the notes grow with the pieces
// that survive next to purged ones, never with the history of purges.
extension CRDTText {
  /// The key of the notes of what was purged at the end of the text (no piece right of it).
  static let endOfText: Int32 = -1

  /// A run of purged characters: offsets `start..<end` of the insertion created at `createdAt`.
  struct PurgedRun: Equatable {
    var createdAt: PackedTicket
    var start: Int32
    var end: Int32
  }

  /// The purged runs that sat just left of a piece, in document order (the last one was
  /// nearest to it). At most ``capacity``: the farthest go first.
  struct PurgeNotes {
    static let capacity = 4
    private(set) var runs: [PurgedRun]

    /// The notes of `runs` in document order: contiguous runs of one insertion joined, the
    /// nearest ``capacity`` kept.
    init(_ runs: [PurgedRun]) {
      var joined: [PurgedRun] = []
      joined.reserveCapacity(runs.count)
      for run in runs {
        if let last = joined.last, last.createdAt == run.createdAt, last.end == run.start {
          joined[joined.count - 1].end = run.end
        } else {
          joined.append(run)
        }
      }
      self.runs = Array(joined.suffix(Self.capacity))
    }

    /// The position in ``runs`` of the run holding offset `offset` of insertion `createdAt`.
    func index(holding offset: Int32, of createdAt: PackedTicket) -> Int? {
      runs.firstIndex { $0.createdAt == createdAt && $0.start <= offset && offset < $0.end }
    }
  }

  /// Purges the removed piece `handle` for garbage collection, leaving a note of it (and of the
  /// notes it held) on the piece right of it.
  package func collect(_ handle: Int32) {
    let node = arena[Int(handle)]
    let holder = node.next >= 0 ? node.next : CRDTText.endOfText
    var runs = purgeNotes.removeValue(forKey: handle)?.runs ?? []
    runs.append(PurgedRun(createdAt: node.createdAt, start: node.offset, end: node.offset + node.length))
    if let theirs = purgeNotes[holder] { runs.append(contentsOf: theirs.runs) }
    purgeNotes[holder] = PurgeNotes(runs)
    purge(handle)
  }

  /// Where recreated characters from `offset` on of insertion `createdAt` go, by the notes:
  /// after the piece left of the first piece (or the end) whose notes hold `offset`, found
  /// walking right from piece `start` (exclusive) up to `limit` pieces and no further than
  /// `stop` (the insertion's next surviving piece, -1 for none: the characters sat before it);
  /// and the end of the noted run (characters past it sat elsewhere). Nil when no note holds
  /// them; then the insertion's surviving pieces place them (``restoreAnchor``).
  func notedPlace(of createdAt: TimeTicket, at offset: Int32, after start: Int32, until stop: Int32,
                  limit: Int = 256) -> (anchor: Int32, runEnd: Int32)? {
    guard !purgeNotes.isEmpty, let packed = packIfKnown(createdAt) else { return nil }
    var previous = start
    var handle = arena[Int(start)].next
    for _ in 0..<limit {
      let key = handle >= 0 ? handle : CRDTText.endOfText
      if let notes = purgeNotes[key], let index = notes.index(holding: offset, of: packed) {
        return (anchor(before: previous, notes: notes, runIndex: index, start: start), notes.runs[index].end)
      }
      guard handle >= 0, handle != stop else { return nil }
      previous = handle
      handle = arena[Int(handle)].next
    }
    return nil
  }

  /// The piece the characters of run `runIndex` of `notes` go after, `previous` being the piece
  /// right before the notes' holder: left of the pieces already recreated there from later runs
  /// of the same notes (they sat right of these characters), whatever order the restores came in.
  private func anchor(before previous: Int32, notes: PurgeNotes, runIndex: Int, start: Int32) -> Int32 {
    var anchor = previous
    while anchor != start, anchor != CRDTText.head {
      let piece = arena[Int(anchor)]
      guard let later = notes.index(holding: piece.offset, of: piece.createdAt), later > runIndex else { break }
      anchor = self.previous(of: anchor)
    }
    return anchor
  }

  /// The first piece of insertion `createdAt` at or after offset `offset` (-1 for none).
  func nextPiece(of createdAt: TimeTicket, from offset: Int32) -> Int32 {
    var handle = firstPiece(of: createdAt) ?? -1
    while handle >= 0 && arena[Int(handle)].offset < offset { handle = arena[Int(handle)].insNext }
    return handle
  }

  /// The piece the search for a note of the characters from `gapStart` on of insertion
  /// `createdAt` starts after: they sat after the insertion's surviving pieces before them, after
  /// the piece restored just before them, after the edit's anchor; else the head.
  func scanStart(_ createdAt: TimeTicket, gapStart: Int32, fallback: TextPosition?, chainAnchor: Int32) -> Int32 {
    if gapStart > 0, let left = floorPiece(TextNodeID(createdAt: createdAt, offset: gapStart - 1)) { return left }
    if chainAnchor >= 0 { return chainAnchor }
    if let fallback, let piece = resolve(fallback) { return piece }
    return CRDTText.head
  }

  /// Invariant 7: notes only on linked pieces (or the end), within the capacity.
  func checkPurgeNoteInvariants(linked: Set<Int32>) -> String? {
    for (handle, notes) in purgeNotes {
      if handle != CRDTText.endOfText && !linked.contains(handle) { return "purge notes on the unlinked piece \(handle)" }
      if notes.runs.isEmpty || notes.runs.count > PurgeNotes.capacity { return "piece \(handle) holds \(notes.runs.count) purge notes" }
    }
    return nil
  }
}
