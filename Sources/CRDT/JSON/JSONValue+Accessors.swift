import Foundation

/// Typed reads of a value, for code outside ``Document/update(message:_:)`` (which reads
/// ``Document/value``, ``Document/value(atPath:)`` or an event's payload).
///
/// Each accessor gives nil when the value is of another kind, so reads chain with `?`:
///
/// ```swift
/// let value = await doc.value
/// let title = value["todos"]?[0]?["title"]?.string   // String?
/// let done = value["todos"]?[0]?["done"]?.bool ?? false
/// ```
///
/// Numbers follow JSON rather than Yorkie's storage types: ``int`` reads an Integer or a Long
/// (never a Double, even an integral one, so nothing is truncated), and ``double`` reads any
/// number, since a JS peer stores an integral number as an Integer.
extension JSONValue {
  /// The string, or nil when the value is not a string.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer of an Integer or a Long, or nil for any other value (a Double included) and for
  /// a Long that does not fit in `Int` (on 32-bit platforms).
  public var int: Int? {
    switch self {
    case .integer(let value): return Int(value)
    case .long(let value): return Int(exactly: value)
    default: return nil
    }
  }

  /// The integer of an Integer or a Long, as 64 bits on every platform; nil for any other value.
  public var int64: Int64? {
    switch self {
    case .integer(let value): return Int64(value)
    case .long(let value): return value
    default: return nil
    }
  }

  /// Any number as a `Double` (a Long beyond ±2⁵³ is rounded to the nearest double); nil for
  /// any other value.
  public var double: Double? {
    switch self {
    case .double(let value): return value
    case .integer(let value): return Double(value)
    case .long(let value): return Double(value)
    default: return nil
    }
  }

  /// The boolean, or nil when the value is not a boolean.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The bytes, or nil when the value is not bytes.
  public var bytes: Data? {
    if case .bytes(let value) = self { return value }
    return nil
  }

  /// The date, or nil when the value is not a date.
  public var date: Date? {
    if case .date(let value) = self { return value }
    return nil
  }

  /// The elements, or nil when the value is not an array. (A text reads as an array of its
  /// spans; see ``textValue``.)
  public var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members in order, or nil when the value is not an object.
  public var object: Object? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether the value is `null`.
  public var isNull: Bool { self == .null }

  /// The member `key` of an object; nil when the value is not an object or has no such member.
  public subscript(key: String) -> JSONValue? {
    object?[key]
  }

  /// The element at `index` of an array; nil when the value is not an array or the index is out
  /// of bounds.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}
