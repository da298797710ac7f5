/// A JSON array: Yorkie's `RGATreeList` with element identity separated from position.
///
/// The list is a chain of *position nodes* in document order. An element sits in exactly one
/// position; moving it creates a new position (named by the move's ticket) and leaves the old
/// one behind as a *dead position*, so later operations that refer to the old position still
/// find their anchor on every replica. Which position an element occupies is a last-writer-wins
/// register (`positionMovedAt`), following Kleppmann's "Moving Elements in List CRDTs".
///
/// ```
///  head ─▶ [tA: A] ─▶ [tB: B] ─▶ [tA': (dead)] ─▶ [t9: A, moved at t9] ─▶ …
/// ```
///
/// Insertion follows RGA: a node inserted after an anchor skips the following nodes whose
/// position tickets are greater than its own, so concurrent inserts at one anchor end up in
/// descending ticket order on every replica.
///
/// Nodes live in an arena addressed by `Int32` handles; ``SequenceIndex`` gives O(log n)
/// index ↔ handle lookups with weight 1 for live elements and 0 otherwise.
///
/// Invariants (``checkInvariants()``):
/// 1. Following `next` from the head visits every node once; `prev` mirrors `next`.
/// 2. The index holds every non-head node in list order with weight 1 iff its element is live.
/// 3. `positionByID` names every node; `movedPositions` names exactly the elements that sit in a
///    node whose id is not their createdAt; each element sits in one node.
/// 4. A dead node has no element and a `removedAt`.
package final class CRDTArray: CRDTElement {
  package struct Node {
    /// The position's identity: the element's createdAt for an insert, the move's ticket otherwise.
    package var id: TimeTicket
    package var element: CRDTElement?
    package var prev: Int32
    package var next: Int32
    /// The move and death tickets, which only positions touched by a move have: kept out of
    /// line, so a position is 48 bytes instead of 104.
    private var moveTickets: MoveTickets?

    /// Set when the element was moved into this position: the move's ticket (the LWW register).
    package var movedAt: TimeTicket? {
      get { moveTickets?.movedAt }
      set { moveTickets = MoveTickets.make(movedAt: newValue, removedAt: moveTickets?.removedAt, movedElement: moveTickets?.movedElement) }
    }

    /// Set when the position died because its element moved away.
    package var removedAt: TimeTicket? {
      get { moveTickets?.removedAt }
      set { moveTickets = MoveTickets.make(movedAt: moveTickets?.movedAt, removedAt: newValue, movedElement: moveTickets?.movedElement) }
    }

    /// For a position a move created (won or lost) on this replica: the moved element's
    /// createdAt, which stays when the position dies (see ``CRDTArray/arraySetAnchor(of:authorVector:)``).
    /// A snapshot does not carry it for dead positions.
    package var movedElement: TimeTicket? {
      get { moveTickets?.movedElement }
      set { moveTickets = MoveTickets.make(movedAt: moveTickets?.movedAt, removedAt: moveTickets?.removedAt, movedElement: newValue) }
    }

    package init(id: TimeTicket, element: CRDTElement?, movedAt: TimeTicket?, removedAt: TimeTicket?, prev: Int32, next: Int32) {
      self.id = id
      self.element = element
      self.prev = prev
      self.next = next
      self.moveTickets = MoveTickets.make(movedAt: movedAt, removedAt: removedAt, movedElement: nil)
    }
  }

  /// A position's move tickets. Immutable (a change makes a new box), so copying a node keeps
  /// value semantics.
  private final class MoveTickets: Sendable {
    let movedAt: TimeTicket?
    let removedAt: TimeTicket?
    let movedElement: TimeTicket?

    private init(movedAt: TimeTicket?, removedAt: TimeTicket?, movedElement: TimeTicket?) {
      self.movedAt = movedAt
      self.removedAt = removedAt
      self.movedElement = movedElement
    }

    /// A box holding the tickets, nil when all are nil.
    static func make(movedAt: TimeTicket?, removedAt: TimeTicket?, movedElement: TimeTicket?) -> MoveTickets? {
      movedAt == nil && removedAt == nil && movedElement == nil
        ? nil : MoveTickets(movedAt: movedAt, removedAt: removedAt, movedElement: movedElement)
    }
  }

  package static let head: Int32 = 0

  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  @exclusivity(unchecked) package private(set) var nodes: [Node]
  @exclusivity(unchecked) private var freeHandles: [Int32] = []
  @exclusivity(unchecked) private var index = SequenceIndex()
  /// Position id → handle, for every node except those in `unindexed`.
  @exclusivity(unchecked) private var positionTable = TicketMap<Int32>()
  /// Nodes linked since the table was last used, in link order. Appending builds nothing per
  /// node: they are entered in one pass, into a table sized once for them, when a lookup by id
  /// comes (building an array of n elements then costs no chain of table doublings).
  @exclusivity(unchecked) private var unindexed: [Int32] = []
  /// The table of every node, entering the ones linked since it was last used.
  private var positionByID: TicketMap<Int32> {
    _read {
      if !unindexed.isEmpty { enterUnindexed() }
      yield positionTable
    }
    _modify {
      if !unindexed.isEmpty { enterUnindexed() }
      yield &positionTable
    }
  }
  /// Element → position, only for elements that no longer sit in the position named by their
  /// own createdAt (they moved). Every other element is found through `positionByID`.
  @exclusivity(unchecked) private var movedPositions = TicketMap<Int32>()
  /// The last node of the chain (the head when empty).
  @exclusivity(unchecked) package private(set) var last: Int32 = CRDTArray.head

  package init(createdAt: TimeTicket) {
    nodes = [Node(id: .initial, element: nil, movedAt: nil, removedAt: nil, prev: -1, next: -1)]
    super.init(createdAt: createdAt, tag: Self.tag)
    positionTable[.initial] = CRDTArray.head
  }

  // MARK: Reading

  /// The number of live elements.
  package var count: Int { index.totalWeight }

  /// The live element at `position`.
  package func element(at position: Int) -> CRDTElement? {
    guard let handle = handle(at: position) else { return nil }
    return nodes[Int(handle)].element
  }

  /// The handle of the node holding the live element at `position`.
  package func handle(at position: Int) -> Int32? {
    index.find(position)?.handle
  }

  /// The element created at `createdAt`, live or removed.
  package func element(createdAt: TimeTicket) -> CRDTElement? {
    guard let handle = position(ofElement: createdAt) else { return nil }
    return nodes[Int(handle)].element
  }

  /// The handle of the position the element created at `createdAt` occupies.
  @inline(__always) package func position(ofElement createdAt: TimeTicket) -> Int32? {
    if let moved = movedPositions[createdAt] { return moved }
    guard let handle = positionByID[createdAt], nodes[Int(handle)].element?.createdAt == createdAt else { return nil }
    return handle
  }

  /// The handle of the position named `id`.
  package func position(withID id: TimeTicket) -> Int32? { positionByID[id] }

  /// The index of a live element among live elements, or, for a removed element, the index it
  /// would have (the number of live elements before it).
  package func index(ofElement createdAt: TimeTicket) -> Int? {
    guard let handle = position(ofElement: createdAt) else { return nil }
    return index.offset(of: handle)
  }

  /// The index reported in operation infos: the element's index, or -1 when it is removed (as
  /// the JS SDK reports tombstones).
  package static func infoIndex(_ array: CRDTArray, _ createdAt: TimeTicket) -> Int? {
    guard let element = array.element(createdAt: createdAt) else { return nil }
    return element.isRemoved ? -1 : array.index(ofElement: createdAt)
  }

  /// The live elements in order.
  package var liveElements: [CRDTElement] {
    var result: [CRDTElement] = []
    result.reserveCapacity(count)
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      if let element = nodes[Int(handle)].element, !element.isRemoved { result.append(element) }
      handle = nodes[Int(handle)].next
    }
    return result
  }

  /// The id of the live node before the element created at `createdAt` (or the head's id):
  /// the anchor that `moveBefore` uses.
  package func previousLivePositionID(before createdAt: TimeTicket) -> TimeTicket? {
    guard var handle = position(ofElement: createdAt) else { return nil }
    repeat {
      handle = nodes[Int(handle)].prev
    } while handle != CRDTArray.head && !(nodes[Int(handle)].element.map { !$0.isRemoved } ?? false)
    return nodes[Int(handle)].id
  }

  /// The id of the live position at or before the position `id` (the head when none is
  /// live): a place every replica still has, as garbage collection never purges a live
  /// position. Nil when this replica has no position `id`.
  package func liveAnchor(atOrBefore id: TimeTicket) -> TimeTicket? {
    guard var handle = positionByID[id] ?? movedPositions[id] else { return nil }
    while handle != CRDTArray.head && !(nodes[Int(handle)].element.map { !$0.isRemoved } ?? false) {
      handle = nodes[Int(handle)].prev
    }
    return nodes[Int(handle)].id
  }

  // MARK: Writing

  /// Inserts `element` after the position `previousID`, skipping newer concurrent insertions.
  ///
  /// - Returns: the new node's handle, or nil when `previousID` is unknown.
  @discardableResult
  package func insert(_ element: CRDTElement, afterPosition previousID: TimeTicket, executedAt: TimeTicket,
                      anchorHint: Int32 = -1) -> Int32? {
    // Appending after the last position (the common case) has nothing to skip and no lookup;
    // a local insertion names the anchor's handle, checked before use.
    let anchor: Int32
    if previousID == nodes[Int(last)].id {
      anchor = last
    } else if anchorHint >= 0 && Int(anchorHint) < nodes.count && nodes[Int(anchorHint)].id == previousID
      && (anchorHint == CRDTArray.head || nodes[Int(anchorHint)].prev >= 0) {
      anchor = skipNewer(startingAt: anchorHint, executedAt: executedAt)
    } else {
      guard let start = positionByID[previousID] ?? movedPositions[previousID] else { return nil }
      anchor = skipNewer(startingAt: start, executedAt: executedAt)
    }
    return link(Node(id: element.createdAt, element: element, movedAt: nil, removedAt: nil, prev: anchor, next: -1), after: anchor)
  }

  /// Appends `element` at the end without the RGA skip (building a fresh array).
  @discardableResult
  package func append(_ element: CRDTElement) -> Int32 {
    link(Node(id: element.createdAt, element: element, movedAt: nil, removedAt: nil, prev: last, next: -1), after: last)
  }

  /// Appends a node exactly as a snapshot describes it.
  package func appendDecoded(_ node: Node) {
    var node = node
    node.prev = last
    node.next = -1
    let handle = link(node, after: last)
    if let element = node.element, element.createdAt != node.id { movedPositions[element.createdAt] = handle }
  }

  /// The outcome of a move.
  package struct MoveResult {
    /// The position the move created (named by the move's ticket). It holds the element when
    /// the move won, and is dead from birth when it lost.
    package let newPosition: Int32
    /// The position the element left (now dead), when the move won.
    package var oldPosition: Int32? { storedOldPosition >= 0 ? storedOldPosition : nil }
    /// The element's `movedAt` before the move (for rollback).
    package let previousElementMovedAt: TimeTicket?
    /// `oldPosition`, -1 for none (keeps the journal record that holds a result 8 bytes smaller).
    private let storedOldPosition: Int32

    init(newPosition: Int32, oldPosition: Int32?, previousElementMovedAt: TimeTicket?) {
      self.newPosition = newPosition
      self.storedOldPosition = oldPosition ?? -1
      self.previousElementMovedAt = previousElementMovedAt
    }

    /// The position that died: the old one when the move won, the new one when it lost.
    package var deadPosition: Int32 { oldPosition ?? newPosition }
  }

  /// Moves the element created at `createdAt` after the position `previousID`.
  ///
  /// Every move creates a position named by its ticket, on every replica, so all replicas hold
  /// the same positions whatever order moves arrive in (later operations may anchor on any of
  /// them). Which position the element occupies is a last-writer-wins register: a move older
  /// than the one that placed the element leaves its new position dead from birth.
  ///
  /// - Returns: nil when the anchor or the element is unknown.
  package func move(_ createdAt: TimeTicket, afterPosition previousID: TimeTicket, executedAt: TimeTicket) -> MoveResult? {
    guard let oldPosition = position(ofElement: createdAt), let element = nodes[Int(oldPosition)].element,
      let start = positionByID[previousID] ?? movedPositions[previousID]
    else { return nil }
    let anchor = skipNewer(startingAt: start, executedAt: executedAt)
    let currentMove = nodes[Int(oldPosition)].movedAt
    guard let currentMove, !executedAt.isAfter(currentMove) else { return win(element, from: oldPosition, to: anchor, executedAt: executedAt) }
    // Lost: the position is dead from birth. It dies at the winning move's ticket, not at its
    // own: on replicas that applied this move first it was live until the winner arrived, and
    // changes made there may anchor on it until then. Garbage collection must wait for that.
    var deadNode = Node(id: executedAt, element: nil, movedAt: nil, removedAt: currentMove, prev: anchor, next: -1)
    deadNode.movedElement = createdAt
    let dead = link(deadNode, after: anchor)
    return MoveResult(newPosition: dead, oldPosition: nil, previousElementMovedAt: element.movedAt)
  }

  private func win(_ element: CRDTElement, from oldPosition: Int32, to anchor: Int32, executedAt: TimeTicket) -> MoveResult {
    var node = Node(id: executedAt, element: element, movedAt: executedAt, removedAt: nil, prev: anchor, next: -1)
    node.movedElement = element.createdAt
    let newPosition = link(node, after: anchor)
    nodes[Int(oldPosition)].element = nil
    nodes[Int(oldPosition)].removedAt = executedAt
    index.setWeight(oldPosition, 0)
    movedPositions[element.createdAt] = newPosition
    let previousElementMovedAt = element.movedAt
    element.movedAt = executedAt
    return MoveResult(newPosition: newPosition, oldPosition: oldPosition, previousElementMovedAt: previousElementMovedAt)
  }

  /// Undoes a move made by ``move(_:afterPosition:executedAt:)`` (rollback).
  package func undoMove(_ result: MoveResult) {
    guard let oldPosition = result.oldPosition else {
      unlink(result.newPosition)
      return
    }
    guard let element = nodes[Int(result.newPosition)].element else { return }
    unlink(result.newPosition)
    nodes[Int(oldPosition)].element = element
    nodes[Int(oldPosition)].removedAt = nil
    if nodes[Int(oldPosition)].id == element.createdAt {
      movedPositions.remove(element.createdAt)
    } else {
      movedPositions[element.createdAt] = oldPosition
    }
    element.movedAt = result.previousElementMovedAt
    index.setWeight(oldPosition, element.isRemoved ? 0 : 1)
  }

  /// The position after which an ArraySet of the element created at `createdAt` places its new
  /// value: where the ArraySet's author saw the element.
  ///
  /// That is the element's current position whenever the author had seen the move that put it
  /// there (`authorVector` covers the position's id), and always for a local edit (nil or empty
  /// vector) — what Yorkie's JS SDK always does and its Go SDK does once garbage collection
  /// purged the element's first position. Only an ArraySet concurrent with that move (one
  /// Yorkie's replicas disagree on: each places it where it saw the element) goes after the
  /// newest position of the element its author had seen: the one among the element's first
  /// position and the positions of its moves whose id the vector covers. That position is dead
  /// since a move the author had not seen, and garbage collection keeps it until every replica
  /// has seen that move, so the ArraySet, sent before its author saw the move, finds it on every
  /// replica: the result never depends on when a replica collected.
  ///
  /// - Returns: nil when the element is unknown.
  package func arraySetAnchor(of createdAt: TimeTicket, authorVector: VersionVector?) -> TimeTicket? {
    guard let handle = position(ofElement: createdAt) else { return nil }
    let current = nodes[Int(handle)].id
    guard let authorVector, !authorVector.isEmpty, !authorVector.knows(current) else { return current }
    var seen: TimeTicket? = authorVector.knows(createdAt) && positionByID[createdAt] != nil ? createdAt : nil
    // Rare (an ArraySet concurrent with a move): a walk over the positions, instead of a
    // per-element record that every move would pay for.
    var next = nodes[Int(CRDTArray.head)].next
    while next >= 0 {
      let node = nodes[Int(next)]
      if node.movedElement == createdAt, authorVector.knows(node.id), seen.map({ node.id.isAfter($0) }) ?? true { seen = node.id }
      next = node.next
    }
    // A snapshot does not say which element a dead position belonged to: after one, a position
    // the author saw may be unknown here, and the current one stands in.
    return seen ?? current
  }

  /// The id of the last position holding a live element, or the head's id: the anchor for
  /// appending. Local edits anchor only on live positions (or the head), which garbage
  /// collection cannot purge while a change referring to them may still be in flight.
  package var lastLivePositionID: TimeTicket {
    var handle = last
    while handle != CRDTArray.head {
      if let element = nodes[Int(handle)].element, !element.isRemoved { return nodes[Int(handle)].id }
      handle = nodes[Int(handle)].prev
    }
    return nodes[Int(CRDTArray.head)].id
  }

  /// Marks the element created at `createdAt` removed at `executedAt`.
  ///
  /// - Returns: the element when it became a tombstone now.
  package func remove(createdAt: TimeTicket, executedAt: TimeTicket) -> CRDTElement? {
    guard let handle = position(ofElement: createdAt), let element = nodes[Int(handle)].element else { return nil }
    let wasRemoved = element.isRemoved
    guard element.remove(at: executedAt), !wasRemoved else { return nil }
    index.setWeight(handle, 0)
    return element
  }

  /// Brings a removed element back (rollback of a local removal).
  package func restore(_ element: CRDTElement, removedAt old: TimeTicket?) {
    element.removedAt = old
    if let handle = position(ofElement: element.createdAt), nodes[Int(handle)].element === element {
      index.setWeight(handle, element.isRemoved ? 0 : 1)
    }
  }

  /// Physically deletes the node holding `element` (garbage collection and rollback).
  package func purge(_ element: CRDTElement) {
    guard let handle = position(ofElement: element.createdAt) else { return }
    movedPositions.remove(element.createdAt)
    unlink(handle)
  }

  /// Physically deletes a dead position (garbage collection).
  package func purgeDeadPosition(_ handle: Int32) {
    guard handle != CRDTArray.head, Int(handle) < nodes.count, nodes[Int(handle)].element == nil,
      positionByID[nodes[Int(handle)].id] == handle
    else { return }
    unlink(handle)
  }

  /// Whether purging the node `handle` cannot change where any future insertion lands.
  ///
  /// RGA places a new node after its anchor by skipping the following nodes with greater
  /// tickets. A purged tombstone takes part in that walk no more, so purging it is safe only if
  /// every later insertion would stop at the same place anyway: that holds when every node in
  /// the run after it with a greater ticket (its subtree, over-approximated) is known to all
  /// replicas, because any change still to come then carries a greater ticket than all of
  /// them. Yorkie purges on the removal ticket alone; replicas then can order a concurrent
  /// insertion differently depending on whether they had purged.
  ///
  /// - Parameter allCovered: pass true when `minSyncedVersionVector` covers every node of the
  ///   array (the common case after everyone synced); the walk is skipped.
  package func isSafeToPurge(_ handle: Int32, _ minSyncedVersionVector: VersionVector, allCovered: Bool) -> Bool {
    if allCovered { return true }
    let id = nodes[Int(handle)].id
    var next = nodes[Int(handle)].next
    while next >= 0 && nodes[Int(next)].id.isAfter(id) {
      if !minSyncedVersionVector.covers(nodes[Int(next)].id) { return false }
      next = nodes[Int(next)].next
    }
    return true
  }

  /// Whether `minSyncedVersionVector` covers the id of every position.
  package func allPositionsCovered(by minSyncedVersionVector: VersionVector) -> Bool {
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      if !minSyncedVersionVector.covers(nodes[Int(handle)].id) { return false }
      handle = nodes[Int(handle)].next
    }
    return true
  }

  /// Dead positions, for rebuilding the GC registry after a snapshot.
  package var deadPositions: [Int32] {
    var result: [Int32] = []
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      if nodes[Int(handle)].element == nil { result.append(handle) }
      handle = nodes[Int(handle)].next
    }
    return result
  }

  /// Every node after the head, in order (for encoding snapshots).
  package var allNodes: [Node] {
    var result: [Node] = []
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      result.append(nodes[Int(handle)])
      handle = nodes[Int(handle)].next
    }
    return result
  }

  // MARK: Linking

  /// Walks forward from the position `id` past nodes whose position tickets are newer than
  /// `executedAt` (RGA: a newer concurrent insertion at the same anchor stays in front).
  /// (Older clients name the anchor by element; its current position stands in for it.)
  private func skipNewer(startingAt start: Int32, executedAt: TimeTicket) -> Int32 {
    var handle = start
    while true {
      let next = nodes[Int(handle)].next
      if next < 0 || !nodes[Int(next)].id.isAfter(executedAt) { break }
      handle = next
    }
    return handle
  }

  /// Enters the nodes linked since the table was last used.
  private func enterUnindexed() {
    // Sizing the table once pays for a long run of appends; a few entries just go in.
    if unindexed.count > 64 { positionTable.reserveCapacity(positionTable.count + unindexed.count) }
    for handle in unindexed { positionTable[nodes[Int(handle)].id] = handle }
    unindexed.removeAll(keepingCapacity: unindexed.count <= 4096)
  }

  /// Makes every lookup table complete now (benchmarks time this with the edits).
  package func enterPendingLookups() {
    if !unindexed.isEmpty { enterUnindexed() }
  }

  private func link(_ node: consuming Node, after anchor: Int32) -> Int32 {
    let next = nodes[Int(anchor)].next
    node.prev = anchor
    node.next = next
    let weight = node.element.map { $0.isRemoved ? 0 : 1 } ?? 0
    let handle: Int32
    if freeHandles.isEmpty {
      handle = Int32(nodes.count)
      nodes.append(node)
    } else {
      handle = freeHandles.removeLast()
      nodes[Int(handle)] = node
    }
    if next >= 0 { nodes[Int(next)].prev = handle }
    nodes[Int(anchor)].next = handle
    if anchor == last { last = handle }
    unindexed.append(handle)
    index.insert(handle, weight: weight, after: anchor == CRDTArray.head ? nil : anchor)
    return handle
  }

  private func unlink(_ handle: Int32) {
    let node = nodes[Int(handle)]
    nodes[Int(node.prev)].next = node.next
    if node.next >= 0 { nodes[Int(node.next)].prev = node.prev }
    if last == handle { last = node.prev }
    if positionByID[node.id] == handle { positionByID[node.id] = nil }
    index.remove(handle)
    nodes[Int(handle)] = Node(id: .initial, element: nil, movedAt: nil, removedAt: nil, prev: -1, next: -1)
    freeHandles.append(handle)
  }

}

extension CRDTArray: ElementCapabilities {
  package static var tag: ElementKind.Tag { .array }

  package func forEachChild(_ body: (CRDTElement) -> Void) {
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      if let element = nodes[Int(handle)].element { body(element) }
      handle = nodes[Int(handle)].next
    }
  }

  package func deepCopy() -> CRDTArray {
    let copy = CRDTArray(createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    for var node in allNodes {
      node.element = node.element?.kind.deepCopy()
      copy.appendDecoded(node)
    }
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    writer.raw("[")
    var first = true
    var handle = nodes[Int(CRDTArray.head)].next
    while handle >= 0 {
      if let element = nodes[Int(handle)].element, !element.isRemoved {
        if !first { writer.raw(",") }
        first = false
        // The JS SDK prints array elements with toJSON even inside toSortedJSON.
        element.kind.writeJSON(into: &writer, sorted: false)
      }
      handle = nodes[Int(handle)].next
    }
    writer.raw("]")
  }

  package func toJSONValue() -> JSONValue {
    .array(liveElements.map { $0.kind.toJSONValue() })
  }

  // MARK: Invariants

  /// Verifies the invariants listed on the type; returns the first violation.
  package func checkInvariants() -> String? {
    if let problem = index.checkInvariants() { return "index: \(problem)" }
    var order: [Int32] = []
    var handle = nodes[Int(CRDTArray.head)].next
    var previous = CRDTArray.head
    var seenElements = Set<TimeTicket>()
    while handle >= 0 {
      if nodes[Int(handle)].prev != previous { return "node \(handle) has prev \(nodes[Int(handle)].prev), expected \(previous)" }
      order.append(handle)
      let node = nodes[Int(handle)]
      if positionByID[node.id] != handle { return "positionByID does not name node \(handle)" }
      if let element = node.element {
        if position(ofElement: element.createdAt) != handle { return "element \(element.createdAt) is not mapped to node \(handle)" }
        if (movedPositions[element.createdAt] != nil) != (element.createdAt != node.id) { return "movedPositions disagrees for \(element.createdAt)" }
        if !seenElements.insert(element.createdAt).inserted { return "element \(element.createdAt) sits in two nodes" }
        if index.weight(of: handle) != (element.isRemoved ? 0 : 1) { return "node \(handle) has a wrong weight" }
      } else {
        if node.removedAt == nil { return "dead node \(handle) has no removedAt" }
        if index.weight(of: handle) != 0 { return "dead node \(handle) has weight" }
      }
      previous = handle
      handle = node.next
      if order.count > nodes.count { return "the chain has a cycle" }
    }
    if last != previous { return "last is \(last), the chain ends at \(previous)" }
    if order != index.handles { return "index order differs from the chain" }
    if movedPositions.count > seenElements.count { return "movedPositions names elements not in the chain" }
    return nil
  }
}
