import CRDT
import Foundation

// Operation values and text positions between the wire and the CRDT model.

extension PBJSONElementSimple {
  /// The wire form of an element that an operation creates. Containers travel whole, as binary
  /// `JSONElement` (what the JS SDK requires); a text travels empty (its content comes by Edit).
  package init(_ element: ElementSnapshot) {
    let meta = element.meta
    var type: PBValueType
    var value = Data()
    switch element {
    case .primitive(let primitive, _):
      type = PBValueType(rawValue: primitive.wireType.rawValue) ?? .null
      value = Data(primitive.wireBytes)
    case .object:
      type = .jsonObject
      value = element.jsonElementData
    case .array:
      type = .jsonArray
      value = element.jsonElementData
    case .text:
      type = .text
    case .tree(let content, _):
      // A tree travels with its whole content (Yorkie's TreeEdit inserts into an existing tree).
      type = .tree
      value = TreeCodec.jsonElementData(DecodedTree(records: content.records, meta: meta))
    case .counter(let counter, _):
      type = PBValueType(rawValue: counter.wireType.rawValue) ?? .integerCnt
      value = Data(counter.wireBytes)
    case .dedupCounter(let registers, _):
      // The value is the count (the registers' estimate); the registers travel only inside
      // binary elements.
      type = .integerDedupCnt
      value = Data(CRDTCounter(deduplicatingWith: registers, createdAt: meta.createdAt).value.wireBytes)
    }
    self.init(createdAt: WireTimeTicket(meta.createdAt), movedAt: meta.movedAt.map(WireTimeTicket.init),
              removedAt: meta.removedAt.map(WireTimeTicket.init), type: type, value: value)
  }

  /// The element this value describes.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> ElementSnapshot {
    let createdAt = try self.createdAt.required(path() + ".createdAt")
    let meta = ElementSnapshot.Meta(createdAt: createdAt, movedAt: try movedAt?.model(path() + ".movedAt"),
                                    removedAt: try removedAt?.model(path() + ".removedAt"))
    guard let wireType = WireValueType(rawValue: type.rawValue) else { throw wireDataError(path() + ".type", "unknown value type") }
    do {
      switch wireType {
      case .null, .boolean, .integer, .long, .double, .string, .bytes, .date:
        return .primitive(try PrimitiveValue(wireType: wireType, bytes: value), meta)
      case .integerCounter, .longCounter:
        return .counter(try CounterValue(wireType: wireType, bytes: value), meta)
      case .integerDedupCounter:
        // A Set carries a new counter: its registers start empty (the count is checked only for
        // its size; a non-zero count without registers cannot be rebuilt).
        _ = try CounterValue(wireType: wireType, bytes: value)
        return .dedupCounter([], meta)
      case .text:
        return .text([], meta)
      case .jsonObject, .jsonArray:
        guard !value.isEmpty else {
          // Go SDKs send an empty container without a body; the server accepts it.
          return wireType == .jsonObject ? .object([], meta) : .array([], meta)
        }
        let element = try ElementSnapshot(jsonElementData: value)
        switch (wireType, element) {
        case (.jsonObject, .object), (.jsonArray, .array): return element
        default: throw wireDataError(path() + ".value", "a \(wireType) value holds another kind of element")
        }
      case .tree:
        let decoded = try treeModel(path())
        do throws(YorkieError) {
          return .tree(try TreeContent(records: decoded.records), meta)
        } catch {
          // Well-formed as a node list, yet not a tree this SDK can build (an empty text node).
          throw wireDataError(path() + ".value", error.message)
        }
      }
    } catch {
      // The model's decoders (primitive payloads, binary elements) do not know where their
      // input sits, so their errors get this value's path and keep their code
      // (`invalidWireData`, `invalidValueEncoding`, `invalidActorID`); errors raised here
      // already name their field and pass through unchanged.
      guard let error = error as? YorkieError else { throw wireDataError(path(), "\(error)") }
      guard error.field == nil else { throw error }
      throw YorkieError(error.code, "\(path()): \(error.message)", field: path(), underlying: error)
    }
  }
}

extension PBTextNodePos {
  /// The wire form of a text position.
  package init(_ position: TextPosition) {
    self.init(createdAt: WireTimeTicket(position.createdAt), offset: position.offset, relativeOffset: position.relativeOffset)
  }
}

extension Optional where Wrapped == PBTextNodePos {
  /// The position, which must be present.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> TextPosition {
    guard let position = self else { throw wireDataError(path(), "is required") }
    guard position.offset >= 0, position.relativeOffset >= 0 else { throw wireDataError(path(), "offsets must not be negative") }
    return TextPosition(createdAt: try position.createdAt.required(path() + ".createdAt"), offset: position.offset,
                        relativeOffset: position.relativeOffset)
  }
}
