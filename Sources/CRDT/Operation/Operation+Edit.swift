/// Edit: replaces a range of a text (Yorkie's `EditOperation`).
extension Operation {
  @inline(__always)
  static func executeEdit(on parent: CRDTElement, _ edit: TextEdit,
                          root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .text(let text) = parent.kind else { throw mismatch("Edit", parent, expected: "a text") }
    return try applyEdit(text, from: edit.from, to: edit.to, content: edit.content, attributes: edit.attributes,
                         executedAt: edit.executedAt, knownRange: nil, root: root, journal: journal, mode: mode).infos
  }

  /// What ``applyEdit(_:from:to:content:attributes:executedAt:knownRange:root:journal:mode:)``
  /// did: the operation infos, and the one piece it removed, when a local edit removed exactly
  /// one plain piece (``CRDTText/EditResult/soleRemovedPiece``).
  struct AppliedEdit {
    var infos: [OperationInfo]
    var soleRemovedPiece: Int32?
  }

  /// Replaces `from..<to` of `text` with `content`. `knownRange` is the visible index range
  /// the positions name, when the caller (a local edit) has it.
  @inline(__always)
  static func applyEdit(_ text: CRDTText, from: TextPosition, to: TextPosition, content: String, attributes: [String: String]?,
                        executedAt: TimeTicket, knownRange: (Int, Int)?,
                        root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> AppliedEdit {
    let tally = text.sizeTally
    let result = try text.edit(from: from, to: to, content: content, attributes: attributes, editedAt: executedAt,
                               mode: mode, journal: journal, knownRange: knownRange)
    root.charge(text.sizeTally - tally, in: text, journal: journal)
    if !text.splitGarbage.isEmpty { registerSplitGarbage(of: text, in: root, journal: journal) }
    if result.removedCount > 0 { root.noteTextGarbage(text) }
    guard mode.describes, let path = root.path(of: text.createdAt) else {
      return AppliedEdit(infos: [], soleRemovedPiece: result.soleRemovedPiece)
    }
    return AppliedEdit(infos: [OperationInfo(type: .edit, path: path, from: result.fromIndex, to: result.toIndex, value: .string(content),
                                             attributes: attributes.map(OperationInfo.decode))],
                       soleRemovedPiece: result.soleRemovedPiece)
  }
}
