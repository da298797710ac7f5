import CRDT
import Foundation

/// Writes protobuf fields as JSON members, omitting default values.
package struct ProtoJSONWriter {
  package private(set) var members: [WireJSON.Member] = []

  package init() {}

  package var json: WireJSON { .object(members) }

  package mutating func int64(_ name: String, _ value: Int64) {
    if value != 0 { members.append(.init(name, .string(String(value)))) }
  }

  package mutating func int32(_ name: String, _ value: Int32) {
    if value != 0 { members.append(.init(name, .number(String(value)))) }
  }

  package mutating func uint32(_ name: String, _ value: UInt32) {
    if value != 0 { members.append(.init(name, .number(String(value)))) }
  }

  package mutating func bool(_ name: String, _ value: Bool) {
    if value { members.append(.init(name, .bool(true))) }
  }

  package mutating func string(_ name: String, _ value: String) {
    if !value.isEmpty { members.append(.init(name, .string(value))) }
  }

  package mutating func bytes(_ name: String, _ value: Data) {
    if !value.isEmpty { members.append(.init(name, .string(value.base64EncodedString()))) }
  }

  package mutating func enumValue<E: ProtoEnum>(_ name: String, _ value: E) {
    if value.rawValue != 0 { members.append(.init(name, .string(value.protoName))) }
  }

  /// A message field; nil writes nothing, an empty message writes `{}`.
  package mutating func message<M: WireMessage>(_ name: String, _ value: M?) {
    if let value { members.append(.init(name, value.json)) }
  }

  package mutating func repeated<M: WireMessage>(_ name: String, _ values: [M]) {
    if !values.isEmpty { members.append(.init(name, .array(values.map(\.json)))) }
  }

  package mutating func strings(_ name: String, _ values: [String]) {
    if !values.isEmpty { members.append(.init(name, .array(values.map { .string($0) }))) }
  }

  package mutating func stringMap(_ name: String, _ map: [String: String]) {
    if !map.isEmpty { members.append(.init(name, .object(map.keys.sorted().map { .init($0, .string(map[$0]!)) }))) }
  }

  package mutating func int64Map(_ name: String, _ map: [String: Int64]) {
    if !map.isEmpty { members.append(.init(name, .object(map.keys.sorted().map { .init($0, .string(String(map[$0]!))) }))) }
  }

  package mutating func messageMap<M: WireMessage>(_ name: String, _ map: [String: M]) {
    if !map.isEmpty { members.append(.init(name, .object(map.keys.sorted().map { .init($0, map[$0]!.json) }))) }
  }

  /// A member written as is (a oneof member that is an empty message, say).
  package mutating func raw(_ name: String, _ value: WireJSON) {
    members.append(.init(name, value))
  }
}
