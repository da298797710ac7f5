import Foundation
import YorkieProtocol

/// Byte spellings of ids and binary values.
enum ReplayBytes {
  /// The bytes of a hex string (even length, 0-9a-f in either case), or nil.
  static func fromHex(_ hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  /// Lower-case hex of `bytes`.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Standard, padded base64 (what protobuf JSON writes).
  static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

  /// Standard or URL-safe base64, padded or not; nil when it is not base64.
  static func fromBase64(_ text: String) -> [UInt8]? { decodeBase64Leniently(text).map { Array($0) } }

  /// The value of one hex digit.
  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// `bytes` with every occurrence of each key of `replacements` (all keys and values of one
  /// length, 12-byte actor ids here) replaced by its value. Ids are random, so a match inside
  /// unrelated bytes is not a practical concern.
  static func replacing(_ replacements: [[UInt8]: [UInt8]], in bytes: [UInt8]) -> [UInt8] {
    guard let width = replacements.keys.first?.count, width > 0, bytes.count >= width else { return bytes }
    var result = bytes
    var index = 0
    while index + width <= result.count {
      if let replacement = replacements[Array(result[index..<index + width])] {
        result.replaceSubrange(index..<index + width, with: replacement)
        index += width
      } else {
        index += 1
      }
    }
    return result
  }
}
