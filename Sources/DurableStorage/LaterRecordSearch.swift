/// Looks past a record header whose length runs beyond the end of the file, for proof that the
/// length is damaged rather than the header of an unfinished write.
///
/// The problem: a header whose payload runs past the end of the file is what a crash in the middle
/// of an append leaves — a torn tail, to be cut. But the same picture appears when one byte of the
/// length of a record in the middle of the file is damaged (say its third byte, adding 16 MiB): the
/// length now points past the end, and cutting there would silently drop every later record, all
/// of them acknowledged. The length has no checksum of its own (the record's CRC covers it, but
/// cannot be checked without the payload it claims).
///
/// The tell: after a torn header comes nothing but the start of one payload, whereas after a damaged
/// length the original records follow, intact, up to the end of the file. So this search looks for
/// one valid record — one whose CRC-32C matches — starting anywhere after the header, such that the
/// records chained after it reach the end of the file exactly (or a zero-filled or header-short
/// tail). Finding one means damage; the chance that the payload of a genuinely torn record happens
/// to hold such a chain by accident is that of a 32-bit checksum collision, unless the payload
/// itself contains a log in this format — and then the log refuses to open, which is the safe way
/// to be wrong.
///
/// Cost: one pass backwards over the bytes after the header (fewer than 64 MiB, the record limit),
/// one bit per offset, and a checksum only at offsets whose chain lands on an end — rare in random
/// bytes, where a length read at a random offset is a 32-bit number that must hit one of the few
/// offsets known to reach the end. It runs only when a file ends in a cut payload, that is after a
/// crash.
///
/// Not covered, and reported as a torn tail (the records lost, but not silently):
/// - damage to the length of the very last record: nothing follows it to tell;
/// - damage to a length followed, at the very end, by a second, torn record (a crash after the
///   damage): the chain then ends in a cut payload, which this search does not accept as an end
///   because almost any random bytes would (too many offsets would pass to checksum them all).
enum LaterRecordSearch {
  /// The offset of the last valid record at or after `start` whose chain of following records
  /// reaches the end of `bytes`; `nil` if there is none.
  static func validRecord(in bytes: [UInt8], from start: Int) -> Int? {
    let end = bytes.count
    guard start < end else { return nil }
    // Offsets from `zeroStart` on have only zero bytes after them: a chain may end there.
    var zeroStart = end
    while zeroStart > start && bytes[zeroStart - 1] == 0 { zeroStart -= 1 }
    // reaches[i] (for offset start + i): a chain of headers from there lands on an end.
    var reaches = BitSet(count: end - start + 1)
    var offset = end
    while offset >= start {
      defer { offset -= 1 }
      if offset >= zeroStart || end - offset < LogFormat.headerLength {
        reaches.insert(offset - start)
        continue
      }
      let length = Int(LogFormat.readUInt32(bytes, at: offset))
      let next = offset + LogFormat.headerLength + length
      guard length <= LogFormat.maximumPayloadLength, next <= end, reaches.contains(next - start) else { continue }
      reaches.insert(offset - start)
      let payloadStart = offset + LogFormat.headerLength
      let computed = LogFormat.checksum(length: UInt32(length), payload: bytes[payloadStart..<next])
      if computed == LogFormat.readUInt32(bytes, at: offset + 4) { return offset }
    }
    return nil
  }
}
