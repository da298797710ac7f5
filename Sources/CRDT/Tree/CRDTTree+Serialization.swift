/// Yorkie's tree JSON and XML, byte for byte as the JS SDK (the reference, see
/// yorkie-reference.md §2.9) prints them.
///
/// - JSON is `JSON.stringify({type, children, attributes})`: `attributes` appears when the
///   element has at least one live attribute, with the values parsed back from their JSON and
///   in the order their keys were first set (JS `Map` order). This is Go's rule; JS prints
///   `"attributes":{}` for an element whose every attribute was removed, which depends on
///   whether the removal tombstones were collected yet or the replica loaded a snapshot, so
///   two replicas holding the same content print differently. We print what the content
///   alone decides (see the Convergence article).
/// - XML: `<type attrs>children</type>`, live attributes sorted by key; a string value prints
///   as `key="value"` (unescaped), any other as `key="<escaped JSON>"`; text verbatim. JS sorts
///   with `localeCompare`, Go with byte order; we sort by Unicode scalar order (equal to Go's,
///   and to JS's for the ASCII keys editors use).
extension CRDTTree {
  /// The tree as Yorkie's tree JSON (``CRDTElement/toJSON()`` prints the same).
  package func treeJSON() -> String {
    var output = ""
    CRDTTree.writeJSON(root, into: &output)
    return output
  }

  /// The tree as Yorkie's XML.
  package func toXML() -> String {
    var output = ""
    CRDTTree.writeXML(root, into: &output)
    return output
  }

  /// The live nodes as the public ``TreeNode`` (Yorkie's `getRootTreeNode`).
  package func rootTreeNode() -> TreeNode { CRDTTree.treeNode(root) }

  /// A live node and its live descendants as a ``TreeNode``.
  package static func treeNode(_ node: CRDTTreeNode) -> TreeNode {
    if node.isText { return .text(node.value) }
    var attributes: [String: JSONValue] = [:]
    for entry in node.attributes?.live ?? [] { attributes[entry.key] = JSONValueParser.parse(entry.value) ?? .string(entry.value) }
    return .element(node.type, attributes: attributes, children: node.liveChildren.map(treeNode))
  }

  static func writeJSON(_ node: CRDTTreeNode, into output: inout String) {
    if node.isText {
      output += "{\"type\":"
      TreeJSON.writeString(node.type, into: &output)
      output += ",\"value\":"
      TreeJSON.writeString(node.value, into: &output)
      output += "}"
      return
    }
    output += "{\"type\":"
    TreeJSON.writeString(node.type, into: &output)
    output += ",\"children\":["
    var first = true
    var child = node.firstChild
    while let current = child {
      if !current.isRemoved {
        if !first { output += "," }
        first = false
        writeJSON(current, into: &output)
      }
      child = current.nextSibling
    }
    output += "]"
    if let attributes = node.attributes, attributes.entries.contains(where: { !$0.isRemoved }) {
      output += ",\"attributes\":{"
      var firstAttribute = true
      for entry in attributes.entries where !entry.isRemoved {
        if !firstAttribute { output += "," }
        firstAttribute = false
        TreeJSON.writeString(entry.key, into: &output)
        output += ":"
        // The stored JSON parsed and stringified again, as JSON.stringify of the parsed value.
        if let value = JSONValueParser.parse(entry.value) {
          TreeJSON.write(value, into: &output)
        } else {
          TreeJSON.writeString(entry.value, into: &output)
        }
      }
      output += "}"
    }
    output += "}"
  }

  static func writeXML(_ node: CRDTTreeNode, into output: inout String) {
    if node.isText {
      output += node.value
      return
    }
    output += "<" + node.type
    let live = (node.attributes?.live ?? []).sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
    for entry in live {
      if case .string(let text)? = JSONValueParser.parse(entry.value) {
        writeXMLAttribute(entry.key, string: text, into: &output)
      } else {
        writeXMLAttribute(entry.key, json: entry.value, into: &output)
      }
    }
    output += ">"
    var child = node.firstChild
    while let current = child {
      if !current.isRemoved { writeXML(current, into: &output) }
      child = current.nextSibling
    }
    output += "</" + node.type + ">"
  }
}

extension CRDTTree {
  /// ` key="value"`: a string attribute as it is.
  static func writeXMLAttribute(_ key: String, string: String, into output: inout String) {
    output += " " + key + "=\"" + string + "\""
  }

  /// ` key="<escaped JSON>"`: any other attribute as its JSON text, escaped as Yorkie's
  /// `escapeString` (`bold="true"`, `img="{\"src\":\"a.png\"}"`).
  static func writeXMLAttribute(_ key: String, json: String, into output: inout String) {
    var writer = JSONWriter()
    writer.string(json)
    // The escaped text without the quotes JSONWriter.string adds.
    output += " " + key + "=\"" + writer.output.dropFirst().dropLast() + "\""
  }
}

/// `JSON.stringify` as JavaScript writes it (it escapes differently from Yorkie's
/// `escapeString`: control characters as `\u00xx`, U+2028/U+2029 verbatim).
enum TreeJSON {
  /// A value as JSON text (how an attribute value is stored).
  static func stringify(_ value: JSONValue) -> String {
    var output = ""
    write(value, into: &output)
    return output
  }

  static func write(_ value: JSONValue, into output: inout String) {
    switch value {
    case .null: output += "null"
    case .bool(let b): output += b ? "true" : "false"
    case .integer(let i): output += String(i)
    case .long(let l): output += String(l)
    case .double(let d): output += d.isFinite ? JSONWriter.formatDouble(d) : "null"
    case .string(let s): writeString(s, into: &output)
    case .bytes(let data): writeString(data.base64EncodedString(), into: &output)
    case .date(let date):
      if (try? PrimitiveValue.milliseconds(date)) != nil { writeString(JSONWriter.formatDate(date), into: &output) } else { output += "null" }
    case .array(let items):
      output += "["
      for (index, item) in items.enumerated() {
        if index > 0 { output += "," }
        write(item, into: &output)
      }
      output += "]"
    case .object(let object):
      output += "{"
      for (index, member) in object.members.enumerated() {
        if index > 0 { output += "," }
        writeString(member.key, into: &output)
        output += ":"
        write(member.value, into: &output)
      }
      output += "}"
    }
  }

  static func writeString(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: output += "\\\""
      case 0x5C: output += "\\\\"
      case 0x0A: output += "\\n"
      case 0x0D: output += "\\r"
      case 0x0C: output += "\\f"
      case 0x08: output += "\\b"
      case 0x09: output += "\\t"
      case 0..<0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
