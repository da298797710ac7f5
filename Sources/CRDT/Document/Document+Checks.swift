import Foundation

// Invariant checks and debug views (tests, CRDT_INTERNAL_CHECKS).

extension Document {
  // MARK: - Checks

  /// Enters every text's pending insertion lookups in its table now (they are otherwise entered
  /// when first needed): benchmarks time this deferred work and report memory after it.
  package func enterPendingTextLookups() {
    root.forEachContainer { if case .text(let text) = $0.kind { text.enterPendingFirstPieces() } }
  }

  /// Enters every array's recently linked positions in its lookup table now (they are
  /// otherwise entered when first needed): benchmarks time this with the edits.
  package func enterPendingArrayLookups() {
    root.forEachContainer { if case .array(let array) = $0.kind { array.enterPendingLookups() } }
  }

  /// Bytes held by the texts of the document (benchmarks report it as retained memory).
  package var textMemoryFootprint: Int {
    var total = 0
    root.object.forEachDescendant { if case .text(let text) = $0.kind { total += text.memoryFootprint } }
    return total
  }

  /// ``textMemoryFootprint`` per structure, summed over the texts.
  package var textMemoryBreakdown: [(name: String, bytes: Int)] {
    var total: [(name: String, bytes: Int)] = []
    root.object.forEachDescendant {
      guard case .text(let text) = $0.kind else { return }
      for (i, part) in text.memoryBreakdown.enumerated() {
        if i < total.count { total[i].bytes += part.bytes } else { total.append(part) }
      }
    }
    return total
  }

  /// Bytes held by the document's GC pair store (the garbage bookkeeping for removed text
  /// pieces, attributes and array positions), outside the texts.
  package var gcMemoryFootprint: Int { root.gcPairMemoryFootprint }

  /// The element at `path` (`$.a.b`: object keys only), for the debug views below.
  private func debugElement(_ path: String) -> CRDTElement? {
    var current: CRDTElement = root.object
    for part in path.split(separator: ".").dropFirst() {
      guard case .object(let object) = current.kind, let child = object.get(String(part)) else { return nil }
      current = child
    }
    return current
  }

  /// A dump of the pieces of the text at `path` (debugging aid for tests).
  package func debugPieces(_ path: String) -> String {
    guard let current = debugElement(path) else { return "?" }
    guard case .text(let text) = current.kind else { return "not a text" }
    return Document.dump(text, withSteps: false)
  }

  /// A dump of the pieces of the text created at `createdAt`, with their liveness steps
  /// (debugging aid for tests).
  package func debugPieces(createdAt: TimeTicket) -> String {
    guard let element = root.element(createdAt), case .text(let text) = element.kind else { return "no text \(createdAt)" }
    return Document.dump(text, withSteps: true)
  }

  /// The purged runs noted on piece `handle` (or the end), for dumps ("" without notes).
  private static func describeNotes(_ text: CRDTText, _ handle: Int32) -> String {
    let records = text.purgeNoteRecords(heldBy: handle)
    guard !records.isEmpty else { return "" }
    return " notes " + records.map { "\($0.createdAt):\($0.start)..<\($0.end)\($0.cuts.isEmpty ? "" : " cuts \($0.cuts)")" }.joined(separator: ", ")
  }

  private static func dump(_ text: CRDTText, withSteps: Bool) -> String {
    text.pieces.map { handle in
      let node = text.nodes[Int(handle)]
      let attrs = text.attributes(of: handle)?.entries.map { "\($0.key)=\($0.value)@\($0.updatedAt)\($0.isRemoved ? "x" : "")" }.joined(separator: ",") ?? ""
      let revival = withSteps ? text.describeLivenessSteps(of: handle) + Document.describeNotes(text, handle) : ""
      return "[\(node.id) \(text.content(of: handle).debugDescription) r\(node.removedAt.map { "\($0)" } ?? "") {\(attrs)}\(revival)]"
    }.joined(separator: "\n") + (withSteps ? Document.describeNotes(text, CRDTText.endOfText) : "")
  }

  /// The number of operations in the ordering log of the tree at `path` (see
  /// `CRDTTree+Ordering.swift`), nil when no tree is there (for tests).
  package func debugTreeOrderLogCount(_ path: String) -> Int? {
    guard let current = debugElement(path) else { return nil }
    guard case .tree(let tree) = current.kind else { return nil }
    return tree.orderLog.count
  }

  /// A dump of every node of the tree at `path`, tombstones too, one per line with its
  /// identity, removal and merge marks, indented by depth (debugging aid for tests).
  package func debugTreeNodes(_ path: String) -> String {
    guard let current = debugElement(path) else { return "?" }
    guard case .tree(let tree) = current.kind else { return "not a tree" }
    var lines: [String] = []
    func visit(_ node: CRDTTreeNode, depth: Int) {
      let label = node.isText ? node.value.debugDescription : "<\(node.type)>"
      let marks = [node.removedAt.map { "r\($0)" }, node.mergedFrom.map { "mergedFrom \($0)" },
                   node.mergedInto.map { "mergedInto \($0)" }].compactMap { $0 }.joined(separator: " ")
      lines.append(String(repeating: "  ", count: depth) + "\(node.id) \(label) \(marks)")
      var child = node.firstChild
      while let next = child {
        visit(next, depth: depth + 1)
        child = next.nextSibling
      }
    }
    visit(tree.root, depth: 0)
    return lines.joined(separator: "\n")
  }

  /// A dump of the positions of the array at `path` (debugging aid for tests).
  package func debugPositions(_ path: String) -> String {
    guard let current = debugElement(path) else { return "?" }
    guard case .array(let array) = current.kind else { return "not an array" }
    return array.allNodes.map { node in
      let element = node.element.map { "\($0.createdAt)\($0.isRemoved ? "x" : "")" } ?? "-"
      return "[\(node.id) \(element) m\(node.movedAt.map { "\($0)" } ?? "") r\(node.removedAt.map { "\($0)" } ?? "")]"
    }.joined(separator: "\n")
  }

  /// With `CRDT_INTERNAL_CHECKS` (tests and CI build with it; release builds never do):
  /// verifies every invariant after a mutation of the document and stops at the first
  /// violation, naming the step. Every public call that mutates the document ends here, on
  /// success and after a rollback.
  @inline(__always) func verifyInvariants(after step: @autoclosure () -> String) {
    #if CRDT_INTERNAL_CHECKS
    if let problem = checkInvariants() {
      preconditionFailure("CRDT invariant broken after \(step()) of document \(key): \(problem)")
    }
    #endif
  }

  /// Verifies the invariants of every element in the document (``ElementCapabilities``'s
  /// `checkInvariants`), that the root registers every element it should, that the running
  /// ``size`` is the size counted from scratch, and the text garbage
  /// bookkeeping (`CRDTRoot.checkGarbageInvariants()`); returns the first violation.
  /// Tests call it after every step.
  package func checkInvariants() -> String? {
    var problem: String? = root.object.checkInvariants().map { "root object: \($0)" }
    root.object.forEachDescendant { element in
      guard problem == nil else { return }
      let kind = element.kind
      if let found = kind.checkInvariants() {
        problem = "\(kind.name) \(element.createdAt): \(found)"
      }
      if kind.isRegistered, root.element(element.createdAt) == nil {
        problem = "element \(element.createdAt) is in the tree but not in the registry"
      }
    }
    if let problem { return problem }
    // The registry names every live element itself. That also says live elements never share a
    // ticket (the registry names one of them; a snapshot of both does not load), and that where
    // a tombstone's descendant shares a live element's ticket, the live one is named
    // (ElementCodec.checkRepeatedTickets).
    var misregistered: TimeTicket?
    func visit(_ element: CRDTElement, hidden: Bool) {
      let hidden = hidden || element.isRemoved
      if !hidden, element.kind.isRegistered, root.element(element.createdAt) !== element { misregistered = element.createdAt }
      element.kind.forEachChild { visit($0, hidden: hidden) }
    }
    root.object.kind.forEachChild { visit($0, hidden: false) }
    if let misregistered {
      problem = "the registry names another element than the live one created at \(misregistered) (two live elements share the ticket?)"
    }
    if let problem { return problem }
    // The running size must be the size counted from scratch: this is what makes the
    // incremental accounting trustworthy (every change is checked, fuzzers included).
    let recomputed = root.recomputedSize()
    if root.size != recomputed { return "the document size is \(root.size), counted from scratch \(recomputed)" }
    if let problem = checkHistoryInvariants() { return "history: \(problem)" }
    return root.checkGarbageInvariants()
  }

  /// The undo ring's slots are consistent, and every pending keystroke names a change this
  /// replica still holds, whose only operation edits the keystroke's text (``History/undoRing``):
  /// a keystroke whose change was dropped could not be undone.
  private func checkHistoryInvariants() -> String? {
    if let problem = history.checkSlots() { return problem }
    for keystroke in history.pendingKeystrokes {
      guard let change = localChanges.first(where: { $0.id.clientSeq == keystroke.clientSeq }) else {
        return "the pending keystroke \(keystroke.clientSeq) names no pending change"
      }
      guard change.operations.count == 1, case .edit(let edit) = change.operations[0], edit.parentCreatedAt == keystroke.parent else {
        return "the pending keystroke \(keystroke.clientSeq) names a change that is not one edit of \(keystroke.parent)"
      }
    }
    return nil
  }
}
