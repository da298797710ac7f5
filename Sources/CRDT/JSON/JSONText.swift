/// A text in a document, as seen inside ``Document/update(message:_:)``.
///
/// Offsets are UTF-16 code units, as in every Yorkie SDK (`"🌷".utf16.count == 2`). A range
/// outside the text, a reversed range, or an offset that falls between the two halves of a
/// surrogate pair throws ``YorkieError`` with code `indexOutOfBounds` and changes nothing.
/// Attribute values are stored as JSON, as the JS SDK stores them.
public final class JSONText {
  let context: UpdateContext
  private let target: ProxyTarget<CRDTText>

  init(context: UpdateContext, text: CRDTText) {
    self.context = context
    self.target = .element(text)
  }

  init(context: UpdateContext, target: ProxyTarget<CRDTText>) {
    self.context = context
    self.target = target
  }

  /// The text this proxy edits while it is usable (tests inspect its internals).
  package var element: CRDTText? { target.readable(context) }

  /// The length in UTF-16 code units (0 once the update returned, or for the text of a
  /// rejected setter).
  public var length: Int { target.readable(context)?.length ?? 0 }

  /// The plain content ("" once the update returned, or for the text of a rejected setter).
  public var string: String { target.readable(context)?.string ?? "" }

  /// Replaces `from..<to` with `content`, styled with `attributes` when given.
  ///
  /// - Returns: the caret after the edit, as an index range (both ends equal).
  @discardableResult
  public func edit(_ from: Int, _ to: Int, _ content: String, attributes: [String: JSONValue]? = nil) throws -> (Int, Int) {
    let text = try target.editable(context)
    let (fromPosition, toPosition) = try positions(from, to, in: text)
    let encoded = try attributes.map { try JSONText.encode($0) }
    let lengthBefore = text.length
    try context.pushEdit(text, from: fromPosition, to: toPosition, range: (from, to), content: content, attributes: encoded)
    // The caret follows the inserted units: what the length gained plus what was removed.
    let caret = to + (text.length - lengthBefore)
    return (caret, caret)
  }

  /// Deletes `from..<to`.
  public func delete(_ from: Int, _ to: Int) throws {
    try edit(from, to, "")
  }

  /// Sets `attributes` on `from..<to`.
  public func setStyle(_ from: Int, _ to: Int, _ attributes: [String: JSONValue]) throws {
    let text = try target.editable(context)
    let (fromPosition, toPosition) = try positions(from, to, in: text)
    let encoded = try JSONText.encode(attributes)
    let ticket = context.issueTicket()
    try context.push(.style(parentCreatedAt: text.createdAt, from: fromPosition, to: toPosition, attributes: encoded,
                            attributesToRemove: [], executedAt: ticket), target: text)
  }

  /// Removes the attributes named `keys` from `from..<to`.
  public func removeStyle(_ from: Int, _ to: Int, keys: [String]) throws {
    let text = try target.editable(context)
    let (fromPosition, toPosition) = try positions(from, to, in: text)
    let ticket = context.issueTicket()
    try context.push(.style(parentCreatedAt: text.createdAt, from: fromPosition, to: toPosition, attributes: [:],
                            attributesToRemove: keys, executedAt: ticket), target: text)
  }

  /// Converts an index range into positions that stay attached to the same characters while
  /// others edit the text (for shared cursors and selections).
  public func indexRangeToPosRange(_ range: (Int, Int)) throws -> (TextPosition, TextPosition) {
    let text = try target.editable(context)
    return try positions(range.0, range.1, in: text)
  }

  /// Converts positions back into the current index range.
  public func posRangeToIndexRange(_ range: (TextPosition, TextPosition)) throws -> (Int, Int) {
    let text = try target.editable(context)
    guard let from = text.index(of: range.0, preferLeft: false) else {
      throw YorkieError(.elementNotFound, "the text has no position \(range.0)")
    }
    if range.0 == range.1 { return (from, from) }
    guard let to = text.index(of: range.1, preferLeft: true) else {
      throw YorkieError(.elementNotFound, "the text has no position \(range.1)")
    }
    return (from, to)
  }

  /// The text as JSON: `[{"val":"H"},{"attrs":{"bold":true},"val":"ello"}]`.
  public func toJSON() -> String { target.readable(context)?.toJSON() ?? "[]" }

  // MARK: Internals

  private func positions(_ from: Int, _ to: Int, in text: CRDTText) throws(YorkieError) -> (TextPosition, TextPosition) {
    let length = text.length
    guard from <= to else {
      throw YorkieError(.indexOutOfBounds, "the range \(from)..<\(to) is reversed: its start must not be after its end")
    }
    guard from >= 0, to <= length else {
      throw YorkieError(.indexOutOfBounds, "the range \(from)..<\(to) is outside a text of length \(length)")
    }
    try checkNotInsideSurrogatePair(from, in: text)
    try checkNotInsideSurrogatePair(to, in: text)
    guard let fromPosition = text.position(at: from) else {
      throw YorkieError(.indexOutOfBounds, "the text has no index \(from)")
    }
    if from == to { return (fromPosition, fromPosition) }
    guard let toPosition = text.position(at: to) else {
      throw YorkieError(.indexOutOfBounds, "the text has no index \(to)")
    }
    return (fromPosition, toPosition)
  }

  private func checkNotInsideSurrogatePair(_ offset: Int, in text: CRDTText) throws(YorkieError) {
    guard text.mayHoldSurrogates, offset > 0, offset < text.length, let unit = text.unit(at: offset), UTF16.isTrailSurrogate(unit),
      let previous = text.unit(at: offset - 1), UTF16.isLeadSurrogate(previous)
    else { return }
    throw YorkieError(.indexOutOfBounds, "the offset \(offset) falls inside a surrogate pair")
  }

  static func encode(_ attributes: [String: JSONValue]) throws(YorkieError) -> [String: String] {
    var encoded: [String: String] = [:]
    for (key, value) in attributes {
      try UpdateContext.validate(value)
      encoded[key] = value.jsonString
    }
    return encoded
  }
}
