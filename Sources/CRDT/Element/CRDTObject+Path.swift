extension CRDTObject {
  /// The element at a path such as `$.todos.0.title` below this object (the `$`), or nil when
  /// there is none: object members by key, array elements by index.
  ///
  /// - Throws: `invalidPath` when the path does not start at the root (`$`).
  package func descendant(atPath path: String) throws(YorkieError) -> CRDTElement? {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.first == "$" else {
      throw YorkieError(.invalidPath, "a path starts at the root, \"$\" (as in \"$.todos.0\"): \"\(path)\"")
    }
    var current: CRDTElement = self
    for part in parts.dropFirst() {
      if let object = current as? CRDTObject {
        guard let child = object.get(String(part)) else { return nil }
        current = child
      } else if let array = current as? CRDTArray {
        guard let index = Int(part), index >= 0, let child = array.element(at: index) else { return nil }
        current = child
      } else {
        return nil
      }
    }
    return current
  }
}
