/// An immutable description of an element and everything below it, with its tickets.
///
/// Operations that create elements (Set, Add, ArraySet) carry one, so that a change can be
/// kept, sent and applied any number of times without sharing mutable state. It mirrors what
/// Yorkie's wire `JSONElement` can hold.
package enum ElementSnapshot: Sendable, Equatable {
  case primitive(PrimitiveValue, Meta)
  indirect case object([(key: String, value: ElementSnapshot)], Meta)
  indirect case array([ArrayNode], Meta)
  case counter(CounterValue, Meta)
  /// A deduplicating counter with its HyperLogLog registers (empty for a new counter, which has
  /// counted nobody). Its value is the registers' estimate.
  case dedupCounter([UInt8], Meta)
  indirect case text([TextNode], Meta)
  /// A tree, checked (see ``TreeContent``).
  case tree(TreeContent, Meta)

  /// The three tickets every element carries. Moves and removals are rare in what operations
  /// carry, so those two live in a shared box and a fresh element's meta is one ticket wide.
  package struct Meta: Sendable, Equatable {
    package var createdAt: TimeTicket
    private var rare: Rare?

    private final class Rare: Sendable {
      let movedAt: TimeTicket?
      let removedAt: TimeTicket?
      init(movedAt: TimeTicket?, removedAt: TimeTicket?) {
        self.movedAt = movedAt
        self.removedAt = removedAt
      }
    }

    package init(createdAt: TimeTicket, movedAt: TimeTicket? = nil, removedAt: TimeTicket? = nil) {
      self.createdAt = createdAt
      rare = movedAt == nil && removedAt == nil ? nil : Rare(movedAt: movedAt, removedAt: removedAt)
    }

    package var movedAt: TimeTicket? { rare?.movedAt }
    package var removedAt: TimeTicket? { rare?.removedAt }

    package static func == (lhs: Meta, rhs: Meta) -> Bool {
      lhs.createdAt == rhs.createdAt && lhs.movedAt == rhs.movedAt && lhs.removedAt == rhs.removedAt
    }
  }

  /// One array position: an element, or a dead position left behind by a move.
  package struct ArrayNode: Sendable, Equatable {
    package var element: ElementSnapshot?
    /// The position's own id when it differs from the element's createdAt.
    package var positionID: TimeTicket?
    package var positionMovedAt: TimeTicket?
    package var positionRemovedAt: TimeTicket?

    package init(element: ElementSnapshot?, positionID: TimeTicket? = nil, positionMovedAt: TimeTicket? = nil, positionRemovedAt: TimeTicket? = nil) {
      self.element = element
      self.positionID = positionID
      self.positionMovedAt = positionMovedAt
      self.positionRemovedAt = positionRemovedAt
    }
  }

  /// One piece of a text, as a snapshot carries it.
  package struct TextNode: Sendable, Equatable {
    package var id: TextNodeID
    package var value: String
    package var removedAt: TimeTicket?
    package var attributes: [TextAttributes.Entry]

    package init(id: TextNodeID, value: String, removedAt: TimeTicket? = nil, attributes: [TextAttributes.Entry] = []) {
      self.id = id
      self.value = value
      self.removedAt = removedAt
      self.attributes = attributes
    }
  }

  package var meta: Meta {
    switch self {
    case .primitive(_, let meta), .object(_, let meta), .array(_, let meta), .counter(_, let meta), .text(_, let meta),
      .dedupCounter(_, let meta), .tree(_, let meta): return meta
    }
  }

  package var createdAt: TimeTicket { meta.createdAt }

  package static func == (lhs: ElementSnapshot, rhs: ElementSnapshot) -> Bool {
    switch (lhs, rhs) {
    case let (.primitive(a, m), .primitive(b, n)): return a == b && m == n
    case let (.counter(a, m), .counter(b, n)): return a == b && m == n
    case let (.dedupCounter(a, m), .dedupCounter(b, n)): return a == b && m == n
    case let (.array(a, m), .array(b, n)): return a == b && m == n
    case let (.text(a, m), .text(b, n)): return a == b && m == n
    case let (.tree(a, m), .tree(b, n)): return a == b && m == n
    case let (.object(a, m), .object(b, n)):
      return m == n && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// Builds the CRDT element this snapshot describes.
  package func materialize() -> CRDTElement {
    let element: CRDTElement
    switch self {
    case .primitive(let value, _):
      element = CRDTPrimitive(value, createdAt: meta.createdAt)
    case .counter(let value, _):
      element = CRDTCounter(value, createdAt: meta.createdAt)
    case .dedupCounter(let registers, _):
      element = CRDTCounter(deduplicatingWith: registers, createdAt: meta.createdAt)
    case .object(let members, _):
      let object = CRDTObject(createdAt: meta.createdAt)
      for member in members {
        object.insertDecoded(member.key, member.value.materialize())
      }
      element = object
    case .array(let nodes, _):
      let array = CRDTArray(createdAt: meta.createdAt)
      for node in nodes {
        let child = node.element?.materialize()
        array.appendDecoded(CRDTArray.Node(
          id: node.positionID ?? child?.createdAt ?? .initial, element: child,
          movedAt: node.positionMovedAt, removedAt: node.positionRemovedAt, prev: -1, next: -1))
      }
      element = array
    case .text(let pieces, _):
      // Text snapshots are only made from texts (`init(_:)` below), never decoded from input.
      element = CRDTText.copying(pieces, createdAt: meta.createdAt)
    case .tree(let content, _):
      element = CRDTTree(root: content.copyOfRoot(), createdAt: meta.createdAt)
    }
    element.movedAt = meta.movedAt
    element.removedAt = meta.removedAt
    return element
  }

  /// Describes an existing element.
  package init(_ element: CRDTElement) {
    let meta = Meta(createdAt: element.createdAt, movedAt: element.movedAt, removedAt: element.removedAt)
    switch element.kind {
    case .primitive(let primitive):
      self = .primitive(primitive.value, meta)
    case .counter(let counter):
      if let registers = counter.registers {
        self = .dedupCounter(registers, meta)
      } else {
        self = .counter(counter.value, meta)
      }
    case .object(let object):
      self = .object(object.members.map { (key: $0.key, value: ElementSnapshot($0.element)) }, meta)
    case .array(let array):
      self = .array(array.allNodes.map { node in
        ArrayNode(
          element: node.element.map { ElementSnapshot($0) },
          positionID: node.element?.createdAt == node.id ? nil : node.id,
          positionMovedAt: node.movedAt, positionRemovedAt: node.removedAt)
      }, meta)
    case .text(let text):
      self = .text(text.pieces.map { handle in
        let node = text.nodes[Int(handle)]
        return TextNode(id: node.id, value: text.content(of: handle), removedAt: node.removedAt,
                        attributes: text.attributes(of: handle)?.entries ?? [])
      }, meta)
    case .tree(let tree):
      self = .tree(TreeContent(copying: tree), meta)
    }
  }
}

extension ElementSnapshot {
  /// This value with a `movedAt` equal to its creation ticket: a member of an object literal.
  package func placedAtCreation() -> ElementSnapshot {
    with(Meta(createdAt: meta.createdAt, movedAt: meta.createdAt, removedAt: meta.removedAt))
  }

  /// This value with other metadata, the same content.
  package func with(_ meta: Meta) -> ElementSnapshot {
    switch self {
    case .primitive(let value, _): return .primitive(value, meta)
    case .counter(let value, _): return .counter(value, meta)
    case .dedupCounter(let registers, _): return .dedupCounter(registers, meta)
    case .object(let members, _): return .object(members, meta)
    case .array(let nodes, _): return .array(nodes, meta)
    case .text(let nodes, _): return .text(nodes, meta)
    case .tree(let content, _): return .tree(content, meta)
    }
  }
}
