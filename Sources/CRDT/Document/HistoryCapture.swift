/// What an executed operation replaced, read while it ran: what its reverse needs beyond the
/// operation itself. An operation whose reverse follows from the operation alone (an Add, an
/// Increase, an insertion) captures nothing, so typing stores nothing besides its change.
package enum HistoryCapture: Sendable {
  /// A Set: the live value it replaced, nil when the key had none.
  case replacedValue(ElementSnapshot?)
  /// A Set that replaced a primitive: its value and identity, described as an element only if
  /// it is undone (a described primitive with a placement ticket allocates, and setting one key
  /// many times in an update would pay it per Set).
  case replacedPrimitive(PrimitiveValue, createdAt: TimeTicket)
  /// A Remove in an object: the member's key and value.
  case removedMember(key: String, value: ElementSnapshot)
  /// A Remove in an array: the value and the live position it followed.
  case removedElement(anchor: TimeTicket, value: ElementSnapshot)
  /// A Move: the live position the element followed before it moved.
  case previousAnchor(TimeTicket)
  /// An ArraySet: the value it replaced.
  case replacedElement(ElementSnapshot)
  /// A text edit that removed one run of characters (a keystroke's deletion): the run, by
  /// identity, held inline so that capturing it allocates no array (Benchmarks/history.md).
  case removedRun(RemovedRun)
  /// A text edit that removed two runs or more: the characters, by identity.
  case removedText([RemovedRun])
  /// A style: each restyled run of characters with the values its styled keys had (nil: unset).
  case previousStyles([StyleRun])
  /// A tree edit reversed by identity (Yorkie's tree restore spans): the nodes it took from
  /// live to removed and the nodes it inserted.
  case treeSpans(removed: [TreeRestoreSpanRecord], inserted: [TreeRestoreSpanRecord])
  /// A tree edit that merged `levels` elements: its reverse splits them again at `at`, where
  /// the merge joined them (Yorkie's split reverse of a merge). Boxed, as ``treeBoundary(from:to:)``:
  /// tree positions are wide (two positions made every capture 129 bytes, and an update that
  /// sets one key 10,000 times moved them all each time its captures array grew), and tree
  /// merges and splits are rare next to Sets and deletions.
  indirect case treeSplit(at: CRDTTreePos, levels: Int)
  /// A tree split: its reverse deletes the boundary it opened, `from..<to`, which merges the
  /// parts again (Yorkie's boundary deletion).
  indirect case treeBoundary(from: CRDTTreePos, to: CRDTTreePos)
  /// A tree style: each restyled element with the values its styled keys had (nil: unset).
  case previousTreeStyles([TreeStyleRun])
  /// The operation changed nothing (a Remove of what a peer removed first): no reverse.
  case nothing

  /// Whether it holds characters a text edit removed (``removedRun(_:)`` or ``removedText(_:)``).
  package var isRemovedText: Bool {
    switch self {
    case .removedRun, .removedText: return true
    case .replacedValue, .replacedPrimitive, .removedMember, .removedElement, .previousAnchor, .replacedElement,
      .previousStyles, .treeSpans, .treeSplit, .treeBoundary, .previousTreeStyles, .nothing:
      return false
    }
  }

  /// The characters a text edit removed (``removedRun(_:)`` or ``removedText(_:)``); nil for
  /// any other capture.
  package var removedRuns: [RemovedRun]? {
    switch self {
    case .removedRun(let run): return [run]
    case .removedText(let runs): return runs
    case .replacedValue, .replacedPrimitive, .removedMember, .removedElement, .previousAnchor, .replacedElement,
      .previousStyles, .treeSpans, .treeSplit, .treeBoundary, .previousTreeStyles, .nothing:
      return nil
    }
  }

  /// Characters a text edit removed, by identity: offsets `start..<end` of the insertion
  /// `createdAt`, with the attributes they had then. Their content is not copied when they are
  /// removed (a deleted character would cost a string per keystroke): the removed piece still
  /// holds it, and it is read when the undo needs it, or earlier, when garbage collection is
  /// about to purge the piece (``History/readRemovedContent(in:)``). Invariant: a run whose
  /// ``content`` is nil names characters no garbage collection has purged since it was captured.
  package struct RemovedRun: Sendable, Equatable {
    package var createdAt: TimeTicket
    package var start: Int32
    package var end: Int32
    /// The piece that held exactly these characters when they were removed: where they are
    /// read from while it still does (checked, by identity), without a lookup.
    package var piece: Int32
    /// The attributes the characters had when removed; nil when they had none.
    package var attributes: [String: String]?
    /// The characters, once read; nil until then.
    package var content: String?

    package init(createdAt: TimeTicket, start: Int32, end: Int32, piece: Int32, attributes: [String: String]?, content: String? = nil) {
      self.createdAt = createdAt
      self.start = start
      self.end = end
      self.piece = piece
      self.attributes = attributes
      self.content = content
    }

    /// The run's characters: ``content`` when read, else read from `text` now (nil when `text`
    /// no longer holds them all, which the invariant above rules out).
    package func characters(in text: CRDTText?) -> String? {
      if let content { return content }
      return text?.content(ofInsertion: createdAt, from: start, to: end, hint: piece)
    }

    /// The restore span that revives (or recreates) the run, nil when its characters cannot be
    /// read (see ``characters(in:)``).
    package func restoreSpan(in text: CRDTText?) -> RestoreSpan? {
      guard let characters = characters(in: text) else { return nil }
      return RestoreSpan(createdAt: createdAt, start: start, end: end, content: characters, attributes: attributes ?? [:])
    }
  }

  /// A restyled run of characters by identity (offsets `start..<end` of the insertion
  /// `createdAt`) and the values the styled keys had on it. Its positions are found when it is
  /// undone (``Operation/reverseStyle(_:runs:text:)``): the pieces around it may be purged by then.
  package struct StyleRun: Sendable, Equatable {
    package var createdAt: TimeTicket
    package var start: Int32
    package var end: Int32
    package var previous: [String: String?]
  }

  /// An element's opening tag `from..<to` (positions by identity) and the values the styled
  /// keys had on it.
  package struct TreeStyleRun: Sendable, Equatable {
    package var from: CRDTTreePos
    package var to: CRDTTreePos
    package var previous: [String: String?]
  }
}
