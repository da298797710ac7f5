import Foundation

/// Reads a `Decodable` value out of a ``JSONValue``: what ``Document/decode(_:at:)`` uses.
///
/// The inverse of ``JSONValueEncoder``, and lenient where peers store one thing several ways:
///
/// - Any integer type reads an Integer, a Long, or a Double with an integral value (a JS peer
///   stores `3` as an Integer, a Go peer may store it as a Double), when the value fits the
///   type; a value that does not fit (`300` into `Int8`) is an error, never truncated.
/// - `Double` and `Float` read any number.
/// - `Date` reads only a ``JSONValue/date(_:)``, `Data` only ``JSONValue/bytes(_:)``, and a
///   `JSONValue` property takes the value as it is.
/// - An optional is nil for a missing member or ``JSONValue/null``.
///
/// ```swift
/// let todos = try JSONValueDecoder().decode([Todo].self, from: value)
/// ```
///
/// Errors are ``YorkieError``s with code ``YorkieError/Code/decodingFailed``, the path that
/// did not decode as ``YorkieError/field`` (`$.todos.2.due`), and the `DecodingError` that says
/// how as ``YorkieError/underlying``.
public struct JSONValueDecoder: Sendable {
  /// Values for the `userInfo` of the decoders that `init(from:)` receives.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// A decoder.
  public init() {}

  /// The value of type `type` that `value` holds.
  ///
  /// - Throws: ``YorkieError`` ``YorkieError/Code/decodingFailed``; its ``YorkieError/field``
  ///   starts at `$`, the value itself.
  public func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws(YorkieError) -> Value {
    try decode(type, from: value, at: "$")
  }

  /// The value of type `type` that `value` holds, with errors' paths starting at `base` (where
  /// `value` was read, such as `$.todos`).
  package func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue, at base: String) throws(YorkieError) -> Value {
    let decoder = ValueDecoder(value: value, codingPath: [], context: DecodingContext(base: base, userInfo: userInfo))
    do {
      return try decoder.decodeValue(type)
    } catch let error as YorkieError {
      throw error
    } catch let error as DecodingError {
      throw DecodingContext.describe(error, base: base)
    } catch {
      throw YorkieError(.decodingFailed, "\(base): \(error)", field: base, underlying: error)
    }
  }
}

/// What the decoders of one `decode` call share.
struct DecodingContext {
  let base: String
  let userInfo: [CodingUserInfoKey: Any]

  init(base: String, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.base = base
    self.userInfo = userInfo
  }

  /// A `DecodingError` as a YorkieError naming its path: for a missing key, the key's path.
  static func describe(_ error: DecodingError, base: String) -> YorkieError {
    let path: [any CodingKey]
    let reason: String
    switch error {
    case .keyNotFound(let key, let context):
      path = context.codingPath + [key]
      reason = "missing"
    case .valueNotFound(let type, let context):
      path = context.codingPath
      reason = "no value where a \(type) was expected" + (context.debugDescription.isEmpty ? "" : " (\(context.debugDescription))")
    case .typeMismatch(_, let context), .dataCorrupted(let context):
      path = context.codingPath
      reason = context.debugDescription
    @unknown default:
      path = []
      reason = "\(error)"
    }
    let field = CodingPath.describe(base, path)
    return YorkieError(.decodingFailed, "\(field): \(reason)", field: field, underlying: error)
  }
}

// MARK: - The decoder

/// The `Decoder` handed to an `init(from:)`: reads one value.
struct ValueDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let context: DecodingContext
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else {
      throw mismatch([String: JSONValue].self, expected: "an object")
    }
    return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath, context: context))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch([JSONValue].self, expected: "an array")
    }
    return UnkeyedContainer(elements: elements, codingPath: codingPath, context: context)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self)
  }

  /// `type` read from this value: the types Yorkie stores natively directly, anything else
  /// through its `init(from:)`.
  func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
    if type == Date.self {
      guard case .date(let date) = value else { throw mismatch(Date.self, expected: "a date") }
      return try cast(date, to: type)
    }
    if type == Data.self {
      guard case .bytes(let data) = value else { throw mismatch(Data.self, expected: "bytes") }
      return try cast(data, to: type)
    }
    if type == JSONValue.self {
      return try cast(value, to: type)
    }
    return try Value(from: self)
  }

  /// `native` as `type`, which the caller checked it is (a mismatch error otherwise, never a trap).
  private func cast<Native, Value>(_ native: Native, to type: Value.Type) throws -> Value {
    guard let result = native as? Value else { throw mismatch(type, expected: "\(Native.self)") }
    return result
  }

  /// A typeMismatch error at this value (a null is valueNotFound, as Foundation reports it).
  func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
    if value == .null {
      return .valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: ""))
    }
    return .typeMismatch(
      type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)"))
  }

  func bool() throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(Bool.self, expected: "a boolean") }
    return bool
  }

  func string() throws -> String {
    guard case .string(let string) = value else { throw mismatch(String.self, expected: "a string") }
    return string
  }

  func floatingPoint<Value: BinaryFloatingPoint>(_ type: Value.Type) throws -> Value {
    switch value {
    case .double(let double): return Value(double)
    case .integer(let integer): return Value(integer)
    case .long(let long): return Value(long)
    default: throw mismatch(type, expected: "a number")
    }
  }

  /// An integer of `type`, from any number whose value it holds exactly.
  func integer<Value: FixedWidthInteger>(_ type: Value.Type) throws -> Value {
    let exact: Value?
    switch value {
    case .integer(let integer): exact = Value(exactly: integer)
    case .long(let long): exact = Value(exactly: long)
    case .double(let double): exact = Value(exactly: double)
    default: throw mismatch(type, expected: "an integer")
    }
    guard let exact else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "\(value.jsonString) does not fit in \(type)"))
    }
    return exact
  }
}

extension JSONValue {
  /// The kind of value, for messages: `a string`, `null`.
  var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer: return "an Integer"
    case .long: return "a Long"
    case .double: return "a Double"
    case .string: return "a string"
    case .bytes: return "bytes"
    case .date: return "a date"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

// MARK: - Containers

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: JSONValue]
  let codingPath: [any CodingKey]
  let context: DecodingContext
  let allKeys: [Key]

  init(object: JSONValue.Object, codingPath: [any CodingKey], context: DecodingContext) {
    var members: [String: JSONValue] = [:]
    members.reserveCapacity(object.count)
    for member in object { members[member.key] = member.value }
    self.members = members
    self.codingPath = codingPath
    self.context = context
    self.allKeys = object.keys.compactMap { Key(stringValue: $0) }
  }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func decoder(_ key: Key) throws -> ValueDecoder {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: ""))
    }
    return ValueDecoder(value: value, codingPath: codingPath + [key], context: context)
  }

  func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).value == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).bool() }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).string() }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).floatingPoint(type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).floatingPoint(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).integer(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(key).integer(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(key).integer(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(key).integer(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(key).integer(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(key).integer(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(key).integer(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(key).integer(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(key).integer(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(key).integer(type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decodeValue(type) }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    let key = DynamicCodingKey.superKey
    return ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], context: context)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], context: context)
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  let context: DecodingContext
  private(set) var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey], context: DecodingContext) {
    self.elements = elements
    self.codingPath = codingPath
    self.context = context
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The decoder of the next element; advances only once the element decoded.
  private func next(_ type: Any.Type) throws -> ValueDecoder {
    let path = codingPath + [DynamicCodingKey(intValue: currentIndex)]
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, DecodingError.Context(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
    }
    return ValueDecoder(value: elements[currentIndex], codingPath: path, context: context)
  }

  private mutating func read<T>(_ type: T.Type, _ body: (ValueDecoder) throws -> T) throws -> T {
    let result = try body(try next(type))
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard try next(Never.self).value == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) { try $0.bool() } }
  mutating func decode(_ type: String.Type) throws -> String { try read(type) { try $0.string() } }
  mutating func decode(_ type: Double.Type) throws -> Double { try read(type) { try $0.floatingPoint(type) } }
  mutating func decode(_ type: Float.Type) throws -> Float { try read(type) { try $0.floatingPoint(type) } }
  mutating func decode(_ type: Int.Type) throws -> Int { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) { try $0.integer(type) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) { try $0.integer(type) } }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) { try $0.decodeValue(type) } }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    try read(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try read((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder {
    try read((any Decoder).self) { $0 }
  }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
  let decoder: ValueDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool { decoder.value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
  func decode(_ type: String.Type) throws -> String { try decoder.string() }
  func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type) }
  func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
