import CRDT
import Foundation

/// A caret or a selection in a document's text, kept as ``TextPosition``s: it stays between
/// the same characters while peers edit the text (an offset kept across a remote insertion
/// before it would point into someone else's word).
///
/// A text view works in UTF-16 offsets (`NSRange`) or `String.Index`es; convert at the edges:
///
/// ```swift
/// var caret = try await doc.selection(inTextAt: "$.note", utf16: 5..<5)  // the user tapped
/// // … remote edits arrive …
/// let range = try await doc.utf16Range(of: caret, inTextAt: "$.note")   // where it is now
/// let indexes = TextSelection.stringRange(range, in: noteString)        // for a String
/// ```
public struct TextSelection: Hashable, Sendable {
  /// Where the selection starts: the caret, when the selection is empty.
  public var start: TextPosition
  /// Where the selection ends.
  public var end: TextPosition

  /// A selection between two positions.
  public init(start: TextPosition, end: TextPosition) {
    self.start = start
    self.end = end
  }

  /// Whether the selection is a caret (empty).
  public var isCaret: Bool { start == end }

  /// The `String.Index` range of a UTF-16 range in `string`; nil when the range is outside the
  /// string or a bound falls inside a surrogate pair (between the halves of an emoji).
  public static func stringRange(_ range: Range<Int>, in string: String) -> Range<String.Index>? {
    guard let lower = index(utf16Offset: range.lowerBound, in: string),
      let upper = index(utf16Offset: range.upperBound, in: string)
    else { return nil }
    return lower..<upper
  }

  /// The UTF-16 range of a `String.Index` range of `string` (what a document's text counts).
  public static func utf16Range(_ range: Range<String.Index>, in string: String) -> Range<Int> {
    range.lowerBound.utf16Offset(in: string)..<range.upperBound.utf16Offset(in: string)
  }

  private static func index(utf16Offset offset: Int, in string: String) -> String.Index? {
    let utf16 = string.utf16
    guard offset >= 0, let index = utf16.index(utf16.startIndex, offsetBy: offset, limitedBy: utf16.endIndex) else { return nil }
    // Only on a scalar boundary: an index between a surrogate pair's halves names no character.
    return index.samePosition(in: string.unicodeScalars)
  }
}

extension Document {
  /// The selection of the text at `path` that covers the UTF-16 range `range` now. Reads only:
  /// no change is recorded, and it works while detached.
  ///
  /// - Throws: ``YorkieError`` `typeMismatch` when there is no text at `path`,
  ///   `indexOutOfBounds` for a range outside it, `invalidPath` for a malformed path.
  public func selection(inTextAt path: String, utf16 range: Range<Int>) throws -> TextSelection {
    let text = try self.text(at: path)
    guard range.lowerBound >= 0, range.upperBound <= text.length,
      let start = text.position(at: range.lowerBound), let end = text.position(at: range.upperBound)
    else {
      throw YorkieError(.indexOutOfBounds, "\(range) is outside the text at \(path), of length \(text.length)")
    }
    return TextSelection(start: start, end: end)
  }

  /// Where `selection` is now in the text at `path`, in UTF-16 offsets: after peers' edits, the
  /// same characters' place. A selection whose characters were all deleted collapses to a caret
  /// where they were.
  ///
  /// - Throws: ``YorkieError`` `typeMismatch` when there is no text at `path`,
  ///   `elementNotFound` for positions of another text, `invalidPath` for a malformed path.
  public func utf16Range(of selection: TextSelection, inTextAt path: String) throws -> Range<Int> {
    let text = try self.text(at: path)
    guard let start = text.index(of: selection.start, preferLeft: false) else {
      throw YorkieError(.elementNotFound, "the text at \(path) has no position \(selection.start)")
    }
    if selection.isCaret { return start..<start }
    guard let end = text.index(of: selection.end, preferLeft: true) else {
      throw YorkieError(.elementNotFound, "the text at \(path) has no position \(selection.end)")
    }
    return start..<max(start, end)
  }

  private func text(at path: String) throws -> CRDTText {
    guard case .text(let text)? = try root.object.descendant(atPath: path)?.kind else {
      throw YorkieError(.typeMismatch, "there is no text at \(path)")
    }
    return text
  }
}
