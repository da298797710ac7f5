/// The constants and the encoding of the ``DurableLog`` file format, which the header comment of
/// DurableLog.swift lays out: an 8-byte magic, then records of a little-endian UInt32 length, a
/// little-endian UInt32 CRC-32C over the 4 length bytes and the payload, and the payload.
///
/// Since CRC-32C of four zero bytes is not zero, an all-zero header is never a valid record — which
/// is what tells a zero-filled tail (a file extended but never written) from data.
enum LogFormat {
  /// The first eight bytes of every log file.
  static let magic: [UInt8] = Array("YKLOG".utf8) + [0, 0, 1]
  /// The bytes of a record header: length and checksum.
  static let headerLength = 8
  /// The largest payload a record may hold: 64 MiB. A length above it is never written, so reading
  /// one means damage.
  static let maximumPayloadLength = 64 << 20

  /// The checksum stored in a record: CRC-32C over the 4 little-endian length bytes, then the
  /// payload.
  static func checksum(length: UInt32, payload: ArraySlice<UInt8>) -> UInt32 {
    var crc = CRC32C()
    crc.update([UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 24)])
    crc.update(payload)
    return crc.value
  }

  /// The bytes of `payloads` as consecutive records, ready for one write. The caller has checked
  /// every payload against ``maximumPayloadLength``.
  static func encode(_ payloads: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(payloads.reduce(0) { $0 + headerLength + $1.count })
    for payload in payloads {
      let length = UInt32(payload.count)
      let crc = checksum(length: length, payload: payload[...])
      append(length, to: &bytes)
      append(crc, to: &bytes)
      bytes.append(contentsOf: payload)
    }
    return bytes
  }

  /// Appends `value` as 4 little-endian bytes.
  static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// The little-endian `UInt32` at `offset` of `bytes`; the caller has checked that 4 bytes remain.
  static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }
}
