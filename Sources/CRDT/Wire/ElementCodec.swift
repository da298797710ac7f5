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

  /// Decodes a payload. A payload of the wrong size is an error (Yorkie's server rejects it too),
  /// `invalidValueEncoding`; a string that is not UTF-8 or a type that is no primitive is
  /// `invalidWireData`.
  package init(wireType: WireValueType, bytes: some Collection<UInt8>) throws {
    let bytes = Array(bytes)
    func fixed(_ count: Int) throws {
      guard bytes.count == count else {
        throw YorkieError(.invalidValueEncoding, "a \(wireType) value needs \(count) bytes, got \(bytes.count)")
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
      // The count itself: a deduplicating counter's value is an int32 (Yorkie recomputes it
      // from the registers, carried separately).
      guard case .integer(let v) = try PrimitiveValue(wireType: .integer, bytes: bytes) else { preconditionFailure() }
      self = .int(v)
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
  if let result = bytes.withContiguousStorageIfAvailable({ decodeUTF8($0) }) { return result }
  return Array(bytes).withUnsafeBufferPointer { decodeUTF8($0) }
}

/// Decodes UTF-8, or nil when the bytes are not valid UTF-8 (overlong forms, surrogates and
/// truncated sequences are invalid).
package func decodeUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
  var index = 0
  while index < buffer.count && buffer[index] < 0x80 { index += 1 }
  if index < buffer.count {
    var decoder = UTF8()
    var iterator = UnsafeBufferPointer(rebasing: buffer[index...]).makeIterator()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: break decoding
      case .error: return nil
      }
    }
  }
  return String(decoding: buffer, as: UTF8.self)
}

// MARK: - Tickets

extension TimeTicket {
  /// Writes the ticket as a `TimeTicket` message body.
  package func encode(into writer: inout ProtoWriter) {
    writer.int64(1, lamport)
    writer.uint32(2, delimiter)
    writer.actor(3, actorID)
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
        actor = try reader.actorID()
      default: try reader.skip(type)
      }
    }
    guard let actor else { throw reader.error("a ticket has no actorId") }
    return TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor)
  }
}


extension ProtoWriter {
  /// A 12-byte actor ID as a bytes field, written without an intermediate array.
  package mutating func actor(_ field: Int, _ actor: ActorID) {
    tag(field, .lengthDelimited)
    appendRaw(12)
    var high = actor.high
    var low = actor.low
    var bytes: (UInt64, UInt32) = (0, 0)
    high = high.bigEndian
    low = low.bigEndian
    bytes = (high, low)
    withUnsafeBytes(of: &bytes) { raw in
      appendRaw(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<8]))
      appendRaw(contentsOf: UnsafeRawBufferPointer(rebasing: raw[8..<12]))
    }
  }

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
    self = ElementSnapshot(try ElementCodec.decode(data))
  }

  /// Writes the `JSONElement` oneof (the body of a JSONElement message).
  package func encodeJSONElement(into w: inout ProtoWriter) {
    ElementCodec.encode(materialize(), into: &w)
  }
}

/// Yorkie's binary `JSONElement`, read into and written from live CRDT elements (snapshots
/// are large: no intermediate description is built).
package enum ElementCodec {
  /// What decoding one tree has seen: the creation tickets of its containers and counters,
  /// which must not repeat among live elements (the document registers them by ticket).
  package struct DecodeState {
    var containers = TicketMap<Bool>()
    /// Whether a ticket repeated: checked once the tree is built (``checkRepeatedTickets(in:)``).
    var repeats = false
    /// The tombstones of each tree decoded, found while building it: registering them needs
    /// no second walk of the tree (``CRDTRoot/init(object:treeGarbage:)``). An entry is written
    /// when its tree is complete, so a tree made at the address of one dropped before it
    /// replaces that tree's entry.
    package var treeGarbage: [ObjectIdentifier: [TreeGCPair]] = [:]
    package init() {}
  }

  /// Decodes a whole binary `JSONElement`.
  package static func decode(_ data: Data) throws -> CRDTElement {
    var state = DecodeState()
    let element = try ProtoReader.withReader(data, context: "JSONElement") { reader in
      try decode(&reader, depth: 0, state: &state)
    }
    if state.repeats { try checkRepeatedTickets(in: element) }
    return element
  }

  /// Refuses a tree in which two live elements share a creation ticket. A removed one may
  /// share it with a live one: a Yorkie peer's undo of an array Remove adds a copy whose
  /// descendants keep their tickets beside the tombstone still holding the originals, and a
  /// Yorkie server's snapshot of that document holds both (the live one is registered,
  /// ``CRDTRoot/init(object:treeGarbage:)``).
  ///
  /// - Throws: `invalidWireData` naming the ticket.
  package static func checkRepeatedTickets(in root: CRDTElement) throws(YorkieError) {
    var live = Set<TimeTicket>()
    var repeated: TimeTicket?
    func visit(_ element: CRDTElement, hidden: Bool) {
      guard repeated == nil else { return }
      let hidden = hidden || element.isRemoved
      if element.kind.isRegistered && !hidden && !live.insert(element.createdAt).inserted { repeated = element.createdAt }
      element.kind.forEachChild { visit($0, hidden: hidden) }
    }
    visit(root, hidden: false)
    if let repeated { throw YorkieError(.invalidWireData, "two live elements are created at \(repeated)") }
  }

  // MARK: Encoding

  /// Writes the `JSONElement` oneof for `element` (the body of a JSONElement message).
  package static func encode(_ element: CRDTElement, into w: inout ProtoWriter) {
    switch element.kind {
    case .primitive(let primitive):
      w.message(3) { w in
        w.int32(1, primitive.value.wireType.rawValue)
        w.bytes(2, primitive.value.wireBytes)
        writeMeta(element, into: &w, first: 3)
      }
    case .object(let object):
      w.message(1) { w in
        for member in object.members {
          w.message(1) { w in
            w.string(1, member.key)
            w.message(2) { encode(member.element, into: &$0) }
          }
        }
        writeMeta(element, into: &w, first: 2)
      }
    case .array(let array):
      w.message(2) { w in
        var handle = array.nodes[Int(CRDTArray.head)].next
        while handle >= 0 {
          let node = array.nodes[Int(handle)]
          w.message(1) { w in
            if let child = node.element { w.message(2) { encode(child, into: &$0) } }
            if node.element?.createdAt != node.id { w.ticket(3, node.id) }
            w.ticket(4, node.movedAt)
            w.ticket(5, node.removedAt)
          }
          handle = node.next
        }
        writeMeta(element, into: &w, first: 2)
      }
    case .text(let text):
      w.message(5) { w in
        let noteHolders = text.purgeNoteHolders()
        let hasSteps = !text.livenessSteps.isEmpty
        var handle = text.nodes[Int(CRDTText.head)].next
        while handle >= 0 {
          let node = text.nodes[Int(handle)]
          w.message(1) { w in
            w.message(1) { node.id.encode(into: &$0) }
            text.buffer.withUnsafeBufferPointer { buffer in
              w.string(2, utf16: UnsafeBufferPointer(rebasing: buffer[Int(node.start)..<Int(node.start + node.length)]))
            }
            w.ticket(3, node.removedAt)
            if node.insPrev >= 0 { w.message(4) { text.nodes[Int(node.insPrev)].id.encode(into: &$0) } }
            for entry in text.attributes(of: handle)?.entries ?? [] {
              w.message(5) { w in
                w.string(1, entry.key)
                w.message(2) { w in
                  w.string(1, entry.value)
                  w.ticket(2, entry.updatedAt)
                  w.bool(3, entry.isRemoved)
                }
              }
            }
            // Field 100, this SDK's own (Yorkie's TextNode has no such field, and its decoders
            // skip it): the piece's liveness steps, when it has explicit ones
            // (CRDTText+Liveness.swift).
            for step in hasSteps ? text.livenessSteps[handle] ?? [] : [] {
              w.message(livenessStepField) { w in
                w.ticket(1, text.unpack(step.at))
                w.bool(2, step.revives)
              }
            }
            // Field 101, this SDK's own too: the purged runs noted on the piece
            // (CRDTText+PurgeNotes.swift), farthest first.
            if let noteHolders, noteHolders[Int(handle)] {
              for record in text.purgeNoteRecords(heldBy: handle) { encodePurgedRun(record, into: &w) }
            }
          }
          handle = node.next
        }
        writeMeta(element, into: &w, first: 2)
        // The runs noted at the end of the text, in field 101 of the text.
        for record in text.purgeNoteRecords(heldBy: CRDTText.endOfText) { encodePurgedRun(record, into: &w) }
      }
    case .counter(let counter):
      w.message(6) { w in
        w.int32(1, counter.isDeduplicating ? WireValueType.integerDedupCounter.rawValue : counter.value.wireType.rawValue)
        w.bytes(2, counter.value.wireBytes)
        writeMeta(element, into: &w, first: 3)
        if let registers = counter.registers { w.bytes(7, registers) }
      }
    case .tree(let tree):
      TreeCodec.encodeTree(DecodedTree(records: tree.toRecords(), meta: ElementSnapshot.Meta(
        createdAt: tree.createdAt, movedAt: tree.movedAt, removedAt: tree.removedAt)), into: &w)
    }
  }

  /// Writes created_at, moved_at and removed_at as fields `first`, `first + 1`, `first + 2`.
  private static func writeMeta(_ element: CRDTElement, into w: inout ProtoWriter, first: Int) {
    w.ticket(first, element.createdAt)
    w.ticket(first + 1, element.movedAt)
    w.ticket(first + 2, element.removedAt)
  }

  // MARK: Decoding

  /// Reads a JSONElement message body.
  package static func decode(_ r: inout ProtoReader, depth: Int, state: inout DecodeState) throws -> CRDTElement {
    guard depth < maximumElementDepth else { throw r.error("elements nested deeper than \(maximumElementDepth) levels") }
    var result: CRDTElement?
    while let (field, type) = try r.nextField() {
      guard type == .lengthDelimited, (1...7).contains(field), field != 4 else {
        try r.skip(type)
        continue
      }
      guard result == nil else { throw r.error("a JSONElement sets more than one of its oneof members") }
      var body = try r.message()
      switch field {
      case 1: result = try decodeObject(&body, depth: depth, state: &state)
      case 2: result = try decodeArray(&body, depth: depth, state: &state)
      case 3: result = try decodeScalar(&body, isCounter: false)
      case 5: result = try decodeText(&body)
      case 6: result = try decodeScalar(&body, isCounter: true)
      default: result = try decodeTree(&body, state: &state)
      }
      if let element = result, element.kind.isRegistered {
        if state.containers[element.createdAt] != nil { state.repeats = true }
        state.containers[element.createdAt] = true
      }
    }
    guard let result else { throw r.error("a JSONElement without a body") }
    return result
  }

  /// A tree: its node list checked for shape and for what a tree needs while it is built.
  private static func decodeTree(_ r: inout ProtoReader, state: inout DecodeState) throws -> CRDTElement {
    let loaded = try TreeCodec.decodeTreeElement(&r)
    state.treeGarbage[ObjectIdentifier(loaded.tree)] = loaded.garbage
    return loaded.tree
  }

  private static func decodeObject(_ r: inout ProtoReader, depth: Int, state: inout DecodeState) throws -> CRDTElement {
    var members: [(key: String, element: CRDTElement)] = []
    var meta = MetaReader()
    while let (field, type) = try r.nextField() {
      if field == 1 {
        try r.expect(type, .lengthDelimited, field: field)
        var node = try r.message()
        var key = ""
        var element: CRDTElement?
        while let (field, type) = try node.nextField() {
          switch field {
          case 1: try node.expect(type, .lengthDelimited, field: field); key = try node.string()
          case 2:
            try node.expect(type, .lengthDelimited, field: field)
            var body = try node.message()
            element = try decode(&body, depth: depth + 1, state: &state)
          default: try node.skip(type)
          }
        }
        guard let element else { throw node.error("an object member without an element") }
        members.append((key, element))
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    let object = CRDTObject(createdAt: try meta.createdAt(&r))
    // Members are found by creation ticket (a removal names one), so no two may share it.
    var seen = TicketMap<Bool>()
    for member in members where seen.insertIfAbsent(member.element.createdAt, true) != nil {
      throw r.error("object member \"\(member.key)\" repeats the creation ticket \(member.element.createdAt)")
    }
    for member in members { object.insertDecoded(member.key, member.element) }
    return meta.apply(to: object)
  }

  private static func decodeArray(_ r: inout ProtoReader, depth: Int, state: inout DecodeState) throws -> CRDTElement {
    var nodes: [CRDTArray.Node] = []
    var meta = MetaReader()
    var positions = TicketMap<Bool>()
    while let (field, type) = try r.nextField() {
      if field == 1 {
        try r.expect(type, .lengthDelimited, field: field)
        var body = try r.message()
        var element: CRDTElement?
        var positionID: TimeTicket?
        var movedAt: TimeTicket?
        var removedAt: TimeTicket?
        while let (field, type) = try body.nextField() {
          switch field {
          case 2:
            try body.expect(type, .lengthDelimited, field: field)
            var child = try body.message()
            element = try decode(&child, depth: depth + 1, state: &state)
          case 3: positionID = try body.ticketField(type, field)
          case 4: movedAt = try body.ticketField(type, field)
          case 5: removedAt = try body.ticketField(type, field)
          default: try body.skip(type)
          }
        }
        guard let id = positionID ?? element?.createdAt else {
          throw body.error("an array node with neither an element nor a position")
        }
        guard element != nil || removedAt != nil else { throw body.error("a dead array position without removedAt") }
        guard id != .initial, positions[id] == nil else { throw body.error("array position \(id) repeats") }
        positions[id] = true
        nodes.append(CRDTArray.Node(id: id, element: element, movedAt: movedAt, removedAt: removedAt, prev: -1, next: -1))
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    let array = CRDTArray(createdAt: try meta.createdAt(&r))
    for node in nodes { array.appendDecoded(node) }
    return meta.apply(to: array)
  }

  /// A primitive (`Primitive`) or a counter (`Counter`): type, payload, tickets from field 3.
  /// A counter's field 7 holds the HyperLogLog registers of a deduplicating counter.
  private static func decodeScalar(_ r: inout ProtoReader, isCounter: Bool) throws -> CRDTElement {
    var rawType: Int32 = 0
    var payload = Data()
    var registers = Data()
    var meta = MetaReader()
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: try r.expect(type, .varint, field: field); rawType = try r.int32()
      case 2: try r.expect(type, .lengthDelimited, field: field); payload = try r.bytes()
      case 7 where isCounter: try r.expect(type, .lengthDelimited, field: field); registers = try r.bytes()
      default: if try !meta.read(field, type, &r, first: 3) { try r.skip(type) }
      }
    }
    guard let valueType = WireValueType(rawValue: rawType) else { throw r.error("unknown value type \(rawType)") }
    let createdAt = try meta.createdAt(&r)
    if isCounter {
      let value = try CounterValue(wireType: valueType, bytes: payload)
      guard valueType == .integerDedupCounter else { return meta.apply(to: CRDTCounter(value, createdAt: createdAt)) }
      // As Yorkie: without registers the counter has counted nobody (its value is ignored);
      // with them, its value is their estimate.
      guard registers.isEmpty || registers.count == HyperLogLog.registerCount else {
        throw r.error("a deduplicating counter carries \(registers.count) HyperLogLog registers, not \(HyperLogLog.registerCount)")
      }
      return meta.apply(to: CRDTCounter(deduplicatingWith: Array(registers), createdAt: createdAt))
    }
    return meta.apply(to: CRDTPrimitive(try PrimitiveValue(wireType: valueType, bytes: payload), createdAt: createdAt))
  }

  private static func decodeText(_ r: inout ProtoReader) throws -> CRDTElement {
    // Two passes over the message: the tickets (written after the nodes) first, so that the
    // text exists before its nodes are read, without holding 100,000 readers in between.
    var meta = MetaReader()
    let start = r
    var nodeCount = 0
    while let (field, type) = try r.nextField() {
      if field == 1 {
        nodeCount += 1
        try r.skip(type)
      } else if try !meta.read(field, type, &r, first: 2) {
        try r.skip(type)
      }
    }
    let text = CRDTText(createdAt: try meta.createdAt(&r))
    text.prepareDecoding(pieceCount: nodeCount)
    var state = CRDTText.DecodeState()
    var nodes = start
    var endNotes: [CRDTText.PurgedRunRecord] = []
    while let (field, type) = try nodes.nextField() {
      if field == purgedRunField {
        try nodes.expect(type, .lengthDelimited, field: field)
        var run = try nodes.message()
        endNotes.append(try decodePurgedRun(&run))
        continue
      }
      guard field == 1 else {
        try nodes.skip(type)
        continue
      }
      try nodes.expect(type, .lengthDelimited, field: field)
      var body = try nodes.message()
      var id: TextNodeID?
      var value: ProtoReader?
      var removedAt: TimeTicket?
      var attributes: [TextAttributes.Entry] = []
      var steps: [(at: TimeTicket, revives: Bool)] = []
      var notes: [CRDTText.PurgedRunRecord] = []
      while let (field, type) = try body.nextField() {
        switch field {
        case livenessStepField:
          try body.expect(type, .lengthDelimited, field: field)
          var step = try body.message()
          steps.append(try decodeLivenessStep(&step))
        case purgedRunField:
          try body.expect(type, .lengthDelimited, field: field)
          var run = try body.message()
          notes.append(try decodePurgedRun(&run))
        case 1:
          try body.expect(type, .lengthDelimited, field: field)
          var idReader = try body.message()
          id = try TextNodeID.decode(&idReader)
        case 2: try body.expect(type, .lengthDelimited, field: field); value = try body.message()
        case 3: removedAt = try body.ticketField(type, field)
        case 5:
          try body.expect(type, .lengthDelimited, field: field)
          var entry = try body.message()
          attributes.append(try decodeAttribute(&entry))
        default: try body.skip(type)  // 4: ins_prev_id, rebuilt from the ids
        }
      }
      guard let id else { throw body.error("a text node without an id") }
      if let value {
        try value.withRemainingBytes { utf8 in
          try text.appendDecodedPiece(id: id, utf8: utf8, removedAt: removedAt, attributes: attributes, livenessSteps: steps,
                                      purgeNotes: notes, state: &state)
        }
      } else {
        try text.appendDecodedPiece(id: id, utf8: UnsafeBufferPointer(start: nil, count: 0), removedAt: removedAt,
                                    attributes: attributes, livenessSteps: steps, purgeNotes: notes, state: &state)
      }
    }
    text.finishDecoding(&state)
    try text.adoptPurgeNotes(endNotes, heldBy: CRDTText.endOfText)
    return meta.apply(to: text)
  }

  /// The field of a text node that carries one liveness step (this SDK's own, see the encoder).
  static let livenessStepField = 100
  /// The field of a text node (or of the text, for its end) that carries one purged run noted
  /// there (this SDK's own, see the encoder).
  static let purgedRunField = 101

  /// A purged run: its insertion (1), start (2), end (3) and the cuts where its pieces met (4,
  /// one per cut).
  private static func encodePurgedRun(_ record: CRDTText.PurgedRunRecord, into w: inout ProtoWriter) {
    w.message(purgedRunField) { w in
      w.ticket(1, record.createdAt)
      w.int32(2, record.start)
      w.int32(3, record.end)
      for cut in record.cuts {
        w.tag(4, .varint)
        w.varint(UInt64(bitPattern: Int64(cut)))
      }
    }
  }

  private static func decodePurgedRun(_ r: inout ProtoReader) throws -> CRDTText.PurgedRunRecord {
    var createdAt: TimeTicket?
    var record = CRDTText.PurgedRunRecord(createdAt: .initial, start: 0, end: 0, cuts: [])
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: createdAt = try r.ticketField(type, field)
      case 2: try r.expect(type, .varint, field: field); record.start = try r.int32()
      case 3: try r.expect(type, .varint, field: field); record.end = try r.int32()
      case 4: try r.expect(type, .varint, field: field); record.cuts.append(try r.int32())
      default: try r.skip(type)
      }
    }
    guard let createdAt else { throw r.error("a purged run without an insertion") }
    record.createdAt = createdAt
    return record
  }

  /// A liveness step: its ticket (1) and whether it revives (2).
  private static func decodeLivenessStep(_ r: inout ProtoReader) throws -> (at: TimeTicket, revives: Bool) {
    var at: TimeTicket?
    var revives = false
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: at = try r.ticketField(type, field)
      case 2: try r.expect(type, .varint, field: field); revives = try r.bool()
      default: try r.skip(type)
      }
    }
    guard let at else { throw r.error("a text liveness step without a ticket") }
    return (at, revives)
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

/// Collects the three tickets of an element while its fields are read.
private struct MetaReader {
  var createdAt: TimeTicket?
  var movedAt: TimeTicket?
  var removedAt: TimeTicket?

  /// Reads the field if it is one of the three tickets (fields `first`, `first + 1`, `first + 2`).
  mutating func read(_ field: Int, _ type: ProtoWireType, _ r: inout ProtoReader, first: Int) throws -> Bool {
    switch field - first {
    case 0: createdAt = try r.ticketField(type, field)
    case 1: movedAt = try r.ticketField(type, field)
    case 2: removedAt = try r.ticketField(type, field)
    default: return false
    }
    return true
  }

  func createdAt(_ r: inout ProtoReader) throws -> TimeTicket {
    guard let createdAt else { throw r.error("an element without createdAt") }
    return createdAt
  }

  func apply<E: CRDTElement>(to element: E) -> E {
    element.movedAt = movedAt
    element.removedAt = removedAt
    return element
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

