/// A ``TimeTicket`` whose actor is interned in the table of the text that stores it
/// (``CRDTText/actors``): 16 bytes with 4-byte alignment instead of 24 with 8, so that a piece
/// packs into 52 bytes. Only meaningful together with that text; equal tickets of one text
/// have equal packed forms.
package struct PackedTicket: Equatable, Sendable {
  /// The Lamport clock, split in halves so that the ticket needs only 4-byte alignment.
  private var lamportLow: UInt32
  private var lamportHigh: UInt32
  /// The position of the ticket among those its change issued.
  package var delimiter: UInt32
  /// The actor's index in its text's actor table.
  package var actor: UInt32

  /// Packs a ticket's parts (`actor` already interned).
  @inline(__always) package init(lamport: Int64, delimiter: UInt32, actor: UInt32) {
    let bits = UInt64(bitPattern: lamport)
    lamportLow = UInt32(truncatingIfNeeded: bits)
    lamportHigh = UInt32(truncatingIfNeeded: bits >> 32)
    self.delimiter = delimiter
    self.actor = actor
  }

  /// The Lamport clock.
  @inline(__always) package var lamport: Int64 {
    Int64(bitPattern: UInt64(lamportHigh) << 32 | UInt64(lamportLow))
  }
}

extension PackedTicket: PieceTableKey {
  /// Mixes every field (the actor as its index).
  @inline(__always) package var pieceTableTag: UInt32 {
    var x = UInt64(bitPattern: lamport) &* 0x9E37_79B9_7F4A_7C15
    x ^= (UInt64(actor) << 32 | UInt64(delimiter)) &* 0x1656_67B1_9E37_79F9
    x ^= x >> 29
    x = x &* 0xBF58_476D_1CE4_E5B9
    return UInt32(truncatingIfNeeded: x >> 32)
  }
}

extension TimeTicket: PieceTableKey {
  /// Mixes every field.
  @inline(__always) package var pieceTableTag: UInt32 {
    var x = UInt64(bitPattern: lamport) &* 0x9E37_79B9_7F4A_7C15
    x ^= actorID.high &* 0xC2B2_AE3D_27D4_EB4F
    x ^= (UInt64(actorID.low) << 32 | UInt64(delimiter)) &* 0x1656_67B1_9E37_79F9
    x ^= x >> 29
    x = x &* 0xBF58_476D_1CE4_E5B9
    return UInt32(truncatingIfNeeded: x >> 32)
  }
}
