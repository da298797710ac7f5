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
// what a replica that never purged shows. Snapshots carry the notes in fields of their own (101
// of `TextNode`, and of `Text` for the end; `ElementCodec`), which Yorkie's decoders skip; a
// replica loaded from a Yorkie server's snapshot has none and places recreated characters as
// Yorkie does (DocC *Convergence*).
//
// A joined run keeps the offsets where its pieces met (`PurgedRun.cuts`): a replica that kept
// the tombstones revives them as the pieces they are, and toJSON shows pieces, so the restore
// recreates one piece per purged piece even when its span names them as one (a concurrent
// deletion split the tombstone after the undone deletion was captured).
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
    /// The offsets inside the run where one purged piece ended and the next began (joined
    /// runs), decreasing (a run joined on its left appends, as the purge joins them): a
    /// replica that kept the tombstones revives them as separate pieces, so the restore
    /// recreates them so too (toJSON shows pieces).
    var descendingCuts: [Int32] = []

    /// The cuts in increasing order.
    var cuts: [Int32] { descendingCuts.reversed() }

    /// Where the piece holding `offset` ended: the first cut past it, else the run's end.
    func pieceEnd(after offset: Int32) -> Int32 { descendingCuts.last { $0 > offset } ?? end }

    /// This run with `left` (which ends where it starts) joined before it.
    mutating func join(after left: PurgedRun) {
      descendingCuts.append(start)
      descendingCuts.append(contentsOf: left.descendingCuts)
      start = left.start
    }
  }

  /// The purged runs that sat just left of a piece, in document order (the nearest last): at
  /// most ``capacity``, the farthest dropped first. The nearest is stored inline, so a piece
  /// next to one purged run (most of them) costs no allocation.
  struct PurgeNotes {
    /// Sixty-four. With eight, three seeds of 1,200 (`CRDT_LONG_TESTS=300 swift test --filter
    /// threeReplicas`) dropped runs a restore needed, and replicas disagreed (DocC
    /// *Convergence*). With sixteen, one replica typing, collecting garbage and undoing fifty
    /// steps showed the wrong text in 30 of 240 seeds (`PendingKeystrokeTests`, typing at random
    /// points of a short text: every keystroke is its own insertion, so the runs it deletes never
    /// join), with sixty-four in 1. Only pieces with that many purged runs next to them pay for
    /// it; unbounded, the automerge-paper snapshot is 68% bigger than without notes, with
    /// sixty-four 18% (Benchmarks/history.md, seventh round).
    static let capacity = 64
    /// The run just left of the piece.
    private(set) var nearest: PurgedRun
    /// The runs left of `nearest`, farthest first.
    private(set) var farther: [PurgedRun] = []

    init(_ run: PurgedRun) { nearest = run }

    /// Notes of `runs` (in document order, at most ``capacity``, at least one).
    init(runs: [PurgedRun]) {
      nearest = runs[runs.count - 1]
      farther = Array(runs.dropLast())
    }

    var count: Int { farther.count + 1 }

    /// The run at `index` in document order.
    subscript(index: Int) -> PurgedRun { index < farther.count ? farther[index] : nearest }

    /// Puts `run`, which sat just left of all these runs, before them (joined to the first when
    /// it continues it in its insertion).
    ///
    /// - Returns: false when it is dropped, being the farthest of more than ``capacity``; then
    ///   so must every run left of it be: one of them could otherwise be joined to the first
    ///   run across it.
    @discardableResult
    mutating func prepend(_ run: PurgedRun) -> Bool {
      func joins(_ next: PurgedRun) -> Bool { next.createdAt == run.createdAt && next.start == run.end }
      if farther.isEmpty {
        if joins(nearest) { nearest.join(after: run) } else { farther = [run] }
      } else if joins(farther[0]) {
        farther[0].join(after: run)
      } else if count < Self.capacity {
        farther.insert(run, at: 0)
      } else {
        return false
      }
      return true
    }

    /// Puts `notes`, which sat just left of all these runs, before them.
    ///
    /// - Returns: false when one of them is dropped (and so every run left of it).
    mutating func prepend(_ notes: PurgeNotes) -> Bool {
      guard prepend(notes.nearest) else { return false }
      for run in notes.farther.reversed() {
        guard prepend(run) else { return false }
      }
      return true
    }

    /// Where the nearest run of insertion `createdAt` past `offset` starts, if one is noted.
    func laterStart(than offset: Int32, of createdAt: PackedTicket) -> Int32? {
      var result: Int32?
      for index in 0..<count where self[index].createdAt == createdAt && self[index].start > offset {
        result = Swift.min(result ?? .max, self[index].start)
      }
      return result
    }

    /// The position in document order of the run holding offset `offset` of insertion
    /// `createdAt`.
    func index(holding offset: Int32, of createdAt: PackedTicket) -> Int? {
      func holds(_ run: PurgedRun) -> Bool { run.createdAt == createdAt && run.start <= offset && offset < run.end }
      if holds(nearest) { return farther.count }
      return farther.firstIndex(where: holds)
    }
  }

  /// Purges the removed pieces `handles` (in document order) for garbage collection, each
  /// leaving a note of itself (and of the notes it held) on the piece right of it; `willPurge`
  /// sees each first.
  ///
  /// Right to left: a run of adjacent purged pieces then notes itself on the piece after it
  /// directly, each piece prepending to the same notes, instead of each handing all the notes
  /// it got to its right neighbour (a copy of up to ``PurgeNotes/capacity`` runs per piece
  /// purged). The notes are the same: a holder gets the same runs in the same order, and once
  /// one is dropped nothing left of it may join the runs kept (`closed`), as when the notes
  /// handed on stopped at the first dropped run.
  package func collect(_ handles: [Int32], willPurge: (Int32) -> Void) {
    var closed: Int32?
    for handle in handles.reversed() {
      willPurge(handle)
      let node = arena[Int(handle)]
      let holder = node.next >= 0 ? node.next : CRDTText.endOfText
      let run = PurgedRun(createdAt: node.createdAt, start: node.offset, end: node.offset + node.length)
      let own = purgeNotes.isEmpty ? nil : purgeNotes.removeValue(forKey: handle)
      if holder != closed {
        if let index = purgeNotes.index(forKey: holder) {
          var kept = purgeNotes.values[index].prepend(run)
          if kept, let own { kept = purgeNotes.values[index].prepend(own) }
          if !kept { closed = holder }
        } else {
          var notes = PurgeNotes(run)
          if let own, !notes.prepend(own) { closed = holder }
          purgeNotes[holder] = notes
        }
      }
      purge(handle)
    }
  }

  /// Where recreated characters from `offset` on of insertion `createdAt` go, by the notes:
  /// after the piece left of the first piece (or the end) whose notes hold `offset`, found
  /// walking right from piece `start` (exclusive) up to `limit` pieces and no further than
  /// `stop` (the insertion's next surviving piece, -1 for none: the characters sat before it);
  /// and where the purged piece holding `offset` ended (characters past it were another piece,
  /// or sat elsewhere). Nil when no note holds
  /// them; then the insertion's surviving pieces place them (``restoreAnchor``).
  ///
  /// `stop` may itself be recreated, from a later part of the noted run that holds `offset`
  /// (the purge joined both parts into one run, and an earlier restore brought back the later
  /// part): then nothing sat between these characters and it, and they go right before it.
  func notedPlace(of createdAt: TimeTicket, at offset: Int32, after start: Int32, until stop: Int32,
                  limit: Int = 256) -> (anchor: Int32, runEnd: Int32)? {
    guard !purgeNotes.isEmpty, let packed = packIfKnown(createdAt) else { return nil }
    var previous = start
    var handle = arena[Int(start)].next
    for step in 0..<limit {
      let key = handle >= 0 ? handle : CRDTText.endOfText
      if let notes = purgeNotes[key] {
        if let index = notes.index(holding: offset, of: packed) {
          return (anchor(before: previous, notes: notes, runIndex: index, offset: offset, start: start), notes[index].pieceEnd(after: offset))
        }
        if let laterStart = notes.laterStart(than: offset, of: packed) {
          // A later part of the insertion was purged before this piece, and these characters
          // sat before it, but their run is not noted: it was the farthest of more than the
          // capacity, dropped. They go left of every run noted here (fuzz seed 4514374), as a
          // piece that ends where that later part starts (5298355: elsewhere the two are
          // separate pieces, tombstones between them).
          return (anchor(before: previous, notes: notes, runIndex: -1, offset: offset, start: start), laterStart)
        }
      }
      guard handle >= 0 else { return nil }
      if handle == stop {
        let stopOffset = arena[Int(stop)].offset
        guard let (notes, index) = notesAhead(of: stop, holding: offset, of: packed, limit: limit - step),
          notes[index].start <= stopOffset, stopOffset < notes[index].end else { return nil }
        return (anchor(before: previous, notes: notes, runIndex: index, offset: offset, start: start),
                Swift.min(notes[index].pieceEnd(after: offset), stopOffset))
      }
      previous = handle
      handle = arena[Int(handle)].next
    }
    return nil
  }

  /// Where the purged piece holding `offset` of insertion `createdAt` ended, by a note found
  /// past `stop` (the insertion's next surviving piece), nil when none is: when the notes do
  /// not place these characters (their run was noted apart from the one `stop` came back
  /// from), they still come back as the pieces they were purged as, as a replica that kept the
  /// tombstones revives them (fuzz seed 12282913).
  func notedPieceEnd(of createdAt: TimeTicket, at offset: Int32, after stop: Int32, limit: Int = 256) -> Int32? {
    guard !purgeNotes.isEmpty, stop >= 0, let packed = packIfKnown(createdAt),
      let (notes, index) = notesAhead(of: stop, holding: offset, of: packed, limit: limit) else { return nil }
    return notes[index].pieceEnd(after: offset)
  }

  /// The notes of the first piece right of `piece` (or of the end) holding `offset` of insertion
  /// `packed`, and the run's position in them, looking at most `limit` pieces ahead.
  private func notesAhead(of piece: Int32, holding offset: Int32, of packed: PackedTicket, limit: Int) -> (PurgeNotes, Int)? {
    var handle = arena[Int(piece)].next
    for _ in 0..<Swift.max(limit, 0) {
      let key = handle >= 0 ? handle : CRDTText.endOfText
      if let notes = purgeNotes[key], let index = notes.index(holding: offset, of: packed) { return (notes, index) }
      guard handle >= 0 else { return nil }
      handle = arena[Int(handle)].next
    }
    return nil
  }

  /// The piece the characters from `offset` on of run `runIndex` of `notes` go after,
  /// `previous` being the piece right before the notes' holder: left of the pieces already
  /// recreated there from later runs of the same notes, or from the same run past `offset`
  /// (they sat right of these characters), whatever order the restores came in.
  private func anchor(before previous: Int32, notes: PurgeNotes, runIndex: Int, offset: Int32, start: Int32) -> Int32 {
    var anchor = previous
    while anchor != start, anchor != CRDTText.head {
      let piece = arena[Int(anchor)]
      guard let later = notes.index(holding: piece.offset, of: piece.createdAt),
        later > runIndex || (later == runIndex && piece.offset > offset) else { break }
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

  // MARK: Snapshots

  /// A purged run as a snapshot carries it (`ElementCodec`, fields of this SDK's own).
  package struct PurgedRunRecord: Equatable {
    package var createdAt: TimeTicket
    package var start: Int32
    package var end: Int32
    package var cuts: [Int32]

    package init(createdAt: TimeTicket, start: Int32, end: Int32, cuts: [Int32]) {
      (self.createdAt, self.start, self.end, self.cuts) = (createdAt, start, end, cuts)
    }
  }

  /// The runs noted on piece `handle` (``endOfText`` for the end), in document order.
  package func purgeNoteRecords(heldBy handle: Int32) -> [PurgedRunRecord] {
    guard !purgeNotes.isEmpty, let notes = purgeNotes[handle] else { return [] }
    return (0..<notes.count).map { index in
      let run = notes[index]
      return PurgedRunRecord(createdAt: unpack(run.createdAt), start: run.start, end: run.end, cuts: run.cuts)
    }
  }

  /// Which pieces hold purge notes, by handle, nil when none does: snapshot encoding walks
  /// every piece, and a flag per piece costs less than a hash probe per piece
  /// (`snapshot_automerge_paper`, Benchmarks/history.md).
  package func purgeNoteHolders() -> [Bool]? {
    guard !purgeNotes.isEmpty else { return nil }
    var holders = [Bool](repeating: false, count: arena.count)
    for handle in purgeNotes.keys where handle >= 0 { holders[Int(handle)] = true }
    return holders
  }

  /// Puts back the runs a snapshot noted on piece `handle` (``endOfText`` for the end): checked
  /// first, nothing changes when they are refused.
  ///
  /// - Throws: `invalidWireData` for more runs than ``PurgeNotes/capacity``, an empty or
  ///   negative range, or cuts not strictly inside it in increasing order.
  package func adoptPurgeNotes(_ records: [PurgedRunRecord], heldBy handle: Int32) throws(YorkieError) {
    guard !records.isEmpty else { return }
    guard records.count <= PurgeNotes.capacity else {
      throw YorkieError(.invalidWireData, "text \(createdAt) notes \(records.count) purged runs on one piece, more than \(PurgeNotes.capacity)")
    }
    for record in records {
      var previous = record.start
      for cut in record.cuts {
        guard cut > previous, cut < record.end else {
          throw YorkieError(.invalidWireData, "purged run \(record.createdAt) \(record.start)..<\(record.end) has the cut \(cut) out of order")
        }
        previous = cut
      }
      guard record.start >= 0, record.end > record.start else {
        throw YorkieError(.invalidWireData, "purged run \(record.createdAt) has the invalid range \(record.start)..<\(record.end)")
      }
    }
    purgeNotes[handle] = PurgeNotes(runs: records.map {
      PurgedRun(createdAt: pack($0.createdAt), start: $0.start, end: $0.end, descendingCuts: $0.cuts.reversed())
    })
  }

  /// Invariant 7: notes only on linked pieces (or the end), within the capacity.
  func checkPurgeNoteInvariants(linked: Set<Int32>) -> String? {
    for (handle, notes) in purgeNotes {
      if handle != CRDTText.endOfText && !linked.contains(handle) { return "purge notes on the unlinked piece \(handle)" }
      if notes.count > PurgeNotes.capacity { return "piece \(handle) holds \(notes.count) purge notes" }
    }
    return nil
  }
}
