import CRDT
import Foundation

extension WireJSON {
  /// Nesting deeper than this is refused (the parser is recursive).
  public static let maximumDepth = 512

  /// Parses UTF-8 JSON text. Anything that is not exactly one JSON value (RFC 8259) with
  /// optional white space around it is an error naming the byte offset: invalid UTF-8, lone
  /// surrogate escapes, malformed numbers, trailing characters, nesting past ``maximumDepth``.
  ///
  /// - Throws: `YorkieError` `invalidWireData`, its message naming the byte offset.
  /// - Complexity: O(*n*) in the size of the text.
  public static func parse(_ bytes: some Collection<UInt8>) throws(YorkieError) -> WireJSON {
    var parser = WireJSONParser(bytes: Array(bytes))
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.error("unexpected characters after the value") }
    return value
  }

  /// Parses JSON text.
  ///
  /// - Throws: `YorkieError` `invalidWireData`, its message naming the byte offset.
  public static func parse(_ text: String) throws(YorkieError) -> WireJSON { try parse(Array(text.utf8)) }
}

/// A recursive-descent parser over the bytes of one JSON text. The input is untrusted: every
/// read is bounds-checked (an array, not a buffer pointer), and every path tests
/// `index < bytes.count` before it reads, so malformed input is an error, never a trap.
struct WireJSONParser {
  let bytes: [UInt8]
  var index = 0
  /// Set by the canonical decoder (CanonicalDecoder.swift) when the text leaves the form it
  /// reads; the text is then decoded through the tree.
  var bailed = false

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ what: String) -> YorkieError {
    YorkieError(.invalidWireData, "JSON: \(what) at byte \(index)")
  }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(YorkieError) -> WireJSON {
    guard index < bytes.count else { throw error("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      guard depth < WireJSON.maximumDepth else { throw error("nesting deeper than \(WireJSON.maximumDepth)") }
      index += 1
      var members: [WireJSON.Member] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
        let key = try string()
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
        members.append(WireJSON.Member(key, try value(depth: depth + 1)))
        skipSpace()
        guard index < bytes.count else { throw error("unterminated object") }
        if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
        try expect(UInt8(ascii: "}"))
        return .object(members)
      }
    case UInt8(ascii: "["):
      guard depth < WireJSON.maximumDepth else { throw error("nesting deeper than \(WireJSON.maximumDepth)") }
      index += 1
      var items: [WireJSON] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        skipSpace()
        guard index < bytes.count else { throw error("unterminated array") }
        if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
        try expect(UInt8(ascii: "]"))
        return .array(items)
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try number())
    default:
      throw error("unexpected character")
    }
  }

  mutating func expect(_ byte: UInt8) throws(YorkieError) {
    guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
    index += 1
  }

  mutating func literal(_ word: StaticString) throws(YorkieError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw error("unexpected end of input") }
    for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw error("invalid literal") }
    index += count
  }

  /// A number, checked against JSON's grammar, as its text.
  mutating func number() throws(YorkieError) -> String {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      return index - from
    }
    guard index < bytes.count else { throw error("truncated number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      throw error("invalid number")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("invalid number: no digits after the point") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("invalid number: no exponent digits") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// A string literal; the opening quote is at `index`.
  mutating func string() throws(YorkieError) -> String {
    let literal = try scanString()
    if let unescaped = literal.unescaped { return String(decoding: unescaped, as: UTF8.self) }
    return String(decoding: bytes[literal.start..<literal.end], as: UTF8.self)
  }

  /// Moves past a string literal (the opening quote is at `index`), checking it: escapes, no
  /// raw control characters, valid UTF-8 once unescaped. Returns where its content starts and
  /// ends (at the closing quote) and, when it has escapes, its content unescaped (UTF-8).
  mutating func scanString() throws(YorkieError) -> (start: Int, end: Int, unescaped: [UInt8]?) {
    index += 1
    let start = index
    // Fast path: no escapes. Eight bytes at a time while they are plain ASCII (no quote,
    // backslash, control character or byte ≥ 0x80), then byte by byte.
    skipPlainASCIIWords()
    var seen: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        // Only the bytes after the word loop can be ≥ 0x80: if none is, this is ASCII, which
        // is valid UTF-8 as it is.
        guard seen < 0x80 || isValidUTF8(bytes[start..<index]) else { throw error("invalid UTF-8 in a string") }
        let end = index
        index += 1
        return (start, end, nil)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("unescaped control character in a string") }
      seen |= byte
      index += 1
    }
    var buffer = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard isValidUTF8(buffer[...]) else { throw error("invalid UTF-8 in a string") }
        return (start, index - 1, buffer)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { throw error("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if scalar >= 0xD800 && scalar < 0xDC00 {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
              throw error("unpaired surrogate escape")
            }
            index += 2
            let low = try hex4()
            guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if scalar >= 0xDC00 && scalar < 0xE000 {
            throw error("unpaired surrogate escape")
          }
          buffer.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
        default:
          throw error("invalid escape")
        }
      default:
        if byte < 0x20 { throw error("unescaped control character in a string") }
        buffer.append(byte)
      }
    }
    throw error("unterminated string")
  }

  /// Whether `bytes` are valid UTF-8 (overlong forms, surrogates and truncated sequences are
  /// not): the test `decodeUTF8` makes, without making the string.
  private func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Moves `index` past whole 8-byte words that hold only plain string bytes: printable ASCII
  /// other than `"` and `\\`. It stops at the first word with any other byte (or near the end),
  /// which the caller then reads byte by byte. The tests are exact, bytewise SWAR: a byte of `w`
  /// is zero, or below 0x20, iff the corresponding high bit of the expression is set.
  private mutating func skipPlainASCIIWords() {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= bytes.count {
      var word: UInt64 = 0
      for k in 0..<8 { word |= UInt64(bytes[index + k]) << (8 * k) }
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word) | word
      if special & highs != 0 { return }
      index += 8
    }
  }

  mutating func hex4() throws(YorkieError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
