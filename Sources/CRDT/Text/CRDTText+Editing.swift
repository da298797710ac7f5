// Editing a text: finding an edit's boundaries, replacing a range, styling one. The pieces,
// the index and the tickets these steps work on are in CRDTText.swift.
extension CRDTText {

  /// What an edit did.
  package struct EditResult {
    /// The visible index range the edit replaced, before it ran.
    package var fromIndex: Int
    package var toIndex: Int
    /// The number of pieces the edit removed (they are garbage to collect).
    package var removedCount: Int
    /// The piece inserted, if any.
    package var inserted: Int32?
    /// The piece a local edit removed when it removed exactly one, live and never revived (no
    /// liveness steps): what the history captures of a keystroke's deletion without reading
    /// the journal (``HistoryStep/PlainRemovedRun``). Nil otherwise.
    package var soleRemovedPiece: Int32? = nil
  }

  /// Finds the piece boundary at `position`, splitting a piece if needed, then walks past
  /// following pieces inserted concurrently with a newer ticket (RGA: they stay in front).
  ///
  /// - Parameter local: the edit was issued on this replica just now, so its ticket is newer
  ///   than every piece's (Lamport clocks) and the walk would stop at once: it is skipped, which
  ///   spares reading the next piece (often a cache miss). Debug builds check the claim.
  /// - Returns: the piece left of the boundary and the one right of it (-1 at the end).
  package func boundary(at position: TextPosition, editedAt: TimeTicket, journal: Journal,
                        local: Bool = false) throws(YorkieError) -> (left: Int32, right: Int32) {
    let absolute = position.absoluteID
    guard var handle = resolve(position) else {
      throw YorkieError(.elementNotFound, "text \(createdAt) has no piece \(absolute)")
    }
    let offset = Int(absolute.offset - arena[Int(handle)].offset)
    guard offset >= 0, offset <= Int(arena[Int(handle)].length) else {
      throw YorkieError(.elementNotFound, "text \(createdAt): offset \(absolute.offset) is outside piece \(id(of: handle))")
    }
    split(handle, at: offset, journal: journal)
    if local {
      assert({ let next = arena[Int(handle)].next; return next < 0 || !isAfter(arena[Int(next)].createdAt, editedAt) }(),
             "a local edit's ticket \(editedAt) is older than a piece right of its boundary")
      return (handle, arena[Int(handle)].next)
    }
    while true {
      let next = arena[Int(handle)].next
      if next < 0 || !isAfter(arena[Int(next)].createdAt, editedAt) { break }
      handle = next
    }
    return (handle, arena[Int(handle)].next)
  }

  /// Replaces the range `from..<to` with `content`.
  ///
  /// - Parameters:
  ///   - mode: how the edit runs. Its author's version vector (``ExecutionMode/authorVector``)
  ///     bounds the deletion: pieces the editor had not seen (inserted concurrently) are not
  ///     deleted; without one the editor knew everything. The result's indexes are computed
  ///     only when the mode describes the edit, or when they are known.
  ///   - knownRange: the visible index range the positions name, when the caller (a local
  ///     edit, which made the positions from these indexes) has it.
  package func edit(from: TextPosition, to: TextPosition, content: String, attributes: [String: String]?,
                    editedAt: TimeTicket, mode: ExecutionMode, journal: Journal,
                    knownRange: (Int, Int)? = nil) throws(YorkieError) -> EditResult {
    if !splitGarbage.isEmpty { splitGarbage.removeAll(keepingCapacity: true) }
    assert(knownRange == nil || mode.issuesNewestTickets, "only this replica's own edit, made just now, knows its range")
    let local = mode.issuesNewestTickets
    let versionVector = mode.authorVector
    let wantsIndexes = mode.describes
    let (toLeft, toRight) = try boundary(at: to, editedAt: editedAt, journal: journal, local: local)
    // Splitting moves no visible text, so the boundary's index can be read before the next split
    // (a local edit already knows it: its positions were made from these indexes).
    let toIndex = knownRange?.1 ?? (wantsIndexes ? visibleIndex(before: toRight) : 0)
    // Resolving the same position again lands on the same boundary, so an insertion does it once.
    let (fromLeft, fromRight) = from == to ? (toLeft, toRight) : try boundary(at: from, editedAt: editedAt, journal: journal, local: local)
    let fromIndex = knownRange?.0 ?? (wantsIndexes ? visibleIndex(before: fromRight) : 0)
    var removedCount = 0
    var soleRemoved: Int32? = nil
    if from == to {
      // An insertion: the range is empty, nothing to remove.
    } else if versionVector == nil {
      // A local edit knows every piece and every tombstone in the range, so only the live
      // pieces matter: find them through the index instead of walking over tombstones.
      let known = wantsIndexes || knownRange != nil
      let start = known ? fromIndex : visibleIndex(before: fromRight)
      let end = known ? toIndex : visibleIndex(before: toRight)
      var remaining = end - start
      let packedEditedAt = pack(editedAt)
      var plainRemoved: Int32 = -1
      // The next live piece is usually a step or two along the chain from the boundary (a
      // backspace removes the piece right after it); past a few tombstones, ask the index.
      var candidate = fromRight
      while remaining > 0 {
        var handle: Int32 = -1
        var steps = 0
        while candidate >= 0 && steps < 8 {
          if !arena[Int(candidate)].isRemoved {
            handle = candidate
            break
          }
          candidate = arena[Int(candidate)].next
          steps += 1
        }
        if handle < 0 {
          guard let found = index.find(start), found.offset == 0 else { break }
          handle = found.handle
        }
        candidate = arena[Int(handle)].next
        remaining -= Int(arena[Int(handle)].length)
        if !livenessSteps.isEmpty && livenessSteps[handle] != nil {
          // A revived piece keeps its steps (CRDTText+Liveness.swift).
          _ = applyEffectiveRemoval(handle, at: editedAt, journal: journal)
          removedCount += 1
          continue
        }
        journal.append(self, .removal(handle, nil))
        let sizeBefore = pieceSize(arena[Int(handle)])
        arena[Int(handle)].removal = storeRemoval(packedEditedAt)
        sizeTally += pieceSize(arena[Int(handle)]) - sizeBefore
        index.setWeight(handle, 0)
        removedCount += 1
        plainRemoved = handle
      }
      if removedCount == 1 && plainRemoved >= 0 { soleRemoved = plainRemoved }
    } else if let versionVector {
      var handle = fromRight
      var knowledge = Knowledge(versionVector)
      while handle >= 0 && handle != toRight {
        let next = arena[Int(handle)].next
        // The deletion removes what its author saw live (CRDTText+Liveness.swift).
        if knowledge.knows(arena[Int(handle)].createdAt, in: self) && sawLive(handle, knowledge: &knowledge) {
          _ = applyEffectiveRemoval(handle, at: editedAt, journal: journal)
          removedCount += 1
        }
        handle = next
      }
    }
    var inserted: Int32? = nil
    let start = Int32(buffer.count)
    let unitCount = appendUnits(of: content)
    if unitCount > 0 {
      var attributeSet: Int32 = -1
      if let attributes, !attributes.isEmpty {
        var set = TextAttributes()
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { set.set(key, value, executedAt: editedAt) }
        attributeSet = storeAttributes(set)
      }
      let packed = pack(editedAt)
      let node = Piece(createdAt: packed, offset: 0, start: start, length: Int32(unitCount), attributes: attributeSet)
      let newHandle = link(node, after: fromLeft)
      setFirstPieceOfNewInsertion(newHandle)
      journal.appendUnlinkInserted(self, newHandle)
      inserted = newHandle
    }
    if knownRange != nil {
      // A local edit's start was made from a visible index, so the piece left of it is live
      // (or the head) and ends there.
      let left = fromLeft == CRDTText.head ? Int32(-1) : fromLeft
      let leftStart = left < 0 ? 0 : fromIndex - Int(arena[Int(left)].length)
      nearEdit = (inserted ?? left, inserted == nil ? leftStart : fromIndex, inserted == nil ? -1 : left, leftStart, index.version)
    }
    return EditResult(fromIndex: fromIndex, toIndex: toIndex, removedCount: removedCount, inserted: inserted,
                      soleRemovedPiece: soleRemoved)
  }


  /// An editor's version vector with the last actor looked up cached, by interned actor.
  struct Knowledge {
    let versionVector: VersionVector
    var actor: UInt32 = .max
    var lamport: Int64 = 0

    init(_ versionVector: VersionVector) { self.versionVector = versionVector }

    /// The greatest Lamport clock the editor had seen of interned `actor` (0 if none).
    @inline(__always) mutating func lamport(of actor: UInt32, in text: CRDTText) -> Int64 {
      if actor != self.actor {
        self.actor = actor
        lamport = versionVector[text.actors[Int(actor)]] ?? 0
      }
      return lamport
    }

    /// Whether the editor had seen packed `ticket`.
    @inline(__always) mutating func knows(_ ticket: PackedTicket, in text: CRDTText) -> Bool {
      lamport(of: ticket.actor, in: text) >= ticket.lamport
    }
  }

  /// An attribute tombstone a style wrote: garbage from `removedAt` on.
  package struct AttributeTombstone {
    /// The piece's handle.
    package var piece: Int32
    /// The attribute's key.
    package var key: String
    /// The tombstone's ticket (the style's, or the revival's it gave way to).
    package var removedAt: TimeTicket
  }

  /// What a style change did.
  package struct StyleResult {
    package var fromIndex: Int
    package var toIndex: Int
    /// Attribute tombstones created or stamped anew.
    package var tombstones: [AttributeTombstone]
    /// Attribute tombstones that a newer value replaced (no longer garbage).
    package var revived: [(TextNodeID, String, TimeTicket)]
  }

  /// Sets and removes attributes on the pieces of `from..<to` that the editor had seen.
  package func style(from: TextPosition, to: TextPosition, attributes: [String: String], attributesToRemove: [String],
                     editedAt: TimeTicket, versionVector: VersionVector?, journal: Journal) throws(YorkieError) -> StyleResult {
    splitGarbage.removeAll(keepingCapacity: true)
    let (_, toRight) = try boundary(at: to, editedAt: editedAt, journal: journal)
    let toIndex = visibleIndex(before: toRight)
    let (_, fromRight) = try boundary(at: from, editedAt: editedAt, journal: journal)
    let fromIndex = visibleIndex(before: fromRight)
    var result = StyleResult(fromIndex: fromIndex, toIndex: toIndex, tombstones: [], revived: [])
    var handle = fromRight
    let sortedAttributes = attributes.sorted { $0.key < $1.key }
    var knowledge = versionVector.map(Knowledge.init)
    while handle >= 0 && handle != toRight {
      let node = arena[Int(handle)]
      let known = versionVector.map { ($0[actors[Int(node.createdAt.actor)]] ?? 0) >= node.createdAt.lamport } ?? true
      if known {
        if !livenessSteps.isEmpty, let revival = revivalUnseen(by: &knowledge, of: handle, editedAt: editedAt) {
          // A revival this style's author had not seen reset the piece's attributes: what the
          // style writes is what the revival cleared (CRDTText+Liveness.swift, rule 4).
          let keys = sortedAttributes.map(\.key) + attributesToRemove
          restyle(handle, setting: [], removing: keys, editedAt: unpack(revival), journal: journal, into: &result)
        } else {
          restyle(handle, setting: sortedAttributes, removing: attributesToRemove, editedAt: editedAt, journal: journal, into: &result)
        }
      }
      handle = arena[Int(handle)].next
    }
    return result
  }

  /// Sets `attributes` (sorted by key) and removes `keysToRemove` on piece `handle` at
  /// `editedAt`, each key last writer wins (or replacing what `overrides` accepts); notes the
  /// attribute tombstones made and replaced.
  func restyle(_ handle: Int32, setting attributes: [(key: String, value: String)], removing keysToRemove: [String],
               editedAt: TimeTicket, overriding overrides: ((TimeTicket) -> Bool)? = nil, journal: Journal,
               into result: inout StyleResult) {
    let node = arena[Int(handle)]
    var set = node.attributes >= 0 ? attributeSets[Int(node.attributes)] : TextAttributes()
    let before = set
    for (key, value) in attributes {
      let outcome = set.set(key, value, executedAt: editedAt, overriding: overrides)
      if let old = outcome.replacedTombstone { result.revived.append((id(ofPiece: node), key, old.updatedAt)) }
    }
    for key in keysToRemove where set.remove(key, executedAt: editedAt, overriding: overrides) {
      result.tombstones.append(AttributeTombstone(piece: handle, key: key, removedAt: editedAt))
    }
    if set != before {
      journal.append(self, .attributes(handle, node.attributes >= 0 ? before : nil))
      setAttributes(handle, set)
    }
  }

  /// The attributes of a piece.
  package func attributes(of handle: Int32) -> TextAttributes? {
    let set = arena[Int(handle)].attributes
    return set >= 0 ? attributeSets[Int(set)] : nil
  }

  /// The number of visible units before piece `handle`.
  package func visibleIndex(of handle: Int32) -> Int { index.offset(of: handle) }

  /// The number of visible units before piece `handle` (the whole length for -1, the end).
  @inline(__always) private func visibleIndex(before handle: Int32) -> Int {
    handle >= 0 ? index.offset(of: handle) : length
  }
}
