import Foundation

/// Yorkie's `ValueType`: what a `JSONElementSimple` or a primitive holds.
package enum WireValueType: Int32, Sendable, CaseIterable {
  case null = 0
  case boolean = 1
  case integer = 2
  case long = 3
  case double = 4
  case string = 5
  case bytes = 6
  case date = 7
  case jsonObject = 8
  case jsonArray = 9
  case text = 10
  case integerCounter = 11
  case longCounter = 12
  case tree = 13
  case integerDedupCounter = 14
}

// MARK: - Primitive payloads

extension PrimitiveValue {
  /// The value type that carries this primitive.
  package var wireType: WireValueType {
    switch self {
    case .null: return .null
    case .bool: return .boolean
    case .integer: return .integer
    case .long: return .long
    case .double: return .double
    case .string: return .string
    case .bytes: return .bytes
    case .date: return .date
    }
  }

  /// The payload bytes: little-endian numbers, UTF-8 strings, raw bytes, nothing for null.
  package var wireBytes: [UInt8] {
    switch self {
    case .null: return []
    case .bool(let b): return [b ? 1 : 0]
    case .integer(let i): return littleEndian(UInt32(bitPattern: i))
    case .long(let l): return littleEndian(UInt64(bitPattern: l))
    case .double(let d): return littleEndian(d.bitPattern)
    case .string(let s): return Array(s.utf8)
    case .bytes(let b): return Array(b)
    case .date(let ms): return littleEndian(UInt64(bitPattern: ms))
    }
  }

  /// Decodes a payload. A payload of the wrong size is an error (Yorkie's server rejects it too).
  package init(wireType: WireValueType, bytes: some Collection<UInt8>) throws {
    let bytes = Array(bytes)
    func fixed(_ count: Int) throws {
      guard bytes.count == count else {
        throw YorkieError(.invalidWireData, "a \(wireType) value needs \(count) bytes, got \(bytes.count)")
      }
    }
    switch wireType {
    case .null:
      self = .null
    case .boolean:
      try fixed(1)
      self = .bool(bytes[0] != 0)
    case .integer:
      try fixed(4)
      self = .integer(Int32(bitPattern: UInt32(readLittleEndian(bytes))))
    case .long:
      try fixed(8)
      self = .long(Int64(bitPattern: readLittleEndian(bytes)))
    case .double:
      try fixed(8)
      self = .double(Double(bitPattern: readLittleEndian(bytes)))
    case .string:
      guard let text = decodeUTF8(bytes) else { throw YorkieError(.invalidWireData, "a string value is not valid UTF-8") }
      self = .string(text)
    case .bytes:
      self = .bytes(Data(bytes))
    case .date:
      try fixed(8)
      self = .date(Int64(bitPattern: readLittleEndian(bytes)))
    default:
      throw YorkieError(.invalidWireData, "value type \(wireType) is not a primitive")
    }
  }
}

extension CounterValue {
  /// The value type of this counter.
  package var wireType: WireValueType {
    switch self {
    case .int: return .integerCounter
    case .long: return .longCounter
    }
  }

  /// The counter's value as little-endian bytes.
  package var wireBytes: [UInt8] {
    switch self {
    case .int(let v): return littleEndian(UInt32(bitPattern: v))
    case .long(let v): return littleEndian(UInt64(bitPattern: v))
    }
  }

  /// Decodes a counter payload.
  package init(wireType: WireValueType, bytes: some Collection<UInt8>) throws {
    switch wireType {
    case .integerCounter:
      guard case .integer(let v) = try PrimitiveValue(wireType: .integer, bytes: bytes) else { preconditionFailure() }
      self = .int(v)
    case .longCounter:
      guard case .long(let v) = try PrimitiveValue(wireType: .long, bytes: bytes) else { preconditionFailure() }
      self = .long(v)
    case .integerDedupCounter:
      throw YorkieError(.unsupported, "deduplicating counters (VALUE_TYPE_INTEGER_DEDUP_CNT) are not supported")
    default:
      throw YorkieError(.invalidWireData, "value type \(wireType) is not a counter")
    }
  }
}

@inline(__always) private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
  withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

@inline(__always) private func readLittleEndian(_ bytes: [UInt8]) -> UInt64 {
  var result: UInt64 = 0
  for (i, byte) in bytes.enumerated() { result |= UInt64(byte) << (8 * UInt64(i)) }
  return result
}

/// Decodes UTF-8, or nil when the bytes are not valid UTF-8.
package func decodeUTF8(_ bytes: some Collection<UInt8>) -> String? {
  if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
  return String(bytes: bytes, encoding: .utf8)
}

// MARK: - Tickets

extension TimeTicket {
  /// Writes the ticket as a `TimeTicket` message body.
  package func encode(into writer: inout ProtoWriter) {
    writer.int64(1, lamport)
    writer.uint32(2, delimiter)
    writer.bytes(3, actorID.byteArray)
  }

  /// Reads a `TimeTicket` message body. The actor must be 12 bytes.
  package static func decode(_ reader: inout ProtoReader) throws -> TimeTicket {
    var lamport: Int64 = 0
    var delimiter: UInt32 = 0
    var actor: ActorID?
    while let (field, type) = try reader.nextField() {
      switch field {
      case 1: try reader.expect(type, .varint, field: field); lamport = try reader.int64()
      case 2: try reader.expect(type, .varint, field: field); delimiter = try reader.uint32()
      case 3:
        try reader.expect(type, .lengthDelimited, field: field)
        let bytes = try reader.bytes()
        guard bytes.count == 12 else { throw reader.error("a ticket's actorId has \(bytes.count) bytes, not 12") }
        actor = try ActorID(bytes: bytes)
      default: try reader.skip(type)
      }
    }
    guard let actor else { throw reader.error("a ticket has no actorId") }
    return TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor)
  }
}

extension ActorID {
  /// The 12 bytes, without going through `Data`.
  package var byteArray: [UInt8] {
    var result = [UInt8](repeating: 0, count: 12)
    var high = high
    var low = low
    for i in stride(from: 7, through: 0, by: -1) { result[i] = UInt8(truncatingIfNeeded: high); high >>= 8 }
    for i in stride(from: 11, through: 8, by: -1) { result[i] = UInt8(truncatingIfNeeded: low); low >>= 8 }
    return result
  }
}

extension ProtoWriter {
  /// A ticket field; nil writes nothing.
  package mutating func ticket(_ field: Int, _ ticket: TimeTicket?) {
    guard let ticket else { return }
    message(field) { ticket.encode(into: &$0) }
  }
}

// MARK: - JSONElement

/// Elements nested deeper than this are refused (decoding is recursive).
package let maximumElementDepth = 512

extension ElementSnapshot {
  /// The element encoded as Yorkie's binary `JSONElement`.
  package var jsonElementData: Data {
    var writer = ProtoWriter(capacity: 64)
    encodeJSONElement(into: &writer)
    return writer.data
  }

  /// Decodes a binary `JSONElement`.
  package init(jsonElementData data: Data) throws {
    self = try ProtoReader.withReader(data, context: "JSONElement") { reader in
      try ElementSnapshot.decodeJSONElement(&reader, depth: 0)
    }
  }

  /// Writes the `JSONElement` oneof (the body of a JSONElement message).
  package func encodeJSONElement(into w: inout ProtoWriter) {
    switch self {
    case .object(let members, let meta):
      w.message(1) { w in
        for member in members {
          w.message(1) { w in
            w.string(1, member.key)
            w.message(2) { member.value.encodeJSONElement(into: &$0) }
          }
        }
        meta.encode(into: &w, first: 2)
      }
    case .array(let nodes, let meta):
      w.message(2) { w in
        for node in nodes {
          w.message(1) { w in
            if let element = node.element { w.message(2) { element.encodeJSONElement(into: &$0) } }
            w.ticket(3, node.positionID)
            w.ticket(4, node.positionMovedAt)
            w.ticket(5, node.positionRemovedAt)
          }
        }
        meta.encode(into: &w, first: 2)
      }
    case .primitive(let value, let meta):
      w.message(3) { w in
        w.int32(1, value.wireType.rawValue)
        w.bytes(2, value.wireBytes)
        meta.encode(into: &w, first: 3)
      }
    case .text(let pieces, let meta):
      w.message(5) { w in
        var previousOfInsertion: [TimeTicket: TextNodeID] = [:]
        for piece in pieces {
          w.message(1) { w in
            w.message(1) { piece.id.encode(into: &$0) }
            w.string(2, piece.value)
            w.ticket(3, piece.removedAt)
            // Pieces of one insertion appear in offset order: the last one seen is the
            // previous piece (Yorkie's ins_prev_id, set on the right part of a split).
            if piece.id.offset > 0, let previous = previousOfInsertion[piece.id.createdAt] {
              w.message(4) { previous.encode(into: &$0) }
            }
            for entry in piece.attributes {
              w.message(5) { w in
                w.string(1, entry.key)
                w.message(2) { w in
                  w.string(1, entry.value)
                  w.ticket(2, entry.updatedAt)
                  w.bool(3, entry.isRemoved)
                }
              }
            }
          }
          previousOfInsertion[piece.id.createdAt] = piece.id
        }
        meta.encode(into: &w, first: 2)
      }
    case .counter(let value, let meta):
      w.message(6) { w in
        w.int32(1, value.wireType.rawValue)
        w.bytes(2, value.wireBytes)
        meta.encode(into: &w, first: 3)
      }
    }
  }

  /// Reads a JSONElement message body.
  package static func decodeJSONElement(_ r: inout ProtoReader, depth: Int) throws -> ElementSnapshot {
    guard depth < maximumElementDepth else { throw r.error("elements nested deeper than \(maximumElementDepth) levels") }
    var result: ElementSnapshot?
    while let (field, type) = try r.nextField() {
      guard type == .lengthDelimited, (1...7).contains(field), field != 4 else {
        try r.skip(type)
        continue
      }
      guard result == nil else { throw r.error("a JSONElement sets more than one of its oneof members") }
      var body = try r.message()
      switch field {
      case 1: result = try decodeObject(&body, depth: depth)
      case 2: result = try decodeArray(&body, depth: depth)
      case 3: result = try decodePrimitive(&body)
      case 5: result = try decodeText(&body)
      case 6: result = try decodeCounter(&body)
      default:
        throw YorkieError(.unsupported, "Tree elements are not supported by this SDK yet")
      }
    }
    guard let result else { throw r.error("a JSONElement without a body") }
    return result
  }

  private static func decodeObject(_ r: inout ProtoReader, depth: Int) throws -> ElementSnapshot {
    var members: [(key: String, value: ElementSnapshot)] = []
    var meta = MetaBuilder()
    while let (field, type) = try r.nextField() {
      if field == 1 {
        try r.expect(type, .lengthDelimited, field: field)
        var node = try r.message()
        var key = ""
        var element: ElementSnapshot?
        while let (field, type) = try node.nextField() {
          switch field {
          case 1: try node.expect(type, .lengthDelimited, field: field); key = try node.string()
          case 2:
            try node.expect(type, .lengthDelimited, field: field)
            var body = try node.message()
            element = try decodeJSONElement(&body, depth: depth + 1)
          default: try node.skip(type)
          }
        }
        guard let element else { throw node.error("an object member without an element") }
        members.append((key: key, value: element))
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    return .object(members, try meta.build(&r))
  }

  private static func decodeArray(_ r: inout ProtoReader, depth: Int) throws -> ElementSnapshot {
    var nodes: [ArrayNode] = []
    var meta = MetaBuilder()
    while let (field, type) = try r.nextField() {
      if field == 1 {
        try r.expect(type, .lengthDelimited, field: field)
        var body = try r.message()
        var node = ArrayNode(element: nil)
        while let (field, type) = try body.nextField() {
          switch field {
          case 2:
            try body.expect(type, .lengthDelimited, field: field)
            var element = try body.message()
            node.element = try decodeJSONElement(&element, depth: depth + 1)
          case 3: node.positionID = try body.ticketField(type, field)
          case 4: node.positionMovedAt = try body.ticketField(type, field)
          case 5: node.positionRemovedAt = try body.ticketField(type, field)
          default: try body.skip(type)
          }
        }
        guard node.element != nil || node.positionID != nil else {
          throw body.error("an array node with neither an element nor a position")
        }
        if let element = node.element, node.positionID == element.createdAt { node.positionID = nil }
        nodes.append(node)
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    return .array(nodes, try meta.build(&r))
  }

  private static func decodePrimitive(_ r: inout ProtoReader) throws -> ElementSnapshot {
    var rawType: Int32 = 0
    var payload = Data()
    var meta = MetaBuilder()
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: try r.expect(type, .varint, field: field); rawType = try r.int32()
      case 2: try r.expect(type, .lengthDelimited, field: field); payload = try r.bytes()
      default: if try !meta.read(field, type, &r, first: 3) { try r.skip(type) }
      }
    }
    guard let valueType = WireValueType(rawValue: rawType) else { throw r.error("unknown value type \(rawType)") }
    return .primitive(try PrimitiveValue(wireType: valueType, bytes: payload), try meta.build(&r))
  }

  private static func decodeCounter(_ r: inout ProtoReader) throws -> ElementSnapshot {
    var rawType: Int32 = 0
    var payload = Data()
    var meta = MetaBuilder()
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: try r.expect(type, .varint, field: field); rawType = try r.int32()
      case 2: try r.expect(type, .lengthDelimited, field: field); payload = try r.bytes()
      default: if try !meta.read(field, type, &r, first: 3) { try r.skip(type) }
      }
    }
    guard let valueType = WireValueType(rawValue: rawType) else { throw r.error("unknown counter type \(rawType)") }
    return .counter(try CounterValue(wireType: valueType, bytes: payload), try meta.build(&r))
  }

  private static func decodeText(_ r: inout ProtoReader) throws -> ElementSnapshot {
    var pieces: [TextNode] = []
    var meta = MetaBuilder()
    while let (field, type) = try r.nextField() {
      if field == 1 {
        try r.expect(type, .lengthDelimited, field: field)
        var body = try r.message()
        var id: TextNodeID?
        var value = ""
        var removedAt: TimeTicket?
        var attributes: [TextAttributes.Entry] = []
        while let (field, type) = try body.nextField() {
          switch field {
          case 1:
            try body.expect(type, .lengthDelimited, field: field)
            var idReader = try body.message()
            id = try TextNodeID.decode(&idReader)
          case 2: try body.expect(type, .lengthDelimited, field: field); value = try body.string()
          case 3: removedAt = try body.ticketField(type, field)
          case 5:
            try body.expect(type, .lengthDelimited, field: field)
            var entry = try body.message()
            attributes.append(try decodeAttribute(&entry))
          default: try body.skip(type)  // 4: ins_prev_id, rebuilt from the ids
          }
        }
        guard let id else { throw body.error("a text node without an id") }
        pieces.append(TextNode(id: id, value: value, removedAt: removedAt, attributes: attributes))
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    return .text(pieces, try meta.build(&r))
  }

  /// A `map<string, NodeAttr>` entry.
  private static func decodeAttribute(_ r: inout ProtoReader) throws -> TextAttributes.Entry {
    var key = ""
    var value = ""
    var updatedAt: TimeTicket?
    var isRemoved = false
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: try r.expect(type, .lengthDelimited, field: field); key = try r.string()
      case 2:
        try r.expect(type, .lengthDelimited, field: field)
        var attr = try r.message()
        while let (field, type) = try attr.nextField() {
          switch field {
          case 1: try attr.expect(type, .lengthDelimited, field: field); value = try attr.string()
          case 2: updatedAt = try attr.ticketField(type, field)
          case 3: try attr.expect(type, .varint, field: field); isRemoved = try attr.bool()
          default: try attr.skip(type)
          }
        }
      default: try r.skip(type)
      }
    }
    guard let updatedAt else { throw r.error("text attribute \(key) has no updatedAt") }
    return TextAttributes.Entry(key: key, value: value, updatedAt: updatedAt, isRemoved: isRemoved)
  }
}

extension TextNodeID {
  package func encode(into w: inout ProtoWriter) {
    w.ticket(1, createdAt)
    w.int32(2, offset)
  }

  package static func decode(_ r: inout ProtoReader) throws -> TextNodeID {
    var createdAt: TimeTicket?
    var offset: Int32 = 0
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: createdAt = try r.ticketField(type, field)
      case 2: try r.expect(type, .varint, field: field); offset = try r.int32()
      default: try r.skip(type)
      }
    }
    guard let createdAt else { throw r.error("a text node id without createdAt") }
    guard offset >= 0 else { throw r.error("a text node id with a negative offset") }
    return TextNodeID(createdAt: createdAt, offset: offset)
  }
}

extension ProtoReader {
  /// A ticket-valued field.
  package mutating func ticketField(_ type: ProtoWireType, _ field: Int) throws -> TimeTicket {
    try expect(type, .lengthDelimited, field: field)
    var body = try message()
    return try TimeTicket.decode(&body)
  }
}

extension ElementSnapshot.Meta {
  /// Writes created_at, moved_at and removed_at as fields `first`, `first + 1`, `first + 2`.
  fileprivate func encode(into w: inout ProtoWriter, first: Int) {
    w.ticket(first, createdAt)
    w.ticket(first + 1, movedAt)
    w.ticket(first + 2, removedAt)
  }
}

/// Collects the three tickets of an element while its fields are read.
private struct MetaBuilder {
  var createdAt: TimeTicket?
  var movedAt: TimeTicket?
  var removedAt: TimeTicket?

  /// Reads the field if it is one of the three tickets.
  mutating func read(_ field: Int, _ type: ProtoWireType, _ r: inout ProtoReader, first: Int) throws -> Bool {
    switch field - first {
    case 0: createdAt = try r.ticketField(type, field)
    case 1: movedAt = try r.ticketField(type, field)
    case 2: removedAt = try r.ticketField(type, field)
    default: return false
    }
    return true
  }

  func build(_ r: inout ProtoReader) throws -> ElementSnapshot.Meta {
    guard let createdAt else { throw r.error("an element without createdAt") }
    return ElementSnapshot.Meta(createdAt: createdAt, movedAt: movedAt, removedAt: removedAt)
  }
}
