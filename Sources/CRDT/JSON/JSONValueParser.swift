/// Parses JSON text into a ``JSONValue``: the inverse of ``JSONWriter`` for the values Yorkie
/// stores as JSON strings (text attributes, presence), and the parser behind
/// ``JSONValue/init(parsing:)``. Integers that fit in Int32 become `.integer`, other integers
/// `.long`, numbers with a fraction or exponent `.double`. The grammar is RFC 8259's: no
/// trailing commas, no leading zeros, no raw control characters in strings.
package enum JSONValueParser {
  /// Why and where the text is not JSON.
  package struct Failure: Error, Equatable {
    /// The UTF-8 byte offset where the parser stopped.
    package let offset: Int
    /// What it expected or found there.
    package let reason: String
  }

  /// The value `text` encodes, or nil when it is not valid JSON. Raw control characters in
  /// strings are accepted: the JS SDK prints object keys unescaped (``Document/toJSON()`` does
  /// too), and such text comes back here from other SDKs.
  package static func parse(_ text: String) -> JSONValue? {
    try? parseOrFail(text, allowingRawControlCharacters: true)
  }

  /// The value `text` encodes.
  ///
  /// - Throws: ``Failure`` naming the first offending byte.
  package static func parseOrFail(_ text: String, allowingRawControlCharacters: Bool = false) throws(Failure) -> JSONValue {
    var parser = Parser(bytes: Array(text.utf8), allowsRawControlCharacters: allowingRawControlCharacters)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    let allowsRawControlCharacters: Bool
    var index = 0

    init(bytes: [UInt8], allowsRawControlCharacters: Bool) {
      self.bytes = bytes
      self.allowsRawControlCharacters = allowsRawControlCharacters
    }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
      for byte in word.utf8 {
        guard index < bytes.count, bytes[index] == byte else { throw failure("invalid literal (expected \(word))") }
        index += 1
      }
      return value
    }

    /// The byte at `index`, or a failure naming what was expected at the end of the text.
    func current(expecting what: String) throws(Failure) -> UInt8 {
      guard index < bytes.count else { throw failure("unexpected end of text (expected \(what))") }
      return bytes[index]
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
      guard depth < 512 else { throw failure("nesting deeper than 512") }
      switch try current(expecting: "a value") {
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw failure("unexpected character (expected a value)")
      }
    }

    mutating func array(depth: Int) throws(Failure) -> JSONValue {
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if try current(expecting: "a value or ']'") == UInt8(ascii: "]") { index += 1; return .array(items) }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        skipSpace()
        switch try current(expecting: "',' or ']'") {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"): index += 1; return .array(items)
        default: throw failure("unexpected character (expected ',' or ']')")
        }
      }
    }

    mutating func object(depth: Int) throws(Failure) -> JSONValue {
      index += 1
      var members: [(key: String, value: JSONValue)] = []
      skipSpace()
      if try current(expecting: "a key or '}'") == UInt8(ascii: "}") { index += 1; return .object(JSONValue.Object(members)) }
      while true {
        skipSpace()
        guard try current(expecting: "a key") == UInt8(ascii: "\"") else { throw failure("unexpected character (expected a key)") }
        let key = try string()
        skipSpace()
        guard try current(expecting: "':'") == UInt8(ascii: ":") else { throw failure("unexpected character (expected ':')") }
        index += 1
        skipSpace()
        members.append((key: key, value: try value(depth: depth + 1)))
        skipSpace()
        switch try current(expecting: "',' or '}'") {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"): index += 1; return .object(JSONValue.Object(members))
        default: throw failure("unexpected character (expected ',' or '}')")
        }
      }
    }

    /// Skips one or more digits.
    mutating func digits(_ what: String) throws(Failure) {
      guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw failure("expected a digit (\(what))") }
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }

    mutating func number() throws(Failure) -> JSONValue {
      let start = index
      var isInteger = true
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
        index += 1
        if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { throw failure("leading zero in a number") }
      } else {
        try digits("in a number")
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        isInteger = false
        index += 1
        try digits("after a decimal point")
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        isInteger = false
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        try digits("in an exponent")
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if isInteger, let value = Int64(text) {
        if let small = Int32(exactly: value) { return .integer(small) }
        return .long(value)
      }
      // An integer beyond Int64 is a double, as JSON.parse reads it.
      guard let double = Double(text), double.isFinite else {
        index = start
        throw failure("number out of range")
      }
      return .double(double)
    }

    mutating func string() throws(Failure) -> String {
      index += 1
      var units: [UInt16] = []
      var runStart = index
      func flush(_ end: Int) {
        if end > runStart { units.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).utf16) }
      }
      while index < bytes.count {
        let b = bytes[index]
        if b == UInt8(ascii: "\"") {
          flush(index)
          index += 1
          return String(decoding: units, as: UTF16.self)
        }
        if b < 0x20 && !allowsRawControlCharacters { throw failure("control character in a string (escape it)") }
        if b == UInt8(ascii: "\\") {
          flush(index)
          index += 1
          guard index < bytes.count else { throw failure("unexpected end of text (expected an escape)") }
          let escape = bytes[index]
          switch escape {
          case UInt8(ascii: "\""): units.append(0x22)
          case UInt8(ascii: "\\"): units.append(0x5C)
          case UInt8(ascii: "/"): units.append(0x2F)
          case UInt8(ascii: "b"): units.append(0x08)
          case UInt8(ascii: "f"): units.append(0x0C)
          case UInt8(ascii: "n"): units.append(0x0A)
          case UInt8(ascii: "r"): units.append(0x0D)
          case UInt8(ascii: "t"): units.append(0x09)
          case UInt8(ascii: "u"):
            let hex = index + 1
            guard hex + 4 <= bytes.count, bytes[hex..<hex + 4].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
              let code = UInt16(String(decoding: bytes[hex..<hex + 4], as: UTF8.self), radix: 16)
            else { throw failure("invalid \\u escape (expected 4 hex digits)") }
            units.append(code)
            index += 4
          default: throw failure("invalid escape")
          }
          index += 1
          runStart = index
          continue
        }
        index += 1
      }
      throw failure("unexpected end of text (unterminated string)")
    }
  }
}
