/// One header field as it appeared on the wire: its name with the sender's spelling and its
/// value with the surrounding whitespace removed.
package struct HTTPHeaderField: Sendable, Hashable {
  /// The field name, spelled as received (compare with ``HTTPHeaders`` lookups, which ignore case).
  package var name: String
  /// The field value without leading and trailing spaces or tabs.
  package var value: String

  /// A field with the given name and value.
  package init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// An ordered list of header fields, as received or as to be sent, with case-insensitive lookup.
///
/// Order and duplicates are kept: a field that occurs twice appears twice.
package struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
  /// The fields in wire order.
  package private(set) var fields: [HTTPHeaderField]

  /// An empty list.
  package init() { fields = [] }

  /// A list holding the given fields in the given order.
  package init(_ fields: [HTTPHeaderField]) { self.fields = fields }

  /// A list holding the pairs in the order written.
  package init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { HTTPHeaderField(name: $0.0, value: $0.1) }
  }

  /// The position of the first field.
  package var startIndex: Int { fields.startIndex }
  /// The position after the last field.
  package var endIndex: Int { fields.endIndex }
  /// The field at `position`.
  package subscript(position: Int) -> HTTPHeaderField { fields[position] }

  /// Appends a field at the end (after any field with the same name).
  package mutating func append(name: String, value: String) {
    fields.append(HTTPHeaderField(name: name, value: value))
  }

  /// Removes every field named `name` (ignoring case).
  package mutating func remove(name: String) {
    fields.removeAll { Self.namesMatch($0.name, name) }
  }

  /// Replaces every field named `name` (ignoring case) by one field with `value`, at the position
  /// of the first one, or at the end when there was none.
  package mutating func replaceOrAppend(name: String, value: String) {
    if let first = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
      fields[first].value = value
      var index = fields.index(after: first)
      while index < fields.endIndex {
        if Self.namesMatch(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
      }
    } else {
      append(name: name, value: value)
    }
  }

  /// The value of the first field named `name` (ignoring case), or `nil`.
  package subscript(name: String) -> String? {
    fields.first { Self.namesMatch($0.name, name) }?.value
  }

  /// The values of every field named `name` (ignoring case), in wire order.
  package func values(for name: String) -> [String] {
    fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
  }

  /// Whether a field named `name` (ignoring case) is present.
  package func contains(name: String) -> Bool {
    fields.contains { Self.namesMatch($0.name, name) }
  }

  /// The comma-separated elements of every field named `name`, trimmed and lower-cased, with
  /// empty elements dropped: `Connection: Keep-Alive, Upgrade` gives `["keep-alive", "upgrade"]`.
  package func tokens(for name: String) -> [String] {
    var result: [String] = []
    for value in values(for: name) {
      for element in value.split(separator: ",", omittingEmptySubsequences: false) {
        let trimmed = HTTPSyntax.trimmingWhitespace(Substring(element))
        if !trimmed.isEmpty { result.append(trimmed.lowercased()) }
      }
    }
    return result
  }

  /// Whether two header names are equal ignoring ASCII case.
  static func namesMatch(_ a: String, _ b: String) -> Bool {
    let a = a.utf8, b = b.utf8
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { HTTPSyntax.lowercased($0) == HTTPSyntax.lowercased($1) }
  }
}

/// Byte classes of RFC 9110 and RFC 9112.
enum HTTPSyntax {
  static let cr: UInt8 = 13
  static let lf: UInt8 = 10
  static let space: UInt8 = 32
  static let tab: UInt8 = 9
  static let colon: UInt8 = 58

  /// Whether `byte` is a `tchar` (RFC 9110 §5.6.2): the characters of methods and header names.
  static func isTokenChar(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  /// Whether `byte` may appear inside a field value (RFC 9110 §5.5): visible characters, spaces,
  /// tabs and obs-text; never CR, LF, NUL or another control character.
  static func isFieldValueChar(_ byte: UInt8) -> Bool {
    byte == tab || (byte >= 0x20 && byte != 0x7F)
  }

  /// Whether `byte` may appear in a request target: visible ASCII (RFC 3986 characters and the
  /// percent sign; anything wider must be percent-encoded).
  static func isTargetChar(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F
  }

  /// `byte` with ASCII upper-case letters lowered.
  static func lowercased(_ byte: UInt8) -> UInt8 {
    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
  }

  /// The value of a hexadecimal digit, or `nil`.
  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
  }

  /// `text` without leading and trailing spaces and tabs.
  static func trimmingWhitespace(_ text: Substring) -> String {
    var slice = text[...]
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
