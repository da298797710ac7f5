/// What one operation did to a document, as Yorkie reports it to change listeners.
///
/// Which fields are set depends on ``type``:
///
/// | type | fields |
/// |---|---|
/// | `set` | `key` |
/// | `remove` | `key` (object) or `index` (array) |
/// | `add` | `index` |
/// | `move` | `index` (where it is now), `previousIndex` |
/// | `array-set` | (only the path) |
/// | `increase` | `value` (the operand) |
/// | `edit` | `from`, `to`, `value` (the inserted string), `attributes` (when the edit styled it) |
/// | `style` | `from`, `to`, `attributes` (set), `attributesToRemove` (removed) |
/// | `tree-edit` | `from`, `to`, `fromPath`, `toPath`, `treeContents` (the inserted nodes), `splitLevel` |
/// | `tree-style` | `from`, `to`, `fromPath`, `toPath`, `attributes` (set) or `attributesToRemove` |
///
/// Ranges and indexes are those of the replica that applied the operation, in UTF-16 code units
/// for texts and trees (a tree index counts an element's tags and its text's code units).
/// `description` prints it compactly, e.g. `edit $.text 0..<2 "hi"`.
public struct OperationInfo: Hashable, Sendable {
  /// The kind of an operation, named as Yorkie names it (the raw value).
  public enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// An object member was set.
    case set
    /// An object member or an array element was removed.
    case remove
    /// An element was inserted into an array.
    case add
    /// An array element was moved.
    case move
    /// An array element was replaced (Yorkie's ArraySet).
    case arraySet = "array-set"
    /// A counter was increased.
    case increase
    /// A range of a text was replaced.
    case edit
    /// Attributes were set on or removed from a range of a text.
    case style
    /// A range of a tree was replaced, split or merged (Yorkie's TreeEdit).
    case treeEdit = "tree-edit"
    /// Attributes were set on or removed from the elements in a range of a tree.
    case treeStyle = "tree-style"

    /// Yorkie's name: the raw value.
    public var description: String { rawValue }
  }

  /// What the operation did.
  public var type: Kind
  /// The path of the container the operation touched (for `increase`, of the counter).
  public var path: String
  /// The member key, for object operations.
  public var key: String?
  /// The element index, for array operations.
  public var index: Int?
  /// The index an element was moved from, for `move`.
  public var previousIndex: Int?
  /// The start of the range, for text operations.
  public var from: Int?
  /// The end of the range, for text operations.
  public var to: Int?
  /// The operand of `increase`; the inserted string of `edit`.
  public var value: JSONValue?
  /// The attributes a `style` set (`[:]` when it only removed some) or an `edit` gave its
  /// content (nil when it gave none).
  public var attributes: [String: JSONValue]?
  /// The attribute names a `style` removed (`[]` when it only set some); nil for other kinds.
  public var attributesToRemove: [String]?
  /// The path of `from` in a tree (child indexes, then an offset in a text), for tree operations.
  public var fromPath: [Int]?
  /// The path of `to` in a tree, for tree operations.
  public var toPath: [Int]?
  /// The nodes a `tree-edit` inserted, as Yorkie reports them (nil when it inserted none).
  public var treeContents: [TreeNode]?
  /// How many element levels a `tree-edit` split at `from`.
  public var splitLevel: Int?

  /// Creates an operation description.
  public init(type: Kind, path: String, key: String? = nil, index: Int? = nil, previousIndex: Int? = nil,
              from: Int? = nil, to: Int? = nil, value: JSONValue? = nil, attributes: [String: JSONValue]? = nil,
              attributesToRemove: [String]? = nil, fromPath: [Int]? = nil, toPath: [Int]? = nil,
              treeContents: [TreeNode]? = nil, splitLevel: Int? = nil) {
    self.type = type
    self.path = path
    self.key = key
    self.index = index
    self.previousIndex = previousIndex
    self.from = from
    self.to = to
    self.value = value
    self.attributes = attributes
    self.attributesToRemove = attributesToRemove
    self.fromPath = fromPath
    self.toPath = toPath
    self.treeContents = treeContents
    self.splitLevel = splitLevel
  }

  /// Attribute values as operations carry them (JSON text) turned back into values; a value
  /// that is not valid JSON stays a string.
  package static func decode(_ attributes: [String: String]) -> [String: JSONValue] {
    attributes.mapValues { JSONValueParser.parse($0) ?? .string($0) }
  }
}

extension OperationInfo: CustomStringConvertible {
  /// The kind, the path, then the fields that are set: `set $ key=title`,
  /// `move $.todos index=0->2`, `edit $.text 0..<2 "hi"`, `style $.text 0..<5 {"bold":true}`,
  /// `style $.text 0..<5 remove=bold,italic`, `increase $.likes 2`. Attributes print with their
  /// keys sorted.
  public var description: String {
    var text = "\(type.rawValue) \(path)"
    if let key { text += " key=\(key)" }
    switch (previousIndex, index) {
    case (let old?, let new?): text += " index=\(old)->\(new)"
    case (nil, let new?): text += " index=\(new)"
    case (let old?, nil): text += " previousIndex=\(old)"
    case (nil, nil): break
    }
    if let from, let to { text += " \(from)..<\(to)" }
    if let fromPath, let toPath { text += " \(fromPath)..<\(toPath)" }
    if let treeContents { text += " " + treeContents.map(\.description).joined(separator: "") }
    if let splitLevel, splitLevel > 0 { text += " split=\(splitLevel)" }
    if let value { text += " \(value.jsonString)" }
    if let attributes, !attributes.isEmpty { text += " " + JSONValue.sortedJSON(attributes) }
    if let attributesToRemove, !attributesToRemove.isEmpty {
      text += " remove=" + attributesToRemove.joined(separator: ",")
    }
    return text
  }
}

extension JSONValue {
  /// `members` as a JSON object with its keys sorted (UTF-16 order), for descriptions.
  package static func sortedJSON(_ members: [String: JSONValue]) -> String {
    var writer = JSONWriter()
    writer.write(.object(Object(members.map { (key: $0.key, value: $0.value) })), sorted: true)
    return writer.output
  }
}
