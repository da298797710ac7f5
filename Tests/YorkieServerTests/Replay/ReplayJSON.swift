import Foundation
import YorkieProtocol

// Small accessors and transformations of `WireJSON` that the replay harness needs: reading the
// recordings, rewriting ids, building seed requests.

extension WireJSON {
  /// The string, when this is one.
  var replayString: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The integer value of a number or of a numeric string (int64 fields are strings in
  /// protobuf JSON), exact for every Int64.
  var replayInt: Int64? {
    switch self {
    case .number(let literal), .string(let literal): return Int64(literal)
    default: return nil
    }
  }

  /// The items, when this is an array.
  var replayArray: [WireJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The members, when this is an object.
  var replayMembers: [Member]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// A copy with member `key` set to `value` (replaced in place when present, appended
  /// otherwise), or removed when `value` is nil. Not an object: unchanged.
  func replaySetting(_ key: String, _ value: WireJSON?) -> WireJSON {
    guard case .object(var members) = self else { return self }
    if let index = members.firstIndex(where: { $0.key == key }) {
      if let value { members[index].value = value } else { members.remove(at: index) }
    } else if let value {
      members.append(Member(key, value))
    }
    return .object(members)
  }

  /// The value at a path of member names and array indexes (`["changePack", "changes", 0]`).
  subscript(replayPath path: [ReplayPathComponent]) -> WireJSON? {
    var current: WireJSON? = self
    for component in path {
      switch component {
      case .key(let key): current = current?[key]
      case .index(let index):
        guard let items = current?.replayArray, items.indices.contains(index) else { return nil }
        current = items[index]
      }
    }
    return current
  }

  /// Rewrites every string value and every object member name with `transform`, depth first.
  func replayMappingStrings(_ transform: (String) -> String) -> WireJSON {
    switch self {
    case .string(let text): return .string(transform(text))
    case .array(let items): return .array(items.map { $0.replayMappingStrings(transform) })
    case .object(let members):
      return .object(members.map { Member(transform($0.key), $0.value.replayMappingStrings(transform)) })
    default: return self
    }
  }

  /// Rewrites every object (depth first, children before their parent) with `transform`.
  func replayMappingObjects(_ transform: ([Member]) -> [Member]) -> WireJSON {
    switch self {
    case .array(let items): return .array(items.map { $0.replayMappingObjects(transform) })
    case .object(let members):
      return .object(transform(members.map { Member($0.key, $0.value.replayMappingObjects(transform)) }))
    default: return self
    }
  }

  /// The value as compact JSON text, for failure messages (long values are cut).
  var replayShort: String {
    let text = self.text
    return text.count > 300 ? String(text.prefix(300)) + "…" : text
  }
}

/// One step of a path into a JSON value.
enum ReplayPathComponent: Sendable, Equatable {
  case key(String)
  case index(Int)
}

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
