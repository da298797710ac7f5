/// A node of a ``JSONTree`` as an app builds and reads it: what `setNewTree` and `edit` take and
/// what ``JSONTree/root`` returns (Yorkie's `TreeNode` in the JS SDK, `ElementNode`/`TextNode`).
///
/// An element has a type (`"p"`, `"heading"`), attributes and children; text is a string
/// counted in UTF-16 code units. Attribute values are any ``JSONValue``; Yorkie stores them
/// JSON-encoded.
public indirect enum TreeNode: Hashable, Sendable {
  /// A text leaf.
  case text(String)
  /// An element with its type, attributes and children.
  case element(String, attributes: [String: JSONValue] = [:], children: [TreeNode] = [])
}
