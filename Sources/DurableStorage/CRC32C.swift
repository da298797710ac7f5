/// CRC-32C (Castagnoli): the checksum of every ``DurableLog`` record.
///
/// The reflected form of polynomial 0x1EDC6F41 (0x82F63B78 reflected), initial value 0xFFFFFFFF,
/// final XOR 0xFFFFFFFF — the CRC of iSCSI (RFC 3720), ext4 and SSE 4.2's `crc32` instruction.
/// Check value: `"123456789"` → 0xE3069283.
///
/// Computed with slicing-by-8: eight 256-entry tables let the loop fold eight input bytes per step
/// instead of one (the tables are built once, on first use). Measured on 64 MiB of random bytes
/// (`swiftc -O`, x86-64 Linux, 2 shared cores): 1.4 GB/s, against 0.37 GB/s for the one-table,
/// byte-at-a-time form. It matters because opening a log checksums every byte of it.
///
/// Feed bytes in pieces with ``update(_:)-(ArraySlice<UInt8>)`` and read ``value``; the result
/// is the same however the input is split.
package struct CRC32C: Sendable, Hashable {
  /// The running register, before the final XOR.
  private var state: UInt32 = 0xFFFF_FFFF

  /// A checksum of no bytes yet.
  package init() {}

  /// The checksum of everything fed so far.
  package var value: UInt32 { state ^ 0xFFFF_FFFF }

  /// The checksum of `bytes`.
  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// Feeds `bytes` (any sequence of bytes; an array or array slice is read in place).
  package mutating func update(_ bytes: some Sequence<UInt8>) {
    if let slice = bytes as? ArraySlice<UInt8> {
      update(slice)
    } else if let array = bytes as? [UInt8] {
      update(array[...])
    } else {
      update(Array(bytes)[...])
    }
  }

  /// Feeds the bytes of `bytes`, eight at a time while at least eight remain, then one at a time.
  ///
  /// Every read goes through the slice's and the tables' bounds checks: the log's bytes come from
  /// disk, and a checked read of a record cut short traps instead of reading past it (the
  /// unchecked pointer form this replaced was not measured to be faster where it matters: a
  /// log's records are checksummed once on open and once on append).
  package mutating func update(_ bytes: ArraySlice<UInt8>) {
    let table = CRC32C.tables
    var crc = state
    var index = bytes.startIndex
    let end = bytes.endIndex
    while end - index >= 8 {
      let low = (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24) ^ crc
      let high = UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
      crc =
        table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
        ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
        ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
        ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
      index += 8
    }
    while index < end {
      crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
      index += 1
    }
    state = crc
  }

  /// Eight tables of 256 entries, one after the other. Table 0 is the classic one: entry `n` is the
  /// register after shifting the byte `n` through eight steps of the reflected polynomial. Table
  /// `k` is table 0 advanced by `k` more zero bytes, so one step can fold a byte that sits `k`
  /// bytes further back.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      tables[byte] = crc
    }
    for slice in 1..<8 {
      for byte in 0..<256 {
        let previous = tables[(slice - 1) * 256 + byte]
        tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return tables
  }()
}
