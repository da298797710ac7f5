/// A tree in a document, as seen inside ``Document/update(message:_:)``: Yorkie's `Tree`, the
/// structure behind block and rich-text editors.
///
/// Indexes count an element's opening and closing tags (1 each) and a text's UTF-16 code units;
/// index 0 is before the root's first child. A path names a node by child indexes from the
/// root, then an offset inside a text (`[0, 1]`: the second unit of the first paragraph's text).
///
/// ```swift
/// try await doc.update { root, _ in
///   let tree = root.setNewTree("content", .element("doc", children: [.element("p", children: [.text("ab")])]))
///   try tree.edit(1, 1, [.text("X")])       // <doc><p>Xab</p></doc>
///   try tree.edit(2, 2, splitLevel: 1)      // <doc><p>X</p><p>ab</p></doc>
/// }
/// ```
///
/// Invalid input throws ``YorkieError`` and changes nothing: an index or path outside the tree
/// (`indexOutOfBounds`, `invalidPath`), a range whose start is after its end
/// (`invalidTreeRange`), contents mixing text and elements or holding an empty text
/// (`invalidTreeContent`), a negative split level or one deeper than the position
/// (`invalidSplitLevel`).
public final class JSONTree {
  let context: UpdateContext
  private let target: ProxyTarget<CRDTTree>

  init(context: UpdateContext, tree: CRDTTree) {
    self.context = context
    self.target = .element(tree)
  }

  init(context: UpdateContext, target: ProxyTarget<CRDTTree>) {
    self.context = context
    self.target = target
  }

  /// The tree this proxy edits while it is usable (tests inspect its internals).
  package var element: CRDTTree? { target.readable(context) }

  /// The root's content size in indexes (0 once the update returned).
  public var size: Int { target.readable(context)?.size ?? 0 }

  /// The tree as Yorkie's XML: `<doc><p bold="true">ab</p></doc>` ("" once the update returned).
  public var xml: String { target.readable(context)?.toXML() ?? "" }

  /// The tree as Yorkie's JSON: `{"type":"doc","children":[…]}` ("" once the update returned).
  public func toJSON() -> String { target.readable(context)?.treeJSON() ?? "" }

  /// The live nodes as Yorkie's `getRootTreeNode` shows them: text from separate edits stays
  /// separate (`.text("a"), .text("b")`). An empty root element once the update returned.
  public var root: TreeNode { target.readable(context)?.rootTreeNode() ?? .element("root") }

  // MARK: Editing

  /// Replaces `from..<to` with `contents`, after splitting `splitLevel` element levels at
  /// `from`. With no contents and `from < to` it deletes; deleting across an element boundary
  /// merges the elements (`<p>a|b</p><p>c|d</p>` → `<p>ad</p>`).
  ///
  /// Contents are all text or all elements (texts are joined into one text node), and the
  /// children of each element content are all text or all elements too, as Yorkie requires.
  public func edit(_ from: Int, _ to: Int, _ contents: [TreeNode] = [], splitLevel: Int = 0) throws {
    let tree = try target.editable(context)
    guard from <= to else {
      throw YorkieError(.invalidTreeRange, "the tree range \(from)..<\(to) is reversed: its start must not be after its end")
    }
    let (fromPos, toPos) = try tree.indexRangeToPosRange(from, to)
    try pushEdit(tree, fromPos, toPos, contents, splitLevel: splitLevel)
  }

  /// ``edit(_:_:_:splitLevel:)`` with paths: both the same length, at least one step.
  public func editByPath(_ from: [Int], _ to: [Int], _ contents: [TreeNode] = [], splitLevel: Int = 0) throws {
    let tree = try target.editable(context)
    try JSONTree.checkPaths(from, to)
    let fromPos = try tree.pathToPos(from)
    let toPos = from == to ? fromPos : try tree.pathToPos(to)
    try pushEdit(tree, fromPos, toPos, contents, splitLevel: splitLevel)
  }

  /// Sets `attributes` on the elements whose opening or closing tag lies in `from..<to`.
  public func style(_ from: Int, _ to: Int, _ attributes: [String: JSONValue]) throws {
    let tree = try target.editable(context)
    let (fromPos, toPos) = try positions(tree, from, to)
    try pushStyle(tree, fromPos, toPos, attributes: attributes)
  }

  /// Sets `attributes` on the element at `path` (Yorkie's one-path `styleByPath`).
  public func styleByPath(_ path: [Int], _ attributes: [String: JSONValue]) throws {
    let tree = try target.editable(context)
    guard !path.isEmpty else { throw YorkieError(.invalidPath, "a tree path has at least one step") }
    let index = try tree.pathToIndex(path)
    let (fromPos, toPos) = try positions(tree, index, index + 1)
    try pushStyle(tree, fromPos, toPos, attributes: attributes)
  }

  /// Sets `attributes` on the elements between two paths.
  public func styleByPath(_ from: [Int], _ to: [Int], _ attributes: [String: JSONValue]) throws {
    let tree = try target.editable(context)
    try JSONTree.checkPaths(from, to)
    let (fromPos, toPos) = try positions(tree, try tree.pathToIndex(from), try tree.pathToIndex(to))
    try pushStyle(tree, fromPos, toPos, attributes: attributes)
  }

  /// Removes the attributes named `keys` from the elements whose tags lie in `from..<to`.
  public func removeStyle(_ from: Int, _ to: Int, keys: [String]) throws {
    let tree = try target.editable(context)
    let (fromPos, toPos) = try positions(tree, from, to)
    try pushRemoveStyle(tree, fromPos, toPos, keys: keys)
  }

  /// ``removeStyle(_:_:keys:)`` between two paths.
  public func removeStyleByPath(_ from: [Int], _ to: [Int], keys: [String]) throws {
    let tree = try target.editable(context)
    try JSONTree.checkPaths(from, to)
    let (fromPos, toPos) = try positions(tree, try tree.pathToIndex(from), try tree.pathToIndex(to))
    try pushRemoveStyle(tree, fromPos, toPos, keys: keys)
  }

  // MARK: Conversions

  /// The index of a path.
  public func pathToIndex(_ path: [Int]) throws -> Int {
    try target.editable(context).pathToIndex(path)
  }

  /// The path of an index.
  public func indexToPath(_ index: Int) throws -> [Int] {
    try target.editable(context).indexToPath(index)
  }

  /// Positions that stay attached to the same places while others edit the tree (for shared
  /// cursors and selections; a ``TreePosition`` is `Codable`, so it can travel in presence).
  public func indexRangeToPosRange(_ range: (Int, Int)) throws -> (TreePosition, TreePosition) {
    let tree = try target.editable(context)
    let (from, to) = try positions(tree, range.0, range.1)
    return (TreePosition(from), TreePosition(to))
  }

  /// The current index range of two positions.
  public func posRangeToIndexRange(_ range: (TreePosition, TreePosition)) throws -> (Int, Int) {
    try target.editable(context).posRangeToIndexRange(range.0.pos, range.1.pos)
  }

  /// Positions for a path range.
  public func pathRangeToPosRange(_ range: ([Int], [Int])) throws -> (TreePosition, TreePosition) {
    let (from, to) = try target.editable(context).pathRangeToPosRange(range.0, range.1)
    return (TreePosition(from), TreePosition(to))
  }

  /// The current path range of two positions.
  public func posRangeToPathRange(_ range: (TreePosition, TreePosition)) throws -> ([Int], [Int]) {
    try target.editable(context).posRangeToPathRange(range.0.pos, range.1.pos)
  }

  // MARK: Internals

  private func positions(_ tree: CRDTTree, _ from: Int, _ to: Int) throws(YorkieError) -> (CRDTTreePos, CRDTTreePos) {
    guard from <= to else {
      throw YorkieError(.invalidTreeRange, "the tree range \(from)..<\(to) is reversed: its start must not be after its end")
    }
    return try tree.indexRangeToPosRange(from, to)
  }

  private static func checkPaths(_ from: [Int], _ to: [Int]) throws(YorkieError) {
    guard !from.isEmpty, !to.isEmpty else { throw YorkieError(.invalidPath, "a tree path has at least one step") }
    guard from.count == to.count else {
      throw YorkieError(.invalidPath, "the tree paths \(from) and \(to) must have the same length")
    }
  }

  /// Builds the contents and the TreeEdit as Yorkie's Go SDK does: one ticket for the edit,
  /// which the first inserted node takes (texts are joined into that one node); each further
  /// node a ticket of its own, parents before children; the edit executed at the last ticket
  /// issued so far; then one ticket per split level, in order.
  private func pushEdit(_ tree: CRDTTree, _ from: CRDTTreePos, _ to: CRDTTreePos, _ contents: [TreeNode],
                        splitLevel: Int) throws(YorkieError) {
    guard splitLevel >= 0 else { throw YorkieError(.invalidSplitLevel, "a split level cannot be negative (\(splitLevel))") }
    try JSONTree.validate(contents)
    let first = context.issueTicket()
    var last = first
    var firstTaken = false
    let issue: () -> TimeTicket = { [context] in
      if !firstTaken {
        firstTaken = true
        return first
      }
      last = context.issueTicket()
      return last
    }
    var records: [[TreeNodeRecord]] = []
    if case .text? = contents.first {
      let joined = contents.reduce(into: "") { text, node in if case .text(let value) = node { text += value } }
      records.append([TreeNodeRecord(id: TreeNodeID(createdAt: issue()), type: TreeNodeRecord.textType, value: joined)])
    } else {
      for content in contents { records.append(CRDTTree.records(of: try CRDTTree.buildSubtree(content, issue: issue))) }
    }
    let executedAt = last
    let splitTickets = (0..<splitLevel).map { _ in context.issueTicket() }
    let edit = TreeEditPayload(parentCreatedAt: tree.createdAt, from: from, to: to, contents: records,
                               splitLevel: Int32(splitLevel), executedAt: executedAt, splitTickets: splitTickets)
    try context.push(.treeEdit(edit), target: tree)
  }

  private func pushStyle(_ tree: CRDTTree, _ from: CRDTTreePos, _ to: CRDTTreePos,
                         attributes: [String: JSONValue]) throws(YorkieError) {
    var encoded: [String: String] = [:]
    for (key, value) in attributes {
      try UpdateContext.validate(value)
      encoded[key] = TreeJSON.stringify(value)
    }
    let style = TreeStylePayload(parentCreatedAt: tree.createdAt, from: from, to: to, attributes: encoded,
                                 executedAt: context.issueTicket())
    try context.push(.treeStyle(style), target: tree)
  }

  private func pushRemoveStyle(_ tree: CRDTTree, _ from: CRDTTreePos, _ to: CRDTTreePos, keys: [String]) throws(YorkieError) {
    let style = TreeStylePayload(parentCreatedAt: tree.createdAt, from: from, to: to, attributesToRemove: keys,
                                 executedAt: context.issueTicket())
    try context.push(.treeStyle(style), target: tree)
  }

  /// Yorkie's rule for what one edit inserts: all text or all elements, no empty text, and the
  /// children of each element content all text or all elements too.
  static func validate(_ contents: [TreeNode]) throws(YorkieError) {
    try validateSiblings(contents)
    for case .element(_, _, let children) in contents { try validateSiblings(children) }
  }

  private static func validateSiblings(_ nodes: [TreeNode]) throws(YorkieError) {
    guard let first = nodes.first else { return }
    let textFirst: Bool
    if case .text = first { textFirst = true } else { textFirst = false }
    for node in nodes {
      switch node {
      case .text(let value):
        guard textFirst else { throw YorkieError(.invalidTreeContent, "element and text nodes cannot be inserted together") }
        guard !value.isEmpty else { throw YorkieError(.invalidTreeContent, "a text node cannot be empty") }
      case .element:
        guard !textFirst else { throw YorkieError(.invalidTreeContent, "element and text nodes cannot be inserted together") }
      }
    }
  }
}
