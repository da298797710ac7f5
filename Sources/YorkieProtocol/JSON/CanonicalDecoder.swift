import CRDT
import Foundation

// The canonical decoder: the messages of every push and pull (PushPullChanges and
// AttachDocument, both ways), and the changes and packs a client stores, read straight from their
// JSON text in the canonical form that
// this SDK's writer and Yorkie's own (protojson, protobuf-es) produce, without the WireJSON tree
// and ProtoJSONReader's lookups, which were most of the server's time per pushed change.
//
// It reads only that form: the known lowerCamelCase names, each at most once, no `null`, 64-bit
// integers as strings or plain numbers, 32-bit ones as numbers, enums by name, bytes as base64,
// white space anywhere. On anything else — an unknown or snake_case name, a repeated name, a
// `null`, another spelling of a value, an operation it does not know, malformed JSON — it
// bails out, and the message is decoded through the tree (`WireMessage.init(jsonData:)`),
// which then gives the same result or raises the error. So it only ever returns what the
// tree decoding returns; its result is the same message, field for field: values are
// converted by the very functions ProtoJSONReader uses (`Int64(_:)`, `Int32(_:)`,
// `UInt32(_:)`, `decodeBase64Leniently`, `init(protoName:)`) and strings by the same parser.
// The tests decode every recorded message and every fuzzed variant both ways and compare.
// Tree operations are read in CanonicalTreeDecoder.swift, with the primitives here (which are
// therefore internal rather than private).

extension WireJSONParser {
  /// Decodes `text` as `type` when it is one of the messages the canonical decoder reads and
  /// the text is in canonical form; nil otherwise.
  static func decodeCanonical<M: WireMessage>(_ type: M.Type, _ text: [UInt8]) -> M? {
    var d = WireJSONParser(bytes: text)
    let message: Any
    switch type {
    case is PushPullChangesRequest.Type: message = d.pushPullChangesRequest()
    case is PushPullChangesResponse.Type: message = PushPullChangesResponse(changePack: d.onlyChangePack())
    case is AttachDocumentRequest.Type: message = d.attachDocumentRequest()
    case is AttachDocumentResponse.Type: message = d.attachDocumentResponse()
    // A client's stored history (its entries are single changes and packs).
    case is WireChange.Type: message = d.change()
    case is WireChangePack.Type: message = d.changePack()
    default: return nil
    }
    d.skipSpace()
    guard !d.bailed, d.index == d.bytes.count else { return nil }
    return message as? M
  }

  // MARK: Structure

  /// Consumes `{`.
  mutating func beginObject() -> Bool {
    skipSpace()
    guard !bailed, index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      bailed = true
      return false
    }
    index += 1
    return true
  }

  /// The next member's name, with its colon consumed; nil at the object's end (its `}`
  /// consumed) or when bailing. `first` is true before the first member.
  mutating func nextKey(_ first: inout Bool) -> String? {
    guard !bailed else { return nil }
    skipSpace()
    guard index < bytes.count else { return fail() }
    if bytes[index] == UInt8(ascii: "}") {
      index += 1
      return nil
    }
    if !first {
      guard bytes[index] == UInt8(ascii: ",") else { return fail() }
      index += 1
      skipSpace()
    }
    first = false
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = try? string() else { return fail() }
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return fail() }
    index += 1
    skipSpace()
    return key
  }

  /// Bails out; returns nil.
  mutating func fail<T>() -> T? {
    bailed = true
    return nil
  }

  /// Marks field `bit` as read; a field read twice bails out (the tree reads the first).
  mutating func mark(_ seen: inout UInt32, _ bit: UInt32) {
    if seen & bit != 0 { bailed = true }
    seen |= bit
  }

  /// Reads an array, calling `item` for each element.
  mutating func array(_ item: (inout WireJSONParser) -> Void) {
    skipSpace()
    guard !bailed, index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
      bailed = true
      return
    }
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return
    }
    while !bailed {
      skipSpace()
      item(&self)
      skipSpace()
      guard index < bytes.count else {
        bailed = true
        return
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else {
        bailed = true
        return
      }
      index += 1
      return
    }
  }

  // MARK: Values

  /// A string value.
  mutating func stringValue() -> String {
    guard !bailed, index < bytes.count, bytes[index] == UInt8(ascii: "\""), let text = try? string() else { return fail() ?? "" }
    return text
  }

  /// The text of a number or of a string (integers travel as either).
  private mutating func scalarText() -> String? {
    guard !bailed, index < bytes.count else { return fail() }
    switch bytes[index] {
    case UInt8(ascii: "\""): return try? string()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try? number()
    default: return fail()
    }
  }

  private mutating func int64Value() -> Int64 {
    guard let text = scalarText(), let value = Int64(text) else { return fail() ?? 0 }
    return value
  }

  mutating func int32Value() -> Int32 {
    guard let text = scalarText(), let value = Int32(text) else { return fail() ?? 0 }
    return value
  }

  private mutating func uint32Value() -> UInt32 {
    guard let text = scalarText(), let value = UInt32(text) else { return fail() ?? 0 }
    return value
  }

  mutating func boolValue() -> Bool {
    guard !bailed, index < bytes.count else { return fail() ?? false }
    if bytes[index] == UInt8(ascii: "t"), (try? literal("true")) != nil { return true }
    if bytes[index] == UInt8(ascii: "f"), (try? literal("false")) != nil { return false }
    return fail() ?? false
  }

  private mutating func bytesValue() -> Data {
    // The string's UTF-8 bytes go to the base64 decoder as they are (decodeBase64Leniently
    // decodes the same bytes of the String it would make): a snapshot's megabytes of text are
    // not made into a String first.
    guard !bailed, index < bytes.count, bytes[index] == UInt8(ascii: "\""), let literal = try? scanString(),
      let decoded = Base64.decode(bytes: literal.unescaped ?? Array(bytes[literal.start..<literal.end]))
    else { return fail() ?? Data() }
    return Data(decoded)
  }

  private mutating func enumValue<E: ProtoEnum>(_ type: E.Type = E.self) -> E {
    guard let value = E(protoName: stringValue()), !bailed else { return fail() ?? E(rawValue: 0)! }
    return value
  }

  /// A map of strings (a JSON object); a repeated key bails out.
  mutating func stringMap() -> [String: String] {
    var map: [String: String] = [:]
    var first = true
    guard beginObject() else { return map }
    while let key = nextKey(&first) {
      if map.updateValue(stringValue(), forKey: key) != nil { bailed = true }
    }
    return map
  }

  /// A map of 64-bit integers.
  private mutating func int64Map() -> [String: Int64] {
    var map: [String: Int64] = [:]
    var first = true
    guard beginObject() else { return map }
    while let key = nextKey(&first) {
      if map.updateValue(int64Value(), forKey: key) != nil { bailed = true }
    }
    return map
  }

  // MARK: Messages

  mutating func timeTicket() -> WireTimeTicket {
    var ticket = WireTimeTicket()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return ticket }
    while let key = nextKey(&first) {
      switch key {
      case "lamport": mark(&seen, 1); ticket.lamport = int64Value()
      case "delimiter": mark(&seen, 2); ticket.delimiter = uint32Value()
      case "actorId": mark(&seen, 4); ticket.actorID = bytesValue()
      default: bailed = true
      }
    }
    return ticket
  }

  private mutating func versionVector() -> WireVersionVector {
    var vector = WireVersionVector()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return vector }
    while let key = nextKey(&first) {
      switch key {
      case "vector": mark(&seen, 1); vector.vector = int64Map()
      default: bailed = true
      }
    }
    return vector
  }

  private mutating func checkpoint() -> WireCheckpoint {
    var checkpoint = WireCheckpoint()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return checkpoint }
    while let key = nextKey(&first) {
      switch key {
      case "serverSeq": mark(&seen, 1); checkpoint.serverSeq = int64Value()
      case "clientSeq": mark(&seen, 2); checkpoint.clientSeq = uint32Value()
      default: bailed = true
      }
    }
    return checkpoint
  }

  private mutating func changeID() -> WireChangeID {
    var id = WireChangeID()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return id }
    while let key = nextKey(&first) {
      switch key {
      case "clientSeq": mark(&seen, 1); id.clientSeq = uint32Value()
      case "serverSeq": mark(&seen, 2); id.serverSeq = int64Value()
      case "lamport": mark(&seen, 4); id.lamport = int64Value()
      case "actorId": mark(&seen, 8); id.actorID = bytesValue()
      case "versionVector": mark(&seen, 16); id.versionVector = versionVector()
      default: bailed = true
      }
    }
    return id
  }

  private mutating func presenceChange() -> WirePresenceChange {
    var change = WirePresenceChange()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return change }
    while let key = nextKey(&first) {
      switch key {
      case "type": mark(&seen, 1); change.type = enumValue()
      case "presence":
        mark(&seen, 2)
        var presence = WirePresence()
        var presenceSeen: UInt32 = 0
        var presenceFirst = true
        guard beginObject() else { return change }
        while let key = nextKey(&presenceFirst) {
          switch key {
          case "data": mark(&presenceSeen, 1); presence.data = stringMap()
          default: bailed = true
          }
        }
        change.presence = presence
      default: bailed = true
      }
    }
    return change
  }

  private mutating func textNodePos() -> PBTextNodePos {
    var position = PBTextNodePos()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return position }
    while let key = nextKey(&first) {
      switch key {
      case "createdAt": mark(&seen, 1); position.createdAt = timeTicket()
      case "offset": mark(&seen, 2); position.offset = int32Value()
      case "relativeOffset": mark(&seen, 4); position.relativeOffset = int32Value()
      default: bailed = true
      }
    }
    return position
  }

  private mutating func elementSimple() -> PBJSONElementSimple {
    var element = PBJSONElementSimple()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return element }
    while let key = nextKey(&first) {
      switch key {
      case "createdAt": mark(&seen, 1); element.createdAt = timeTicket()
      case "movedAt": mark(&seen, 2); element.movedAt = timeTicket()
      case "removedAt": mark(&seen, 4); element.removedAt = timeTicket()
      case "type": mark(&seen, 8); element.type = enumValue()
      case "value": mark(&seen, 16); element.value = bytesValue()
      default: bailed = true
      }
    }
    return element
  }

  /// A map of tickets by actor (an edit's or a style's `createdAtMapByActor`).
  mutating func ticketMap() -> [String: WireTimeTicket] {
    var map: [String: WireTimeTicket] = [:]
    var first = true
    guard beginObject() else { return map }
    while let key = nextKey(&first) {
      if map.updateValue(timeTicket(), forKey: key) != nil { bailed = true }
    }
    return map
  }

  mutating func strings() -> [String] {
    var values: [String] = []
    array { d in values.append(d.stringValue()) }
    return values
  }

  /// An operation: an object with one member naming its kind (tree operations in
  /// CanonicalTreeDecoder.swift). Undo restore spans and anything else go through the tree.
  private mutating func operation() -> PBOperation {
    var first = true
    var result: PBOperation?
    guard beginObject() else { return .remove(.init()) }
    while let key = nextKey(&first) {
      guard result == nil else {
        bailed = true
        break
      }
      switch key {
      case "set": result = .set(setOperation())
      case "add": result = .add(addOperation())
      case "move": result = .move(moveOperation())
      case "remove": result = .remove(removeOperation())
      case "edit": result = .edit(editOperation())
      case "style": result = .style(styleOperation())
      case "increase": result = .increase(increaseOperation())
      case "treeEdit": result = .treeEdit(treeEditOperation())
      case "treeStyle": result = .treeStyle(treeStyleOperation())
      case "arraySet": result = .arraySet(arraySetOperation())
      default: bailed = true
      }
    }
    guard let result else { return fail() ?? .remove(.init()) }
    return result
  }

  private mutating func setOperation() -> PBOperation.Set {
    var op = PBOperation.Set()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "key": mark(&seen, 2); op.key = stringValue()
      case "value": mark(&seen, 4); op.value = elementSimple()
      case "executedAt": mark(&seen, 8); op.executedAt = timeTicket()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func addOperation() -> PBOperation.Add {
    var op = PBOperation.Add()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "prevCreatedAt": mark(&seen, 2); op.prevCreatedAt = timeTicket()
      case "value": mark(&seen, 4); op.value = elementSimple()
      case "executedAt": mark(&seen, 8); op.executedAt = timeTicket()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func moveOperation() -> PBOperation.Move {
    var op = PBOperation.Move()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "prevCreatedAt": mark(&seen, 2); op.prevCreatedAt = timeTicket()
      case "createdAt": mark(&seen, 4); op.createdAt = timeTicket()
      case "executedAt": mark(&seen, 8); op.executedAt = timeTicket()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func removeOperation() -> PBOperation.Remove {
    var op = PBOperation.Remove()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "createdAt": mark(&seen, 2); op.createdAt = timeTicket()
      case "executedAt": mark(&seen, 4); op.executedAt = timeTicket()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func editOperation() -> PBOperation.Edit {
    var op = PBOperation.Edit()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "from": mark(&seen, 2); op.from = textNodePos()
      case "to": mark(&seen, 4); op.to = textNodePos()
      case "createdAtMapByActor": mark(&seen, 8); op.createdAtMapByActor = ticketMap()
      case "content": mark(&seen, 16); op.content = stringValue()
      case "executedAt": mark(&seen, 32); op.executedAt = timeTicket()
      case "attributes": mark(&seen, 64); op.attributes = stringMap()
      default: bailed = true  // restore spans and modes (undo) go through the tree
      }
    }
    return op
  }

  private mutating func styleOperation() -> PBOperation.Style {
    var op = PBOperation.Style()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "from": mark(&seen, 2); op.from = textNodePos()
      case "to": mark(&seen, 4); op.to = textNodePos()
      case "attributes": mark(&seen, 8); op.attributes = stringMap()
      case "executedAt": mark(&seen, 16); op.executedAt = timeTicket()
      case "createdAtMapByActor": mark(&seen, 32); op.createdAtMapByActor = ticketMap()
      case "attributesToRemove": mark(&seen, 64); op.attributesToRemove = strings()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func increaseOperation() -> PBOperation.Increase {
    var op = PBOperation.Increase()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "value": mark(&seen, 2); op.value = elementSimple()
      case "executedAt": mark(&seen, 4); op.executedAt = timeTicket()
      case "actor": mark(&seen, 8); op.actor = stringValue()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func arraySetOperation() -> PBOperation.ArraySet {
    var op = PBOperation.ArraySet()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return op }
    while let key = nextKey(&first) {
      switch key {
      case "parentCreatedAt": mark(&seen, 1); op.parentCreatedAt = timeTicket()
      case "createdAt": mark(&seen, 2); op.createdAt = timeTicket()
      case "value": mark(&seen, 4); op.value = elementSimple()
      case "executedAt": mark(&seen, 8); op.executedAt = timeTicket()
      default: bailed = true
      }
    }
    return op
  }

  private mutating func change() -> WireChange {
    var change = WireChange()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return change }
    while let key = nextKey(&first) {
      switch key {
      case "id": mark(&seen, 1); change.id = changeID()
      case "message": mark(&seen, 2); change.message = stringValue()
      case "operations":
        mark(&seen, 4)
        var operations: [PBOperation] = []
        array { d in operations.append(d.operation()) }
        change.operations = operations
      case "presenceChange": mark(&seen, 8); change.presenceChange = presenceChange()
      default: bailed = true
      }
    }
    return change
  }

  private mutating func changePack() -> WireChangePack {
    var pack = WireChangePack()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return pack }
    while let key = nextKey(&first) {
      switch key {
      case "documentKey": mark(&seen, 1); pack.documentKey = stringValue()
      case "checkpoint": mark(&seen, 2); pack.checkpoint = checkpoint()
      case "snapshot": mark(&seen, 4); pack.snapshot = bytesValue()
      case "changes":
        mark(&seen, 8)
        var changes: [WireChange] = []
        array { d in changes.append(d.change()) }
        pack.changes = changes
      case "minSyncedTicket": mark(&seen, 16); pack.minSyncedTicket = timeTicket()
      case "isRemoved": mark(&seen, 32); pack.isRemoved = boolValue()
      case "versionVector": mark(&seen, 64); pack.versionVector = versionVector()
      default: bailed = true
      }
    }
    return pack
  }

  // MARK: Requests and responses

  private mutating func pushPullChangesRequest() -> PushPullChangesRequest {
    var request = PushPullChangesRequest()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return request }
    while let key = nextKey(&first) {
      switch key {
      case "clientId": mark(&seen, 1); request.clientID = stringValue()
      case "documentId": mark(&seen, 2); request.documentID = stringValue()
      case "changePack": mark(&seen, 4); request.changePack = changePack()
      case "pushOnly": mark(&seen, 8); request.pushOnly = boolValue()
      case "disableGc": mark(&seen, 16); request.disableGC = boolValue()
      default: bailed = true
      }
    }
    return request
  }

  /// A message whose only field is `changePack` (PushPullChangesResponse).
  private mutating func onlyChangePack() -> WireChangePack? {
    var pack: WireChangePack?
    var first = true
    guard beginObject() else { return nil }
    while let key = nextKey(&first) {
      switch key {
      case "changePack" where pack == nil: pack = changePack()
      default: bailed = true
      }
    }
    return pack
  }

  private mutating func attachDocumentRequest() -> AttachDocumentRequest {
    var request = AttachDocumentRequest()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return request }
    while let key = nextKey(&first) {
      switch key {
      case "clientId": mark(&seen, 1); request.clientID = stringValue()
      case "changePack": mark(&seen, 2); request.changePack = changePack()
      case "schemaKey": mark(&seen, 4); request.schemaKey = stringValue()
      case "disableGc": mark(&seen, 8); request.disableGC = boolValue()
      case "disablePresence": mark(&seen, 16); request.disablePresence = boolValue()
      default: bailed = true
      }
    }
    return request
  }

  private mutating func attachDocumentResponse() -> AttachDocumentResponse {
    var response = AttachDocumentResponse()
    var seen: UInt32 = 0
    var first = true
    guard beginObject() else { return response }
    while let key = nextKey(&first) {
      switch key {
      case "documentId": mark(&seen, 1); response.documentID = stringValue()
      case "changePack": mark(&seen, 2); response.changePack = changePack()
      case "maxSizePerDocument": mark(&seen, 4); response.maxSizePerDocument = int32Value()
      case "disablePresence": mark(&seen, 8); response.disablePresence = boolValue()
      default: bailed = true  // schema rules go through the tree
      }
    }
    return response
  }
}
