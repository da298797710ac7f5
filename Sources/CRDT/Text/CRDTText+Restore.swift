// Yorkie's identity-preserving undo/redo of text edits: pieces revived or removed again by
// their original identity (Yorkie's undo/redo edits).
extension CRDTText {
  // MARK: Restoring by identity

  /// Checks the spans of a restore edit before anything is touched: offsets must
  /// be a range inside an insertion (not the head's), and every span that may have to be
  /// recreated must carry exactly `end - start` UTF-16 units of content.
  package static func validate(restoring: [RestoreSpan], removing: [RestoreSpan]) throws(YorkieError) {
    // Each list on its own: concatenated, an undo allocated an array to check one span.
    func checkRange(_ span: RestoreSpan) throws(YorkieError) {
      guard span.createdAt != .initial else {
        throw YorkieError(.invalidWireData, "a restore span cannot name the head of a text (\(span.createdAt))")
      }
      guard span.start >= 0, span.end >= span.start else {
        throw YorkieError(.invalidWireData, "restore span \(span.createdAt) has the invalid range \(span.start)..<\(span.end)")
      }
    }
    for span in restoring { try checkRange(span) }
    for span in removing { try checkRange(span) }
    for span in restoring where span.content.utf16.count != Int(span.end - span.start) {
      throw YorkieError(.invalidWireData,
                        "restore span \(span.createdAt) \(span.start)..<\(span.end) carries \(span.content.utf16.count) UTF-16 units of content")
    }
  }

  /// Removes again the characters that `spans` name by identity (Yorkie's `retombstone`, the
  /// redo of an identity-preserving undo): pieces are split at the span boundaries and the parts
  /// inside take a removal at `executedAt` when their author saw them live, as a deletion's do
  /// (CRDTText+Liveness.swift; `authorVector` nil: this replica's own, which saw everything).
  /// Purged characters are skipped.
  ///
  /// - Returns: the number of pieces removed (for garbage collection) and, when `wantsIndexes`,
  ///   the visible range each occupied just before its removal.
  package func retombstone(_ spans: [RestoreSpan], executedAt: TimeTicket, authorVector: VersionVector?, journal: Journal,
                           wantsIndexes: Bool) -> (removedCount: Int, ranges: [(from: Int, to: Int)]) {
    splitGarbage.removeAll(keepingCapacity: true)
    var removedCount = 0
    var ranges: [(from: Int, to: Int)] = []
    var knowledge = authorVector.map(Knowledge.init)
    func removeAgain(_ piece: Int32, _ span: RestoreSpan) {
      // Decided on the whole piece before splitting it: its parts share its steps.
      if var known = knowledge {
        let live = sawLive(piece, knowledge: &known)
        knowledge = known
        guard live else { return }
      } else if arena[Int(piece)].isRemoved {
        return  // this replica's own redo: only what it shows
      }
      let pieceStart = arena[Int(piece)].offset
      let pieceEnd = pieceStart + arena[Int(piece)].length
      let wasRemoved = arena[Int(piece)].isRemoved
      let target = isolate(piece, from: Swift.max(pieceStart, span.start), to: Swift.min(pieceEnd, span.end), journal: journal)
      let from = wantsIndexes && !wasRemoved ? index.offset(of: target) : 0
      if applyEffectiveRemoval(target, at: executedAt, journal: journal) {
        if wantsIndexes { ranges.append((from, from + Int(arena[Int(target)].length))) }
        removedCount += 1
      }
    }
    for span in spans {
      // One piece holding the whole span (an undo of typing): no list of pieces to allocate.
      if let only = onlyPieceOverlapping(span.createdAt, span.start, span.end) {
        removeAgain(only, span)
      } else {
        for piece in piecesOverlapping(span.createdAt, span.start, span.end) { removeAgain(piece, span) }
      }
    }
    return (removedCount, ranges)
  }

  /// Revives the characters that `spans` name by identity (Yorkie's `restore`, the undo of a
  /// deletion). For each part of a span: a live piece is left alone; a removed piece is split at
  /// the span boundaries and the part inside becomes live again; characters garbage collection
  /// purged are recreated under their original ids from the span's content, placed where the
  /// insertion's surviving pieces say they were (Yorkie's `findRestoreAnchor`), else after the
  /// piece restored just before, else at `fallback`, else at the head.
  ///
  /// Recreated pieces join their insertion's chain at their offset, so later positions resolve
  /// through them (as the JS SDK relinks them since yorkie-js-sdk#1327).
  ///
  /// A removed piece also takes back the attributes the span carries (those it had when
  /// removed), key by key at `executedAt`: a style that reached the tombstone since (the
  /// deleting update's own, or the undo's reverse style, whose range crosses it) is undone, and
  /// so is a concurrent one (its author had not seen the revival), whatever its ticket and the
  /// order of arrival, as on a replica that purged the piece and recreates it
  /// (CRDTText+Liveness.swift, rule 4). `authorVector` is what the restore's author had seen
  /// (nil: this replica's own restore).
  ///
  /// Spans must have passed ``validate(restoring:removing:)``.
  package func restore(_ spans: [RestoreSpan], executedAt: TimeTicket, fallback: TextPosition?, authorVector: VersionVector?,
                       journal: Journal) -> RestoreResult {
    splitGarbage.removeAll(keepingCapacity: true)
    var revived: [Int32] = []
    var recreated: [Int32] = []
    var attributes = StyleResult(fromIndex: 0, toIndex: 0, tombstones: [], revived: [])
    var chainAnchor: Int32 = -1
    for span in spans {
      let pieces = piecesOverlapping(span.createdAt, span.start, span.end)
      var units: [UInt16]? = nil
      var cursor = span.start
      var pieceIndex = 0
      while cursor < span.end {
        let piece: Int32 = pieceIndex < pieces.count ? pieces[pieceIndex] : -1
        let pieceStart = piece >= 0 ? arena[Int(piece)].offset : Int32.max
        let pieceEnd = piece >= 0 ? pieceStart + arena[Int(piece)].length : Int32.max
        if piece >= 0 && pieceStart <= cursor {
          let overlapEnd = Swift.min(pieceEnd, span.end)
          if arena[Int(piece)].isRemoved {
            // Live only when the revival is newer than the piece's latest removal: a peer's
            // concurrent deletion may have removed it again (CRDTText+Revival.swift).
            let target = isolate(piece, from: cursor, to: overlapEnd, journal: journal)
            resetAttributes(target, to: span, at: executedAt, authorVector: authorVector, journal: journal, into: &attributes)
            if revive(target, at: executedAt, journal: journal) { revived.append(target) }
            chainAnchor = target
          } else {
            // Live: through a concurrent revival, or because the removal this undoes never took
            // effect here (it was skipped inside a copy an undo brought back, or a snapshot
            // dropped the steps), with or without a list (garbage collection compacts steps
            // every replica has seen away). The revival is a step all the same, on exactly the span's
            // characters, as where the piece was removed: a concurrent deletion with an older
            // ticket then leaves it live on every replica, whichever came first (fuzz seed
            // 11649393: here it removed the piece, where the deletion came first the revival
            // won).
            let target = isolate(piece, from: cursor, to: overlapEnd, journal: journal)
            resetAttributes(target, to: span, at: executedAt, authorVector: authorVector, journal: journal, into: &attributes)
            _ = revive(target, at: executedAt, journal: journal)
            chainAnchor = target
          }
          cursor = overlapEnd
          if overlapEnd >= pieceEnd { pieceIndex += 1 }
        } else {
          var gapEnd = Swift.min(pieceStart, span.end)
          if units == nil { units = Array(span.content.utf16) }
          let anchor: Int32
          let stop = purgeNotes.isEmpty ? -1 : nextPiece(of: span.createdAt, from: cursor)
          if !purgeNotes.isEmpty, let noted = notedPlace(of: span.createdAt, at: cursor,
                                    after: scanStart(span.createdAt, gapStart: cursor, fallback: fallback, chainAnchor: chainAnchor),
                                    until: stop) {
            // Where a purge noted these characters were (CRDTText+PurgeNotes.swift); those past
            // the noted run sat elsewhere and are placed next.
            anchor = noted.anchor
            gapEnd = Swift.min(gapEnd, noted.runEnd)
          } else {
            anchor = restoreAnchor(span.createdAt, gapStart: cursor, gapEnd: gapEnd, executedAt: executedAt,
                                   fallback: fallback, chainAnchor: chainAnchor, journal: journal)
            if let end = notedPieceEnd(of: span.createdAt, at: cursor, after: stop) { gapEnd = Swift.min(gapEnd, end) }
          }
          let handle = recreate(span, units: units!, from: cursor, to: gapEnd, after: anchor, executedAt: executedAt, journal: journal)
          noteRecreated(handle, at: executedAt, journal: journal)
          recreated.append(handle)
          chainAnchor = handle
          cursor = gapEnd
        }
      }
    }
    return RestoreResult(revived: revived, recreated: recreated, attributes: attributes)
  }

  /// A revival's reset of piece `handle`'s attributes: `span`'s set, every other key removed,
  /// all at `revivedAt`, over whatever its author (who had seen what `authorVector` holds; nil:
  /// this replica, which saw everything) had not seen, else last writer wins (a style arriving
  /// later whose author had not seen the revival is cleared as well: see
  /// ``style(from:to:attributes:attributesToRemove:editedAt:versionVector:journal:)`` and rule 4
  /// of CRDTText+Liveness.swift).
  private func resetAttributes(_ handle: Int32, to span: RestoreSpan, at revivedAt: TimeTicket, authorVector: VersionVector?,
                               journal: Journal, into result: inout StyleResult) {
    // Nothing to set and nothing to clear (a redo of plain typing).
    if span.attributes.isEmpty && arena[Int(handle)].attributes < 0 { return }
    let setting = span.attributes.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    let others = (attributes(of: handle)?.entries ?? []).filter { span.attributes[$0.key] == nil }.map(\.key)
    let unseen: ((TimeTicket) -> Bool)? = authorVector.map { vector in { ticket in (vector[ticket.actorID] ?? 0) < ticket.lamport } }
    restyle(handle, setting: setting, removing: others, editedAt: revivedAt, overriding: unseen, journal: journal, into: &result)
  }

  /// What a restore did.
  package struct RestoreResult {
    /// The pieces made live again.
    package var revived: [Int32]
    /// The pieces recreated (garbage collection had purged them).
    package var recreated: [Int32]
    /// The attribute tombstones its restyling of removed pieces made and replaced.
    package var attributes: StyleResult
  }

  /// The pieces of insertion `createdAt`, live or removed, that overlap offsets `start..<end`,
  /// in increasing offset.
  func piecesOverlapping(_ createdAt: TimeTicket, _ start: Int32, _ end: Int32) -> [Int32] {
    var result: [Int32] = []
    var handle = firstPiece(of: createdAt) ?? -1
    while handle >= 0 {
      let node = arena[Int(handle)]
      if node.offset >= end { break }
      if node.offset + node.length > start { result.append(handle) }
      handle = node.insNext
    }
    return result
  }

  /// The characters `start..<end` of the insertion `createdAt`, live or removed; nil when the
  /// text no longer holds them all (garbage collection purged some). `hint` is a piece that
  /// may hold them all (a deletion's, see ``HistoryCapture/RemovedRun``): it is checked by
  /// identity (a purged piece's slot is cleared, and a reused one holds another insertion), and
  /// the insertion's pieces are looked up only when it no longer does (a piece split since).
  package func content(ofInsertion createdAt: TimeTicket, from start: Int32, to end: Int32, hint: Int32) -> String? {
    guard start < end else { return start == end ? "" : nil }
    if hint >= 0, Int(hint) < arena.count, let packed = packIfKnown(createdAt) {
      let piece = arena[Int(hint)]
      if piece.createdAt == packed, piece.offset <= start, end <= piece.offset + piece.length {
        let first = Int(piece.start + (start - piece.offset))
        return string(ofUnits: first..<first + Int(end - start))
      }
    }
    var units: [UInt16] = []
    units.reserveCapacity(Int(end - start))
    var cursor = start
    for handle in piecesOverlapping(createdAt, start, end) {
      let piece = arena[Int(handle)]
      guard piece.offset <= cursor else { return nil }
      let upper = Swift.min(end, piece.offset + piece.length)
      let first = Int(piece.start + (cursor - piece.offset))
      units.append(contentsOf: buffer[first..<first + Int(upper - cursor)])
      cursor = upper
    }
    guard cursor == end else { return nil }
    return String(decoding: units, as: UTF16.self)
  }

  /// The piece of insertion `createdAt` overlapping offsets `start..<end` when it is the only
  /// one (it holds them all); nil when none or several do.
  func onlyPieceOverlapping(_ createdAt: TimeTicket, _ start: Int32, _ end: Int32) -> Int32? {
    var handle = firstPiece(of: createdAt) ?? -1
    while handle >= 0 {
      let node = arena[Int(handle)]
      if node.offset >= end { return nil }
      if node.offset + node.length > start {
        return node.offset <= start && end <= node.offset + node.length ? handle : nil
      }
      handle = node.insNext
    }
    return nil
  }

  /// The piece of insertion `createdAt` whose range holds `offset`, live or removed.
  func pieceCovering(_ createdAt: TimeTicket, _ offset: Int32) -> Int32? {
    var handle = firstPiece(of: createdAt) ?? -1
    while handle >= 0 {
      let node = arena[Int(handle)]
      if node.offset > offset { return nil }
      if offset < node.offset + node.length { return handle }
      handle = node.insNext
    }
    return nil
  }

  /// Splits `piece` so that one piece covers exactly `from..<to` (offsets inside its insertion,
  /// within the piece's range) and returns that piece.
  func isolate(_ piece: Int32, from: Int32, to: Int32, journal: Journal) -> Int32 {
    var handle = piece
    if from > arena[Int(handle)].offset {
      handle = split(handle, at: Int(from - arena[Int(handle)].offset), journal: journal)
    }
    let start = arena[Int(handle)].offset
    if to < start + arena[Int(handle)].length {
      split(handle, at: Int(to - start), journal: journal)
    }
    return handle
  }

  /// The piece after which the recreated characters `gapStart..<gapEnd` of insertion
  /// `createdAt` go when no purge note places them (Yorkie's `findRestoreAnchor`): before the
  /// surviving piece that holds `gapEnd`; else after the nearest surviving piece on their left
  /// (or after the piece restored just before them, when that lies further right); else before
  /// the nearest surviving piece on their right; else after the piece restored just before them;
  /// else at the operation's anchor, read by identity; else after the head. Wherever they go
  /// after a piece, they also go after what newer restores recreated there
  /// (``pastNewerRecreations(_:of:executedAt:)``).
  func restoreAnchor(_ createdAt: TimeTicket, gapStart: Int32, gapEnd: Int32, executedAt: TimeTicket,
                     fallback: TextPosition?, chainAnchor: Int32, journal: Journal) -> Int32 {
    if let successor = pieceCovering(createdAt, gapEnd) { return previous(of: successor) }
    if gapStart > 0, let left = floorPiece(TextNodeID(createdAt: createdAt, offset: gapStart - 1)) {
      // What this restore placed just before, when it lies right of that piece: the spans come
      // in document order, so the characters sat after it (another insertion's run the
      // deletion took between the two runs of this one).
      let after = chainAnchor >= 0 && comes(chainAnchor, after: left, within: 64) ? chainAnchor : left
      return pastNewerRecreations(after, of: createdAt, executedAt: executedAt)
    }
    // Yorkie takes the insertion's last piece here; with several pieces right of the gap that
    // puts the characters after all but the last of them, where a replica that had not purged
    // them shows them before. The nearest piece on the right is where they were.
    let right = nextPiece(of: createdAt, from: gapEnd)
    if right >= 0 { return previous(of: right) }
    if chainAnchor >= 0 { return pastNewerRecreations(chainAnchor, of: createdAt, executedAt: executedAt) }
    // The operation's own anchor, the boundary its edit was made at, read by identity as an
    // edit's positions are. Yorkie re-reads it against the visible text (`refinePos`): a replica
    // that has removed characters after the anchor which the undoing replica still showed (its
    // own concurrent redo, say) then counts past them and places the characters further right,
    // so the replicas that purged diverge from those that revived in place (Yorkie's reconcile
    // cases 2, 4 and 7 with garbage collected in between). Only when the anchor does not
    // resolve by identity (a normalized position on the head, as Yorkie's undo sends, or its
    // piece purged here) is it re-read as Yorkie does; then the head, Yorkie's last fallback.
    // `boundary` throws before it changes anything.
    if let fallback {
      if let byIdentity = try? boundary(at: fallback, editedAt: executedAt, journal: journal) {
        return pastNewerRecreations(byIdentity.left, of: createdAt, executedAt: executedAt)
      }
      if let refined = refine(fallback), let byIndex = try? boundary(at: refined, editedAt: executedAt, journal: journal) {
        return pastNewerRecreations(byIndex.left, of: createdAt, executedAt: executedAt)
      }
    }
    return pastNewerRecreations(CRDTText.head, of: createdAt, executedAt: executedAt)
  }

  /// Whether piece `later` is among the `limit` pieces after piece `earlier`.
  func comes(_ later: Int32, after earlier: Int32, within limit: Int) -> Bool {
    var handle = arena[Int(earlier)].next
    for _ in 0..<limit where handle >= 0 {
      if handle == later { return true }
      handle = arena[Int(handle)].next
    }
    return false
  }

  /// `anchor`, moved right past the pieces of other insertions that restores newer than
  /// `executedAt` recreated right after it: RGA's rule for concurrent insertions at one place
  /// (the newest first), applied by the ticket of the recreation, since a recreated piece keeps
  /// its old identity, which says nothing of when it came back. Two restores that recreate at
  /// the same place so give one order in either order of arrival.
  func pastNewerRecreations(_ anchor: Int32, of createdAt: TimeTicket, executedAt: TimeTicket) -> Int32 {
    guard !livenessSteps.isEmpty else { return anchor }
    let own = packIfKnown(createdAt)
    var current = anchor
    while true {
      let next = arena[Int(current)].next
      guard next >= 0, arena[Int(next)].createdAt != own, let steps = livenessSteps[next], steps.count >= 2,
        steps[0] == LivenessStep(at: CRDTText.purgedRemoval, revives: false), isAfter(steps[1].at, executedAt)
      else { return current }
      current = next
    }
  }

  /// Re-reads a position made against an older split of the pieces (Yorkie's `refinePos`): its
  /// offset counts the content of its piece, then the visible characters of the pieces after it.
  func refine(_ position: TextPosition) -> TextPosition? {
    guard var handle = floorPiece(position.id) else { return nil }
    var offset = Int(position.relativeOffset)
    var partLength = Int(arena[Int(handle)].length)
    while offset > partLength {
      offset -= partLength
      let next = arena[Int(handle)].next
      if next < 0 { return TextPosition(id: id(of: handle), relativeOffset: Int32(partLength)) }
      handle = next
      partLength = arena[Int(handle)].isRemoved ? 0 : Int(arena[Int(handle)].length)
    }
    return TextPosition(id: id(of: handle), relativeOffset: Int32(offset))
  }

  /// Links a live piece holding the characters `from..<to` of `span` after `anchor`, under its
  /// original id, and inserts it into its insertion's chain at its offset.
  func recreate(_ span: RestoreSpan, units: [UInt16], from: Int32, to: Int32, after anchor: Int32,
                        executedAt: TimeTicket, journal: Journal) -> Int32 {
    let start = Int32(buffer.count)
    let slice = units[Int(from - span.start)..<Int(to - span.start)]
    buffer.append(contentsOf: slice)
    if !mayHoldSurrogates, slice.contains(where: { UTF16.isLeadSurrogate($0) || UTF16.isTrailSurrogate($0) }) {
      mayHoldSurrogates = true
    }
    var attributeSet: Int32 = -1
    if !span.attributes.isEmpty {
      var set = TextAttributes()
      for (key, value) in span.attributes.sorted(by: { $0.key < $1.key }) { set.set(key, value, executedAt: executedAt) }
      attributeSet = storeAttributes(set)
    }
    // The insertion's chain stays sorted by offset: find the pieces before and after `from`.
    var insPrev: Int32 = -1
    var insNext = firstPiece(of: span.createdAt) ?? -1
    while insNext >= 0 && arena[Int(insNext)].offset < from {
      insPrev = insNext
      insNext = arena[Int(insNext)].insNext
    }
    let packed = pack(span.createdAt)
    let handle = link(Piece(createdAt: packed, offset: from, start: start, length: to - from,
                            insPrev: insPrev, insNext: insNext, attributes: attributeSet),
                      after: anchor)
    if insPrev >= 0 { arena[Int(insPrev)].insNext = handle } else { setFirstPiece(packed, handle) }
    if insNext >= 0 { arena[Int(insNext)].insPrev = handle }
    journal.append(self, .recreated(handle))
    return handle
  }

}
