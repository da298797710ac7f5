/// One node of a ``CRDTTree``: an element (a type, attributes, children) or a text piece.
///
/// A node is also an entry of its parent's child index (see `TreeChildIndex.swift`): the
/// fields `treapLeft`/`treapRight`/`treapUp`, `priority` and the `subtree…` sums belong to that
/// index and are only written by it.
///
/// `@exclusivity(unchecked)` on the fields every index walk reads and every edit writes: the
/// invariant stated on ``CRDTElement`` holds for tree nodes too (a node is confined to its
/// document's actor, and no method holds a modifying access to one of these fields while calling
/// code that could reach it again: the tree never calls out, and its walks read a field, then
/// write it, never across a call that could write it). What an overlapping write would break is
/// the sums and links of the child index, which `checkTreeInvariants` verifies after every step
/// of the tree fuzzes (under AddressSanitizer and `CRDT_INTERNAL_CHECKS` in `.ci/run`). It pays:
/// with every attribute removed (nothing else changed), `swift run -c release crdt-bench
/// tree_1000 tree_10000 tree_edit_gc_1000 tree_remote_insert_1600` took 6.1–7.4, 72.6–73.5,
/// 17.9–18.3 and 10.9–11.2 ms instead of 3.7–4.0, 42.2–42.5, 11.0–13.4 and 6.8–8.4 ms (three
/// alternating runs of the two builds, idle 2-core VM); without it `tree_10000` misses its
/// goal of 100× Yorkie Go's 5.35 s.
package final class CRDTTreeNode {
  // Stored properties are laid out in declaration order. The ones every index walk, child
  // index update and load touches come first, so that with the object header they fill about
  // the first two of a node's six cache lines; the identity, the strings and the split and
  // merge links follow. Loading 60,001 nodes is bound by cache misses: with the loader as it is,
  // `crdt-bench tree_snapshot_30000` took 25.1-26.1 ms of CPU against 26.0-26.6 ms with the
  // declaration order before (five alternating runs of each build, shared 2-core VM); the edit
  // cases did not change beyond noise.

  // MARK: Child index state (TreeChildIndex.swift)

  /// The element holding this node (nil for the root and for purged or detached nodes).
  @exclusivity(unchecked) package internal(set) unowned var parent: CRDTTreeNode?
  /// The root of this element's child treap.
  @exclusivity(unchecked) var childRoot: CRDTTreeNode?
  /// This node's links inside its parent's child treap.
  @exclusivity(unchecked) var treapLeft: CRDTTreeNode?
  @exclusivity(unchecked) var treapRight: CRDTTreeNode?
  @exclusivity(unchecked) unowned var treapUp: CRDTTreeNode?
  /// The heap priority of this node in its parent's treap (derived from the identity, so a
  /// replica's layout is reproducible).
  @exclusivity(unchecked) private(set) var priority: UInt64
  /// Sums over this node's treap subtree: visible padded size, live nodes, live elements.
  @exclusivity(unchecked) var subtreeWeight = 0

  // MARK: Content

  /// The UTF-16 length of `value`.
  @exclusivity(unchecked) package internal(set) var length: Int
  @exclusivity(unchecked) var subtreeLive: Int32 = 0
  @exclusivity(unchecked) var subtreeLiveElements: Int32 = 0
  /// The attributes of an element: nil until an element is created with attributes or styled.
  @exclusivity(unchecked) package internal(set) var attributes: TreeAttributes?
  /// The removal ticket of a tombstone.
  @exclusivity(unchecked) package internal(set) var removedAt: TimeTicket?
  /// Whether this is a text piece (stored: every index walk asks, and comparing the type
  /// string each time showed in profiles).
  package let isText: Bool
  /// The node's identity (set once, but a `var`: see ``init(placeholder:)``).
  @exclusivity(unchecked) package private(set) var id: TreeNodeID
  /// The element type, or `"text"`.
  @exclusivity(unchecked) package private(set) var type: String
  /// The text of a text piece (empty for elements).
  @exclusivity(unchecked) package internal(set) var value: String

  // MARK: Split and merge links

  /// The piece before this one in the same insertion (text split) or split chain (element).
  package internal(set) var insPrevID: TreeNodeID?
  /// The piece after this one.
  package internal(set) var insNextID: TreeNodeID?
  /// The element this node was moved away from by a merge, and the ticket of that merge.
  package internal(set) var mergedFrom: TreeNodeID?
  package internal(set) var mergedAt: TimeTicket?
  /// On an element tombstoned by a merge: the element its children went to (Yorkie's runtime
  /// `mergedInto` forwarding pointer, yorkie#1722). Never serialized: rebuilt from the children's
  /// `mergedFrom` when a tree is built (Yorkie's `rebuildMergeState`).
  package internal(set) var mergedInto: TreeNodeID?

  /// Creates an element.
  package init(id: TreeNodeID, type: String, attributes: TreeAttributes? = nil) {
    self.id = id
    self.type = type
    self.isText = type == TreeNodeRecord.textType
    self.value = ""
    self.length = 0
    self.attributes = attributes
    self.priority = CRDTTreeNode.priority(of: id)
    recomputeSubtree()
  }

  /// Creates a text piece.
  package init(id: TreeNodeID, text: String) {
    self.id = id
    self.type = TreeNodeRecord.textType
    self.isText = true
    self.value = text
    self.length = text.utf16.count
    self.priority = CRDTTreeNode.priority(of: id)
    recomputeSubtree()
  }

  /// An element whose record has not arrived yet: its identity and type are placeholders
  /// until ``takeIdentity(_:type:)`` gives them. A ``TreeLoader`` reads a post-order list, where
  /// children come before their parent, and makes the parent when its first child arrives, so
  /// that each child is linked to it while the child is still in the cache.
  ///
  /// Nothing may read the placeholder's identity, type or priority before it takes its own:
  /// the loader holds the only references to it (its children's `parent` links) until then,
  /// and drops them all when the list is refused. `checkTreeInvariants` would see a placeholder
  /// that escaped (it is not registered under its identity, invariant 1).
  convenience init(placeholder: Void) {
    self.init(id: TreeNodeID(createdAt: .initial), type: "")
  }

  /// Gives an element made by ``init(placeholder:)`` its identity and type.
  func takeIdentity(_ id: TreeNodeID, type: String) {
    self.id = id
    self.type = type
    self.priority = CRDTTreeNode.priority(of: id)
  }

  /// Whether this node is a tombstone.
  @inline(__always) package var isRemoved: Bool { removedAt != nil }

  /// The content size: a text's length, an element's live children's padded sizes.
  @inline(__always) package var size: Int { isText ? length : (childRoot?.subtreeWeight ?? 0) }

  /// The size this node takes in its parent: 0 for a tombstone, the length for text, the size
  /// plus the open and close tags for an element.
  @inline(__always) package var paddedSize: Int {
    removedAt != nil ? 0 : (isText ? length : size + 2)
  }

  /// A well-mixed 64-bit value of the identity (SplitMix64's finalizer).
  private static func priority(of id: TreeNodeID) -> UInt64 {
    var z = UInt64(bitPattern: id.createdAt.lamport) &* 0x9E37_79B9_7F4A_7C15
    z ^= UInt64(id.createdAt.delimiter) << 32 | UInt64(UInt32(bitPattern: id.offset))
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Every node of this subtree, parents before their children, in document order.
  package func forEachPreOrder(_ body: (CRDTTreeNode) -> Void) {
    body(self)
    forEachChild { $0.forEachPreOrder(body) }
  }

  /// Every node of this subtree, children before their parent (Yorkie's post-order).
  package func forEachPostOrder(depth: Int = 0, _ body: (CRDTTreeNode, Int) -> Void) {
    forEachChild { $0.forEachPostOrder(depth: depth + 1, body) }
    body(self, depth)
  }
}

/// The attributes of an element (Yorkie's RHT): each key holds a JSON-encoded value, the ticket
/// of the style that set or removed it, and a removal flag. Entries stay in the order their key
/// was first set (JS `Map` order, which Yorkie's tree JSON prints).
package struct TreeAttributes: Hashable, Sendable {
  /// The entries, live and removed.
  package private(set) var entries: [TreeAttributeRecord] = []

  package init(_ entries: [TreeAttributeRecord] = []) {
    self.entries = entries
  }

  /// The live entries.
  package var live: [TreeAttributeRecord] { entries.filter { !$0.isRemoved } }

  /// The entry for `key`.
  package func entry(_ key: String) -> TreeAttributeRecord? { entries.first { $0.key == key } }

  /// Sets `key` to `value` when `ticket` is newer than the entry's ticket (LWW).
  ///
  /// - Returns: whether the entry changed, and the entry it replaced.
  package mutating func set(_ key: String, _ value: String, at ticket: TimeTicket) -> (applied: Bool, replaced: TreeAttributeRecord?) {
    let record = TreeAttributeRecord(key: key, value: value, updatedAt: ticket)
    guard let index = entries.firstIndex(where: { $0.key == key }) else {
      entries.append(record)
      return (true, nil)
    }
    let old = entries[index]
    guard ticket.isAfter(old.updatedAt) else { return (false, nil) }
    entries[index] = record
    return (true, old)
  }

  /// Removes `key` at `ticket` when it is newer than the entry (a missing key gets a tombstone,
  /// as Yorkie's RHT does, so a concurrent older set cannot revive it).
  ///
  /// - Returns: the tombstone written, nil when the removal lost.
  package mutating func remove(_ key: String, at ticket: TimeTicket) -> TreeAttributeRecord? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else {
      let tombstone = TreeAttributeRecord(key: key, value: "", updatedAt: ticket, isRemoved: true)
      entries.append(tombstone)
      return tombstone
    }
    let old = entries[index]
    guard ticket.isAfter(old.updatedAt) else { return nil }
    let tombstone = TreeAttributeRecord(key: key, value: old.value, updatedAt: ticket, isRemoved: true)
    entries[index] = tombstone
    return tombstone
  }

  /// Drops the tombstone of `key` removed at `removedAt`; false when the entry is something else.
  package mutating func purge(_ key: String, removedAt: TimeTicket) -> Bool {
    guard let index = entries.firstIndex(where: { $0.key == key && $0.isRemoved && $0.updatedAt == removedAt }) else { return false }
    entries.remove(at: index)
    return true
  }
}
