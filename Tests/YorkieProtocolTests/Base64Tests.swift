import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The base64 decoder of `bytes` fields: what it accepts is exactly standard or URL-safe base64,
/// padded or not, and it agrees with Foundation's decoder on all of that.
@Suite("Base64")
struct Base64Tests {
  /// A deterministic generator (SplitMix64), so that failures repeat.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test func decodesEveryLengthInEverySpelling() {
    var random = Generator(state: 13)
    for length in 0..<200 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let padded = Data(bytes).base64EncodedString()
      let unpadded = String(padded.prefix { $0 != "=" })
      let urlSafe = String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
      let urlSafePadded = String(padded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
      for text in [padded, unpadded, urlSafe, urlSafePadded] {
        #expect(Base64.decode(text) == bytes, "\(length) bytes as \(text.debugDescription)")
        #expect(decodeBase64Leniently(text) == Data(bytes))
      }
    }
  }

  @Test func decodesEveryDigitInEveryPlace() {
    // Each of the 64 digits (and its URL-safe spelling) at each of a group's four places.
    let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    for place in 0..<4 {
      for (value, digit) in digits.enumerated() {
        var group = Array("AAAA")
        group[place] = digit
        let word = UInt32(value) << (6 * (3 - place))
        let expected = [UInt8(word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        #expect(Base64.decode(String(group)) == expected)
        #expect(Data(base64Encoded: String(group)).map(Array.init) == expected)
        if digit == "+" || digit == "/" {
          group[place] = digit == "+" ? "-" : "_"
          #expect(Base64.decode(String(group)) == expected)
        }
      }
    }
  }

  @Test func ignoresTheUnusedBitsOfTheLastGroup() {
    // As Go's decoder does (and Foundation's): "QR==" and "QUJ" carry bits no byte uses.
    #expect(Base64.decode("QR==") == [0x41])
    #expect(Base64.decode("QR") == [0x41])
    #expect(Base64.decode("QUJ=") == [0x41, 0x42])
    #expect(Base64.decode("QUJ") == [0x41, 0x42])
  }

  @Test func refusesWhatIsNotBase64() {
    let invalid = [
      "=", "==", "===", "====", "A", "AAAAA", "Q===", "QQ=", "QQ===", "QUJD====", "QQ=A", "QQ==QQ==", "=QQQ",
      "Q Q=", " QQ=", "QQ==\n", "QUJD\r\n", "QU\tJ", "!!!", "QUJ.", "é", "QUJDé", "QUJD\u{0}", "QU*D",
    ]
    for text in invalid {
      #expect(Base64.decode(text) == nil, "\(text.debugDescription) decoded")
    }
  }

  @Test func everyNonDigitByteIsRefusedAnywhere() {
    let digits = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_".utf8)
    for byte in UInt8(0)...UInt8(255) where !digits.contains(byte) {
      for place in 0..<8 {
        var text = Array("QUJDRUZH".utf8)
        text[place] = byte
        // "=" may end a padded text (places 6 and 7); anywhere else it is refused.
        if byte == UInt8(ascii: "=") && place == 7 { continue }
        #expect(Base64.decode(bytes: text) == nil, "byte \(byte) at \(place)")
      }
    }
  }
}
