import CRDT
import Foundation

/// The id of a client, document or channel session: 12 bytes (a MongoDB ObjectID in Yorkie),
/// written as 24 lowercase hexadecimal characters on the wire. A client's id is also its actor
/// id in changes.
package struct ResourceID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The 12 bytes, big-endian in two words so that the id is cheap to hash and compare.
  package let high: UInt64
  /// The low 4 bytes.
  package let low: UInt32

  /// The id made of `bytes` (exactly 12).
  package init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 12 else { return nil }
    var high: UInt64 = 0
    var low: UInt32 = 0
    for (index, byte) in bytes.enumerated() {
      if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt32(byte) }
    }
    self.high = high
    self.low = low
  }

  /// The id written as 24 hexadecimal characters (either case), or `nil`.
  package init?(hex: String) {
    let utf8 = Array(hex.utf8)
    guard utf8.count == 24 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(12)
    var index = 0
    while index < 24 {
      guard let hi = Self.nibble(utf8[index]), let lo = Self.nibble(utf8[index + 1]) else { return nil }
      bytes.append(hi << 4 | lo)
      index += 2
    }
    self.init(bytes: bytes)
  }

  /// The 12 bytes.
  package var bytes: [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(12)
    for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
    for shift in stride(from: 24, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: low >> UInt32(shift))) }
    return result
  }

  /// The 24 lowercase hexadecimal characters.
  package var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(24)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The base64 of the 12 bytes: how version vectors key their entries.
  package var base64: String { Data(bytes).base64EncodedString() }

  /// The 24 hexadecimal characters, as ``hex``.
  package var description: String { hex }

  /// Orders ids by their bytes (ObjectIDs: roughly by creation time).
  package static func < (lhs: ResourceID, rhs: ResourceID) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }

  /// The value of one hexadecimal digit.
  private static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }
}

/// Makes new ids: like an ObjectID, a 4-byte timestamp (seconds) first, so that ids sort roughly
/// by creation, then 8 bytes from the injected random generator (tests seed it).
package struct ResourceIDGenerator: Sendable {
  /// The random source.
  private var random: any RandomNumberGenerator & Sendable
  /// Wall-clock seconds since 1970.
  private let now: @Sendable () -> Double

  /// A generator drawing from `random`, stamped by `now`.
  package init(random: any RandomNumberGenerator & Sendable, now: @escaping @Sendable () -> Double) {
    self.random = random
    self.now = now
  }

  /// A new id.
  package mutating func next() -> ResourceID {
    let seconds = UInt32(truncatingIfNeeded: Int64(now()))
    var bytes: [UInt8] = [UInt8(seconds >> 24), UInt8(truncatingIfNeeded: seconds >> 16), UInt8(truncatingIfNeeded: seconds >> 8), UInt8(truncatingIfNeeded: seconds)]
    let tail = random.next() as UInt64
    for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: tail >> UInt64(shift))) }
    return ResourceID(bytes: bytes)!
  }
}
