import Foundation

/// Yorkie's binary `Snapshot`: the whole root (tombstones included) and every known presence.
///
/// Presence values travel as JSON text, as every Yorkie SDK writes them; a value that is not
/// valid JSON (an SDK that stores raw strings) is kept as a string.
package struct DocumentSnapshot {
  package var root: CRDTObject
  package var presences: [ActorID: [String: JSONValue]]
  /// The garbage of each tree under `root` that decoding built (``ElementCodec/DecodeState``),
  /// for ``CRDTRoot/init(object:treeGarbage:)``.
  package var treeGarbage: [ObjectIdentifier: [TreeGCPair]] = [:]
  /// The restores the root remembers (``CRDTRoot/RestoreRecords``): this SDK's own fields 100
  /// and 101, which Yorkie does not define and its decoders skip; absent when there are none.
  package var restores = CRDTRoot.RestoreRecords()

  package init(root: CRDTObject, presences: [ActorID: [String: JSONValue]], restores: CRDTRoot.RestoreRecords = .init()) {
    self.root = root
    self.presences = presences
    self.restores = restores
  }

  /// The binary encoding.
  package var encoded: Data {
    var w = ProtoWriter(capacity: 1024)
    w.message(1) { ElementCodec.encode(root, into: &$0) }
    writePresences(into: &w)
    writeRestores(into: &w)
    return w.data
  }

  /// The encoding of the restores: the snapshot's fields after its presences (none when the
  /// root remembers no restore).
  package var restoreFields: [UInt8] {
    guard !restores.isEmpty else { return [] }
    var w = ProtoWriter(capacity: 64)
    writeRestores(into: &w)
    return w.bytes
  }

  private static let restoredCopyField = 100
  private static let skippedCreationField = 101

  private func writeRestores(into w: inout ProtoWriter) {
    for (field, pairs) in [(Self.restoredCopyField, restores.copies), (Self.skippedCreationField, restores.skipped)] {
      for pair in pairs {
        w.message(field) { w in
          w.ticket(1, pair.element)
          w.ticket(2, pair.placedAt)
        }
      }
    }
  }

  /// A restore record: the element's ticket (1) and the ticket that placed the copy (2).
  private static func decodeRestore(_ r: inout ProtoReader) throws -> CRDTRoot.RestoreRecords.Pair {
    var element: TimeTicket?
    var placedAt: TimeTicket?
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: element = try r.ticketField(type, field)
      case 2: placedAt = try r.ticketField(type, field)
      default: try r.skip(type)
      }
    }
    guard let element, let placedAt else { throw r.error("a restore record without its two tickets") }
    return CRDTRoot.RestoreRecords.Pair(element: element, placedAt: placedAt)
  }

  /// The encoding of `root` as the snapshot's first field (tag, length, `JSONElement`): the
  /// snapshot's bytes up to its presences.
  package static func rootField(_ root: CRDTObject) -> [UInt8] {
    var w = ProtoWriter(capacity: 1024)
    w.message(1) { ElementCodec.encode(root, into: &$0) }
    return w.bytes
  }

  /// The encoding of the presences: the snapshot's fields after its root.
  package var presenceFields: [UInt8] {
    var w = ProtoWriter(capacity: 64)
    writePresences(into: &w)
    return w.bytes
  }

  private func writePresences(into w: inout ProtoWriter) {
    for actor in presences.keys.sorted() {
      guard let presence = presences[actor] else { continue }
      w.message(2) { w in
        w.string(1, actor.hex)
        w.message(2) { w in
          for key in presence.keys.sorted() {
            w.message(1) { w in
              w.string(1, key)
              w.string(2, presence[key]!.jsonString)
            }
          }
        }
      }
    }
  }

  /// Decodes a binary snapshot. The root must be an object created at the initial ticket.
  package init(data: Data) throws {
    var root: CRDTElement?
    var presences: [ActorID: [String: JSONValue]] = [:]
    var treeGarbage: [ObjectIdentifier: [TreeGCPair]] = [:]
    var restores = CRDTRoot.RestoreRecords()
    try ProtoReader.withReader(data, context: "Snapshot") { r in
      while let (field, type) = try r.nextField() {
        switch field {
        case 1:
          try r.expect(type, .lengthDelimited, field: field)
          var body = try r.message("Snapshot.root")
          var state = ElementCodec.DecodeState()
          let decoded = try ElementCodec.decode(&body, depth: 0, state: &state)
          if state.repeats { try ElementCodec.checkRepeatedTickets(in: decoded) }
          root = decoded
          treeGarbage = state.treeGarbage
        case 2:
          try r.expect(type, .lengthDelimited, field: field)
          var entry = try r.message("Snapshot.presences")
          var key = ""
          var data: [String: JSONValue] = [:]
          while let (field, type) = try entry.nextField() {
            switch field {
            case 1: try entry.expect(type, .lengthDelimited, field: field); key = try entry.string()
            case 2:
              try entry.expect(type, .lengthDelimited, field: field)
              var presence = try entry.message()
              data = try DocumentSnapshot.decodePresence(&presence)
            default: try entry.skip(type)
            }
          }
          guard let actor = try? ActorID(hex: key) else {
            throw entry.error("presence key \"\(key)\" is not a client id")
          }
          presences[actor] = data
        case Self.restoredCopyField, Self.skippedCreationField:
          try r.expect(type, .lengthDelimited, field: field)
          var record = try r.message("Snapshot.restores")
          let pair = try Self.decodeRestore(&record)
          if field == Self.restoredCopyField { restores.copies.append(pair) } else { restores.skipped.append(pair) }
        default:
          try r.skip(type)
        }
      }
    }
    guard let root else { throw YorkieError(.invalidSnapshot, "the snapshot has no root") }
    guard case .object(let object) = root.kind, object.createdAt == .initial, !object.isRemoved else {
      throw YorkieError(.invalidSnapshot, "the snapshot's root is not a document root (an object created at the initial ticket)")
    }
    self.root = object
    self.presences = presences
    self.treeGarbage = treeGarbage
    self.restores = restores
  }

  /// Reads a `Presence` message: `data` map entries of JSON text.
  package static func decodePresence(_ r: inout ProtoReader) throws -> [String: JSONValue] {
    var result: [String: JSONValue] = [:]
    while let (field, type) = try r.nextField() {
      guard field == 1 else { try r.skip(type); continue }
      try r.expect(type, .lengthDelimited, field: field)
      var entry = try r.message()
      var key = ""
      var value = ""
      while let (field, type) = try entry.nextField() {
        switch field {
        case 1: try entry.expect(type, .lengthDelimited, field: field); key = try entry.string()
        case 2: try entry.expect(type, .lengthDelimited, field: field); value = try entry.string()
        default: try entry.skip(type)
        }
      }
      result[key] = JSONValueParser.parse(value) ?? .string(value)
    }
    return result
  }
}
