// The vocabulary every layer of the Tree shares: node identities, positions, and the
// wire-neutral records that the operations, the snapshot codec and YorkieProtocol exchange.
// The element itself (`CRDTTree`) builds on these; nothing here knows how a tree is stored.

/// The identity of a tree node: the ticket of the edit that created it and, for a text node,
/// the UTF-16 offset of the piece within that insertion (splitting a text node makes pieces with
/// increasing offsets; an element node's offset is always 0).
package struct TreeNodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The ticket of the edit that created the node.
  package var createdAt: TimeTicket
  /// The UTF-16 offset of a text piece inside its insertion (0 for elements and unsplit text).
  package var offset: Int32

  /// Creates an identity.
  package init(createdAt: TimeTicket, offset: Int32 = 0) {
    self.createdAt = createdAt
    self.offset = offset
  }

  /// Hashes one mixed word of the fields instead of each field: a tree registers every node
  /// by identity, and loading a 30,000-paragraph snapshot hashed 60,001 identities three times
  /// (`swift run -c release crdt-bench tree_snapshot_30000`). Equality still compares every field.
  package func hash(into hasher: inout Hasher) {
    var x = UInt64(bitPattern: createdAt.lamport) &* 0x9E37_79B9_7F4A_7C15
    x ^= (UInt64(createdAt.delimiter) << 32 | UInt64(UInt32(bitPattern: offset))) &* 0xC2B2_AE3D_27D4_EB4F
    x ^= createdAt.actorID.high &* 0x1656_67B1_9E37_79F9
    x ^= UInt64(createdAt.actorID.low) &* 0xBF58_476D_1CE4_E5B9
    hasher.combine(x ^ (x >> 29))
  }

  /// Ordered by creation ticket, then offset (Yorkie's `TreeNodeID.Compare`).
  package static func < (lhs: TreeNodeID, rhs: TreeNodeID) -> Bool {
    lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : lhs.offset < rhs.offset
  }

  package var description: String { "\(createdAt):\(offset)" }
}

/// A place in a tree that survives concurrent edits (Yorkie's `CRDTTreePos`): the parent node
/// and the node to its left. A left sibling equal to the parent means "before the first child".
package struct CRDTTreePos: Hashable, Sendable, CustomStringConvertible {
  /// The node whose children the position lies between.
  package var parentID: TreeNodeID
  /// The child on the left, or `parentID` itself for the start of the parent.
  package var leftSiblingID: TreeNodeID

  /// Creates a position.
  package init(parentID: TreeNodeID, leftSiblingID: TreeNodeID) {
    self.parentID = parentID
    self.leftSiblingID = leftSiblingID
  }

  package var description: String { "(\(parentID), \(leftSiblingID))" }
}

/// One attribute of an element node as the wire and snapshots carry it (Yorkie's `NodeAttr`):
/// the JSON-encoded value, the ticket of the style that set or removed it, and whether it is a
/// removal tombstone.
package struct TreeAttributeRecord: Hashable, Sendable {
  /// The attribute's name.
  package var key: String
  /// The JSON-encoded value (`"\"left\""`, `"true"`), as Yorkie stores it.
  package var value: String
  /// The ticket of the TreeStyle that last set or removed it.
  package var updatedAt: TimeTicket
  /// Whether the attribute was removed (kept as a tombstone until garbage collection).
  package var isRemoved: Bool

  /// Creates a record.
  package init(key: String, value: String, updatedAt: TimeTicket, isRemoved: Bool = false) {
    self.key = key
    self.value = value
    self.updatedAt = updatedAt
    self.isRemoved = isRemoved
  }
}

/// One node of a post-order node list (Yorkie's `TreeNode` message): children come before their
/// parent and the root of the list is last; `depth` is the depth inside the list (its root 0).
///
/// A TreeEdit carries each inserted subtree as such a list, and a snapshot carries a whole tree.
package struct TreeNodeRecord: Hashable, Sendable {
  /// The node's identity.
  package var id: TreeNodeID
  /// The element type, or `"text"` for a text node.
  package var type: String
  /// The text of a text node (empty for elements).
  package var value: String
  /// The removal ticket of a tombstone.
  package var removedAt: TimeTicket?
  /// The piece before this one in the same insertion (split bookkeeping).
  package var insPrevID: TreeNodeID?
  /// The piece after this one in the same insertion (split bookkeeping).
  package var insNextID: TreeNodeID?
  /// The depth inside the list (the list's root is 0).
  package var depth: Int32
  /// The element's attributes, live and removed, in the order the message carries them.
  package var attributes: [TreeAttributeRecord]
  /// The node this one was moved away from by a concurrent merge (Yorkie v0.7.4+).
  package var mergedFrom: TreeNodeID?
  /// The ticket of that merge.
  package var mergedAt: TimeTicket?

  /// Whether the record is a text node.
  package var isText: Bool { type == TreeNodeRecord.textType }

  /// The type name Yorkie gives text nodes.
  package static let textType = "text"

  /// Creates a record.
  package init(id: TreeNodeID, type: String, value: String = "", removedAt: TimeTicket? = nil,
               insPrevID: TreeNodeID? = nil, insNextID: TreeNodeID? = nil, depth: Int32 = 0,
               attributes: [TreeAttributeRecord] = [], mergedFrom: TreeNodeID? = nil, mergedAt: TimeTicket? = nil) {
    self.id = id
    self.type = type
    self.value = value
    self.removedAt = removedAt
    self.insPrevID = insPrevID
    self.insNextID = insNextID
    self.depth = depth
    self.attributes = attributes
    self.mergedFrom = mergedFrom
    self.mergedAt = mergedAt
  }
}

/// A node named by identity for a tree undo/redo edit (Yorkie's `TreeRestoreSpan`, v0.7.14+):
/// enough to revive it where it was, or to recreate it after garbage collection purged it.
package struct TreeRestoreSpanRecord: Hashable, Sendable {
  /// The node.
  package var id: TreeNodeID
  /// Its element type (or `"text"`).
  package var nodeType: String
  /// Whether it is a text node.
  package var isText: Bool
  /// The UTF-16 length of `value` for text.
  package var length: Int32
  /// The text of a text node.
  package var value: String
  /// The element's attributes.
  package var attributes: [TreeAttributeRecord]
  /// Where the node was: its parent and siblings when the span was taken.
  package var parentID: TreeNodeID?
  package var leftSiblingID: TreeNodeID?
  package var rightSiblingID: TreeNodeID?

  /// Creates a span.
  package init(id: TreeNodeID, nodeType: String, isText: Bool, length: Int32 = 0, value: String = "",
               attributes: [TreeAttributeRecord] = [], parentID: TreeNodeID? = nil, leftSiblingID: TreeNodeID? = nil,
               rightSiblingID: TreeNodeID? = nil) {
    self.id = id
    self.nodeType = nodeType
    self.isText = isText
    self.length = length
    self.value = value
    self.attributes = attributes
    self.parentID = parentID
    self.leftSiblingID = leftSiblingID
    self.rightSiblingID = rightSiblingID
  }
}

/// A TreeEdit (Yorkie's `Operation.TreeEdit`): replace `from..<to` of a tree with `contents`,
/// splitting `splitLevel` element levels at `from`. An immutable object, so the operation holds
/// one reference (as ``TextEdit``).
package final class TreeEditPayload: Sendable, Equatable {
  /// The tree.
  package let parentCreatedAt: TimeTicket
  /// The start of the replaced range.
  package let from: CRDTTreePos
  /// The end of the replaced range.
  package let to: CRDTTreePos
  /// The inserted subtrees, each a post-order node list (empty for a deletion or a split).
  package let contents: [[TreeNodeRecord]]
  /// How many element levels to split at `from` (≥ 0).
  package let splitLevel: Int32
  /// The ticket issued for the edit.
  package let executedAt: TimeTicket
  /// The tickets the author issued for nodes its splits created, in issue order (Yorkie v0.7.16+;
  /// empty in older changes).
  package let splitTickets: [TimeTicket]
  /// Undo/redo by identity (Yorkie v0.7.14+): nodes to revive (or remove again, by `restoreMode`).
  package let restoreSpans: [TreeRestoreSpanRecord]
  /// Which way the spans go.
  package let restoreMode: RestoreMode
  /// Nodes to remove again (or revive, by `restoreMode`).
  package let retombstoneSpans: [TreeRestoreSpanRecord]

  /// Creates an edit.
  package init(parentCreatedAt: TimeTicket, from: CRDTTreePos, to: CRDTTreePos, contents: [[TreeNodeRecord]] = [],
               splitLevel: Int32 = 0, executedAt: TimeTicket, splitTickets: [TimeTicket] = [],
               restoreSpans: [TreeRestoreSpanRecord] = [], restoreMode: RestoreMode = .unspecified,
               retombstoneSpans: [TreeRestoreSpanRecord] = []) {
    self.parentCreatedAt = parentCreatedAt
    self.from = from
    self.to = to
    self.contents = contents
    self.splitLevel = splitLevel
    self.executedAt = executedAt
    self.splitTickets = splitTickets
    self.restoreSpans = restoreSpans
    self.restoreMode = restoreMode
    self.retombstoneSpans = retombstoneSpans
  }

  package static func == (lhs: TreeEditPayload, rhs: TreeEditPayload) -> Bool {
    lhs === rhs || (lhs.parentCreatedAt == rhs.parentCreatedAt && lhs.from == rhs.from && lhs.to == rhs.to
      && lhs.contents == rhs.contents && lhs.splitLevel == rhs.splitLevel && lhs.executedAt == rhs.executedAt
      && lhs.splitTickets == rhs.splitTickets && lhs.restoreSpans == rhs.restoreSpans
      && lhs.restoreMode == rhs.restoreMode && lhs.retombstoneSpans == rhs.retombstoneSpans)
  }
}

/// A TreeStyle (Yorkie's `Operation.TreeStyle`): set `attributes` on, or remove
/// `attributesToRemove` from, the element nodes in `from..<to`.
package final class TreeStylePayload: Sendable, Equatable {
  /// The tree.
  package let parentCreatedAt: TimeTicket
  /// The start of the styled range.
  package let from: CRDTTreePos
  /// The end of the styled range.
  package let to: CRDTTreePos
  /// Attributes to set: JSON-encoded values, as on the wire. Read them in key order (a
  /// dictionary's own order differs between processes).
  package let attributes: [String: String]
  /// Attribute names to remove.
  package let attributesToRemove: [String]
  /// The ticket issued for the style.
  package let executedAt: TimeTicket

  /// Creates a style.
  package init(parentCreatedAt: TimeTicket, from: CRDTTreePos, to: CRDTTreePos, attributes: [String: String] = [:],
               attributesToRemove: [String] = [], executedAt: TimeTicket) {
    self.parentCreatedAt = parentCreatedAt
    self.from = from
    self.to = to
    self.attributes = attributes
    self.attributesToRemove = attributesToRemove
    self.executedAt = executedAt
  }

  package static func == (lhs: TreeStylePayload, rhs: TreeStylePayload) -> Bool {
    lhs === rhs || (lhs.parentCreatedAt == rhs.parentCreatedAt && lhs.from == rhs.from && lhs.to == rhs.to
      && lhs.attributes == rhs.attributes && lhs.attributesToRemove == rhs.attributesToRemove && lhs.executedAt == rhs.executedAt)
  }
}
