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
          // A position in text is named by its element's path and the offset in the element's
          // content, what comes before the text included (as `CRDTTree.path(of:)` names it).
          return textChange(oldText, newText, at: start, path: path, contentOffset: start - base, actor: actor)
        default: break
        }
      }
      let removed = old[prefix..<(old.count - suffix)].reduce(0) { $0 + size($1) }
      let inserted = Array(new[prefix..<(new.count - suffix)])
      return TreeChange(kind: .content, actor: actor, from: start, to: start + removed, fromPath: path + [prefix],
                        toPath: path + [old.count - suffix], contents: inserted.isEmpty ? nil : inserted, splitLevel: 0)
    }
  }

  /// A pure insertion of whole nodes told node by node, parents first, as Yorkie's JS SDK reports
  /// what a restore brought back (history_tree_opinfo_test.ts, "reports a restored subtree parent
  /// first, then its children"): each element as an empty element, then its children inside it.
  /// Applied in order, the changes build the same tree. Any other change stays as it is.
  static func parentsFirst(_ change: TreeChange) -> [TreeChange] {
    guard change.kind == .content, change.from == change.to, change.splitLevel == 0, let contents = change.contents,
      contents.contains(where: { if case .element(_, _, let children) = $0 { return !children.isEmpty } else { return false } }),
      let last = change.fromPath.last
    else { return [change] }
    var changes: [TreeChange] = []
    var index = change.from
    var component = last
    for node in contents {
      reveal(node, at: index, path: Array(change.fromPath.dropLast()) + [component], actor: change.actor, into: &changes)
      index += size(node)
      // Siblings after an element are named by child index; after text, by content offset
      // (the same rule `CRDTTree.path(of:)` follows for the place they land at).
      if case .text(let value) = node { component += value.utf16.count } else { component += 1 }
    }
    return changes
  }

  /// Appends the changes that insert `node` at tree index `index`, named by `path`: the node
  /// itself (an element without its children), then each child inside it.
  private static func reveal(_ node: TreeNode, at index: Int, path: [Int], actor: ActorID, into changes: inout [TreeChange]) {
    guard case .element(let type, let attributes, let children) = node else {
      changes.append(TreeChange(kind: .content, actor: actor, from: index, to: index, fromPath: path, toPath: path,
                                contents: [node], splitLevel: 0))
      return
    }
    let empty = TreeNode.element(type, attributes: attributes, children: [])
    changes.append(TreeChange(kind: .content, actor: actor, from: index, to: index, fromPath: path, toPath: path,
                              contents: [empty], splitLevel: 0))
    var childIndex = index + 1
    var onlyText = true  // whether every child placed so far is text (then offsets name places)
    var textUnits = 0
    for (position, child) in children.enumerated() {
      reveal(child, at: childIndex, path: path + [onlyText ? textUnits : position], actor: actor, into: &changes)
      childIndex += size(child)
      if case .text(let value) = child { textUnits += value.utf16.count } else { onlyText = false }
    }
  }

  /// A replacement of the characters between the common prefix and suffix of two texts; the
  /// text starts at index `start` of the tree, `contentOffset` units into the content of the
  /// element at `path`.
  private static func textChange(_ old: String, _ new: String, at start: Int, path: [Int], contentOffset: Int,
                                 actor: ActorID) -> TreeChange {
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
                      fromPath: path + [contentOffset + prefix], toPath: path + [contentOffset + oldUnits.count - suffix],
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
