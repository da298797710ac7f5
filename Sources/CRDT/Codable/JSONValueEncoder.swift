import Foundation

/// Turns an `Encodable` value into a ``JSONValue``: what ``JSONObject/set(_:encoding:)`` writes
/// into a document.
///
/// Values map to Yorkie's types as a JS peer would store them:
///
/// | Swift                                  | JSONValue                                          |
/// |----------------------------------------|----------------------------------------------------|
/// | `Int8`, `Int16`, `Int32`, `UInt8`, `UInt16` | ``JSONValue/integer(_:)``                     |
/// | `Int`, `UInt`, `UInt32`, `UInt64`      | ``JSONValue/integer(_:)`` when the value fits in `Int32`, ``JSONValue/long(_:)`` otherwise |
/// | `Int64`                                | ``JSONValue/long(_:)`` always (a 64-bit field is a Long) |
/// | `Double`, `Float`                      | ``JSONValue/double(_:)``                           |
/// | `Date`                                 | ``JSONValue/date(_:)`` (millisecond precision)     |
/// | `Data`                                 | ``JSONValue/bytes(_:)``                            |
/// | `JSONValue`                            | itself                                             |
/// | `nil` in a keyed container             | no member (synthesized `Encodable` skips it); an explicit `encodeNil` is ``JSONValue/null`` |
///
/// Structs and enums become objects, arrays and sets arrays, as their `encode(to:)` says (an
/// enum with associated values is `{"case": {"_0": …}}` under Swift's synthesized conformance).
///
/// ```swift
/// struct Todo: Codable { var title: String; var done: Bool; var due: Date? }
/// let value = try JSONValueEncoder().encode(Todo(title: "milk", done: false, due: nil))
/// // {"title":"milk","done":false}
/// ```
///
/// Errors are ``YorkieError``s whose ``YorkieError/field`` is the path of the value that failed
/// (`$.due`): ``YorkieError/Code/invalidNumber`` for a NaN or infinite double, a date a
/// JavaScript date cannot hold, or an unsigned integer beyond `Int64`;
/// ``YorkieError/Code/invalidKey`` for a key with a `.`; ``YorkieError/Code/encodingFailed``
/// for a value whose `encode(to:)` throws or encodes two things at one place.
public struct JSONValueEncoder: Sendable {
  /// Values for the `userInfo` of the encoders that `encode(to:)` receives.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// An encoder.
  public init() {}

  /// The value as a ``JSONValue``.
  ///
  /// - Throws: ``YorkieError`` (see the type's documentation); its ``YorkieError/field`` starts
  ///   at `$`, the value itself.
  public func encode<Value: Encodable>(_ value: Value) throws(YorkieError) -> JSONValue {
    try encode(value, at: "$")
  }

  /// The value as a ``JSONValue``, with errors' paths starting at `base` (such as `$.todos.3`,
  /// where the value is going).
  package func encode<Value: Encodable>(_ value: Value, at base: String) throws(YorkieError) -> JSONValue {
    let state = EncodingState(base: base, userInfo: userInfo)
    let slot = EncodingSlot()
    do {
      try state.encode(value, into: slot, at: [])
    } catch let error as YorkieError {
      throw error
    } catch {
      // `state.encode` turns every other error into a YorkieError with its path.
      throw YorkieError(.encodingFailed, "\(base): \(error)", field: base, underlying: error)
    }
    if let recorded = state.recorded { throw recorded }
    guard !slot.isEmpty else {
      throw YorkieError(.encodingFailed, "\(base): \(Value.self) encoded nothing", field: base)
    }
    return try slot.build(state, path: [])
  }
}

// MARK: - Where encoded values go

/// One place in the value being built: filled by a single value, or a keyed or unkeyed
/// container. A class, because containers that `encode(to:)` holds on to keep writing into it.
final class EncodingSlot {
  enum Content {
    case empty
    case value(JSONValue)
    case object(ObjectSlots)
    case array(ArraySlots)
  }

  var content = Content.empty

  var isEmpty: Bool {
    if case .empty = content { return true }
    return false
  }

  /// The finished value. A nested container nothing was written into is an empty object or
  /// array, as Foundation's JSONEncoder makes it; keys are checked here, once for all paths in.
  func build(_ state: EncodingState, path: [any CodingKey]) throws(YorkieError) -> JSONValue {
    switch content {
    case .empty:
      return .object(JSONValue.Object())
    case .value(let value):
      return value
    case .object(let object):
      var members: [(key: String, value: JSONValue)] = []
      members.reserveCapacity(object.keys.count)
      for key in object.keys {
        let memberPath = path + [DynamicCodingKey(stringValue: key)]
        do throws(YorkieError) {
          try JSONObject.validate(key: key)
        } catch {
          throw YorkieError(error.code, "\(state.describe(memberPath)): \(error.message)", field: state.describe(memberPath))
        }
        // `keys` and `slots` are written together: every key has its slot.
        let member = object.slots[key] ?? EncodingSlot()
        members.append((key: key, value: try member.build(state, path: memberPath)))
      }
      return .object(JSONValue.Object(members))
    case .array(let array):
      var elements: [JSONValue] = []
      elements.reserveCapacity(array.slots.count)
      for (index, element) in array.slots.enumerated() {
        elements.append(try element.build(state, path: path + [DynamicCodingKey(intValue: index)]))
      }
      return .array(elements)
    }
  }
}

/// The members of an object being encoded, in the order they were first written.
final class ObjectSlots {
  var keys: [String] = []
  var slots: [String: EncodingSlot] = [:]

  /// The slot of `key`, made (and ordered) on first use; a key written again is replaced.
  func slot(for key: String, replacing: Bool) -> EncodingSlot {
    if let existing = slots[key] {
      if replacing { existing.content = .empty }
      return existing
    }
    let slot = EncodingSlot()
    keys.append(key)
    slots[key] = slot
    return slot
  }
}

/// The elements of an array being encoded.
final class ArraySlots {
  var slots: [EncodingSlot] = []

  func append() -> EncodingSlot {
    let slot = EncodingSlot()
    slots.append(slot)
    return slot
  }
}

// MARK: - The encoding pass

/// What one `encode` call shares across its encoders and containers: the base path and the
/// first misuse recorded by a method that cannot throw.
final class EncodingState {
  let base: String
  let userInfo: [CodingUserInfoKey: Any]
  private(set) var recorded: YorkieError?

  init(base: String, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.base = base
    self.userInfo = userInfo
  }

  func describe(_ path: [any CodingKey]) -> String { CodingPath.describe(base, path) }

  /// Keeps the first misuse seen by a method that cannot throw (`container(keyedBy:)` on a slot
  /// that already holds a single value): `encode` throws it when the pass ends.
  func record(_ message: String, at path: [any CodingKey]) {
    guard recorded == nil else { return }
    recorded = YorkieError(.encodingFailed, "\(describe(path)): \(message)", field: describe(path))
  }

  /// Encodes `value` into `slot`: the types Yorkie stores natively directly, anything else
  /// through its `encode(to:)`.
  func encode<Value: Encodable>(_ value: Value, into slot: EncodingSlot, at path: [any CodingKey]) throws {
    if let native = try nativeValue(value, at: path) {
      slot.content = .value(native)
      return
    }
    do {
      try value.encode(to: ValueEncoder(state: self, slot: slot, codingPath: path))
    } catch let error as YorkieError {
      throw error
    } catch {
      // An error of the type's own `encode(to:)` (or an `EncodingError` it made): named by the
      // innermost value whose encoding threw it.
      throw YorkieError(.encodingFailed, "\(describe(path)): \(error)", field: describe(path), underlying: error)
    }
  }

  /// The value of a type Yorkie stores natively (whose own `Encodable` conformance would write
  /// something else: `Date` a number, `Data` an array of bytes); nil for other types.
  private func nativeValue<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws(YorkieError) -> JSONValue? {
    switch value {
    case let date as Date: return try self.date(date, at: path)
    case let data as Data: return .bytes(data)
    case let json as JSONValue: return json
    default: return nil
    }
  }

  func date(_ date: Date, at path: [any CodingKey]) throws(YorkieError) -> JSONValue {
    do throws(YorkieError) {
      _ = try PrimitiveValue.milliseconds(date)
    } catch {
      throw YorkieError(error.code, "\(describe(path)): \(error.message)", field: describe(path))
    }
    return .date(date)
  }

  func double(_ value: Double, at path: [any CodingKey]) throws(YorkieError) -> JSONValue {
    guard value.isFinite else {
      throw YorkieError(.invalidNumber, "\(describe(path)): a document cannot hold the double \(value)", field: describe(path))
    }
    return .double(value)
  }

  /// An integer of a type that may exceed `Int32`: an Integer when it fits, a Long otherwise.
  func integer<Value: BinaryInteger>(_ value: Value, at path: [any CodingKey]) throws(YorkieError) -> JSONValue {
    if let small = Int32(exactly: value) { return .integer(small) }
    if let large = Int64(exactly: value) { return .long(large) }
    throw YorkieError(
      .invalidNumber, "\(describe(path)): \(value) does not fit in Yorkie's Long (Int64)", field: describe(path))
  }
}

/// The `Encoder` handed to an `encode(to:)`: writes into one slot.
struct ValueEncoder: Encoder {
  let state: EncodingState
  let slot: EncodingSlot
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: ObjectSlots
    switch slot.content {
    case .object(let existing):
      object = existing
    case .empty:
      object = ObjectSlots()
      slot.content = .object(object)
    case .value, .array:
      state.record("a keyed container was asked for where a value was already encoded", at: codingPath)
      object = ObjectSlots()
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(state: state, object: object, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: ArraySlots
    switch slot.content {
    case .array(let existing):
      array = existing
    case .empty:
      array = ArraySlots()
      slot.content = .array(array)
    case .value, .object:
      state.record("an unkeyed container was asked for where a value was already encoded", at: codingPath)
      array = ArraySlots()
    }
    return UnkeyedContainer(state: state, array: array, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(state: state, slot: slot, codingPath: codingPath)
  }
}

// MARK: - Containers

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let state: EncodingState
  let object: ObjectSlots
  let codingPath: [any CodingKey]

  private func put(_ value: JSONValue, _ key: Key) {
    object.slot(for: key.stringValue, replacing: true).content = .value(value)
  }

  func encodeNil(forKey key: Key) throws { put(.null, key) }
  func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  func encode(_ value: Double, forKey key: Key) throws { put(try state.double(value, at: codingPath + [key]), key) }
  func encode(_ value: Float, forKey key: Key) throws { put(try state.double(Double(value), at: codingPath + [key]), key) }
  func encode(_ value: Int, forKey key: Key) throws { put(try state.integer(value, at: codingPath + [key]), key) }
  func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int32(value)), key) }
  func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int32(value)), key) }
  func encode(_ value: Int32, forKey key: Key) throws { put(.integer(value), key) }
  func encode(_ value: Int64, forKey key: Key) throws { put(.long(value), key) }
  func encode(_ value: UInt, forKey key: Key) throws { put(try state.integer(value, at: codingPath + [key]), key) }
  func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int32(value)), key) }
  func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int32(value)), key) }
  func encode(_ value: UInt32, forKey key: Key) throws { put(try state.integer(value, at: codingPath + [key]), key) }
  func encode(_ value: UInt64, forKey key: Key) throws { put(try state.integer(value, at: codingPath + [key]), key) }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try state.encode(value, into: object.slot(for: key.stringValue, replacing: true), at: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    ValueEncoder(state: state, slot: object.slot(for: key.stringValue, replacing: false), codingPath: codingPath + [key])
      .container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ValueEncoder(state: state, slot: object.slot(for: key.stringValue, replacing: false), codingPath: codingPath + [key])
      .unkeyedContainer()
  }

  func superEncoder() -> any Encoder {
    let key = DynamicCodingKey.superKey
    return ValueEncoder(state: state, slot: object.slot(for: key.stringValue, replacing: false), codingPath: codingPath + [key])
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    ValueEncoder(state: state, slot: object.slot(for: key.stringValue, replacing: false), codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let state: EncodingState
  let array: ArraySlots
  let codingPath: [any CodingKey]
  var count: Int { array.slots.count }

  /// The path of the element about to be appended.
  private var nextPath: [any CodingKey] { codingPath + [DynamicCodingKey(intValue: array.slots.count)] }

  private func put(_ value: JSONValue) { array.append().content = .value(value) }

  func encodeNil() throws { put(.null) }
  func encode(_ value: Bool) throws { put(.bool(value)) }
  func encode(_ value: String) throws { put(.string(value)) }
  func encode(_ value: Double) throws { put(try state.double(value, at: nextPath)) }
  func encode(_ value: Float) throws { put(try state.double(Double(value), at: nextPath)) }
  func encode(_ value: Int) throws { put(try state.integer(value, at: nextPath)) }
  func encode(_ value: Int8) throws { put(.integer(Int32(value))) }
  func encode(_ value: Int16) throws { put(.integer(Int32(value))) }
  func encode(_ value: Int32) throws { put(.integer(value)) }
  func encode(_ value: Int64) throws { put(.long(value)) }
  func encode(_ value: UInt) throws { put(try state.integer(value, at: nextPath)) }
  func encode(_ value: UInt8) throws { put(.integer(Int32(value))) }
  func encode(_ value: UInt16) throws { put(.integer(Int32(value))) }
  func encode(_ value: UInt32) throws { put(try state.integer(value, at: nextPath)) }
  func encode(_ value: UInt64) throws { put(try state.integer(value, at: nextPath)) }

  func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try state.encode(value, into: array.append(), at: path)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    return ValueEncoder(state: state, slot: array.append(), codingPath: path).container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return ValueEncoder(state: state, slot: array.append(), codingPath: path).unkeyedContainer()
  }

  func superEncoder() -> any Encoder {
    let path = nextPath
    return ValueEncoder(state: state, slot: array.append(), codingPath: path)
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let state: EncodingState
  let slot: EncodingSlot
  let codingPath: [any CodingKey]

  /// A second value at one place is a mistake of the type's `encode(to:)`: recorded, not kept.
  private func put(_ value: JSONValue) {
    guard slot.isEmpty else {
      state.record("a second value was encoded where one was already", at: codingPath)
      return
    }
    slot.content = .value(value)
  }

  func encodeNil() throws { put(.null) }
  func encode(_ value: Bool) throws { put(.bool(value)) }
  func encode(_ value: String) throws { put(.string(value)) }
  func encode(_ value: Double) throws { put(try state.double(value, at: codingPath)) }
  func encode(_ value: Float) throws { put(try state.double(Double(value), at: codingPath)) }
  func encode(_ value: Int) throws { put(try state.integer(value, at: codingPath)) }
  func encode(_ value: Int8) throws { put(.integer(Int32(value))) }
  func encode(_ value: Int16) throws { put(.integer(Int32(value))) }
  func encode(_ value: Int32) throws { put(.integer(value)) }
  func encode(_ value: Int64) throws { put(.long(value)) }
  func encode(_ value: UInt) throws { put(try state.integer(value, at: codingPath)) }
  func encode(_ value: UInt8) throws { put(.integer(Int32(value))) }
  func encode(_ value: UInt16) throws { put(.integer(Int32(value))) }
  func encode(_ value: UInt32) throws { put(try state.integer(value, at: codingPath)) }
  func encode(_ value: UInt64) throws { put(try state.integer(value, at: codingPath)) }

  func encode<T: Encodable>(_ value: T) throws {
    guard slot.isEmpty else {
      state.record("a second value was encoded where one was already", at: codingPath)
      return
    }
    try state.encode(value, into: slot, at: codingPath)
  }
}
