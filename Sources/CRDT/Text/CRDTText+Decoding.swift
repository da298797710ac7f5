// Building a text from a snapshot: pieces appended in document order, indexed in one pass.
extension CRDTText {
  /// Appends pieces exactly as a snapshot describes them, in document order.
  ///
  /// - Throws: `invalidWireData` for a piece that repeats or comes after a later piece of its
  ///   insertion; the pieces before it stay appended, so callers build a new text.
  package func appendDecoded(_ pieces: [ElementSnapshot.TextNode]) throws(YorkieError) {
    var last = CRDTText.head
    while arena[Int(last)].next >= 0 { last = arena[Int(last)].next }
    var state = DecodeState(last: last)
    for piece in pieces {
      var content = piece.value
      let failure = content.withUTF8 { utf8 -> YorkieError? in
        do throws(YorkieError) {
          try appendDecodedPiece(id: piece.id, utf8: utf8, removedAt: piece.removedAt, attributes: piece.attributes, state: &state)
          return nil
        } catch {
          return error
        }
      }
      if let failure { throw failure }
    }
    finishDecoding(&state)
  }

  /// A new text holding `pieces`, which were read off a text (``deepCopy()``, or an
  /// ``ElementSnapshot`` made from an element): such pieces are in document order and never
  /// repeat, so decoding them cannot fail; if it did, an invariant of the source text was
  /// broken, and going on would spread the damage.
  package static func copying(_ pieces: [ElementSnapshot.TextNode], createdAt: TimeTicket) -> CRDTText {
    let text = CRDTText(createdAt: createdAt)
    do {
      try text.appendDecoded(pieces)
    } catch {
      preconditionFailure("pieces read off a text did not decode: \(error)")
    }
    return text
  }

  /// Sizes an empty text's insertion table for `count` decoded pieces.
  package func prepareDecoding(pieceCount count: Int) {
    guard pieceTable.count == 0, pendingFirstPieces.isEmpty else { return }
    pieceTable = PieceTable(expectedCount: count)
  }

  /// Indexes the pieces appended since decoding began (in one bulk load when the text was empty).
  package func finishDecoding(_ state: inout DecodeState) {
    if let pending = state.pendingHandles {
      index.bulkLoad(pending, weights: state.pendingWeights)
      state.pendingHandles = nil
      state.pendingWeights = []
    }
  }

  /// Where decoding a text's pieces stands: the last piece, and the last piece of every
  /// insertion that arrived split (most insertions arrive whole and are never looked up).
  package struct DecodeState {
    var last: Int32
    var splitTails = TicketMap<Int32>()
    /// While the text was empty when decoding began, pieces are indexed at the end, at once.
    var pendingHandles: [Int32]?
    var pendingWeights: [Int32] = []

    package init(last: Int32 = CRDTText.head) {
      self.last = last
      if last == CRDTText.head { pendingHandles = [] }
    }
  }

  /// Appends one piece as a snapshot describes it, after the pieces appended before it. Its
  /// content is UTF-8 (transcoded into the UTF-16 buffer). Pieces of one insertion must come in
  /// increasing offset and an id must not repeat; anything else is malformed input.
  package func appendDecodedPiece(id: TextNodeID, utf8: UnsafeBufferPointer<UInt8>, removedAt: TimeTicket?,
                                  attributes: [TextAttributes.Entry], livenessSteps steps: [(at: TimeTicket, revives: Bool)] = [],
                                  purgeNotes notes: [PurgedRunRecord] = [], state: inout DecodeState) throws(YorkieError) {
    // A piece's liveness steps (CRDTText+Liveness.swift) must say what its removal says (L2).
    if let last = steps.max(by: { $1.at.isAfter($0.at) }) {
      guard last.revives ? removedAt == nil : removedAt == last.at else {
        throw YorkieError(.invalidWireData, "text piece \(id) has liveness steps that disagree with its removal")
      }
    }
    // Find the insertion's last piece before touching anything.
    // Most pieces start an insertion (offset 0): they are entered in `firstPiece` below, in
    // one probe that also detects a repeated id. Split pieces continue a chain.
    let packed = pack(id.createdAt)
    var tail: Int32 = -1
    if id.offset > 0 {
      if let split = state.splitTails[id.createdAt] {
        tail = split
      } else if let first = firstPiece(of: packed) {
        tail = first
      }
    }
    if tail >= 0, arena[Int(tail)].offset >= id.offset {
      throw YorkieError(.invalidWireData, "text piece \(id) repeats or comes after a later piece of its insertion")
    }
    let start = Int32(buffer.count)
    // ASCII (most text) widens byte by byte; anything else transcodes.
    var combined: UInt8 = 0
    for byte in utf8 { combined |= byte }
    if combined < 0x80 {
      for byte in utf8 { buffer.append(UInt16(byte)) }
    } else {
      let failed = transcode(utf8.makeIterator(), from: UTF8.self, to: UTF16.self, stoppingOnError: true) { unit in
        buffer.append(unit)
        if UTF16.isLeadSurrogate(unit) { mayHoldSurrogates = true }
      }
      if failed {
        buffer.removeSubrange(Int(start)...)
        throw YorkieError(.invalidWireData, "text piece \(id) is not valid UTF-8")
      }
    }
    let length = Int32(buffer.count) - start
    let attributeSet = attributes.isEmpty ? -1 : storeAttributes(TextAttributes(attributes))
    var piece = Piece(createdAt: packed, offset: id.offset, start: start, length: length, attributes: attributeSet)
    if let removedAt { piece.removal = storeRemoval(pack(removedAt)) }
    let handle = link(piece, after: state.last, indexed: state.pendingHandles == nil)
    if state.pendingHandles != nil {
      state.pendingHandles!.append(handle)
      state.pendingWeights.append(removedAt == nil ? length : 0)
    }
    state.last = handle
    if !steps.isEmpty { livenessSteps[handle] = steps.map { LivenessStep(at: pack($0.at), revives: $0.revives) } }
    try adoptPurgeNotes(notes, heldBy: handle)
    if tail >= 0 {
      arena[Int(tail)].insNext = handle
      arena[Int(handle)].insPrev = tail
      state.splitTails[id.createdAt] = handle
    } else if insertFirstPieceIfAbsent(packed, handle) != nil {
      throw YorkieError(.invalidWireData, "text piece \(id) repeats")
    }
  }

}
