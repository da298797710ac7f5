extension CRDTText {
  /// The visible content as runs of equal live attributes (see ``TextValue``).
  package var textValue: TextValue {
    var spans: [TextSpan] = []
    for piece in pieces where !isRemoved(piece) && node(piece).length > 0 {
      spans.append(TextSpan(content(of: piece), attributes: attributes(of: piece)?.values ?? [:]))
    }
    return TextValue(spans: spans)
  }
}
