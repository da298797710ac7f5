/// Style: sets or removes attributes over a range of a text (Yorkie's `StyleOperation`).
extension Operation {
  @inline(__always)
  static func executeStyle(on parent: CRDTElement, from: TextPosition, to: TextPosition, attributes: [String: String],
                           attributesToRemove: [String], executedAt: TimeTicket,
                           root: CRDTRoot, journal: Journal, mode: ExecutionMode) throws(YorkieError) -> [OperationInfo] {
    guard case .text(let text) = parent.kind else { throw mismatch("Style", parent, expected: "a text") }
    let tally = text.sizeTally
    let result = try text.style(from: from, to: to, attributes: attributes, attributesToRemove: attributesToRemove,
                                editedAt: executedAt, versionVector: mode.authorVector, journal: journal)
    root.charge(text.sizeTally - tally, in: text, journal: journal)
    registerSplitGarbage(of: text, in: root, journal: journal)
    registerStyleGarbage(result, of: text, in: root, journal: journal)
    guard mode.describes, let path = root.path(of: text.createdAt) else { return [] }
    return [OperationInfo(type: .style, path: path, from: result.fromIndex, to: result.toIndex,
                          attributes: OperationInfo.decode(attributes), attributesToRemove: attributesToRemove)]
  }

  /// Registers the attribute tombstones a restyle made as garbage, and drops those it replaced.
  static func registerStyleGarbage(_ result: CRDTText.StyleResult, of text: CRDTText, in root: CRDTRoot, journal: Journal) {
    for tombstone in result.tombstones {
      let child = CRDTRoot.GCChild.textAttribute(text.id(of: tombstone.piece), tombstone.key)
      register(CRDTRoot.GCPair(parent: text, child: child, removedAt: tombstone.removedAt, handle: tombstone.piece), in: root, journal: journal)
    }
    for (id, name, _) in result.revived {
      let key = CRDTRoot.GCPairKey(parent: text.createdAt, child: .textAttribute(id, name))
      if let previous = root.gcPair(key) {
        journal.append(.root(.restoreGCPair(previous)))
        root.unregisterGCPair(key)
      }
    }
  }
}
