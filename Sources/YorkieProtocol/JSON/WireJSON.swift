import CRDT
import Foundation

/// A JSON value as it travels in Connect's JSON codec.
///
/// Numbers keep their literal text, so that 64-bit integers beyond 2^53 survive a round trip;
/// object members keep their order (protobuf JSON ignores it, but tests and logs read better).
/// ``WireMessage``s decode from and encode to this; ``ConnectErrorDetail/debug`` holds one.
public enum WireJSON: Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as its literal text (`17`, `-0.5`, `1e-7`).
  case number(String)
  /// A string.
  case string(String)
  /// An array.
  case array([WireJSON])
  /// An object, its members in order.
  case object([Member])

  /// One member of an object.
  public struct Member: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: WireJSON

    /// Creates a member.
    public init(_ key: String, _ value: WireJSON) {
      self.key = key
      self.value = value
    }
  }

  /// An empty object, `{}`.
  public static let emptyObject = WireJSON.object([])

  /// The value of member `key`, when this is an object that has it (the first such member).
  public subscript(key: String) -> WireJSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A short name of the value's kind, for error messages (`an object`).
  public var kind: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  // MARK: Writing

  /// The value as compact JSON text, UTF-8.
  package var bytes: [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    write(into: &output)
    return output
  }

  /// The value as compact JSON text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The value as compact JSON text, UTF-8.
  public var data: Data { Data(bytes) }

  /// Appends the value as compact JSON text to `output`.
  package func write(into output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let b): output.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let literal): output.append(contentsOf: literal.utf8)
    case .string(let s): WireJSON.writeString(s, into: &output)
    case .array(let items):
      output.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { output.append(UInt8(ascii: ",")) }
        item.write(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { output.append(UInt8(ascii: ",")) }
        WireJSON.writeString(member.key, into: &output)
        output.append(UInt8(ascii: ":"))
        member.value.write(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Writes a JSON string literal: quotes, backslashes and control characters escaped, the rest
  /// as UTF-8.
  package static func writeString(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      // Most strings need no escaping: copy them whole.
      if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        output.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0..<0x20:
          output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                     hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        default: output.append(byte)
        }
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
