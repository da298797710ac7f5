/// Collaborative text: Yorkie's `RGATreeSplit`, a chain of pieces of text in document order.
///
/// Every insertion adds one piece named by the edit's ticket. Pieces are split when an edit
/// starts or ends inside them; the parts keep the insertion's ticket and record their offset
/// inside it, so a position — (piece, offset) — means the same place on every replica. Deleted
/// pieces stay as tombstones until garbage collection.
///
/// ```
///  head ─▶ [5:a:1 +0 "He"] ─▶ [7:b:1 +0 "y"] ─▶ [5:a:1 +2 "llo"]{removed} ─▶ …
///                 └──────── insNext ─────────────────────▲
/// ```
///
/// Storage: pieces live in an arena addressed by `Int32` handles, 48 bytes each (``Piece``:
/// tickets name their actor by an index into the text's actor table, a removed piece's removal
/// ticket sits in a side table, and the chain is linked forward only); their UTF-16 content
/// lives in one append-only buffer (a piece is a range of it, so splitting copies nothing); a
/// ``SequenceIndex`` weighted by visible length maps indexes to pieces in O(log n) and gives a
/// piece's predecessor; a ``PieceTable`` finds the first piece of an insertion, and the
/// `insNext` chain the others. A long text costs about 85 bytes a piece in all
/// (``memoryBreakdown``).
///
/// Invariants (``checkInvariants()``):
/// 1. Following `next` from the head visits every piece once.
/// 2. The index holds every piece in chain order, weighted by its length when live, 0 when removed.
/// 3. The pieces of one insertion form an `insPrev`/`insNext` chain in increasing offset;
///    `firstPiece` names the chain's head. (A piece split off in the running transaction follows
///    its left part in the buffer, which rollback relies on; decoded pieces need not.)
/// 4. Attribute sets are referenced by at most one piece.
/// 5. Every removed piece holds its own slot in `removals`; every other slot is free.
/// 6. Liveness steps obey L1–L2 of CRDTText+Liveness.swift.
/// 7. Purge notes are kept only for linked pieces (and the end of the text), at most
///    ``PurgeNotes/capacity`` runs each (CRDTText+PurgeNotes.swift).
package final class CRDTText: CRDTElement {
  /// A piece as the arena stores it: 48 bytes (it was 88 with full tickets inline). Tickets
  /// are ``PackedTicket``s (the actor is an index into ``actors``), and a removed piece's
  /// removal ticket lives in ``removals``, so a live piece pays 4 bytes for it instead of 25.
  package struct Piece {
    /// The ticket of the insertion the piece belongs to.
    package var createdAt: PackedTicket
    /// The piece's offset inside its insertion.
    package var offset: Int32
    /// Where the piece's content starts in ``buffer``.
    package var start: Int32
    package var length: Int32
    /// The piece's slot in ``removals`` when removed, else -1.
    package var removal: Int32
    /// The next piece in document order (-1 at the end). The previous one is the index's
    /// (``CRDTText/previous(of:)``): only unlinking and undo need it.
    package var next: Int32
    package var insPrev: Int32
    package var insNext: Int32
    package var attributes: Int32

    /// A live piece.
    @inline(__always) init(createdAt: PackedTicket, offset: Int32, start: Int32, length: Int32,
                           next: Int32 = -1, insPrev: Int32 = -1, insNext: Int32 = -1, attributes: Int32 = -1) {
      self.createdAt = createdAt
      self.offset = offset
      self.start = start
      self.length = length
      self.removal = -1
      self.next = next
      self.insPrev = insPrev
      self.insNext = insNext
      self.attributes = attributes
    }

    @inline(__always) package var isRemoved: Bool { removal >= 0 }
  }

  /// A piece with its tickets unpacked, as readers outside the text see it (see ``node(_:)``).
  package struct Node {
    package var id: TextNodeID
    package var start: Int32
    package var length: Int32
    package var removedAt: TimeTicket?
    package var next: Int32
    package var insPrev: Int32
    package var insNext: Int32
    package var attributes: Int32

    package var isRemoved: Bool { removedAt != nil }
  }

  /// Read access to the pieces by handle, unpacked (``Node``): `text.nodes[i]`.
  package struct Nodes {
    let text: CRDTText

    /// The piece at handle `index`.
    @inline(__always) package subscript(index: Int) -> Node { text.node(Int32(index)) }

    /// The number of handles (live, removed and free).
    package var count: Int { text.arena.count }
  }

  package static let head: Int32 = 0

  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  @exclusivity(unchecked) package internal(set) var arena = PagedArray<Piece>()
  @exclusivity(unchecked) var freeHandles: [Int32] = []
  /// Removal tickets of removed pieces, by ``Piece/removal`` slot; free slots are listed in
  /// `freeRemovals`.
  @exclusivity(unchecked) var removals = PagedArray<PackedTicket>()
  @exclusivity(unchecked) var freeRemovals: [Int32] = []
  /// The liveness steps of pieces revived or removed twice, by handle (CRDTText+Liveness.swift).
  var livenessSteps: [Int32: [LivenessStep]] = [:]
  /// What garbage collection purged just left of a piece, by the handle of the piece (or
  /// ``CRDTText/endOfText``): where a restore recreates those characters (CRDTText+PurgeNotes.swift).
  var purgeNotes: [Int32: PurgeNotes] = [:]
  /// The actors of the text's tickets; a ``PackedTicket`` names one by its index here.
  @exclusivity(unchecked) package private(set) var actors: [ActorID] = [.initial]
  @exclusivity(unchecked) private var actorIndexes: [ActorID: UInt32] = [.initial: 0]
  /// The actor interned or looked up last and its index in `actors` (most edits come from
  /// one actor).
  @exclusivity(unchecked) private var lastActorID = ActorID.initial
  @exclusivity(unchecked) private var lastActor = 0
  @exclusivity(unchecked) package internal(set) var buffer: [UInt16] = []
  /// Whether any content ever held a surrogate (if not, no offset can split a pair).
  @exclusivity(unchecked) package internal(set) var mayHoldSurrogates = false
  @exclusivity(unchecked) var index = SequenceIndex()
  /// Two live pieces next to the last local edit, with the visible index each starts at: the
  /// piece the edit inserted (if any) and the one left of the edit's start. They are valid while
  /// the index has not changed since (`index.version`). Typing and deleting ask next for a
  /// position at the end of one of them, which is then known without a search.
  @exclusivity(unchecked) var nearEdit: (first: Int32, firstStart: Int, second: Int32, secondStart: Int, version: Int)
    = (-1, 0, -1, 0, -1)
  /// Insertion ticket → the insertion's first piece (see ``PieceTable``).
  @exclusivity(unchecked) var pieceTable = PieceTable<PackedTicket>()
  /// Pieces of local insertions not entered in `pieceTable` yet (see ``enterPendingFirstPieces()``).
  @exclusivity(unchecked) var pendingFirstPieces: [Int32] = []
  @exclusivity(unchecked) package internal(set) var attributeSets: [TextAttributes] = []
  @exclusivity(unchecked) var freeAttributeSets: [Int32] = []
  /// Pieces split off during the current edit or style that carry garbage of their own (they
  /// were split off a tombstone, or carry attribute tombstones): the caller registers them.
  @exclusivity(unchecked) package internal(set) var splitGarbage: [Int32] = []
  /// A running sum of how the forward steps of edits (linking a piece, splitting one, removing
  /// or restoring one, changing its attributes) changed the text's size. Only differences mean
  /// something: an operation reads it before and after, and charges the difference to the
  /// root (``CRDTRoot/charge(_:in:journal:)``). Rollback and garbage collection do not keep it
  /// (the root restores its total, and measures what it purges).
  package internal(set) var sizeTally = DocSize()

  package init(createdAt: TimeTicket) {
    arena.append(Piece(createdAt: PackedTicket(lamport: 0, delimiter: 0, actor: 0), offset: 0, start: 0, length: 0))
    super.init(createdAt: createdAt, tag: Self.tag)
  }

  /// The pieces by handle, unpacked.
  package var nodes: Nodes { Nodes(text: self) }

  // MARK: Tickets

  /// The index of `actor` in ``actors``, adding it when new.
  @inline(__always) func intern(_ actor: ActorID) -> UInt32 {
    if lastActorID == actor { return UInt32(lastActor) }
    return internSlow(actor)
  }

  private func internSlow(_ actor: ActorID) -> UInt32 {
    lastActorID = actor
    if let known = actorIndexes[actor] {
      lastActor = Int(known)
      return known
    }
    let added = UInt32(actors.count)
    actors.append(actor)
    actorIndexes[actor] = added
    lastActor = Int(added)
    return added
  }

  /// `ticket` packed, its actor interned.
  @inline(__always) func pack(_ ticket: TimeTicket) -> PackedTicket {
    PackedTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actor: intern(ticket.actorID))
  }

  /// `ticket` packed when the text knows its actor (else no piece can carry it).
  @inline(__always) func packIfKnown(_ ticket: TimeTicket) -> PackedTicket? {
    if lastActorID == ticket.actorID {
      return PackedTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actor: UInt32(lastActor))
    }
    guard let actor = actorIndexes[ticket.actorID] else { return nil }
    return PackedTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actor: actor)
  }

  /// The full ticket of a packed one.
  @inline(__always) func unpack(_ ticket: PackedTicket) -> TimeTicket {
    TimeTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actorID: actors[Int(ticket.actor)])
  }

  /// Whether packed `lhs` orders after `rhs` (``TimeTicket`` order: lamport, actor, delimiter).
  @inline(__always) func isAfter(_ lhs: PackedTicket, _ rhs: TimeTicket) -> Bool {
    let lamport = lhs.lamport
    if lamport != rhs.lamport { return lamport > rhs.lamport }
    let actor = actors[Int(lhs.actor)]
    if actor != rhs.actorID { return actor > rhs.actorID }
    return lhs.delimiter > rhs.delimiter
  }

  /// Whether packed `lhs` orders after packed `rhs`.
  @inline(__always) func isAfter(_ lhs: PackedTicket, _ rhs: PackedTicket) -> Bool {
    let (l, r) = (lhs.lamport, rhs.lamport)
    if l != r { return l > r }
    if lhs.actor != rhs.actor { return actors[Int(lhs.actor)] > actors[Int(rhs.actor)] }
    return lhs.delimiter > rhs.delimiter
  }

  /// The id of a piece, unpacked.
  @inline(__always) func id(ofPiece piece: Piece) -> TextNodeID {
    TextNodeID(createdAt: unpack(piece.createdAt), offset: piece.offset)
  }

  /// Whether piece `handle` has id `id`.
  @inline(__always) func piece(_ handle: Int32, is id: TextNodeID) -> Bool {
    let piece = arena[Int(handle)]
    guard piece.offset == id.offset, let packed = packIfKnown(id.createdAt) else { return false }
    return piece.createdAt == packed
  }

  /// The removal ticket of piece `handle`, nil when live.
  @inline(__always) func removedAt(_ handle: Int32) -> TimeTicket? {
    let slot = arena[Int(handle)].removal
    return slot >= 0 ? unpack(removals[Int(slot)]) : nil
  }

  /// Sets the removal ticket of piece `handle` (nil: live), reusing or freeing its slot. Does not
  /// touch the index.
  func setRemovedAt(_ handle: Int32, _ removedAt: TimeTicket?) {
    let slot = arena[Int(handle)].removal
    guard let removedAt else {
      if slot >= 0 {
        let before = pieceSize(arena[Int(handle)])
        freeRemovals.append(slot)
        arena[Int(handle)].removal = -1
        sizeTally += pieceSize(arena[Int(handle)]) - before
      }
      return
    }
    let packed = pack(removedAt)
    if slot >= 0 {
      removals[Int(slot)] = packed
    } else {
      let before = pieceSize(arena[Int(handle)])
      arena[Int(handle)].removal = storeRemoval(packed)
      sizeTally += pieceSize(arena[Int(handle)]) - before
    }
  }

  /// Appends the UTF-16 code units of `content` to the buffer, noting whether it may now hold
  /// surrogates, and returns how many it appended. ASCII content (what typing mostly inserts)
  /// is copied byte by byte without decoding.
  @inline(__always) func appendUnits(of content: String) -> Int {
    let ascii: Int? = content.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      for byte in bytes where byte >= 0x80 { return nil }
      reserveBuffer(bytes.count)
      for byte in bytes { buffer.append(UInt16(byte)) }
      return bytes.count
    } ?? nil
    if let ascii { return ascii }
    let before = buffer.count
    reserveBuffer(content.utf8.count)
    buffer.append(contentsOf: content.utf16)
    if !mayHoldSurrogates, buffer[before...].contains(where: UTF16.isLeadSurrogate) { mayHoldSurrogates = true }
    return buffer.count - before
  }

  /// Makes room in ``buffer`` for `extra` more units: doubling while small, by an eighth past
  /// 64Ki units (the content is appended to for the text's whole life; its slack is held for
  /// nothing).
  @inline(__always) func reserveBuffer(_ extra: Int) {
    let needed = buffer.count + extra
    if needed > buffer.capacity {
      buffer.reserveCapacity(needed < 1 << 16 ? Swift.max(2 * needed, 64) : needed + needed / 8)
    }
  }

  /// The piece before piece `handle` in document order (the head for the first).
  ///
  /// - Complexity: O(log n), through the index.
  func previous(of handle: Int32) -> Int32 { index.handle(before: handle) ?? CRDTText.head }

  /// A removal slot holding `ticket`.
  @inline(__always) func storeRemoval(_ ticket: PackedTicket) -> Int32 {
    if let reused = freeRemovals.popLast() {
      removals[Int(reused)] = ticket
      return reused
    }
    removals.append(ticket)
    return Int32(removals.count - 1)
  }

  // MARK: Reading

  /// The visible length in UTF-16 code units.
  package var length: Int { index.totalWeight }

  /// The visible content.
  package var string: String {
    var units: [UInt16] = []
    units.reserveCapacity(length)
    var handle = arena[Int(CRDTText.head)].next
    while handle >= 0 {
      let node = arena[Int(handle)]
      if !node.isRemoved { units.append(contentsOf: buffer[Int(node.start)..<Int(node.start + node.length)]) }
      handle = node.next
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// The UTF-16 unit at visible `index`.
  package func unit(at position: Int) -> UInt16? {
    guard let found = index.find(position) else { return nil }
    return buffer[Int(arena[Int(found.handle)].start) + found.offset]
  }

  /// A piece, unpacked. (Inlined, so that a caller reading only some fields does not pay for
  /// unpacking the others.)
  @inline(__always) package func node(_ handle: Int32) -> Node {
    let piece = arena[Int(handle)]
    return Node(id: id(ofPiece: piece), start: piece.start, length: piece.length, removedAt: removedAt(handle),
                next: piece.next, insPrev: piece.insPrev, insNext: piece.insNext, attributes: piece.attributes)
  }

  /// The id of a piece.
  @inline(__always) package func id(of handle: Int32) -> TextNodeID { id(ofPiece: arena[Int(handle)]) }

  /// Whether a piece is removed.
  @inline(__always) package func isRemoved(_ handle: Int32) -> Bool { arena[Int(handle)].isRemoved }

  /// The content of a piece.
  package func content(of handle: Int32) -> String {
    let node = arena[Int(handle)]
    return string(ofUnits: Int(node.start)..<Int(node.start + node.length))
  }

  /// The characters of ``buffer``'s units `range`, as a string.
  func string(ofUnits range: Range<Int>) -> String {
    let units = buffer[range]
    // ASCII (most pieces): the units are the UTF-8 bytes, copied straight into the string
    // (no buffer for 15 bytes or fewer). Decoding UTF-16 goes through the standard library's
    // generic transcoder, which allocates: it was most of what the history's capture of a
    // deleted character cost (Benchmarks/history.md).
    if units.allSatisfy({ $0 < 0x80 }) {
      return String(unsafeUninitializedCapacity: units.count) { bytes in
        var written = 0
        for unit in units {
          bytes[written] = UInt8(truncatingIfNeeded: unit)
          written += 1
        }
        return written
      }
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Every piece after the head, in order.
  package var pieces: [Int32] {
    var result: [Int32] = []
    var handle = arena[Int(CRDTText.head)].next
    while handle >= 0 {
      result.append(handle)
      handle = arena[Int(handle)].next
    }
    return result
  }

  /// Bytes held by the text's buffers: pieces, removal tickets, actors, content, index, lookup
  /// table, attribute sets and free lists (capacities, so what the allocator holds for them).
  package var memoryFootprint: Int { memoryBreakdown.reduce(0) { $0 + $1.bytes } }

  /// ``memoryFootprint`` per structure, for benchmarks and tuning.
  package var memoryBreakdown: [(name: String, bytes: Int)] {
    [
      ("pieces", arena.memoryFootprint),
      ("removals", removals.memoryFootprint),
      ("actors", actors.capacity * MemoryLayout<ActorID>.stride
        + actorIndexes.capacity * 4 / 3 * (MemoryLayout<ActorID>.stride + MemoryLayout<UInt32>.stride)),
      ("buffer", buffer.capacity * 2),
      ("index.leaves", index.memoryBreakdown[0].bytes),
      ("index.inners", index.memoryBreakdown[1].bytes),
      ("index.leafOf", index.memoryBreakdown[2].bytes),
      ("index.free", index.memoryBreakdown[3].bytes),
      ("pieceTable", pieceTable.memoryFootprint + pendingFirstPieces.capacity * 4),
      ("freeLists", (freeHandles.capacity + freeRemovals.capacity + freeAttributeSets.capacity + splitGarbage.capacity) * 4),
      ("attributes", attributeSets.capacity * MemoryLayout<TextAttributes>.stride
        + attributeSets.reduce(0) { $0 + $1.entries.capacity * MemoryLayout<TextAttributes.Entry>.stride }),
      ("purgeNotes", purgeNotes.capacity * 4 / 3 * (MemoryLayout<Int32>.stride + MemoryLayout<PurgeNotes>.stride)
        + purgeNotes.values.reduce(0) { $0 + ($1.farther.isEmpty ? 0 : 32 + $1.farther.capacity * MemoryLayout<PurgedRun>.stride) }),
    ]
  }

  // MARK: First pieces

  /// The first piece of the insertion created at `createdAt`.
  @inline(__always) func firstPiece(of createdAt: TimeTicket) -> Int32? {
    guard let packed = packIfKnown(createdAt) else { return nil }
    return firstPiece(of: packed)
  }

  /// The first piece of the insertion created at packed `createdAt`.
  @inline(__always) func firstPiece(of createdAt: PackedTicket) -> Int32? {
    enterPendingFirstPieces()
    return pieceTable.value(createdAt) { arena[Int($0)].createdAt }
  }

  /// Names `handle` (a piece of that insertion, already in the arena) as the insertion's first.
  @inline(__always) func setFirstPiece(_ createdAt: PackedTicket, _ handle: Int32) {
    enterPendingFirstPieces()
    pieceTable.set(createdAt, handle) { arena[Int($0)].createdAt }
  }

  /// Forgets the insertion (before its last piece leaves the arena).
  @inline(__always) func removeFirstPiece(_ createdAt: PackedTicket) {
    enterPendingFirstPieces()
    pieceTable.remove(createdAt) { arena[Int($0)].createdAt }
  }

  /// Names `handle` as the insertion's first piece unless one is named; returns that one.
  @inline(__always) func insertFirstPieceIfAbsent(_ createdAt: PackedTicket, _ handle: Int32) -> Int32? {
    enterPendingFirstPieces()
    return pieceTable.insertIfAbsent(createdAt, handle) { arena[Int($0)].createdAt }
  }

  /// Names `handle`, the piece of a local insertion made just now under a ticket no piece has,
  /// as its insertion's first piece — later. Local typing never looks insertions up by
  /// ticket (its positions carry arena hints), so the table entries are made in one pass the
  /// first time anything reads or changes the table: a remote change, garbage collection,
  /// a restore, a rollback. Until then each insertion costs an append instead of a probe
  /// into a large table.
  @inline(__always) func setFirstPieceOfNewInsertion(_ handle: Int32) {
    pendingFirstPieces.append(handle)
  }

  /// Enters the pending first pieces in the table (their pieces are still in the arena under
  /// the same ticket: anything that could purge or unlink one enters them first).
  @inline(__always) package func enterPendingFirstPieces() {
    guard !pendingFirstPieces.isEmpty else { return }
    enterPendingFirstPiecesNow()
  }

  private func enterPendingFirstPiecesNow() {
    for handle in pendingFirstPieces {
      pieceTable.set(arena[Int(handle)].createdAt, handle) { arena[Int($0)].createdAt }
    }
    pendingFirstPieces.removeAll(keepingCapacity: pendingFirstPieces.capacity <= 4096)
  }


  // MARK: Structure

  /// Splits piece `handle` so that a boundary falls `offset` units into it.
  ///
  /// - Returns: the part split off (right of the boundary), or -1 when `offset` is at an end.
  @discardableResult
  func split(_ handle: Int32, at offset: Int, journal: Journal) -> Int32 {
    let node = arena[Int(handle)]
    guard offset > 0, offset < Int(node.length) else { return -1 }
    var attributeSet: Int32 = -1
    if node.attributes >= 0 { attributeSet = storeAttributes(attributeSets[Int(node.attributes)]) }
    var right = Piece(createdAt: node.createdAt, offset: node.offset + Int32(offset), start: node.start + Int32(offset),
                      length: node.length - Int32(offset), insPrev: handle, insNext: node.insNext, attributes: attributeSet)
    if node.isRemoved { right.removal = storeRemoval(removals[Int(node.removal)]) }
    let steps = livenessSteps.isEmpty ? nil : livenessSteps[handle]
    arena[Int(handle)].length = Int32(offset)
    // The content moves to the new piece, which `link` charges whole.
    let moved = DataSize(data: Int(right.length) &* 2)
    if node.isRemoved { sizeTally.gc -= moved } else { sizeTally.live -= moved }
    if !node.isRemoved { index.setWeight(handle, offset) }
    let rightHandle = link(right, after: handle)
    // Both parts keep the record; rolling the split back unlinks the right part, and its copy.
    if let steps { livenessSteps[rightHandle] = steps }
    if node.insNext >= 0 { arena[Int(node.insNext)].insPrev = rightHandle }
    arena[Int(handle)].insNext = rightHandle
    journal.append(self, .split(left: handle, right: rightHandle))
    if node.isRemoved || (attributeSet >= 0 && attributeSets[Int(attributeSet)].entries.contains { $0.isRemoved }) {
      splitGarbage.append(rightHandle)
    }
    return rightHandle
  }

  func setAttributes(_ handle: Int32, _ set: TextAttributes) {
    let sizeBefore = pieceSize(arena[Int(handle)])
    defer { sizeTally += pieceSize(arena[Int(handle)]) - sizeBefore }
    let current = arena[Int(handle)].attributes
    if current >= 0 {
      attributeSets[Int(current)] = set
    } else {
      arena[Int(handle)].attributes = storeAttributes(set)
    }
  }

  func storeAttributes(_ set: TextAttributes) -> Int32 {
    if let reused = freeAttributeSets.popLast() {
      attributeSets[Int(reused)] = set
      return reused
    }
    attributeSets.append(set)
    return Int32(attributeSets.count - 1)
  }

  func releaseAttributes(_ set: Int32) {
    guard set >= 0 else { return }
    attributeSets[Int(set)] = TextAttributes()
    freeAttributeSets.append(set)
  }

  func link(_ node: Piece, after anchor: Int32, indexed: Bool = true) -> Int32 {
    var node = node
    node.next = arena[Int(anchor)].next
    let handle: Int32
    if let reused = freeHandles.popLast() {
      handle = reused
      arena[Int(handle)] = node
    } else {
      handle = Int32(arena.count)
      arena.append(node)
    }
    arena[Int(anchor)].next = handle
    sizeTally += pieceSize(node)
    if indexed {
      index.insert(handle, weight: node.isRemoved ? 0 : Int(node.length), after: anchor == CRDTText.head ? nil : anchor)
    }
    return handle
  }

  func unlink(_ handle: Int32) {
    let node = arena[Int(handle)]
    let previous = index.removeReturningPrevious(handle) ?? CRDTText.head
    arena[Int(previous)].next = node.next
    if node.isRemoved { freeRemovals.append(node.removal) }
    if !livenessSteps.isEmpty { livenessSteps[handle] = nil }
    // Purge notes: only garbage collection unlinks a piece that can hold some, and it takes
    // them first (``collect(_:)``); every other unlink is a rollback of a piece made in the
    // same transaction, which no collection ran during.
    arena[Int(handle)] = Piece(createdAt: PackedTicket(lamport: 0, delimiter: 0, actor: 0), offset: -1, start: 0, length: 0)
    freeHandles.append(handle)
  }

}

extension CRDTText: ElementCapabilities {
  package static var tag: ElementKind.Tag { .text }

  /// A text holds pieces, not elements.
  package func forEachChild(_ body: (CRDTElement) -> Void) {}

  package func deepCopy() -> CRDTText {
    let copy = CRDTText.copying(pieces.map { handle in
      let node = nodes[Int(handle)]
      return ElementSnapshot.TextNode(id: node.id, value: content(of: handle), removedAt: node.removedAt,
                                      attributes: attributes(of: handle)?.entries ?? [])
    }, createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    writer.raw("[")
    var first = true
    var handle = arena[Int(CRDTText.head)].next
    while handle >= 0 {
      let node = arena[Int(handle)]
      if !node.isRemoved && node.length > 0 {
        if !first { writer.raw(",") }
        first = false
        writer.raw("{")
        if node.attributes >= 0, attributeSets[Int(node.attributes)].hasLive {
          writer.raw("\"attrs\":")
          attributeSets[Int(node.attributes)].writeJSON(into: &writer)
          writer.raw(",")
        }
        writer.raw("\"val\":")
        writer.string(content(of: handle))
        writer.raw("}")
      }
      handle = node.next
    }
    writer.raw("]")
  }

  package func toJSONValue() -> JSONValue {
    JSONValueParser.parse(toJSON()) ?? .array([])
  }
}

