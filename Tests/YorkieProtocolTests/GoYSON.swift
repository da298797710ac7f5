@testable import CRDT
import Foundation

/// The Go SDK's typed rendering of a document (`expected.goYSON` in the wire fixtures), parsed,
/// and the same rendering computed from a Swift document, so that the two compare by value:
/// `Int(…)`, `Long(…)`, `Date("RFC 3339")`, `BinData("base64")`, `Counter(…)`,
/// `DedupCounter(Int(n),"registers")`, `Text([{"val":…,"attrs":{…}}])`, `Tree({…})`; plain JSON
/// numbers are doubles.
indirect enum YSON: Equatable, Sendable, CustomStringConvertible {
  case null
  case bool(Bool)
  case double(Double)
  case string(String)
  case int(Int32)
  case long(Int64)
  /// Milliseconds since the epoch.
  case date(Int64)
  case bytes(Data)
  case counter(YSON)
  case dedupCounter(YSON, registers: String)
  case text([TextPiece])
  case tree(String)
  case object([String: YSON])
  case array([YSON])

  struct TextPiece: Equatable, Sendable, CustomStringConvertible {
    var value: String
    var attributes: [String: String]
    var description: String { attributes.isEmpty ? "\(value.debugDescription)" : "\(value.debugDescription)\(attributes.sorted { $0.key < $1.key })" }
  }

  var description: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return "\(b)"
    case .double(let d): return "\(d)"
    case .string(let s): return s.debugDescription
    case .int(let i): return "Int(\(i))"
    case .long(let l): return "Long(\(l))"
    case .date(let ms): return "Date(\(ms))"
    case .bytes(let d): return "BinData(\(d.base64EncodedString()))"
    case .counter(let v): return "Counter(\(v))"
    case .dedupCounter(let v, let r): return "DedupCounter(\(v), \(r.prefix(12))…)"
    case .text(let pieces): return "Text(\(pieces))"
    case .tree(let t): return "Tree(\(t))"
    case .object(let members): return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",") + "}"
    case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
    }
  }

  // MARK: From a Swift document

  /// The typed rendering of an element of a Swift document (live content only).
  init(_ element: CRDTElement) {
    switch element.kind {
    case .primitive(let primitive):
      switch primitive.value {
      case .null: self = .null
      case .bool(let b): self = .bool(b)
      case .integer(let i): self = .int(i)
      case .long(let l): self = .long(l)
      case .double(let d): self = .double(d)
      case .string(let s): self = .string(s)
      case .bytes(let b): self = .bytes(b)
      case .date(let ms): self = .date(ms)
      }
    case .counter(let counter):
      if let registers = counter.registers, case .int(let count) = counter.value {
        self = .dedupCounter(.int(count), registers: Data(registers).base64EncodedString())
        return
      }
      switch counter.value {
      case .int(let v): self = .counter(.int(v))
      case .long(let v): self = .counter(.long(v))
      }
    case .object(let object):
      var members: [String: YSON] = [:]
      for member in object.members where !member.element.isRemoved && object.get(member.key) === member.element {
        members[member.key] = YSON(member.element)
      }
      self = .object(members)
    case .array(let array):
      self = .array(array.allNodes.compactMap { node in
        guard let element = node.element, !element.isRemoved else { return nil }
        return YSON(element)
      })
    case .text(let text):
      self = .text(text.pieces.compactMap { handle in
        let node = text.nodes[Int(handle)]
        guard !node.isRemoved, node.length > 0 else { return nil }
        var attributes: [String: String] = [:]
        for entry in text.attributes(of: handle)?.entries ?? [] where !entry.isRemoved { attributes[entry.key] = entry.value }
        return TextPiece(value: text.content(of: handle), attributes: attributes)
      })
    case .tree(let tree):
      self = .tree(YSON.goTree(tree.root))
    }
  }

  /// A tree as Go's YSON prints it: `{"type":…,"attrs":{…},"children":[…]}` for an element
  /// (raw stored attribute values, keys sorted, empty members left out) and
  /// `{"type":"text","value":…}` for text; live nodes only.
  static func goTree(_ node: CRDTTreeNode) -> String {
    func quoted(_ text: String) -> String { JSONValue.string(text).jsonString }
    if node.isText { return "{\"type\":\"text\",\"value\":\(quoted(node.value))}" }
    var out = "{\"type\":\(quoted(node.type))"
    let live = (node.attributes?.live ?? []).sorted { $0.key < $1.key }
    if !live.isEmpty {
      out += ",\"attrs\":{" + live.map { "\(quoted($0.key)):\(quoted($0.value))" }.joined(separator: ",") + "}"
    }
    let children = node.liveChildren
    if !children.isEmpty { out += ",\"children\":[" + children.map(goTree).joined(separator: ",") + "]" }
    return out + "}"
  }

  // MARK: Parsing

  struct ParseError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ text: String) throws -> YSON {
    var parser = Parser(bytes: Array(text.utf8))
    let value = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.fail("trailing characters") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func fail(_ what: String) -> ParseError { ParseError(description: "YSON: \(what) at \(index)") }

    mutating func skipSpace() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
    }

    mutating func expect(_ char: Character) throws {
      skipSpace()
      guard index < bytes.count, bytes[index] == char.asciiValue! else { throw fail("expected \(char)") }
      index += 1
    }

    mutating func peek() -> UInt8? {
      skipSpace()
      return index < bytes.count ? bytes[index] : nil
    }

    mutating func value() throws -> YSON {
      guard let c = peek() else { throw fail("unexpected end") }
      switch c {
      case UInt8(ascii: "{"):
        index += 1
        var members: [String: YSON] = [:]
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
          let key = try string()
          try expect(":")
          members[key] = try value()
          if peek() == UInt8(ascii: ",") { index += 1; continue }
          try expect("}")
          return .object(members)
        }
      case UInt8(ascii: "["):
        index += 1
        var items: [YSON] = []
        if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
          items.append(try value())
          if peek() == UInt8(ascii: ",") { index += 1; continue }
          try expect("]")
          return .array(items)
        }
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let literal = number()
        guard let d = Double(literal) else { throw fail("bad number \(literal)") }
        return .double(d)
      default:
        let word = identifier()
        switch word {
        case "null": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "Int":
          try expect("(")
          let literal = number()
          try expect(")")
          guard let v = Int32(literal) else { throw fail("bad Int \(literal)") }
          return .int(v)
        case "Long":
          try expect("(")
          let literal = number()
          try expect(")")
          guard let v = Int64(literal) else { throw fail("bad Long \(literal)") }
          return .long(v)
        case "Date":
          try expect("(")
          let text = try string()
          try expect(")")
          guard let ms = YSON.milliseconds(rfc3339: text) else { throw fail("bad Date \(text)") }
          return .date(ms)
        case "BinData":
          try expect("(")
          let text = try string()
          try expect(")")
          guard let data = Data(base64Encoded: text) else { throw fail("bad BinData") }
          return .bytes(data)
        case "Counter":
          try expect("(")
          let inner = try value()
          try expect(")")
          return .counter(inner)
        case "DedupCounter":
          try expect("(")
          let inner = try value()
          try expect(",")
          let registers = try string()
          try expect(")")
          return .dedupCounter(inner, registers: registers)
        case "Text":
          try expect("(")
          let inner = try value()
          try expect(")")
          guard case .array(let items) = inner else { throw fail("Text without a list") }
          return .text(try items.map { item in
            guard case .object(let fields) = item, case .string(let value)? = fields["val"] else { throw fail("bad text piece") }
            var attributes: [String: String] = [:]
            if case .object(let attrs)? = fields["attrs"] {
              for (key, attr) in attrs {
                guard case .string(let raw) = attr else { throw fail("bad text attribute") }
                attributes[key] = raw
              }
            }
            return TextPiece(value: value, attributes: attributes)
          })
        case "Tree":
          try expect("(")
          let start = index
          _ = try value()
          let raw = String(decoding: bytes[start..<index], as: UTF8.self)
          try expect(")")
          return .tree(raw)
        default:
          throw fail("unknown word \(word)")
        }
      }
    }

    mutating func identifier() -> String {
      let start = index
      while index < bytes.count, (bytes[index] >= 0x41 && bytes[index] <= 0x5A) || (bytes[index] >= 0x61 && bytes[index] <= 0x7A) { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func number() -> String {
      skipSpace()
      let start = index
      while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A string with JSON escapes plus Go's `\xNN`.
    mutating func string() throws -> String {
      try expect("\"")
      var scalars = String.UnicodeScalarView()
      var pendingBytes: [UInt8] = []
      func flush() {
        if !pendingBytes.isEmpty { scalars.append(contentsOf: String(decoding: pendingBytes, as: UTF8.self).unicodeScalars) }
        pendingBytes.removeAll()
      }
      while index < bytes.count {
        let c = bytes[index]
        index += 1
        if c == UInt8(ascii: "\"") {
          flush()
          return String(scalars)
        }
        if c != UInt8(ascii: "\\") {
          pendingBytes.append(c)
          continue
        }
        guard index < bytes.count else { break }
        let e = bytes[index]
        index += 1
        switch e {
        case UInt8(ascii: "n"): pendingBytes.append(0x0A)
        case UInt8(ascii: "t"): pendingBytes.append(0x09)
        case UInt8(ascii: "r"): pendingBytes.append(0x0D)
        case UInt8(ascii: "b"): pendingBytes.append(0x08)
        case UInt8(ascii: "f"): pendingBytes.append(0x0C)
        case UInt8(ascii: "x"):
          guard index + 2 <= bytes.count, let v = UInt8(String(decoding: bytes[index..<index + 2], as: UTF8.self), radix: 16) else { throw fail("bad \\x") }
          index += 2
          pendingBytes.append(v)
        case UInt8(ascii: "u"):
          guard index + 4 <= bytes.count, var v = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { throw fail("bad \\u") }
          index += 4
          if v >= 0xD800 && v < 0xDC00, index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
             let low = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16) {
            index += 6
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
          }
          flush()
          scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
        default: pendingBytes.append(e)
        }
      }
      throw fail("unterminated string")
    }
  }

  /// Parses `2026-08-18T11:17:21.123Z` (UTC, 0–9 fractional digits) to milliseconds.
  static func milliseconds(rfc3339 text: String) -> Int64? {
    let parts = text.split(whereSeparator: { "-T:Z.".contains($0) }).map(String.init)
    guard parts.count >= 6, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
          let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Int(parts[5]) else { return nil }
    var fraction = 0
    if parts.count > 6 { fraction = Int((parts[6] + "000").prefix(3)) ?? 0 }
    // Days from the civil date (proleptic Gregorian), Howard Hinnant's algorithm.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146097 + doe - 719468
    return Int64(((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + Int64(fraction)
  }
}
