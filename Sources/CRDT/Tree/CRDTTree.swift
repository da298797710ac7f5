/// Yorkie's Tree element: an XML-like tree of element nodes (a type, attributes, children) and
/// text pieces, edited by position and converging like Yorkie v0.7.17's `CRDTTree`.
///
/// Structure (see `TreeChildIndex.swift` for the per-element child index):
///
/// ```
///   CRDTTree ── root: CRDTTreeNode("root")          nodesByID: TreeNodeID → node (every node,
///                  │ childRoot (treap)                        purged ones excepted)
///             ┌────┴─────┐                           pieceOffsets: ticket → sorted offsets, for
///           <p>        <p>                                     tickets with a piece other than 0
///            │ treap     │
///         [ab]{c}[d]    …
/// ```
///
/// Index rules (as Yorkie's): an element counts 1 for its opening and 1 for its closing tag plus
/// its content; text counts UTF-16 code units; tombstones count 0; index 0 is before the root's
/// first child. Invariants of the whole (checked by ``checkInvariants()``):
/// 1. Every node reachable from the root is in `nodesByID` under its id, and every node there
///    is either reachable or a detached tombstone awaiting purge.
/// 2. `pieceOffsets[t]` lists, sorted, the offsets of the registered nodes created at `t`,
///    and exists exactly when that set is neither empty nor `{0}`.
/// 3. Text pieces have no children and a non-empty value; the root is an element.
/// 4. The child-index invariants of `TreeChildIndex.swift` hold at every element.
package final class CRDTTree: CRDTElement {
  /// The root element.
  package private(set) var root: CRDTTreeNode
  /// Every registered node by identity.
  var nodesByID: [TreeNodeID: CRDTTreeNode] = [:]
  /// The offsets of the pieces of a split insertion (see invariant 2).
  var pieceOffsets: [TimeTicket: [Int32]] = [:]
  /// Tombstones that splits made during the running operation (a piece cut off a removed text,
  /// an element split off a removed element): garbage of their own, which the operation layer
  /// registers and then clears (as a text's `splitGarbage`).
  package internal(set) var splitGarbage: [TreeGCPair] = []
  /// The applied operations an older concurrent one may still come before, by ticket (see
  /// `CRDTTree+Ordering.swift`).
  var orderLog: [LoggedOperation] = []
  /// The newest lamport per actor of the tickets the tree holds, computed when an own operation
  /// first needs it (see `CRDTTree+Ordering.swift`).
  var knowledge: VersionVector?
  /// A running sum of how registering nodes and the forward steps of edits and styles changed
  /// the tree's size (see `CRDTTree+Size.swift`). Only differences mean something: an
  /// operation reads it before and after, and charges the difference to the root
  /// (``CRDTRoot/charge(_:in:journal:)``). Rollback and garbage collection do not keep it.
  package internal(set) var sizeTally = DocSize()

  /// Forgets the split tombstones once registered.
  package func clearSplitGarbage() { splitGarbage.removeAll(keepingCapacity: true) }

  /// Creates a tree around `root` (a complete subtree), registering every node; `nodeCount`,
  /// when known, sizes the registry at once.
  package init(root: CRDTTreeNode, createdAt: TimeTicket, nodeCount: Int = 0) {
    self.root = root
    super.init(createdAt: createdAt, tag: Self.tag)
    nodesByID.reserveCapacity(nodeCount)
    root.forEachPostOrder { node, _ in self.register(node) }
    rebuildMergeState()
  }

  /// Creates a tree from the nodes a ``TreeLoader`` built, registered as they were made
  /// (invariants 1 and 2 hold already, so nothing is walked unless a node was merged).
  package init(loaded: TreeLoader.Nodes, createdAt: TimeTicket) {
    self.root = loaded.root
    self.nodesByID = loaded.nodesByID
    self.pieceOffsets = loaded.pieceOffsets
    super.init(createdAt: createdAt, tag: Self.tag)
    if loaded.hasMergeSources { rebuildMergeState() }
  }

  /// Derives every merge source's `mergedInto` from its moved children (Yorkie's
  /// `rebuildMergeState`, yorkie#1729): the source named by a child's `mergedFrom` forwards to
  /// the child's current parent. The first child in document order decides.
  func rebuildMergeState() {
    root.forEachPreOrder { node in
      guard let sourceID = node.mergedFrom, let source = floorNode(sourceID), let target = node.parent else { return }
      if source.mergedInto == nil { source.mergedInto = target.id }
    }
  }

  /// The root's content size (Yorkie's `getSize`).
  package var size: Int { root.size }

  /// The number of registered nodes (Yorkie's `getNodeSize`).
  package var nodeCount: Int { nodesByID.count }

  // MARK: - Registry

  func register(_ node: CRDTTreeNode) {
    nodesByID[node.id] = node
    sizeTally += CRDTTree.nodeSize(node)
    let ticket = node.id.createdAt
    if node.id.offset == 0 && pieceOffsets[ticket] == nil { return }
    var offsets = pieceOffsets[ticket] ?? (nodesByID[TreeNodeID(createdAt: ticket)] != nil && node.id.offset != 0 ? [0] : [])
    let position = offsets.partitioningIndex { $0 >= node.id.offset }
    if position == offsets.count || offsets[position] != node.id.offset { offsets.insert(node.id.offset, at: position) }
    pieceOffsets[ticket] = offsets
  }

  func unregister(_ node: CRDTTreeNode) {
    nodesByID[node.id] = nil
    sizeTally = sizeTally - CRDTTree.nodeSize(node)
    let ticket = node.id.createdAt
    guard var offsets = pieceOffsets[ticket] else { return }
    offsets.removeAll { $0 == node.id.offset }
    pieceOffsets[ticket] = offsets.isEmpty || offsets == [0] ? nil : offsets
  }

  /// The node with identity `id`, or the piece of the same insertion that covers it (the
  /// greatest registered offset not above `id.offset`): Yorkie's `findFloorNode`.
  package func floorNode(_ id: TreeNodeID) -> CRDTTreeNode? {
    if let node = nodesByID[id] { return node }
    guard let offsets = pieceOffsets[id.createdAt] else {
      return nodesByID[TreeNodeID(createdAt: id.createdAt)]
    }
    let position = offsets.partitioningIndex { $0 > id.offset }
    guard position > 0 else { return nil }
    return nodesByID[TreeNodeID(createdAt: id.createdAt, offset: offsets[position - 1])]
  }

  /// The registered node with exactly this identity.
  package func node(_ id: TreeNodeID) -> CRDTTreeNode? { nodesByID[id] }

}

extension CRDTTree: ElementCapabilities {
  package static var tag: ElementKind.Tag { .tree }

  /// A tree holds nodes, not elements.
  package func forEachChild(_ body: (CRDTElement) -> Void) {}

  package func deepCopy() -> CRDTTree {
    let copy = CRDTTree(root: root.deepCopy(), createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    writer.raw(treeJSON())
  }

  package func toJSONValue() -> JSONValue {
    // The JSON value of a tree is its tree JSON, as Yorkie's `toJS` of a tree.
    JSONValue.parseOrNull(treeJSON())
  }

  package func checkInvariants() -> String? {
    do throws(InvariantViolation) {
      let _: Void = try checkTreeInvariants()
      return nil
    } catch {
      return "tree \(createdAt): \(error.description)"
    }
  }
}

extension CRDTTreeNode {
  /// A copy of this node and everything below it: same identities, tombstones, attributes and
  /// split and merge links (the child index is rebuilt, with the same layout: priorities come
  /// from identities).
  package func deepCopy() -> CRDTTreeNode { deepCopy(mapping: nil) }

  /// A copy as ``deepCopy()`` makes, with every ticket passed through `map` (identities,
  /// removals, split and merge links, attribute tickets): how pending changes are re-issued
  /// under a new actor.
  package func deepCopy(mapping map: ((TimeTicket) -> TimeTicket)?) -> CRDTTreeNode {
    func m(_ id: TreeNodeID) -> TreeNodeID {
      guard let map else { return id }
      return TreeNodeID(createdAt: map(id.createdAt), offset: id.offset)
    }
    var attributes = self.attributes
    if let map, let table = attributes {
      attributes = TreeAttributes(table.entries.map { entry in
        var entry = entry
        entry.updatedAt = map(entry.updatedAt)
        return entry
      })
    }
    let copy = isText ? CRDTTreeNode(id: m(id), text: value) : CRDTTreeNode(id: m(id), type: type, attributes: attributes)
    copy.removedAt = map.flatMap { map in removedAt.map(map) } ?? removedAt
    copy.insPrevID = insPrevID.map(m)
    copy.insNextID = insNextID.map(m)
    copy.mergedFrom = mergedFrom.map(m)
    copy.mergedAt = map.flatMap { map in mergedAt.map(map) } ?? mergedAt
    if !isText {
      var children: [CRDTTreeNode] = []
      forEachChild { children.append($0.deepCopy(mapping: map)) }
      if !children.isEmpty { copy.setChildren(children) }
    }
    copy.recomputeSubtree()
    return copy
  }
}

extension JSONValue {
  /// `text` parsed as JSON, `.null` when it is not JSON (never the case for a tree's own JSON).
  static func parseOrNull(_ text: String) -> JSONValue { JSONValueParser.parse(text) ?? .null }
}

extension Array {
  /// The first index whose element satisfies `belongs` (which must be false then true along the array).
  func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let mid = (low + high) / 2
      if belongs(self[mid]) { high = mid } else { low = mid + 1 }
    }
    return low
  }
}
