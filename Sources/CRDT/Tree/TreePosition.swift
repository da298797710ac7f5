import Foundation

/// A place in a ``JSONTree`` that survives concurrent edits: convert a local index range with
/// ``JSONTree/indexRangeToPosRange(_:)`` and back with ``JSONTree/posRangeToIndexRange(_:)``.
///
/// A position is `Codable`, so a selection can travel in presence: it encodes as the JS SDK's
/// `CRDTTreePosStruct`, so a JS peer reads what a Swift peer wrote and the other way round:
///
/// ```json
/// {"parentID":{"createdAt":{"lamport":"3","delimiter":1,"actorID":"…"},"offset":0},
///  "leftSiblingID":{"createdAt":{"lamport":"4","delimiter":1,"actorID":"…"},"offset":2}}
/// ```
public struct TreePosition: Hashable, Sendable, Codable, CustomStringConvertible {
  package var pos: CRDTTreePos

  package init(_ pos: CRDTTreePos) {
    self.pos = pos
  }

  /// The parent's and the left sibling's identities: `(3:…:1:0, 4:…:1:2)`.
  public var description: String { pos.description }

  private enum CodingKeys: String, CodingKey {
    case parentID, leftSiblingID
  }

  private enum NodeIDKeys: String, CodingKey {
    case createdAt, offset
  }

  private enum TicketKeys: String, CodingKey {
    case lamport, delimiter, actorID
  }

  /// Decodes the JS SDK's `CRDTTreePosStruct`. A malformed ticket (a lamport that is not a
  /// decimal integer, an actor that is not 24 hex digits) is a `DecodingError.dataCorrupted`
  /// naming the field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let parent = try TreePosition.decodeNodeID(container.nestedContainer(keyedBy: NodeIDKeys.self, forKey: .parentID))
    let left = try TreePosition.decodeNodeID(container.nestedContainer(keyedBy: NodeIDKeys.self, forKey: .leftSiblingID))
    pos = CRDTTreePos(parentID: parent, leftSiblingID: left)
  }

  /// Encodes the JS SDK's `CRDTTreePosStruct` (the lamport as a decimal string, as JS keeps it).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var parent = container.nestedContainer(keyedBy: NodeIDKeys.self, forKey: .parentID)
    try TreePosition.encodeNodeID(pos.parentID, into: &parent)
    var left = container.nestedContainer(keyedBy: NodeIDKeys.self, forKey: .leftSiblingID)
    try TreePosition.encodeNodeID(pos.leftSiblingID, into: &left)
  }

  private static func decodeNodeID(_ container: KeyedDecodingContainer<NodeIDKeys>) throws -> TreeNodeID {
    let ticket = try container.nestedContainer(keyedBy: TicketKeys.self, forKey: .createdAt)
    let lamportText = try ticket.decode(String.self, forKey: .lamport)
    guard let lamport = Int64(lamportText), lamport >= 0 else {
      throw DecodingError.dataCorruptedError(forKey: .lamport, in: ticket, debugDescription: "not a decimal lamport: \"\(lamportText)\"")
    }
    let delimiter = try ticket.decode(UInt32.self, forKey: .delimiter)
    let actorHex = try ticket.decode(String.self, forKey: .actorID)
    let actor: ActorID
    do {
      actor = try ActorID(hex: actorHex)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .actorID, in: ticket, debugDescription: "not an actor ID: \"\(actorHex)\"")
    }
    let offset = try container.decode(Int32.self, forKey: .offset)
    guard offset >= 0 else {
      throw DecodingError.dataCorruptedError(forKey: .offset, in: container, debugDescription: "a negative offset: \(offset)")
    }
    return TreeNodeID(createdAt: TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor), offset: offset)
  }

  private static func encodeNodeID(_ id: TreeNodeID, into container: inout KeyedEncodingContainer<NodeIDKeys>) throws {
    var ticket = container.nestedContainer(keyedBy: TicketKeys.self, forKey: .createdAt)
    try ticket.encode(String(id.createdAt.lamport), forKey: .lamport)
    try ticket.encode(id.createdAt.delimiter, forKey: .delimiter)
    try ticket.encode(id.createdAt.actorID.hex, forKey: .actorID)
    try container.encode(id.offset, forKey: .offset)
  }
}
