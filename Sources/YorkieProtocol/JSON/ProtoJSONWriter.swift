import CRDT
import Foundation

/// Writes protobuf fields as JSON members, omitting scalars at their default (a present
/// message is written even when empty).
///
/// Two outputs, the same JSON: a ``WireJSON`` tree (``init()``, then ``json``), or the text
/// itself, written straight into bytes (``init(writingBytes:)``, then ``output``): byte for
/// byte what the tree's ``WireJSON/write(into:)`` gives, without building the tree (the tests
/// compare the two on all recorded traffic and on random messages). A message lists its fields
/// once, in ``ProtoJSONMessage/writeFields(to:)``, for both.
package struct ProtoJSONWriter {
  /// The members written so far (tree output).
  package private(set) var members: [WireJSON.Member] = []
  /// The text written so far (byte output).
  package private(set) var output: [UInt8] = []
  /// Whether this writer writes bytes rather than a tree.
  private let writesBytes: Bool
  /// Whether the object being written (byte output) has no member yet.
  private var isFirstMember = true

  /// A writer that builds a tree.
  package init() { writesBytes = false }

  /// A writer that writes JSON text into ``output``.
  package init(writingBytes capacity: Int) {
    writesBytes = true
    output.reserveCapacity(capacity)
  }

  /// The members as an object (tree output).
  package var json: WireJSON { .object(members) }

  private static let quote = UInt8(ascii: "\"")

  // MARK: Byte output

  /// Writes `value`'s fields as an object, between braces (byte output).
  package mutating func object<M: ProtoJSONMessage>(_ value: M) {
    let outer = isFirstMember
    isFirstMember = true
    output.append(UInt8(ascii: "{"))
    value.writeFields(to: &self)
    output.append(UInt8(ascii: "}"))
    isFirstMember = outer
  }

  /// A member's name and colon, after a comma unless it is the object's first.
  private mutating func key(_ name: String) {
    if isFirstMember {
      isFirstMember = false
    } else {
      output.append(UInt8(ascii: ","))
    }
    WireJSON.writeString(name, into: &output)
    output.append(UInt8(ascii: ":"))
  }

  /// Appends the decimal digits of `value` (after a minus sign when negative), as
  /// `String(value)` spells them.
  private mutating func decimal(_ value: Int64) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    // The magnitude, unsigned: Int64.min has one too.
    var magnitude = value.magnitude
    let start = output.count
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    output[start...].reverse()
  }

  /// A quoted decimal (64-bit integers travel as strings).
  private mutating func quotedDecimal(_ value: Int64) {
    output.append(Self.quote)
    decimal(value)
    output.append(Self.quote)
  }

  /// A map's entries as an object, keys sorted (as the tree sorts them).
  private mutating func mapMembers<Value>(_ map: [String: Value], _ write: (inout Self, Value) -> Void) {
    output.append(UInt8(ascii: "{"))
    for (index, entry) in map.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      WireJSON.writeString(entry.key, into: &output)
      output.append(UInt8(ascii: ":"))
      write(&self, entry.value)
    }
    output.append(UInt8(ascii: "}"))
  }

  // MARK: Fields

  package mutating func int64(_ name: String, _ value: Int64) {
    guard value != 0 else { return }
    guard writesBytes else { return members.append(.init(name, .string(String(value)))) }
    key(name)
    quotedDecimal(value)
  }

  package mutating func int32(_ name: String, _ value: Int32) {
    guard value != 0 else { return }
    guard writesBytes else { return members.append(.init(name, .number(String(value)))) }
    key(name)
    decimal(Int64(value))
  }

  package mutating func uint32(_ name: String, _ value: UInt32) {
    guard value != 0 else { return }
    guard writesBytes else { return members.append(.init(name, .number(String(value)))) }
    key(name)
    decimal(Int64(value))
  }

  package mutating func bool(_ name: String, _ value: Bool) {
    guard value else { return }
    guard writesBytes else { return members.append(.init(name, .bool(true))) }
    key(name)
    output.append(contentsOf: "true".utf8)
  }

  package mutating func string(_ name: String, _ value: String) {
    guard !value.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .string(value))) }
    key(name)
    WireJSON.writeString(value, into: &output)
  }

  package mutating func bytes(_ name: String, _ value: Data) {
    guard !value.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .string(value.base64EncodedString()))) }
    key(name)
    output.append(Self.quote)
    Base64.encode(value, into: &output)
    output.append(Self.quote)
  }

  package mutating func enumValue<E: ProtoEnum>(_ name: String, _ value: E) {
    guard value.rawValue != 0 else { return }
    guard writesBytes else { return members.append(.init(name, .string(value.protoName))) }
    key(name)
    WireJSON.writeString(value.protoName, into: &output)
  }

  /// A message field; nil writes nothing, an empty message writes `{}`.
  package mutating func message<M: ProtoJSONMessage>(_ name: String, _ value: M?) {
    guard let value else { return }
    guard writesBytes else { return members.append(.init(name, value.json)) }
    key(name)
    object(value)
  }

  package mutating func repeated<M: ProtoJSONMessage>(_ name: String, _ values: [M]) {
    guard !values.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .array(values.map(\.json)))) }
    key(name)
    output.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      object(value)
    }
    output.append(UInt8(ascii: "]"))
  }

  /// A repeated field of messages written through their trees (messages of other modules).
  package mutating func repeated<M: WireMessage>(_ name: String, _ values: [M]) {
    raw(name, .array(values.map(\.json)), unlessEmpty: values.isEmpty)
  }

  package mutating func strings(_ name: String, _ values: [String]) {
    guard !values.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .array(values.map { .string($0) }))) }
    key(name)
    output.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      WireJSON.writeString(value, into: &output)
    }
    output.append(UInt8(ascii: "]"))
  }

  package mutating func stringMap(_ name: String, _ map: [String: String]) {
    guard !map.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .object(map.keys.sorted().map { .init($0, .string(map[$0]!)) }))) }
    key(name)
    mapMembers(map) { w, value in WireJSON.writeString(value, into: &w.output) }
  }

  package mutating func int64Map(_ name: String, _ map: [String: Int64]) {
    guard !map.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .object(map.keys.sorted().map { .init($0, .string(String(map[$0]!))) }))) }
    key(name)
    mapMembers(map) { w, value in w.quotedDecimal(value) }
  }

  package mutating func messageMap<M: ProtoJSONMessage>(_ name: String, _ map: [String: M]) {
    guard !map.isEmpty else { return }
    guard writesBytes else { return members.append(.init(name, .object(map.keys.sorted().map { .init($0, map[$0]!.json) }))) }
    key(name)
    mapMembers(map) { w, value in w.object(value) }
  }

  /// A member written as is (a oneof member that is an empty message, say).
  package mutating func raw(_ name: String, _ value: WireJSON) {
    raw(name, value, unlessEmpty: false)
  }

  private mutating func raw(_ name: String, _ value: @autoclosure () -> WireJSON, unlessEmpty empty: Bool) {
    guard !empty else { return }
    guard writesBytes else { return members.append(.init(name, value())) }
    key(name)
    value().write(into: &output)
  }
}

/// A message of this package whose canonical JSON is its fields, as ``writeFields(to:)``
/// writes them: its ``WireMessage/json`` is ``protoJSON``, and its bytes are written without
/// building the tree (``protoJSONBytes``).
package protocol ProtoJSONMessage: WireMessage {
  /// Writes the message's fields (the members of its JSON object) to `w`.
  func writeFields(to w: inout ProtoJSONWriter)
}

extension ProtoJSONMessage {
  /// The message as a ``WireJSON`` tree.
  package var protoJSON: WireJSON {
    var w = ProtoJSONWriter()
    writeFields(to: &w)
    return w.json
  }

  /// The message as compact JSON text, UTF-8: byte for byte `json.bytes`.
  package var protoJSONBytes: [UInt8] {
    var w = ProtoJSONWriter(writingBytes: 256)
    w.object(self)
    return w.output
  }
}
