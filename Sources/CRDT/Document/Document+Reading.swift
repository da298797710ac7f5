import Foundation

// Reading a document: its JSON, a value or a text at a path, its snapshot.

extension Document {
  // MARK: - Reading

  /// The document as JSON, byte for byte as Yorkie's JS SDK prints it (no whitespace, members
  /// in creation order, JS number and string formatting).
  public func toJSON() -> String { root.object.toJSON() }

  /// The document as JSON with object keys sorted (UTF-16 order): the form to compare replicas
  /// with. As in the JS SDK, elements inside arrays are printed with ``toJSON()``.
  public func toSortedJSON() -> String {
    var writer = JSONWriter()
    root.object.writeJSON(into: &writer, sorted: true)
    return writer.output
  }

  /// The root object as a value.
  public var value: JSONValue { root.object.toJSONValue() }

  /// The value at a path such as `$.todos.0.title`, or nil when there is none.
  ///
  /// A path is Yorkie's dot notation, as events report paths: `$`, then each object key or
  /// array index after a `.`. Bracket notation (`$['a']`, `$.a[0]`) is refused, with the
  /// dotted path to write instead; a key that itself contains brackets or quotes is written as
  /// it is (`$.a[0]` finds a key `a[0]` when there is one).
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at the root (`$`) or
  ///   uses bracket notation.
  public func value(atPath path: String) throws -> JSONValue? {
    try root.object.descendant(atPath: path)?.kind.toJSONValue()
  }

  /// The text at a path such as `$.notes.0.body`, as runs of equal attributes; nil when there is
  /// no element there or it is not a text. Paths are read as ``value(atPath:)`` reads them.
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at the root (`$`) or
  ///   uses bracket notation.
  public func text(atPath path: String) throws -> TextValue? {
    guard case .text(let text)? = try root.object.descendant(atPath: path)?.kind else { return nil }
    return text.textValue
  }

  /// The tree at a path such as `$.content`; nil when there is no element there or it is not a
  /// tree. Paths are read as ``value(atPath:)`` reads them.
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at the root (`$`) or
  ///   uses bracket notation.
  public func tree(atPath path: String) throws -> TreeValue? {
    guard case .tree(let tree)? = try root.object.descendant(atPath: path)?.kind else { return nil }
    return TreeValue(tree)
  }

  /// The document's size in bytes, counted as Yorkie's `getDocSize()` counts it: `live` for
  /// the document as it reads, `gc` for the tombstones garbage collection has yet to purge
  /// (see ``DocSize`` and ``DataSize`` for what each part costs).
  ///
  /// Kept up to date by every change, so reading it costs nothing. It depends only on the
  /// document's state: replicas holding the same document (tombstones included) report the
  /// same size, and a document loaded from a snapshot reports what the original did.
  public var size: DocSize { root.size }

  /// Whether there are local changes the server has not acknowledged.
  public var hasLocalChanges: Bool { !localChanges.isEmpty }

  /// The document's version vector.
  public var versionVector: VersionVector { changeID.versionVector }

  /// This replica's actor ID (``ActorID/initial`` until ``setActor(_:)``).
  public var actorID: ActorID { changeID.actorID }

  /// The local changes not yet acknowledged, oldest first.
  public var pendingChanges: [Change] { localChanges }

  /// The document in Yorkie's binary `Snapshot` encoding: the root with its tombstones and every
  /// known presence. A fresh document (or any replica) loads it with a change pack that carries it.
  public func snapshot() -> Data {
    DocumentSnapshot(root: root.object, presences: presenceMap, restores: root.restoreRecords).encoded
  }

  /// The bytes of ``snapshot()``, and the part of them that encodes the root (the snapshot's
  /// first field).
  ///
  /// - Parameter rootField: The root's part from an earlier call, reused as is: only when the
  ///   root has not changed since (no operation applied, no garbage purged, no snapshot
  ///   loaded: presences may have changed). The server's materialized documents pass it
  ///   between attaches that add nothing but a presence.
  package func snapshotBytes(reusingRootField rootField: [UInt8]? = nil) -> (bytes: [UInt8], rootField: [UInt8]) {
    let root = rootField ?? DocumentSnapshot.rootField(self.root.object)
    let rest = DocumentSnapshot(root: self.root.object, presences: presenceMap, restores: self.root.restoreRecords)
    return (root + rest.presenceFields + rest.restoreFields, root)
  }
}
