/// The document's size (``DocSize``), kept incrementally.
///
/// The size is a function of the document's state: every element adds its ``ElementKind/ownSize()``,
/// to `live` while it and every element above it are live, all of it to `gc` otherwise. The
/// root counts it from scratch once (``recomputedSize()``, when it is built from a snapshot or
/// a copy) and then follows each change where it happens:
///
/// - a new element (``register(_:parent:journal:)``) adds its subtree, to `gc` inside a
///   removed element; a removal (``registerRemoved(_:parent:journal:)``) moves what was live
///   below the element to `gc`, with the removal's ticket;
/// - a text's or tree's edits keep a tally of how they change it (`sizeTally`), which the
///   operation charges (``charge(_:in:journal:)``);
/// - garbage collection takes out of `gc` what it purges, measured before purging.
///
/// Rollback gives back the size the journal recorded before the first change
/// (``Journal/noteSizeChange(_:)``). Debug builds (`CRDT_INTERNAL_CHECKS`) compare the running
/// total with ``recomputedSize()`` after every change of a document.
///
/// Where Yorkie's SDKs keep the size by moving each element's charge around, they have lost
/// track of it in several ways (superseded attribute tombstones stranded in `gc`,
/// yorkie-js-sdk#1361 and #1362; an element charged twice after an undo, yorkie-js-sdk#1350 and
/// yorkie#1990; text garbage sizes, yorkie#1483; a removed container's members left in `live`).
/// Counting the state cannot: the same document always has the same size, on every replica.
extension CRDTRoot {
  /// The document's size counted from scratch: what ``size`` must equal.
  package func recomputedSize() -> DocSize { CRDTRoot.subtreeSize(of: object, garbage: false) }

  /// Whether `element` lies in garbage: it or an element above it is removed.
  @inline(__always) package func isGarbage(_ element: CRDTElement) -> Bool {
    if removedHolders == 0 && !element.isRemoved { return false }
    var current: CRDTElement? = element
    while let next = current {
      if next.isRemoved { return true }
      current = registry[next.createdAt]?.parent
    }
    return false
  }

  /// Adds `change` (what an operation did to a text's or tree's size, from its tally) to the
  /// document's size: all of it to `gc` when `element` lies in garbage.
  @inline(__always) package func charge(_ change: DocSize, in element: CRDTElement, journal: Journal) {
    if change == .zero { return }
    journal.noteSizeChange(self)
    size += isGarbage(element) ? change.asGarbage : change
  }

  /// The size of `element` and everything below it, where it stands (in `gc` when
  /// `garbage`, or when it or an element between is removed).
  package static func subtreeSize(of element: CRDTElement, garbage: Bool) -> DocSize {
    let inGarbage = garbage || element.isRemoved
    let kind = element.kind
    let own = kind.ownSize()
    var total = inGarbage ? own.asGarbage : own
    if kind.holdsElements { kind.forEachChild { total += subtreeSize(of: $0, garbage: inGarbage) } }
    return total
  }

  /// ``subtreeSize(of:garbage:)`` as if `element` itself were not removed (without its
  /// removal ticket): what a new element adds before it is registered removed.
  @inline(__always) static func attachedSize(of element: CRDTElement, garbage: Bool) -> DocSize {
    let kind = element.kind
    if case .primitive(let primitive) = kind {
      // The common case (a value set or appended), without the walk: its tickets and value.
      let own = DataSize(data: primitive.value.dataSize, meta: DataSize.ticket * (primitive.movedAt == nil ? 1 : 2))
      return garbage ? DocSize(gc: own) : DocSize(live: own)
    }
    var own = kind.ownSize()
    if element.isRemoved { own.live.meta -= DataSize.ticket }
    var total = garbage ? own.asGarbage : own
    if kind.holdsElements { kind.forEachChild { total += subtreeSize(of: $0, garbage: garbage) } }
    return total
  }

  /// Moves what was live of `element` (just removed) to garbage, with its removal ticket.
  func chargeRemoval(of element: CRDTElement, parent: CRDTElement) {
    if !isGarbage(parent) {
      let moved = CRDTRoot.attachedSize(of: element, garbage: false).live
      size.live -= moved
      size.gc += moved
    }
    size.gc.meta += DataSize.ticket
  }

  /// Takes `purged` (garbage collection's measure of what it purged) out of `gc`, unless
  /// `element` already left the document: purging it took all of its garbage along.
  func chargePurge(_ purged: DataSize, in element: CRDTElement) {
    guard registry[element.createdAt]?.element === element else { return }
    size.gc -= purged
  }
}

extension ElementKind {
  /// Whether the kind holds elements (objects and arrays): the walks skip the others' children
  /// (a primitive set or appended is the common case, and costs no walk).
  @inline(__always) var holdsElements: Bool {
    switch self {
    case .object, .array: return true
    case .primitive, .counter, .text, .tree: return false
    }
  }

  /// Whether the kind holds something other elements or nodes can lie in (objects, arrays,
  /// texts, trees): only those make what is below them garbage when removed.
  @inline(__always) package var holdsContent: Bool {
    switch self {
    case .object, .array, .text, .tree: return true
    case .primitive, .counter: return false
    }
  }
}
