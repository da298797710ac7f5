/// How a tree changed, as one content change: what an event says when an operation arrived
/// before operations this replica had already applied (see `CRDTTree+Ordering.swift`). Undoing
/// them, applying it and applying them again is not one edit an editor could replay, so the
/// event describes the net change instead: the smallest run of children (or of characters of
/// one text) that differs, replaced by what is there now.
extension CRDTTree {
  /// The change from `before` to `after` (both the root's live content), nil when equal.
  ///
  /// Walks down while exactly one child differs and it is the same element on both sides (type
  /// and attributes); then reports the differing run there, as a replacement of characters when
  /// it is one text on both sides.
  static func difference(from before: TreeNode, to after: TreeNode, actor: ActorID) -> TreeChange? {
    let before = normalized(before)
    let after = normalized(after)
    guard before != after else { return nil }
    var old = children(before)
    var new = children(after)
    var base = 0  // the index where the current element's content starts
    var path: [Int] = []
    while true {
      var prefix = 0
      while prefix < min(old.count, new.count) && old[prefix] == new[prefix] { prefix += 1 }
      var suffix = 0
      while suffix < min(old.count, new.count) - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
      let start = base + old[..<prefix].reduce(0) { $0 + size($1) }
      if old.count - prefix - suffix == 1 && new.count - prefix - suffix == 1 {
        switch (old[prefix], new[prefix]) {
        case (.element(let oldType, let oldAttributes, let oldChildren), .element(let newType, let newAttributes, let newChildren))
        where oldType == newType && oldAttributes == newAttributes:
          base = start + 1
          path.append(prefix)
          old = oldChildren
          new = newChildren
          continue
        case (.text(let oldText), .text(let newText)):
          return textChange(oldText, newText, at: start, path: path + [prefix], actor: actor)
        default: break
        }
      }
      let removed = old[prefix..<(old.count - suffix)].reduce(0) { $0 + size($1) }
      let inserted = Array(new[prefix..<(new.count - suffix)])
      return TreeChange(kind: .content, actor: actor, from: start, to: start + removed, fromPath: path + [prefix],
                        toPath: path + [old.count - suffix], contents: inserted.isEmpty ? nil : inserted, splitLevel: 0)
    }
  }

  /// A replacement of the characters between the common prefix and suffix of two texts.
  private static func textChange(_ old: String, _ new: String, at start: Int, path: [Int], actor: ActorID) -> TreeChange {
    let oldUnits = Array(old.utf16)
    let newUnits = Array(new.utf16)
    var prefix = 0
    while prefix < min(oldUnits.count, newUnits.count) && oldUnits[prefix] == newUnits[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(oldUnits.count, newUnits.count) - prefix
      && oldUnits[oldUnits.count - 1 - suffix] == newUnits[newUnits.count - 1 - suffix] { suffix += 1 }
    // Whole characters only: a cut inside a surrogate pair moves out to the pair's start or end.
    // (The units on either side of a common run are the same in both texts.)
    while prefix > 0 && UTF16.isLeadSurrogate(oldUnits[prefix - 1]) { prefix -= 1 }
    while suffix > 0 && UTF16.isTrailSurrogate(oldUnits[oldUnits.count - suffix]) { suffix -= 1 }
    let middle = String(decoding: newUnits[prefix..<(newUnits.count - suffix)], as: UTF16.self)
    return TreeChange(kind: .content, actor: actor, from: start + prefix, to: start + oldUnits.count - suffix,
                      fromPath: path + [prefix], toPath: path + [oldUnits.count - suffix],
                      contents: middle.isEmpty ? nil : [.text(middle)], splitLevel: 0)
  }

  private static func children(_ node: TreeNode) -> [TreeNode] {
    guard case .element(_, _, let children) = node else { return [node] }
    return children
  }

  /// The node with adjacent texts joined at every level (pieces are how a tree stores text,
  /// not content).
  private static func normalized(_ node: TreeNode) -> TreeNode {
    guard case .element(let type, let attributes, let children) = node else { return node }
    var result: [TreeNode] = []
    result.reserveCapacity(children.count)
    for child in children.map(normalized) {
      if case .text(let value) = child, case .text(let previous)? = result.last {
        result[result.count - 1] = .text(previous + value)
      } else {
        result.append(child)
      }
    }
    return .element(type, attributes: attributes, children: result)
  }

  /// A node's size in tree indexes (an element counts its two tags).
  private static func size(_ node: TreeNode) -> Int {
    switch node {
    case .text(let value): return value.utf16.count
    case .element(_, _, let children): return 2 + children.reduce(0) { $0 + size($1) }
    }
  }
}
