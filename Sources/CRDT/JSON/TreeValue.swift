/// A tree read outside an update, with ``Document/tree(atPath:)``: its live nodes and Yorkie's
/// XML and JSON forms of it, taken together at the moment of the read.
///
/// ```swift
/// if let content = try await doc.tree(atPath: "$.content") {
///   print(content.xml)      // <doc><p>ab</p></doc>
///   print(content.size)     // 4
/// }
/// ```
public struct TreeValue: Hashable, Sendable, CustomStringConvertible {
  /// The live nodes, as ``JSONTree/root`` shows them.
  public var root: TreeNode
  /// Yorkie's XML of the tree.
  public var xml: String
  /// The root's content size in indexes (tags count 1 each, text its UTF-16 code units).
  public var size: Int
  /// Yorkie's JSON of the tree.
  private var json: String

  package init(_ tree: CRDTTree) {
    root = tree.rootTreeNode()
    xml = tree.toXML()
    size = tree.size
    json = tree.treeJSON()
  }

  /// Yorkie's JSON of the tree: `{"type":"doc","children":[…]}`.
  public func toJSON() -> String { json }

  /// The XML.
  public var description: String { xml }
}
