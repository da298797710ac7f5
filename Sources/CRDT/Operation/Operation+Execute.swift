/// Execution of operations against a root: one dispatcher here, one file per operation kind
/// (`Operation+Set.swift`, `Operation+Edit.swift`, …), as Yorkie's Go SDK keeps
/// `pkg/document/operations/*.go`. The same code runs for local edits (right after a proxy
/// builds the operation), remote changes and replays; ``ExecutionMode`` says which.
///
/// Each kind's function is `@inline(__always)`, so that the release build compiles the
/// dispatcher into the one function it was before the split.
extension Operation {
  /// Applies the operation.
  ///
  /// - Parameters:
  ///   - root: the document's root.
  ///   - journal: records how to undo each mutation.
  ///   - mode: why the operation runs (see ``ExecutionMode``): whether it is described for
  ///     events, what its author had seen, whether it adopts the element it holds.
  ///   - target: the element named by `parentCreatedAt` when the caller already holds it (a local
  ///     edit); nil looks it up.
  /// - Returns: what changed, for events (empty when the mode does not describe or nothing
  ///   changed).
  /// - Throws: ``YorkieError`` when the operation names an element the document does not have
  ///   or one of the wrong kind. Nothing has been mutated when it throws.
  package func execute(on root: CRDTRoot, journal: Journal, mode: ExecutionMode,
                       target: CRDTElement? = nil) throws(YorkieError) -> [OperationInfo] {
    guard let parent = target ?? root.element(parentCreatedAt) else {
      // An element an earlier operation of the author would have created inside a restored
      // copy the author had not seen (skipped below) is not there either.
      if root.hasRestoredCopies, let authorVector = mode.authorVector,
        let hiddenBy = root.restoreHiding(creationOf: parentCreatedAt, authorVector: authorVector) {
        root.noteSkipped(self, hiddenBy: hiddenBy, journal: journal)
        return []
      }
      throw YorkieError(.elementNotFound, "no element created at \(parentCreatedAt) to apply \(kindName) to")
    }
    // Inside a copy that restored what the author edited, unseen by the author: nothing to do
    // (CRDTRoot+RestoredCopies.swift).
    if root.hasRestoredCopies, let authorVector = mode.authorVector,
      let hiddenBy = root.unseenRestore(around: parent, authorVector: authorVector) {
      root.noteSkipped(self, hiddenBy: hiddenBy, journal: journal)
      return []
    }
    switch self {
    case .set(_, let key, let value, let executedAt):
      return try Operation.executeSet(on: parent, key: key, value: value, executedAt: executedAt,
                                      root: root, journal: journal, mode: mode)
    case .add(_, let previousCreatedAt, let value, let executedAt):
      return try Operation.executeAdd(on: parent, after: previousCreatedAt, value: value, executedAt: executedAt,
                                      root: root, journal: journal, mode: mode)
    case .move(_, let previousCreatedAt, let createdAt, let executedAt):
      return try Operation.executeMove(on: parent, createdAt, after: previousCreatedAt, executedAt: executedAt,
                                       root: root, journal: journal, mode: mode)
    case .remove(_, let createdAt, let executedAt):
      return try Operation.executeRemove(on: parent, createdAt, executedAt: executedAt, root: root, journal: journal, mode: mode)
    case .arraySet(_, let createdAt, let value, let executedAt):
      return try Operation.executeArraySet(on: parent, createdAt, value: value, executedAt: executedAt,
                                           root: root, journal: journal, mode: mode)
    case .edit(let edit):
      return try Operation.executeEdit(on: parent, edit, root: root, journal: journal, mode: mode)
    case .style(_, let from, let to, let attributes, let attributesToRemove, let executedAt):
      return try Operation.executeStyle(on: parent, from: from, to: to, attributes: attributes, attributesToRemove: attributesToRemove,
                                        executedAt: executedAt, root: root, journal: journal, mode: mode)
    case .restoreEdit(let parentCreatedAt, let from, let to, let restoreSpans, let restoreMode, let retombstoneSpans, let executedAt):
      return try Operation.executeRestoreEdit(on: parent, parentCreatedAt: parentCreatedAt, from: from, to: to,
                                              restoreSpans: restoreSpans, restoreMode: restoreMode, retombstoneSpans: retombstoneSpans,
                                              executedAt: executedAt, root: root, journal: journal, mode: mode)
    case .dedupIncrease(let parentCreatedAt, let operand, let actor, let executedAt):
      return try Operation.executeDedupIncrease(on: parent, parentCreatedAt: parentCreatedAt, operand: operand, actor: actor,
                                                executedAt: executedAt, root: root, journal: journal, mode: mode)
    case .increase(_, let operand, _):
      return try Operation.executeIncrease(on: parent, operand: operand, root: root, journal: journal, mode: mode)
    case .treeEdit(let edit):
      return try Operation.executeTreeEdit(on: parent, edit, root: root, journal: journal, mode: mode)
    case .treeStyle(let style):
      return try Operation.executeTreeStyle(on: parent, style, root: root, journal: journal, mode: mode)
    }
  }

  // MARK: Shared by the kinds

  /// Registers node-level garbage, remembering how to undo the registration.
  static func register(_ pair: CRDTRoot.GCPair, in root: CRDTRoot, journal: Journal) {
    let key = CRDTRoot.GCPairKey(parent: pair.parent.createdAt, child: pair.child)
    if let previous = root.replaceGCPair(pair, key: key) { journal.append(.root(.restoreGCPair(previous))) } else { journal.appendUnregister(key, parent: pair.parent) }
  }

  /// Pieces split off a tombstone are tombstones too, and attribute tombstones are copied into
  /// both halves of a split: each is garbage of its own (Yorkie counts them one by one).
  static func registerSplitGarbage(of text: CRDTText, in root: CRDTRoot, journal: Journal) {
    for handle in text.splitGarbage {
      let node = text.node(handle)
      if node.isRemoved { root.noteTextGarbage(text) }
      for entry in text.attributes(of: handle)?.entries ?? [] where entry.isRemoved {
        register(CRDTRoot.GCPair(parent: text, child: .textAttribute(node.id, entry.key), removedAt: entry.updatedAt, handle: handle), in: root, journal: journal)
      }
    }
  }

  /// The operation's name in messages (Yorkie's: a restore edit is an Edit, a deduplicating
  /// increase an Increase).
  private var kindName: String {
    switch self {
    case .set: return "Set"
    case .add: return "Add"
    case .move: return "Move"
    case .remove: return "Remove"
    case .arraySet: return "ArraySet"
    case .increase: return "Increase"
    case .edit: return "Edit"
    case .style: return "Style"
    case .restoreEdit: return "Edit"
    case .dedupIncrease: return "Increase"
    case .treeEdit: return "TreeEdit"
    case .treeStyle: return "TreeStyle"
    }
  }

  /// The error for an operation `name` whose target `element` is not of the kind it needs.
  static func mismatch(_ name: String, _ element: CRDTElement, expected: String) -> YorkieError {
    YorkieError(.typeMismatch, "\(name) needs \(expected), but \(element.createdAt) is \(type(of: element))")
  }
}
