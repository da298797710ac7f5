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

extension TreeNode: CustomStringConvertible {
  /// The node as Yorkie's XML: `<p align="left">ab</p>`, text verbatim; attributes sorted by
  /// key, a string value as it is, any other value as its JSON (`bold="true"`).
  public var description: String {
    var output = ""
    write(into: &output)
    return output
  }

  private func write(into output: inout String) {
    switch self {
    case .text(let value):
      output += value
    case .element(let type, let attributes, let children):
      output += "<" + type
      for key in attributes.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
        // The same rule as a tree's XML (CRDTTree.writeXML), on the value a style would store.
        if case .string(let text) = attributes[key]! {
          CRDTTree.writeXMLAttribute(key, string: text, into: &output)
        } else {
          CRDTTree.writeXMLAttribute(key, json: TreeJSON.stringify(attributes[key]!), into: &output)
        }
      }
      output += ">"
      for child in children { child.write(into: &output) }
      output += "</" + type + ">"
    }
  }
}
