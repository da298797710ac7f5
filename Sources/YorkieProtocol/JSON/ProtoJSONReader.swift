import CRDT
import Foundation

/// Reads the members of one JSON object as protobuf fields, with precise errors.
package struct ProtoJSONReader {
  private let members: [WireJSON.Member]
  /// Where this object is, for error messages.
  package let path: String

  /// Whether some member is spelled in snake_case (only then are such spellings looked up).
  private let hasSnakeCase: Bool

  package init(_ json: WireJSON, path: String) throws(YorkieError) {
    switch json {
    case .object(let members): self.members = members
    case .null: self.members = []
    default: throw wireDataError(path, "expected an object, found \(json.kind)")
    }
    self.path = path
    hasSnakeCase = members.contains { $0.key.utf8.contains(UInt8(ascii: "_")) }
  }

  package func error(_ field: String, _ what: String) -> YorkieError {
    wireDataError("\(path).\(field)", what)
  }

  /// The member `name` (or its snake_case spelling); nil when absent or null.
  package func value(_ name: String) -> WireJSON? {
    if let member = members.first(where: { $0.key == name }) {
      return member.value == .null ? nil : member.value
    }
    guard hasSnakeCase else { return nil }
    let snake = ProtoJSONReader.snakeCase(name)
    guard snake != name, let member = members.first(where: { $0.key == snake }) else { return nil }
    return member.value == .null ? nil : member.value
  }

  /// Whether the member is present (a oneof member may be an empty object).
  package func has(_ name: String) -> Bool { value(name) != nil }

  /// `clientSeq` → `client_seq` (field names are ASCII).
  static func snakeCase(_ name: String) -> String {
    var result: [UInt8] = []
    for byte in name.utf8 {
      if byte >= 0x41 && byte <= 0x5A {
        result.append(UInt8(ascii: "_"))
        result.append(byte + 0x20)
      } else {
        result.append(byte)
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  // MARK: Scalars

  /// The integer text of a number or numeric string member.
  private func integerText(_ name: String, _ json: WireJSON) throws(YorkieError) -> String {
    switch json {
    case .number(let literal), .string(let literal):
      if Int64(literal) != nil { return literal }
      // protojson accepts integral values written with a fraction or an exponent.
      if !literal.isEmpty, literal.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }) {
        return literal  // all digits: the caller reports a value out of its range
      }
      guard let double = Double(literal), let integer = Int64(exactly: double) else {
        throw error(name, "expected an integer, found \(literal.debugDescription)")
      }
      return String(integer)
    default:
      throw error(name, "expected an integer, found \(json.kind)")
    }
  }

  package func int64(_ name: String) throws(YorkieError) -> Int64 {
    guard let json = value(name) else { return 0 }
    let text = try integerText(name, json)
    guard let result = Int64(text) else { throw error(name, "\(text) is out of range for int64") }
    return result
  }

  package func int32(_ name: String) throws(YorkieError) -> Int32 {
    guard let json = value(name) else { return 0 }
    let text = try integerText(name, json)
    guard let result = Int32(text) else { throw error(name, "\(text) is out of range for int32") }
    return result
  }

  package func uint32(_ name: String) throws(YorkieError) -> UInt32 {
    guard let json = value(name) else { return 0 }
    let text = try integerText(name, json)
    guard let result = UInt32(text) else { throw error(name, "\(text) is out of range for uint32") }
    return result
  }

  package func bool(_ name: String) throws(YorkieError) -> Bool {
    guard let json = value(name) else { return false }
    guard case .bool(let b) = json else { throw error(name, "expected a boolean, found \(json.kind)") }
    return b
  }

  package func string(_ name: String) throws(YorkieError) -> String {
    guard let json = value(name) else { return "" }
    guard case .string(let s) = json else { throw error(name, "expected a string, found \(json.kind)") }
    return s
  }

  package func bytes(_ name: String) throws(YorkieError) -> Data {
    guard let json = value(name) else { return Data() }
    guard case .string(let s) = json else { throw error(name, "expected base64 text, found \(json.kind)") }
    guard let data = decodeBase64Leniently(s) else { throw error(name, "invalid base64") }
    return data
  }

  package func enumValue<E: ProtoEnum>(_ name: String, _ type: E.Type = E.self) throws(YorkieError) -> E {
    guard let json = value(name) else { return E(rawValue: 0)! }
    switch json {
    case .string(let text):
      if let known = E(protoName: text) { return known }
      if let number = Int32(text), let known = E(rawValue: number) { return known }
      throw error(name, "unknown \(E.self) name \(text.debugDescription)")
    case .number(let literal):
      guard let number = Int32(literal), let known = E(rawValue: number) else {
        throw error(name, "unknown \(E.self) value \(literal)")
      }
      return known
    default:
      throw error(name, "expected an enum name, found \(json.kind)")
    }
  }

  // MARK: Composites

  /// Decodes a nested message. Its errors are written relative to it and prefixed with where it
  /// sits only when one is thrown, so that decoding builds no path strings.
  private func nested<M: WireMessage>(_ json: WireJSON, at suffix: @autoclosure () -> String) throws(YorkieError) -> M {
    do {
      return try M(json: json, path: "")
    } catch {
      // Errors are built relative to the nested message (their field starts with `.`), so
      // prefixing both the field and the sentence with where it sits keeps them in step.
      let prefix = path + suffix()
      throw YorkieError(error.code, prefix + error.message, field: error.field.map { prefix + $0 }, underlying: error.underlying)
    }
  }

  package func message<M: WireMessage>(_ name: String, _ type: M.Type = M.self) throws(YorkieError) -> M? {
    guard let json = value(name) else { return nil }
    return try nested(json, at: "." + name)
  }

  package func repeated<M: WireMessage>(_ name: String, _ type: M.Type = M.self) throws(YorkieError) -> [M] {
    guard let json = value(name) else { return [] }
    guard case .array(let items) = json else { throw error(name, "expected an array, found \(json.kind)") }
    var result: [M] = []
    result.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      result.append(try nested(item, at: ".\(name)[\(index)]"))
    }
    return result
  }

  package func strings(_ name: String) throws(YorkieError) -> [String] {
    guard let json = value(name) else { return [] }
    guard case .array(let items) = json else { throw error(name, "expected an array, found \(json.kind)") }
    return try items.enumerated().map { (index, item) throws(YorkieError) in
      guard case .string(let s) = item else { throw error("\(name)[\(index)]", "expected a string, found \(item.kind)") }
      return s
    }
  }

  private func mapMembers(_ name: String) throws(YorkieError) -> [WireJSON.Member] {
    guard let json = value(name) else { return [] }
    guard case .object(let members) = json else { throw error(name, "expected an object, found \(json.kind)") }
    return members
  }

  package func stringMap(_ name: String) throws(YorkieError) -> [String: String] {
    var result: [String: String] = [:]
    for member in try mapMembers(name) {
      guard case .string(let s) = member.value else { throw error("\(name).\(member.key)", "expected a string, found \(member.value.kind)") }
      result[member.key] = s
    }
    return result
  }

  package func int64Map(_ name: String) throws(YorkieError) -> [String: Int64] {
    var result: [String: Int64] = [:]
    let nested = ProtoJSONReader(unchecked: try mapMembers(name), path: "\(path).\(name)")
    for member in try mapMembers(name) {
      result[member.key] = try nested.int64(member.key)
    }
    return result
  }

  package func messageMap<M: WireMessage>(_ name: String, _ type: M.Type = M.self) throws(YorkieError) -> [String: M] {
    var result: [String: M] = [:]
    for member in try mapMembers(name) {
      result[member.key] = try nested(member.value, at: ".\(name).\(member.key)")
    }
    return result
  }

  private init(unchecked members: [WireJSON.Member], path: String) {
    self.members = members
    self.path = path
    hasSnakeCase = false
  }

  /// Which of `names` (a oneof's members) is present; more than one is an error.
  package func oneof(_ names: [String]) throws(YorkieError) -> String? {
    let present = names.filter { has($0) }
    guard present.count <= 1 else { throw wireDataError(path, "more than one of \(present.joined(separator: ", ")) is set") }
    return present.first
  }
}
