extension CRDTObject {
  /// The element at a path such as `$.todos.0.title` below this object (the `$`), or nil when
  /// there is none: object members by key, array elements by index.
  ///
  /// Paths are Yorkie's dot notation, as the JS SDK's `getValueByPath` reads them and as
  /// events report them: `$`, then each key or index after a `.` (keys never contain `.`:
  /// Yorkie refuses such keys). Bracket notation (`$['a']`, `$.a[0]`) is not Yorkie's and is
  /// refused with the dotted form to write instead. (The JS SDK splits on `.` alone, so
  /// `$['a']` silently reads the root there.) A key that contains brackets itself, such as
  /// `a[0]`, is still found when it exists: brackets are refused only where nothing matches.
  ///
  /// - Throws: `invalidPath` when the path does not start at the root (`$`), or uses bracket
  ///   notation.
  package func descendant(atPath path: String) throws(YorkieError) -> CRDTElement? {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.first == "$" else {
      if path.hasPrefix("$[") { throw Self.bracketNotation(path) }
      throw YorkieError(.invalidPath, "a path starts at the root, \"$\" (as in \"$.todos.0\"): \"\(path)\"")
    }
    var current: CRDTElement = self
    for part in parts.dropFirst() {
      let child: CRDTElement?
      switch current.kind {
      case .object(let object):
        child = object.get(String(part))
      case .array(let array):
        child = Int(part).flatMap { $0 >= 0 ? array.element(at: $0) : nil }
      case .primitive, .text, .counter, .tree:
        child = nil  // hold no elements a path can name
      }
      guard let child else {
        if part.contains("["), part.hasSuffix("]") { throw Self.bracketNotation(path) }
        return nil
      }
      current = child
    }
    return current
  }

  /// The error for a path in bracket notation: names the dotted path to write when there is
  /// one.
  private static func bracketNotation(_ path: String) -> YorkieError {
    guard let dotted = dotNotation(of: path) else {
      return YorkieError(
        .invalidPath,
        "bracket notation is not supported: a path is \"$\" followed by \".key\" and \".index\" parts (keys never contain \".\"): \"\(path)\"")
    }
    return YorkieError(.invalidPath, "bracket notation is not supported: write \"\(dotted)\" instead of \"\(path)\"")
  }

  /// `path` (`$['a'][0]`, `$["a"]`, `$.a[0]`) in dot notation (`$.a.0`); nil when it is not
  /// well formed, or a quoted key contains `.` (no path can name it).
  private static func dotNotation(of path: String) -> String? {
    guard path.first == "$" else { return nil }
    var rest = path.dropFirst()
    var dotted = "$"
    while let next = rest.first {
      rest = rest.dropFirst()
      switch next {
      case ".":
        let key = rest.prefix { $0 != "." && $0 != "[" }
        dotted += "." + key
        rest = rest.dropFirst(key.count)
      case "[":
        if let quote = rest.first, quote == "'" || quote == "\"" {
          rest = rest.dropFirst()
          guard let end = rest.firstIndex(of: quote) else { return nil }
          let key = rest[..<end]
          guard !key.contains(".") else { return nil }
          dotted += "." + key
          rest = rest[rest.index(after: end)...]
        } else {
          let index = rest.prefix { $0.isASCII && $0.isNumber }
          guard !index.isEmpty else { return nil }
          dotted += "." + index
          rest = rest.dropFirst(index.count)
        }
        guard rest.first == "]" else { return nil }
        rest = rest.dropFirst()
      default:
        return nil
      }
    }
    return dotted
  }
}
