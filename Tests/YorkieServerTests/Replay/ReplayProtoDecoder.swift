import Foundation
import YorkieProtocol

/// Decodes the binary protobuf values that travel inside the JSON traffic (`JSONElement` in
/// `JSONElementSimple.value`, `Snapshot` in `ChangePack.snapshot`, `google.rpc.ErrorInfo` in
/// error details) into their protobuf-JSON form, the shape the recordings' `binaryDecoded`
/// items show. The server re-encodes these values and their bytes are not stable, so the replay
/// compares them decoded.
///
/// It is driven by a table of the messages' fields (section 4.8 of the protocol notes), is
/// strict about wire types, and keeps fields it does not know as `#<number>` members so that
/// they show up in a comparison instead of vanishing.
enum ReplayProtoDecoder {
  /// How a field is written in protobuf JSON.
  private enum Kind {
    case int64, int32, uint32, bool, string, bytes
    case valueType
    case message(String)
    case stringMap
    case messageMap(String)
  }

  /// A field of a message: its JSON name, kind and whether it repeats.
  private struct Field {
    let name: String
    let kind: Kind
    let repeated: Bool
    /// A field named `name` of kind `kind`.
    init(_ name: String, _ kind: Kind, repeated: Bool = false) {
      self.name = name
      self.kind = kind
      self.repeated = repeated
    }
  }

  private static let ticket = Kind.message("TimeTicket")

  /// The messages that occur in binary, by name, then field number.
  private static let schema: [String: [Int: Field]] = [
    "TimeTicket": [1: Field("lamport", .int64), 2: Field("delimiter", .uint32), 3: Field("actorId", .bytes)],
    "JSONElement": [
      1: Field("jsonObject", .message("JSONObject")), 2: Field("jsonArray", .message("JSONArray")),
      3: Field("primitive", .message("Primitive")), 5: Field("text", .message("Text")),
      6: Field("counter", .message("Counter")), 7: Field("tree", .message("Tree")),
    ],
    "JSONObject": [1: Field("nodes", .message("RHTNode"), repeated: true), 2: Field("createdAt", ticket),
                   3: Field("movedAt", ticket), 4: Field("removedAt", ticket)],
    "JSONArray": [1: Field("nodes", .message("RGANode"), repeated: true), 2: Field("createdAt", ticket),
                  3: Field("movedAt", ticket), 4: Field("removedAt", ticket)],
    "Primitive": [1: Field("type", .valueType), 2: Field("value", .bytes), 3: Field("createdAt", ticket),
                  4: Field("movedAt", ticket), 5: Field("removedAt", ticket)],
    "Text": [1: Field("nodes", .message("TextNode"), repeated: true), 2: Field("createdAt", ticket),
             3: Field("movedAt", ticket), 4: Field("removedAt", ticket)],
    "Counter": [1: Field("type", .valueType), 2: Field("value", .bytes), 3: Field("createdAt", ticket),
                4: Field("movedAt", ticket), 5: Field("removedAt", ticket), 7: Field("hllRegisters", .bytes)],
    "Tree": [1: Field("nodes", .message("TreeNode"), repeated: true), 2: Field("createdAt", ticket),
             3: Field("movedAt", ticket), 4: Field("removedAt", ticket)],
    "RHTNode": [1: Field("key", .string), 2: Field("element", .message("JSONElement"))],
    "RGANode": [1: Field("next", .message("RGANode")), 2: Field("element", .message("JSONElement")),
                3: Field("positionCreatedAt", ticket), 4: Field("positionMovedAt", ticket),
                5: Field("positionRemovedAt", ticket)],
    "TextNode": [1: Field("id", .message("TextNodeID")), 2: Field("value", .string), 3: Field("removedAt", ticket),
                 4: Field("insPrevId", .message("TextNodeID")), 5: Field("attributes", .messageMap("NodeAttr"))],
    "TextNodeID": [1: Field("createdAt", ticket), 2: Field("offset", .int32)],
    "NodeAttr": [1: Field("value", .string), 2: Field("updatedAt", ticket), 3: Field("isRemoved", .bool)],
    "TreeNode": [
      1: Field("id", .message("TreeNodeID")), 2: Field("type", .string), 3: Field("value", .string),
      4: Field("removedAt", ticket), 5: Field("insPrevId", .message("TreeNodeID")),
      6: Field("insNextId", .message("TreeNodeID")), 7: Field("depth", .int32),
      8: Field("attributes", .messageMap("NodeAttr")), 9: Field("mergedFrom", .message("TreeNodeID")),
      10: Field("mergedAt", ticket),
    ],
    "TreeNodeID": [1: Field("createdAt", ticket), 2: Field("offset", .int32)],
    "Snapshot": [1: Field("root", .message("JSONElement")), 2: Field("presences", .messageMap("Presence"))],
    "Presence": [1: Field("data", .stringMap)],
    "ErrorInfo": [1: Field("reason", .string), 2: Field("domain", .string), 3: Field("metadata", .stringMap)],
  ]

  /// `ValueType` names by number.
  static let valueTypeNames = [
    "VALUE_TYPE_NULL", "VALUE_TYPE_BOOLEAN", "VALUE_TYPE_INTEGER", "VALUE_TYPE_LONG", "VALUE_TYPE_DOUBLE",
    "VALUE_TYPE_STRING", "VALUE_TYPE_BYTES", "VALUE_TYPE_DATE", "VALUE_TYPE_JSON_OBJECT", "VALUE_TYPE_JSON_ARRAY",
    "VALUE_TYPE_TEXT", "VALUE_TYPE_INTEGER_CNT", "VALUE_TYPE_LONG_CNT", "VALUE_TYPE_TREE", "VALUE_TYPE_INTEGER_DEDUP_CNT",
  ]

  /// Decodes `bytes` as message `name` (`JSONElement`, `Snapshot`, `ErrorInfo`).
  static func decode(_ bytes: [UInt8], as name: String) throws -> WireJSON {
    var reader = Reader(bytes: bytes[...])
    return try message(name, &reader)
  }

  /// Reads message `name` to the end of `reader`, as protobuf JSON (repeated fields as arrays,
  /// maps as objects, a repeated singular field: the last one wins, as protobuf merges).
  private static func message(_ name: String, _ reader: inout Reader) throws -> WireJSON {
    guard let fields = schema[name] else { throw ReplayError("no schema for \(name)") }
    var members: [WireJSON.Member] = []
    /// Adds a field value to `members`.
    func append(_ key: String, _ value: WireJSON, repeated: Bool) {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if repeated, case .array(let items) = members[index].value {
          members[index].value = .array(items + [value])
        } else if case .object(let old) = members[index].value, case .object(let new) = value {
          members[index].value = .object(old.filter { entry in !new.contains { $0.key == entry.key } } + new)
        } else {
          members[index].value = value  // the last occurrence of a singular field wins
        }
      } else {
        members.append(WireJSON.Member(key, repeated ? .array([value]) : value))
      }
    }
    while let (number, wireType) = try reader.key() {
      guard let field = fields[number] else {
        append("#\(number)", try reader.unknown(wireType), repeated: true)
        continue
      }
      let value: WireJSON
      switch field.kind {
      case .int64: value = .string(String(Int64(bitPattern: try reader.varint(wireType))))
      case .int32: value = .number(String(Int32(truncatingIfNeeded: Int64(bitPattern: try reader.varint(wireType)))))
      case .uint32: value = .number(String(UInt32(truncatingIfNeeded: try reader.varint(wireType))))
      case .bool: value = .bool(try reader.varint(wireType) != 0)
      case .valueType:
        let number = Int(try reader.varint(wireType))
        value = .string(valueTypeNames.indices.contains(number) ? valueTypeNames[number] : String(number))
      case .string: value = .string(String(decoding: try reader.lengthDelimited(wireType), as: UTF8.self))
      case .bytes: value = .string(ReplayBytes.base64(Array(try reader.lengthDelimited(wireType))))
      case .message(let type):
        var body = Reader(bytes: try reader.lengthDelimited(wireType))
        value = try message(type, &body)
      case .stringMap, .messageMap:
        var entry = Reader(bytes: try reader.lengthDelimited(wireType))
        var key = ""
        var entryValue: WireJSON = .null
        while let (entryNumber, entryType) = try entry.key() {
          let body = try entry.lengthDelimited(entryType)
          if entryNumber == 1 {
            key = String(decoding: body, as: UTF8.self)
          } else if entryNumber == 2 {
            if case .messageMap(let type) = field.kind {
              var nested = Reader(bytes: body)
              entryValue = try message(type, &nested)
            } else {
              entryValue = .string(String(decoding: body, as: UTF8.self))
            }
          }
        }
        if entryValue == .null {
          if case .messageMap = field.kind { entryValue = .emptyObject } else { entryValue = .string("") }
        }
        append(field.name, .object([WireJSON.Member(key, entryValue)]), repeated: false)
        continue
      }
      append(field.name, value, repeated: field.repeated)
    }
    return .object(members)
  }

  /// A cursor over protobuf bytes; every read is bounds-checked.
  private struct Reader {
    var bytes: ArraySlice<UInt8>

    /// The next field's number and wire type, or nil at the end.
    mutating func key() throws -> (Int, Int)? {
      guard !bytes.isEmpty else { return nil }
      let key = try rawVarint()
      guard key >> 3 > 0 else { throw ReplayError("protobuf: field number 0") }
      return (Int(key >> 3), Int(key & 7))
    }

    /// A base-128 varint.
    mutating func rawVarint() throws -> UInt64 {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while let byte = bytes.first {
        bytes.removeFirst()
        guard shift < 64 else { throw ReplayError("protobuf: varint longer than ten bytes") }
        result |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return result }
        shift += 7
      }
      throw ReplayError("protobuf: truncated varint")
    }

    /// A varint field's value (wire type 0).
    mutating func varint(_ wireType: Int) throws -> UInt64 {
      guard wireType == 0 else { throw ReplayError("protobuf: wire type \(wireType) where a varint belongs") }
      return try rawVarint()
    }

    /// A length-delimited field's bytes (wire type 2).
    mutating func lengthDelimited(_ wireType: Int) throws -> ArraySlice<UInt8> {
      guard wireType == 2 else { throw ReplayError("protobuf: wire type \(wireType) where a length-delimited field belongs") }
      let count = Int(try rawVarint())
      guard count <= bytes.count else { throw ReplayError("protobuf: length \(count) past the end") }
      defer { bytes.removeFirst(count) }
      return bytes.prefix(count)
    }

    /// An unknown field, as a JSON value that shows its content.
    mutating func unknown(_ wireType: Int) throws -> WireJSON {
      switch wireType {
      case 0: return .string(String(try rawVarint()))
      case 2: return .string(ReplayBytes.base64(Array(try lengthDelimited(2))))
      case 1, 5:
        let width = wireType == 1 ? 8 : 4
        guard bytes.count >= width else { throw ReplayError("protobuf: truncated fixed-width field") }
        defer { bytes.removeFirst(width) }
        return .string(ReplayBytes.base64(Array(bytes.prefix(width))))
      default: throw ReplayError("protobuf: unsupported wire type \(wireType)")
      }
    }
  }
}
