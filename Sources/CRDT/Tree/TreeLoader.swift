/// Builds a whole tree from its post-order node list (children before their parent, the root
/// last at depth 0: how a snapshot carries a tree) one record at a time, in one pass.
///
/// Each record, as it arrives, is checked against the list rules of `TreeNodeListCheck.swift`
/// (the same rules and defects as ``TreeNodeRecord/checkPostOrder(_:seen:)``, found in the same
/// order apart from the root's depth, which is known only at the end), becomes a node, is
/// registered by identity (which is also what finds an identity used twice) and is linked into
/// its parent's child index at once:
///
/// ```
///   records (post order, depth)     open runs (siblings whose parent has not arrived)
///   a 2, b 2                        depth 2: parent P₁ (a placeholder), treap spine [a, b]
///   p 1  ← P₁ takes p's identity    depth 1: parent P₀, spine [p]   (run 2 closed into p)
///   …, r 0                          the root takes P₀'s place
/// ```
///
/// A run's parent is made as a placeholder (``CRDTTreeNode/init(placeholder:)``) when its first
/// child arrives; each child is inserted into the parent's child treap (a Cartesian tree built
/// on its right spine, `TreeChildIndex.swift`) and its sums are computed when it leaves the
/// spine. So every node is hashed once and touched only while it is recent: the tree is never
/// walked again, and the tombstones a document registers for garbage collection are collected
/// on the way (in post order, as ``CRDTTree/gcPairs()`` lists them).
///
/// Loading a snapshot used to decode the list into an array of records, check it (hashing each
/// identity into a set), build the subtree (hashing each into a second set, and visiting a
/// root's 30,000 children again long after they were made), walk the finished tree to register
/// every node (a third hash) and to rebuild the merge state, and walk it once more for its
/// garbage. On a 60,001-node tree (`crdt-bench tree_snapshot_30000`) every revisit missed the
/// cache; see Benchmarks/tree.md for the figures.
package struct TreeLoader {
  /// Why a list was refused: a rule of the list's shape (the wire names the record's field),
  /// or a node no tree can hold (an empty text, a text root), `invalidTreeContent`.
  package enum Failure: Error {
    case list(TreeNodeListDefect)
    case content(YorkieError)

    /// The failure as the error of a caller that is not reading the wire: a list defect is
    /// `invalidTreeContent` too, naming the record (`nodes[3].depth`).
    package var treeContentError: YorkieError {
      switch self {
      case .list(let defect): YorkieError(.invalidTreeContent, "\(defect.path(in: "nodes")): \(defect.reason)")
      case .content(let error): error
      }
    }
  }

  /// A finished load: the root and the registry a ``CRDTTree`` is made of, and its garbage.
  package struct Nodes {
    /// The root element, its subtree complete (child indexes and sums).
    let root: CRDTTreeNode
    /// Every node by identity (``CRDTTree``'s invariant 1).
    let nodesByID: [TreeNodeID: CRDTTreeNode]
    /// The sorted offsets of the pieces of every split insertion (invariant 2).
    let pieceOffsets: [TimeTicket: [Int32]]
    /// Whether some node was moved by a merge (its source's `mergedInto` is to be derived).
    let hasMergeSources: Bool
    /// The tombstones and removed attributes, as ``CRDTTree/gcPairs()`` lists them.
    package let garbage: [TreeGCPair]
  }

  /// Siblings whose parent has not arrived: the parent (a placeholder until its record comes),
  /// their depth, and where their treap's right spine starts in `spine`.
  private struct OpenRun {
    let parent: CRDTTreeNode
    let depth: Int32
    let spineStart: Int
  }

  /// The open runs, shallowest first: their depths increase, and the last one holds the record
  /// added last (unless that was a root).
  private var runs: [OpenRun] = []
  /// The right spines of the open runs' treaps, one after the other (only the last run grows).
  private var spine: [CRDTTreeNode] = []
  /// The node of a record at depth 0 (the last record, when the list is well formed).
  private var root: CRDTTreeNode?
  /// Every node added so far, by identity.
  private var nodesByID: [TreeNodeID: CRDTTreeNode]
  /// The identities whose offset is not 0: their tickets get piece offsets.
  private var pieceIDs: [TreeNodeID] = []
  private var hasMergeSources = false
  private var garbage: [TreeGCPair] = []
  /// The depth of the record added last (each rule compares a record with the next one).
  private var previousDepth: Int32 = 0

  /// The number of records added.
  package private(set) var count = 0

  /// An empty loader; `expectedCount` (the number of records, when known) sizes the registry
  /// at once, so that it never rehashes while growing.
  package init(expectedCount: Int = 0) {
    nodesByID = Dictionary(minimumCapacity: expectedCount)
    runs.reserveCapacity(16)
    spine.reserveCapacity(64)
  }

  /// Adds the next record of the list.
  ///
  /// - Throws: the first rule the list breaks so far (a loader that threw is dropped, with
  ///   every node it made).
  package mutating func add(_ record: TreeNodeRecord) throws(Failure) {
    let index = count
    do throws(TreeNodeListDefect) {
      if index > 0 { try TreeNodeRecord.checkNeighbours(depth: previousDepth, at: index - 1, next: record) }
      try TreeNodeRecord.checkNode(record, at: index)
    } catch {
      throw .list(error)
    }
    let node = try node(for: record)
    guard nodesByID.updateValue(node, forKey: record.id) == nil else {
      throw .list(TreeNodeRecord.duplicate(record.id, at: index))
    }
    if record.id.offset != 0 { pieceIDs.append(record.id) }
    if record.mergedFrom != nil { hasMergeSources = true }
    if record.removedAt != nil { garbage.append(.node(node)) }
    for attribute in record.attributes where attribute.isRemoved {
      garbage.append(.attribute(node, key: attribute.key, removedAt: attribute.updatedAt))
    }
    if record.depth == 0 {
      root = node
    } else {
      if runs.last?.depth != record.depth {
        runs.append(OpenRun(parent: CRDTTreeNode(placeholder: ()), depth: record.depth, spineStart: spine.count))
      }
      appendToLastRun(node)
    }
    previousDepth = record.depth
    count += 1
  }

  /// The record's node: the parent of the last run when the record closes it (the run is one
  /// level deeper: by the rules checked, it holds the record before), a new node otherwise.
  private mutating func node(for record: TreeNodeRecord) throws(Failure) -> CRDTTreeNode {
    guard let run = runs.last, Int(run.depth) == Int(record.depth) + 1 else {
      do throws(YorkieError) {
        return try CRDTTree.makeNode(record)
      } catch {
        throw .content(error)
      }
    }
    // The rules refused a text with children, and an element without a type, already.
    let parent = run.parent
    parent.takeIdentity(record.id, type: record.type)
    parent.attributes = record.attributes.isEmpty ? nil : TreeAttributes(record.attributes)
    parent.takeRecordedState(of: record)
    closeLastRun()
    return parent
  }

  /// Links `child` as the last child of the last run's parent: on the treap's right spine, the
  /// entries of lower priority leave it (their subtrees are final, so their sums are computed)
  /// and become the child's left subtree.
  private mutating func appendToLastRun(_ child: CRDTTreeNode) {
    let start = runs[runs.count - 1].spineStart
    child.parent = runs[runs.count - 1].parent
    var popped: CRDTTreeNode?
    while spine.count > start, spine[spine.count - 1].priority < child.priority {
      let entry = spine.removeLast()
      entry.recomputeSubtree()
      popped = entry
    }
    if let popped {
      child.treapLeft = popped
      popped.treapUp = child
    }
    if spine.count > start {
      let last = spine[spine.count - 1]
      last.treapRight = child
      child.treapUp = last
    }
    spine.append(child)
  }

  /// Completes the last run's treap (the sums of its spine, deepest first) and hands it to the
  /// run's parent.
  private mutating func closeLastRun() {
    let run = runs.removeLast()
    var position = spine.count
    while position > run.spineStart {
      position -= 1
      spine[position].recomputeSubtree()
    }
    run.parent.childRoot = spine[run.spineStart]
    spine.removeSubrange(run.spineStart...)
  }

  /// The tree's nodes, once the last record (the root) was added.
  ///
  /// - Throws: `list` for an empty list or a last node that is not at depth 0, `content` for a
  ///   text root.
  package mutating func finish() throws(Failure) -> Nodes {
    guard count > 0 else { throw .list(TreeNodeRecord.emptyList) }
    do throws(TreeNodeListDefect) {
      try TreeNodeRecord.checkRoot(depth: previousDepth, at: count - 1)
    } catch {
      throw .list(error)
    }
    // Every other node is deeper than the root (checked), so the root closed every run: this
    // guard never fails, and would refuse the list rather than trap.
    guard runs.isEmpty, let root else {
      throw .list(TreeNodeListDefect(index: nil, field: nil, reason: "the list leaves \(runs.count) runs of nodes without a parent"))
    }
    guard !root.isText else { throw .content(YorkieError(.invalidTreeContent, "the root of a tree is an element, not text")) }
    root.recomputeSubtree()
    // Moved out, so that the tree holds the only reference and its first edit does not copy.
    let registry = nodesByID
    nodesByID = [:]
    return Nodes(root: root, nodesByID: registry, pieceOffsets: pieceOffsets(registry), hasMergeSources: hasMergeSources,
                 garbage: garbage)
  }

  /// The piece offsets of invariant 2: for each ticket with a piece other than 0, the sorted
  /// offsets of all its pieces (0 included when that piece is registered).
  private func pieceOffsets(_ registry: [TreeNodeID: CRDTTreeNode]) -> [TimeTicket: [Int32]] {
    var offsets: [TimeTicket: [Int32]] = [:]
    for id in pieceIDs {
      offsets[id.createdAt, default: registry[TreeNodeID(createdAt: id.createdAt)] == nil ? [] : [0]].append(id.offset)
    }
    return offsets.mapValues { $0.sorted() }
  }
}
