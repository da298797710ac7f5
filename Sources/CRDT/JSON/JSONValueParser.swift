/// Parses JSON text into a ``JSONValue``: the inverse of ``JSONWriter`` for the values Yorkie
/// stores as JSON strings (text attributes, presence). Integers that fit in Int32 become
/// `.integer`, other integers `.long`, numbers with a fraction or exponent `.double`.
package enum JSONValueParser {
  /// The value `text` encodes, or nil when it is not valid JSON.
  package static func parse(_ text: String) -> JSONValue? {
    var parser = Parser(bytes: Array(text.utf8))
    parser.skipSpace()
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipSpace()
    return parser.index == parser.bytes.count ? value : nil
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func literal(_ word: String) -> Bool {
      let utf8 = Array(word.utf8)
      guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { return false }
      index += utf8.count
      return true
    }

    mutating func value(depth: Int) -> JSONValue? {
      guard depth < 512, index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "n"): return literal("null") ? .null : nil
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "\""): return string().map { .string($0) }
      case UInt8(ascii: "["):
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
          skipSpace()
          guard let item = value(depth: depth + 1) else { return nil }
          items.append(item)
          skipSpace()
          guard index < bytes.count else { return nil }
          if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
          if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
          return nil
        }
      case UInt8(ascii: "{"):
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONValue.Object(members)) }
        while true {
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
          index += 1
          skipSpace()
          guard let member = value(depth: depth + 1) else { return nil }
          members.append((key: key, value: member))
          skipSpace()
          guard index < bytes.count else { return nil }
          if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
          if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONValue.Object(members)) }
          return nil
        }
      default:
        return number()
      }
    }

    mutating func number() -> JSONValue? {
      let start = index
      var isInteger = true
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      while index < bytes.count {
        let b = bytes[index]
        if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
          index += 1
        } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || (b == UInt8(ascii: "-") && index > start) {
          isInteger = false
          index += 1
        } else {
          break
        }
      }
      guard index > start else { return nil }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if isInteger, let value = Int64(text) {
        if let small = Int32(exactly: value) { return .integer(small) }
        return .long(value)
      }
      guard let double = Double(text), double.isFinite else { return nil }
      return .double(double)
    }

    mutating func string() -> String? {
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
        if b == UInt8(ascii: "\\") {
          flush(index)
          index += 1
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
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
            guard index + 4 <= bytes.count, let code = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
            units.append(code)
            index += 4
          default: return nil
          }
          runStart = index
          continue
        }
        index += 1
      }
      return nil
    }
  }
}
