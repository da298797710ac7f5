/// One edit inside a change. Local edits and remote changes run through the same `execute`.
package enum Operation: Sendable, Equatable {
  /// Set an object member.
  case set(parentCreatedAt: TimeTicket, key: String, value: OperationValue, executedAt: TimeTicket)
  /// Insert into an array after the position `previousCreatedAt`.
  case add(parentCreatedAt: TimeTicket, previousCreatedAt: TimeTicket, value: OperationValue, executedAt: TimeTicket)
  /// Move the array element `createdAt` after the position `previousCreatedAt`.
  indirect case move(parentCreatedAt: TimeTicket, previousCreatedAt: TimeTicket, createdAt: TimeTicket, executedAt: TimeTicket)
  /// Remove an object member or array element.
  indirect case remove(parentCreatedAt: TimeTicket, createdAt: TimeTicket, executedAt: TimeTicket)
  /// Replace the array element `createdAt` with `value` (Yorkie's ArraySet).
  case arraySet(parentCreatedAt: TimeTicket, createdAt: TimeTicket, value: OperationValue, executedAt: TimeTicket)
  /// Add to a counter. `value` is an Integer or Long primitive.
  case increase(parentCreatedAt: TimeTicket, value: PrimitiveValue, executedAt: TimeTicket)
  /// Replace a range of a text with `content` (see ``TextEdit``).
  case edit(TextEdit)
  /// Set and remove attributes on a range of a text.
  indirect case style(parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition, attributes: [String: String],
                      attributesToRemove: [String], executedAt: TimeTicket)
  /// Yorkie's identity-preserving undo/redo of a text edit (an `Edit` whose `restoreSpans` or
  /// `retombstoneSpans` is non-empty, Yorkie v0.7.13+): pieces are revived or removed again by
  /// their original identity instead of inserting copies. With ``RestoreMode/retombstone`` the
  /// two span lists swap roles. `from`/`to` only anchor content that must be recreated after
  /// garbage collection purged its whole insertion. With both lists empty it is a plain edit of
  /// `from..<to` with no content.
  indirect case restoreEdit(parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition, restoreSpans: [RestoreSpan],
                   restoreMode: RestoreMode, retombstoneSpans: [RestoreSpan], executedAt: TimeTicket)
  /// Count `actor` in a deduplicating counter (Yorkie's `Increase` with an `actor`, v0.7.5+).
  /// `value` is the wire operand, which must be the Integer or Long 1. On a plain counter it
  /// adds `value`, as Yorkie does.
  indirect case dedupIncrease(parentCreatedAt: TimeTicket, value: PrimitiveValue, actor: String, executedAt: TimeTicket)
  /// Replace a range of a tree with subtrees, after splitting element levels (Yorkie's `TreeEdit`).
  case treeEdit(TreeEditPayload)
  /// Set or remove attributes of the elements in a range of a tree (Yorkie's `TreeStyle`).
  case treeStyle(TreeStylePayload)

  /// Set an object member to the element `value` describes.
  package static func set(parentCreatedAt: TimeTicket, key: String, value: ElementSnapshot, executedAt: TimeTicket) -> Operation {
    .set(parentCreatedAt: parentCreatedAt, key: key, value: OperationValue(value), executedAt: executedAt)
  }

  /// Insert the element `value` describes into an array after the position `previousCreatedAt`.
  package static func add(parentCreatedAt: TimeTicket, previousCreatedAt: TimeTicket, value: ElementSnapshot,
                          executedAt: TimeTicket) -> Operation {
    .add(parentCreatedAt: parentCreatedAt, previousCreatedAt: previousCreatedAt, value: OperationValue(value), executedAt: executedAt)
  }

  /// Replace the array element `createdAt` with the element `value` describes.
  package static func arraySet(parentCreatedAt: TimeTicket, createdAt: TimeTicket, value: ElementSnapshot,
                               executedAt: TimeTicket) -> Operation {
    .arraySet(parentCreatedAt: parentCreatedAt, createdAt: createdAt, value: OperationValue(value), executedAt: executedAt)
  }

  /// Replace a range of a text with `content` (attributes JSON-encoded, as on the wire).
  package static func edit(parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition, content: String,
                           attributes: [String: String]?, executedAt: TimeTicket) -> Operation {
    .edit(TextEdit(parentCreatedAt: parentCreatedAt, from: from, to: to, content: content, attributes: attributes, executedAt: executedAt))
  }

  /// The container (or counter) the operation targets.
  package var parentCreatedAt: TimeTicket {
    switch self {
    case .set(let parent, _, _, _), .add(let parent, _, _, _), .move(let parent, _, _, _),
      .remove(let parent, _, _), .arraySet(let parent, _, _, _), .increase(let parent, _, _),
      .style(let parent, _, _, _, _, _),
      .restoreEdit(let parent, _, _, _, _, _, _), .dedupIncrease(let parent, _, _, _):
      return parent
    case .edit(let edit):
      return edit.parentCreatedAt
    case .treeEdit(let edit):
      return edit.parentCreatedAt
    case .treeStyle(let style):
      return style.parentCreatedAt
    }
  }

  /// The element the operation creates (Set, Add, ArraySet), nil for the other kinds.
  package var createdValue: OperationValue? {
    switch self {
    case .set(_, _, let value, _), .add(_, _, let value, _), .arraySet(_, _, let value, _):
      return value
    case .move, .remove, .increase, .style, .restoreEdit, .dedupIncrease, .edit, .treeEdit, .treeStyle:
      return nil
    }
  }

  /// The ticket issued for this operation.
  package var executedAt: TimeTicket {
    switch self {
    case .set(_, _, _, let at), .add(_, _, _, let at), .move(_, _, _, let at),
      .remove(_, _, let at), .arraySet(_, _, _, let at), .increase(_, _, let at),
      .style(_, _, _, _, _, let at),
      .restoreEdit(_, _, _, _, _, _, let at), .dedupIncrease(_, _, _, let at):
      return at
    case .edit(let edit):
      return edit.executedAt
    case .treeEdit(let edit):
      return edit.executedAt
    case .treeStyle(let style):
      return style.executedAt
    }
  }
}

/// A text Edit: replace `from..<to` with `content`.
///
/// An immutable object, so that the operation holds one reference: a change of many edits (a
/// whole editing session in one update) stores a word per edit in its ``OperationList``
/// instead of a full ``Operation`` slot plus a box.
package final class TextEdit: Sendable, Equatable {
  /// The text.
  package let parentCreatedAt: TimeTicket
  /// The start of the replaced range.
  package let from: TextPosition
  /// The end of the replaced range (equal to `from` for an insertion).
  package let to: TextPosition
  /// The inserted text (empty for a deletion).
  package let content: String
  /// JSON-encoded values, as on the wire; nil when the edit sets none.
  package let attributes: [String: String]?
  /// The ticket issued for the edit.
  package let executedAt: TimeTicket

  /// Creates an edit.
  package init(parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition, content: String,
               attributes: [String: String]?, executedAt: TimeTicket) {
    self.parentCreatedAt = parentCreatedAt
    self.from = from
    self.to = to
    self.content = content
    self.attributes = attributes
    self.executedAt = executedAt
  }

  package static func == (lhs: TextEdit, rhs: TextEdit) -> Bool {
    lhs === rhs || (lhs.parentCreatedAt == rhs.parentCreatedAt && lhs.from == rhs.from && lhs.to == rhs.to
      && lhs.content == rhs.content && lhs.attributes == rhs.attributes && lhs.executedAt == rhs.executedAt)
  }
}

/// The element a Set, Add or ArraySet creates: one reference wide, so those operations are
/// stored inline (no box per operation).
///
/// A local edit of a primitive holds the very element it put in the tree: the element's value
/// and creation ticket never change, so the operation reads them as a snapshot would hold them,
/// and the edit costs one allocation instead of three (element, snapshot, operation box). Every
/// other value is an ``ElementSnapshot`` in a shared immutable box. Executing the operation
/// anywhere else (another replica, a rebuilt root) builds a new element from it.
package struct OperationValue: @unchecked Sendable, Equatable {
  // Unchecked: `element` is mutable (its tree moves and removes it), but through this value
  // only its `let` fields are read, which no one writes after `init`.
  private enum Storage {
    case element(CRDTPrimitive)
    case snapshot(SnapshotBox)
  }

  private final class SnapshotBox {
    let snapshot: ElementSnapshot
    init(_ snapshot: ElementSnapshot) { self.snapshot = snapshot }
  }

  private let storage: Storage

  /// A value described by a snapshot.
  package init(_ snapshot: ElementSnapshot) {
    storage = .snapshot(SnapshotBox(snapshot))
  }

  /// The value of a fresh local primitive, which the local execution adopts as it is (its
  /// tree may already have placed it: only its value and creation ticket are read here).
  package init(adopting element: CRDTPrimitive) {
    storage = .element(element)
  }

  /// The value as a snapshot.
  package var snapshot: ElementSnapshot {
    switch storage {
    case .element(let element): return .primitive(element.value, ElementSnapshot.Meta(createdAt: element.createdAt))
    case .snapshot(let box): return box.snapshot
    }
  }

  /// The ticket of the element the value describes.
  package var createdAt: TimeTicket {
    switch storage {
    case .element(let element): return element.createdAt
    case .snapshot(let box): return box.snapshot.createdAt
    }
  }

  /// The element to put in a tree. The local execution right after a proxy built the operation
  /// takes the held element itself (``ExecutionMode/adoptsValues``); any other execution gets
  /// a new element.
  @inline(__always) package func materialize(for mode: ExecutionMode) -> CRDTElement {
    switch storage {
    case .element(let element):
      return mode.adoptsValues ? element : CRDTPrimitive(element.value, createdAt: element.createdAt)
    case .snapshot(let box):
      return box.snapshot.materialize()
    }
  }

  package static func == (lhs: OperationValue, rhs: OperationValue) -> Bool { lhs.snapshot == rhs.snapshot }
}

/// Which way a ``Operation/restoreEdit`` goes (Yorkie's `RestoreMode`).
package enum RestoreMode: Int32, Sendable, Equatable {
  /// No mode on the wire; a restore edit with spans runs as ``restore``.
  case unspecified = 0
  /// Undo of a deletion: revive `restoreSpans`, remove `retombstoneSpans` again.
  case restore = 1
  /// Redo: remove `restoreSpans` again, revive `retombstoneSpans`.
  case retombstone = 2
}
