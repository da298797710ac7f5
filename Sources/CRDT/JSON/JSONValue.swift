import Foundation

/// A value an app writes into or reads out of a document: JSON plus Yorkie's extra primitives.
///
/// Literals work as in JSON. An integer literal becomes ``integer(_:)`` when it fits in `Int32`
/// and ``long(_:)`` otherwise, as the JS SDK stores numbers; write `.long(5)` to force a Long.
/// Writing an ``array(_:)`` or ``object(_:)`` creates a CRDT array or object in the document.
///
/// ```swift
/// root["point"] = ["x": 1, "y": 2.5, "tags": ["a", "b"], "at": .date(Date())]
/// ```
public enum JSONValue: Hashable, Sendable,
  ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// JSON `null`.
  case null
  /// A boolean.
  case bool(Bool)
  /// A 32-bit integer (Yorkie's Integer).
  case integer(Int32)
  /// A 64-bit integer (Yorkie's Long).
  case long(Int64)
  /// A double. NaN and infinities are rejected when written to a document.
  case double(Double)
  /// A string.
  case string(String)
  /// Raw bytes, printed as base64 in JSON.
  case bytes(Data)
  /// A date with millisecond precision, printed as ISO-8601 UTC in JSON.
  case date(Date)
  /// An array.
  case array([JSONValue])
  /// An object whose members keep the order they were written in.
  case object(Object)

  /// An ordered list of key–value pairs. Equality ignores the order.
  public struct Object: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an object from ordered members. A repeated key keeps its last value, at the
    /// position of its first occurrence.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
      self.members = []
      for member in members { self[member.key] = member.value }
    }

    /// Creates an object from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
      self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    /// The value for `key`; setting nil removes the member.
    public subscript(key: String) -> JSONValue? {
      get { members.first(where: { $0.key == key })?.value }
      set {
        if let index = members.firstIndex(where: { $0.key == key }) {
          if let newValue { members[index].value = newValue } else { members.remove(at: index) }
        } else if let newValue {
          members.append((key: key, value: newValue))
        }
      }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
      members.makeIterator()
    }

    /// Order-insensitive equality.
    public static func == (lhs: Object, rhs: Object) -> Bool {
      guard lhs.members.count == rhs.members.count else { return false }
      let left = Dictionary(lhs.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
      for member in rhs.members where left[member.key] != member.value { return false }
      return true
    }

    /// Order-insensitive hashing.
    public func hash(into hasher: inout Hasher) {
      var combined = 0
      for member in members {
        var memberHasher = Hasher()
        memberHasher.combine(member.key)
        memberHasher.combine(member.value)
        combined ^= memberHasher.finalize()
      }
      hasher.combine(members.count)
      hasher.combine(combined)
    }
  }

  /// `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// ``integer(_:)`` when the literal fits in `Int32`, ``long(_:)`` otherwise.
  public init(integerLiteral value: Int64) {
    if let small = Int32(exactly: value) { self = .integer(small) } else { self = .long(value) }
  }
  /// A double.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// An object, keeping the literal's key order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Object(elements.map { (key: $0.0, value: $0.1) }))
  }

  /// ``integer(_:)`` when `value` fits in `Int32`, ``long(_:)`` otherwise.
  public init(_ value: Int) {
    if let small = Int32(exactly: value) { self = .integer(small) } else { self = .long(Int64(value)) }
  }

  /// The value that JSON `text` encodes (RFC 8259; surrounding whitespace allowed).
  ///
  /// Integers that fit in `Int32` become ``integer(_:)``, other integers in `Int64` range
  /// ``long(_:)``, every other number ``double(_:)``. Object members keep the text's order.
  ///
  /// ```swift
  /// let todo = try JSONValue(parsing: #"{"title": "milk", "done": false}"#)
  /// try root.array("todos")?.append(todo)
  /// ```
  ///
  /// - Throws: ``YorkieError`` with code ``YorkieError/Code/invalidJSON`` when `text` is not
  ///   JSON; its ``YorkieError/offset`` is the UTF-8 byte offset where parsing stopped.
  public init(parsing text: String) throws(YorkieError) {
    do {
      self = try JSONValueParser.parseOrFail(text)
    } catch {
      throw YorkieError(.invalidJSON, "not JSON at byte offset \(error.offset): \(error.reason)", offset: error.offset)
    }
  }

  /// The value printed as the JS SDK prints it (see ``Document/toJSON()``).
  public var jsonString: String {
    var writer = JSONWriter()
    writer.write(self, sorted: false)
    return writer.output
  }
}

extension JSONValue: CustomStringConvertible {
  /// The value as JSON, members in their order (``jsonString``): what `print` and string
  /// interpolation show of a value, a payload or a presence.
  ///
  /// ```swift
  /// let presence: JSONValue = ["name": "ann", "cursor": 3]
  /// print(presence)                  // {"name":"ann","cursor":3}
  /// print(["tags": presence])        // ["tags": {"name":"ann","cursor":3}]
  /// ```
  public var description: String { jsonString }
}

extension JSONValue.Object: CustomStringConvertible {
  /// The object as JSON, members in their order.
  public var description: String { JSONValue.object(self).jsonString }
}
