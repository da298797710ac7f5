import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The parser's string literals: the word-at-a-time scan must find every byte that ends or
/// interrupts the plain run wherever it falls in a word, and keep every other byte.
@Suite("WireJSON strings")
struct WireJSONParserTests {
  /// `"` + text + `"`, parsed.
  func parsed(_ literal: [UInt8]) -> Result<WireJSON, YorkieError> {
    Result { () throws(YorkieError) in try WireJSON.parse([UInt8(ascii: "\"")] + literal + [UInt8(ascii: "\"")]) }
  }

  @Test func specialBytesAtEveryOffset() throws {
    // Each special byte at each offset of strings up to 24 bytes long (three words and a tail),
    // and in strings that end at every offset.
    for length in 0..<24 {
      let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      #expect(try parsed(plain).get() == .string(String(decoding: plain, as: UTF8.self)))
      for at in 0..<length {
        var text = plain
        // A control character: refused.
        text[at] = 0x1F
        #expect(throws: YorkieError.self) { try parsed(text).get() }
        text[at] = 0x00
        #expect(throws: YorkieError.self) { try parsed(text).get() }
        // An escaped quote and backslash: kept as the characters.
        var escaped = plain
        escaped.replaceSubrange(at..<at + 1, with: Array(#"\""#.utf8))
        var expected = plain
        expected[at] = UInt8(ascii: "\"")
        #expect(try parsed(escaped).get() == .string(String(decoding: expected, as: UTF8.self)))
        escaped = plain
        escaped.replaceSubrange(at..<at + 1, with: Array(#"\\"#.utf8))
        expected[at] = UInt8(ascii: "\\")
        #expect(try parsed(escaped).get() == .string(String(decoding: expected, as: UTF8.self)))
        // A two-byte character (é), and an invalid lone continuation byte.
        var accented = plain
        accented.replaceSubrange(at..<at + 1, with: [0xC3, 0xA9])
        #expect(try parsed(accented).get() == .string(String(decoding: accented, as: UTF8.self)))
        text = plain
        text[at] = 0x80
        #expect(throws: YorkieError.self) { try parsed(text).get() }
        text[at] = 0xFF
        #expect(throws: YorkieError.self) { try parsed(text).get() }
        // The closing quote early: the rest is trailing garbage.
        text = plain
        text[at] = UInt8(ascii: "\"")
        #expect(throws: YorkieError.self) { try parsed(text).get() }
        // Bytes just around the special ones (0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F) are plain.
        for byte: UInt8 in [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F] {
          text = plain
          text[at] = byte
          #expect(try parsed(text).get() == .string(String(decoding: text, as: UTF8.self)))
        }
      }
    }
  }

  @Test func unterminatedStringsAtEveryLength() {
    for length in 0..<20 {
      let text = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "x"), count: length)
      #expect(throws: YorkieError.self) { try WireJSON.parse(text) }
    }
  }

  @Test func longStringsAgreeWithFoundation() throws {
    // Mixed content: long plain runs with escapes, controls (escaped) and non-ASCII between.
    var random = Base64Tests.Generator(state: 7)
    let pieces = ["abcdefgh", "0123456789", "é", "日本", "\u{1F600}", "\\n", "\\\"", "\\\\", "\\u00e9", "\\t", " ", "/"]
    for _ in 0..<200 {
      var literal = ""
      for _ in 0..<Int.random(in: 0..<40, using: &random) { literal += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
      let json = "[\"\(literal)\"]"
      let expected = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
      #expect(try WireJSON.parse(json) == .array([.string(expected[0])]))
    }
  }
}
