/// A size in bytes, counted as Yorkie counts it (`DataSize` of the JS and Go SDKs): the user's
/// data, and the metadata that keeps it mergeable.
///
/// - `data`: what the user stored. A string or text content counts 2 bytes per UTF-16 code
///   unit, bytes their length, null 8, a boolean 4, an Integer 4, a Long, Double or Date 8; a
///   counter 4 (Integer) or 8 (Long); a style attribute 2 bytes per UTF-16 code unit of its key
///   and of its JSON-encoded value.
/// - `meta`: 24 bytes per ticket held (8 Lamport + 4 delimiter + 12 actor): an element's
///   creation, last move and removal, a text piece's or tree node's id and removal, an
///   attribute's last update.
public struct DataSize: Hashable, Sendable {
  /// Bytes of user data.
  public var data: Int
  /// Bytes of metadata (tickets).
  public var meta: Int

  /// A size of `data` bytes of user data and `meta` bytes of metadata.
  public init(data: Int = 0, meta: Int = 0) {
    self.data = data
    self.meta = meta
  }

  /// Nothing.
  package static let zero = DataSize()
  /// What one ticket costs: 8 (Lamport) + 4 (delimiter) + 12 (actor).
  package static let ticket = 24

  @inline(__always) package static func + (lhs: DataSize, rhs: DataSize) -> DataSize {
    DataSize(data: lhs.data &+ rhs.data, meta: lhs.meta &+ rhs.meta)
  }

  @inline(__always) package static func - (lhs: DataSize, rhs: DataSize) -> DataSize {
    DataSize(data: lhs.data &- rhs.data, meta: lhs.meta &- rhs.meta)
  }

  @inline(__always) package static func += (lhs: inout DataSize, rhs: DataSize) { lhs = lhs + rhs }
  @inline(__always) package static func -= (lhs: inout DataSize, rhs: DataSize) { lhs = lhs - rhs }

  /// The size of a style attribute (a text's or a tree element's): its key and JSON-encoded
  /// value, and the ticket of its last update.
  @inline(__always) package static func attribute(key: String, value: String) -> DataSize {
    DataSize(data: (key.utf16.count + value.utf16.count) * 2, meta: ticket)
  }
}

/// The size of a document (Yorkie's `getDocSize()`): what is live, and what garbage collection
/// has yet to purge.
///
/// - `live`: every element, text piece, tree node and attribute that is part of the document.
/// - `gc`: every tombstone not yet purged: removed elements with everything below them
///   (including their removal ticket), removed text pieces and tree nodes, removed style
///   attributes, and the dead positions array moves leave behind. Garbage collection takes
///   them out of `gc`; nothing else does.
///
/// ``Document/size`` keeps it up to date at every change (reading it costs nothing); it is
/// always the size a document rebuilt from the same state (a snapshot) reports.
public struct DocSize: Hashable, Sendable {
  /// The size of the live document.
  public var live: DataSize
  /// The size of the tombstones awaiting garbage collection.
  public var gc: DataSize

  /// A document size of `live` bytes and `gc` bytes of garbage.
  public init(live: DataSize = DataSize(), gc: DataSize = DataSize()) {
    self.live = live
    self.gc = gc
  }

  /// Nothing.
  package static let zero = DocSize()

  @inline(__always) package static func + (lhs: DocSize, rhs: DocSize) -> DocSize {
    DocSize(live: lhs.live + rhs.live, gc: lhs.gc + rhs.gc)
  }

  @inline(__always) package static func - (lhs: DocSize, rhs: DocSize) -> DocSize {
    DocSize(live: lhs.live - rhs.live, gc: lhs.gc - rhs.gc)
  }

  @inline(__always) package static func += (lhs: inout DocSize, rhs: DocSize) { lhs = lhs + rhs }

  /// Everything in `gc`: what a size becomes inside a removed element.
  @inline(__always) package var asGarbage: DocSize { DocSize(live: .zero, gc: live + gc) }

  /// Adds `size` to `live`, or to `gc` when `garbage`.
  @inline(__always) package mutating func add(_ size: DataSize, garbage: Bool) {
    if garbage { gc += size } else { live += size }
  }
}
