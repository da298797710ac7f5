/// An element with its class: one case per element kind.
///
/// Code whose behaviour depends on the kind switches over ``CRDTElement/kind`` exhaustively,
/// with no `default`: a new kind is a new case here and in ``Tag``, and the compiler then lists
/// every switch that must say what the kind does (the registry and garbage collection in
/// ``CRDTRoot``, snapshots, the binary codec, paths, overwrites, operation targets). What every
/// kind must provide regardless of where it sits is ``ElementCapabilities``, which the new class
/// conforms to; the dispatchers below call it on the concrete class (static calls: no witness
/// table, no dynamic cast). The DocC article *Adding an element kind* lists every place.
///
/// The tag is a stored byte set by each class's initializer, so finding the kind costs a load
/// and a compare (an `as?` to a class costs a call into the runtime that walks the class chain).
package enum ElementKind {
  case primitive(CRDTPrimitive)
  case object(CRDTObject)
  case array(CRDTArray)
  case text(CRDTText)
  case counter(CRDTCounter)
  case tree(CRDTTree)

  /// Which class an element is: stored in every element (a byte of its padding).
  package enum Tag: UInt8 {
    case primitive, object, array, text, counter, tree
  }

  /// Whether the root registers the element by its ticket (``CRDTRoot/element(_:)``): every
  /// kind an operation can name. Primitives are never the target of an operation, so they are
  /// not registered (this halves the cost of building arrays).
  @inline(__always) package var isRegistered: Bool {
    switch self {
    case .primitive: return false
    case .object, .array, .text, .counter, .tree: return true
    }
  }

  /// The kind's name in messages: "object", "text".
  package var name: String {
    switch self {
    case .primitive: return "primitive"
    case .object: return "object"
    case .array: return "array"
    case .text: return "text"
    case .counter: return "counter"
    case .tree: return "tree"
    }
  }

  // MARK: Dispatch to the capabilities

  /// A copy of the element and everything below it, with the same tickets.
  @inline(__always) package func deepCopy() -> CRDTElement {
    switch self {
    case .primitive(let element): return element.deepCopy()
    case .object(let element): return element.deepCopy()
    case .array(let element): return element.deepCopy()
    case .text(let element): return element.deepCopy()
    case .counter(let element): return element.deepCopy()
    case .tree(let element): return element.deepCopy()
    }
  }

  /// Appends the JSON text of the element (`sorted`: object keys in UTF-16 order).
  @inline(__always) package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    switch self {
    case .primitive(let element): element.writeJSON(into: &writer, sorted: sorted)
    case .object(let element): element.writeJSON(into: &writer, sorted: sorted)
    case .array(let element): element.writeJSON(into: &writer, sorted: sorted)
    case .text(let element): element.writeJSON(into: &writer, sorted: sorted)
    case .counter(let element): element.writeJSON(into: &writer, sorted: sorted)
    case .tree(let element): element.writeJSON(into: &writer, sorted: sorted)
    }
  }

  /// The element as a ``JSONValue``.
  @inline(__always) package func toJSONValue() -> JSONValue {
    switch self {
    case .primitive(let element): return element.toJSONValue()
    case .object(let element): return element.toJSONValue()
    case .array(let element): return element.toJSONValue()
    case .text(let element): return element.toJSONValue()
    case .counter(let element): return element.toJSONValue()
    case .tree(let element): return element.toJSONValue()
    }
  }

  /// Calls `body` with the elements directly contained in the element (live or removed, not
  /// yet purged).
  @inline(__always) package func forEachChild(_ body: (CRDTElement) -> Void) {
    switch self {
    case .primitive(let element): element.forEachChild(body)
    case .object(let element): element.forEachChild(body)
    case .array(let element): element.forEachChild(body)
    case .text(let element): element.forEachChild(body)
    case .counter(let element): element.forEachChild(body)
    case .tree(let element): element.forEachChild(body)
    }
  }

  /// The element's own size, without the elements it contains (``ElementCapabilities/ownSize()``).
  @inline(__always) package func ownSize() -> DocSize {
    switch self {
    case .primitive(let element): return element.ownSize()
    case .object(let element): return element.ownSize()
    case .array(let element): return element.ownSize()
    case .text(let element): return element.ownSize()
    case .counter(let element): return element.ownSize()
    case .tree(let element): return element.ownSize()
    }
  }

  /// The first broken invariant of the element itself (not of its children), if any.
  package func checkInvariants() -> String? {
    switch self {
    case .primitive(let element): return element.checkInvariants()
    case .object(let element): return element.checkInvariants()
    case .array(let element): return element.checkInvariants()
    case .text(let element): return element.checkInvariants()
    case .counter(let element): return element.checkInvariants()
    case .tree(let element): return element.checkInvariants()
    }
  }
}

/// What every element kind provides, wherever it sits in a document. Each final element class
/// conforms (in an extension next to the class), and ``ElementKind`` dispatches to it.
///
/// What depends on where the element sits or on what holds it (registration, garbage
/// collection, purging a child, paths, snapshots, the wire) is not a requirement: those places
/// switch over ``ElementKind`` and say what each kind does there.
package protocol ElementCapabilities: CRDTElement {
  /// The tag the class passes to ``CRDTElement/init(createdAt:tag:)``.
  static var tag: ElementKind.Tag { get }
  /// A copy of this element and everything below it, with the same tickets.
  func deepCopy() -> Self
  /// Appends the JSON text of this element, as Yorkie's `toJSON` (`sorted`: `toSortedJSON`).
  func writeJSON(into writer: inout JSONWriter, sorted: Bool)
  /// The element as a ``JSONValue``.
  func toJSONValue() -> JSONValue
  /// Calls `body` with the elements directly contained in this one, live or removed, not yet
  /// purged (a leaf calls it never). Registration, garbage counts and deregistration walk the
  /// document through it.
  func forEachChild(_ body: (CRDTElement) -> Void)
  /// The element's own size, counted from scratch as Yorkie's `getDataSize` counts it: its
  /// tickets (``CRDTElement/ticketsSize``) and data, with everything it holds that is not an
  /// element (a text's pieces, a tree's nodes, style attributes, an array's dead positions),
  /// never the elements it contains. `live` is what the element adds to a live document, `gc`
  /// its own garbage (removed pieces and nodes, removed attributes, dead positions); inside a
  /// removed element all of it is garbage, which the root decides. The root adds these up
  /// once (a new element, a snapshot) and then follows every change incrementally; debug
  /// builds compare the two after each change (``CRDTRoot/recomputedSize()``).
  func ownSize() -> DocSize
  /// Verifies the element's own invariants (tests and `CRDT_INTERNAL_CHECKS`); returns the
  /// first violation.
  func checkInvariants() -> String?
}
