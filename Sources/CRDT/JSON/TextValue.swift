/// A run of a text's content whose characters share the same attributes.
public struct TextSpan: Hashable, Sendable, CustomStringConvertible {
  /// The content of the run.
  public var text: String
  /// The run's live attributes, decoded from the JSON text Yorkie stores (`[:]` for plain text).
  public var attributes: [String: JSONValue]

  /// Creates a span.
  public init(_ text: String, attributes: [String: JSONValue] = [:]) {
    self.text = text
    self.attributes = attributes
  }

  /// The content as a JSON string, then the attributes with their keys sorted when there are
  /// any: `"Hello" {"bold":true}`.
  public var description: String {
    let content = JSONValue.string(text).jsonString
    return attributes.isEmpty ? content : content + " " + JSONValue.sortedJSON(attributes)
  }
}

/// A text read outside an update: its content as runs of equal attributes.
///
/// Read it with ``Document/text(atPath:)``, or with ``JSONValue/textValue`` from a value that
/// holds a text's JSON form. Neighbouring runs always differ in their attributes: the pieces a
/// text is stored in (one per insertion, split by edits) are merged.
///
/// ```swift
/// if let body = await doc.text(atPath: "$.body") {
///   for span in body.spans where span.attributes["bold"]?.bool == true { … }
///   print(body.string, body.length)
/// }
/// ```
public struct TextValue: Hashable, Sendable, CustomStringConvertible {
  /// The runs in order; empty for an empty text.
  public var spans: [TextSpan]

  /// Creates a text from runs, merging neighbours with equal attributes and dropping empty runs.
  public init(spans: [TextSpan]) {
    var merged: [TextSpan] = []
    for span in spans where !span.text.isEmpty {
      if let last = merged.last, last.attributes == span.attributes {
        merged[merged.count - 1].text += span.text
      } else {
        merged.append(span)
      }
    }
    self.spans = merged
  }

  /// The plain content.
  public var string: String { spans.map(\.text).joined() }

  /// The length in UTF-16 code units, the unit of every text offset.
  public var length: Int { spans.reduce(0) { $0 + $1.text.utf16.count } }

  /// The spans, comma-separated in brackets: `["Hi " {"bold":true}, "there"]`.
  public var description: String { "[" + spans.map(\.description).joined(separator: ", ") + "]" }
}

extension JSONValue {
  /// The value read as the JSON form of a text (`[{"val":"Hi","attrs":{"bold":true}}, …]`, what
  /// ``Document/value`` holds for a text), or nil when it does not have that form.
  ///
  /// The form is not unique to texts: an array of objects with a string `"val"` member (and
  /// optionally an object `"attrs"` member, and nothing else) reads as a text too, and so does
  /// the empty array. ``Document/text(atPath:)`` knows which elements are texts.
  public var textValue: TextValue? {
    guard case .array(let elements) = self else { return nil }
    var spans: [TextSpan] = []
    spans.reserveCapacity(elements.count)
    for element in elements {
      guard case .object(let node) = element, case .string(let content)? = node["val"] else { return nil }
      var attributes: [String: JSONValue] = [:]
      switch node["attrs"] {
      case nil: guard node.count == 1 else { return nil }
      case .object(let attrs)?:
        guard node.count == 2 else { return nil }
        for member in attrs { attributes[member.key] = member.value }
      case _?: return nil
      }
      spans.append(TextSpan(content, attributes: attributes))
    }
    return TextValue(spans: spans)
  }
}
