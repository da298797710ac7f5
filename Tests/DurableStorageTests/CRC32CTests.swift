import CRDT
import Testing

@testable import DurableStorage

/// CRC-32C one bit at a time, straight from the definition (reflected polynomial 0x82F63B78): the
/// reference the table-driven implementation is compared with.
private func bitwiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
  }
  return crc ^ 0xFFFF_FFFF
}

/// `CRC32C` against published vectors and the bit-by-bit definition.
@Suite("Storage: CRC-32C")
struct StorageCRC32CTests {
  @Test("The standard check value: \"123456789\" gives 0xE3069283")
  func checkValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
  }

  @Test("Known vectors: RFC 3720 (iSCSI) appendix B.4, and short inputs")
  func knownVectors() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
    #expect(CRC32C.checksum([UInt8]()) == 0)
    #expect(CRC32C.checksum(Array("a".utf8)) == 0xC1D0_4330)
    #expect(CRC32C.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x2262_0404)
    // Why an all-zero record header is never valid: the checksum of a zero length is not zero.
    #expect(CRC32C.checksum([0, 0, 0, 0]) == 0x4867_4BC7)
  }

  @Test("Every length from 0 to 300 matches the bit-by-bit definition (all tails of the 8-byte loop)")
  func matchesDefinition() {
    var generator = SplitMix64(seed: 7)
    for length in 0...300 {
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      #expect(CRC32C.checksum(bytes) == bitwiseCRC32C(bytes), "length \(length)")
    }
  }

  @Test("Feeding the bytes in two pieces, split anywhere, gives the same checksum")
  func incremental() {
    var generator = SplitMix64(seed: 11)
    let bytes = (0..<100).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let whole = CRC32C.checksum(bytes)
    for split in 0...bytes.count {
      var crc = CRC32C()
      crc.update(bytes[..<split])
      crc.update(bytes[split...])
      #expect(crc.value == whole, "split at \(split)")
    }
  }

  @Test("A sequence without contiguous storage gives the same checksum as its array")
  func nonContiguous() {
    let sequence = (0..<1000).lazy.map { UInt8(truncatingIfNeeded: $0 &* 37) }
    #expect(CRC32C.checksum(sequence) == bitwiseCRC32C(Array(sequence)))
  }
}
