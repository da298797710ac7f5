@testable import CRDT

extension Document {
  /// `garbageLength` split into what the tree holds: removed elements (with everything below
  /// them), dead array positions, removed text pieces and removed text attributes of the
  /// texts still registered, and the rest (bookkeeping the tree does not show, such as the
  /// garbage of purged elements). For failure messages.
  package var garbageBreakdown: String {
    let (removed, deadPositions, removedPieces, removedAttributes) = garbageInTree
    let rest = root.garbageLength - removed - deadPositions - removedPieces - removedAttributes
    return "\(root.garbageLength) = \(removed) removed elements + \(deadPositions) dead positions + \(removedPieces) removed pieces + \(removedAttributes) removed attributes + \(rest) other"
  }

  /// The part of `garbageLength` that the tree itself holds (and a snapshot carries).
  package var garbageLengthInTree: Int {
    let (removed, deadPositions, removedPieces, removedAttributes) = garbageInTree
    return removed + deadPositions + removedPieces + removedAttributes
  }

  private var garbageInTree: (Int, Int, Int, Int) {
    var seen = Set<TimeTicket>()
    for entry in root.removed {
      seen.insert(entry.element.createdAt)
      entry.element.forEachDescendant { seen.insert($0.createdAt) }
    }
    var deadPositions = 0, removedPieces = 0, removedAttributes = 0
    root.forEachContainer { element in
      if let array = element as? CRDTArray { deadPositions += array.deadPositions.count }
      if let text = element as? CRDTText {
        var handle = text.nodes[Int(CRDTText.head)].next
        while handle >= 0 {
          let node = text.nodes[Int(handle)]
          if node.isRemoved { removedPieces += 1 }
          if node.attributes >= 0 {
            removedAttributes += text.attributeSets[Int(node.attributes)].entries.filter(\.isRemoved).count
          }
          handle = node.next
        }
      }
    }
    return (seen.count, deadPositions, removedPieces, removedAttributes)
  }
}
