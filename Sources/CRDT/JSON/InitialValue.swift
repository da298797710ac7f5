/// A value to create in a document, containers of every kind included: what a client's
/// `attach(_:initialRoot:)` sets for each key the document lacks once the server's content is
/// in (as the `initialRoot` of Yorkie's JS SDK, which takes `new Text()` and `new Counter()`).
///
/// Plain JSON is written with literals, as for ``JSONValue``; a text, a counter or a tree with
/// ``text(_:)``, ``counter(_:)`` and ``tree(_:)``, at any depth:
///
/// ```swift
/// let shape: [String: InitialValue] = [
///   "title": "Untitled",
///   "todos": [],
///   "note": .text("Welcome"),
///   "likes": .counter(.int(0)),
///   "board": ["columns": [.text(), .text()]],
///   "content": .tree(.element("doc", children: [.element("p")])),
/// ]
/// ```
///
/// Setting the shape inside the attach closes the race of "if the key is missing, create it"
/// written in an update after attaching (two clients each creating their own text, one
/// client's typing disappearing when the later creation wins), except when two clients attach
/// a document that has no shape yet at the same moment: see the client's documentation.
public indirect enum InitialValue: Hashable, Sendable,
  ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// A plain value; its objects and arrays become CRDT objects and arrays.
  case value(JSONValue)
  /// A text holding `content` (UTF-16 code units, as every text offset).
  case text(String = "")
  /// A counter starting at `value`.
  case counter(CounterValue)
  /// A tree holding `root` (an element) and everything below it.
  case tree(TreeNode)
  /// An object whose members may be texts and counters; they are set in key order.
  case object([String: InitialValue])
  /// An array whose elements may be texts and counters, in order.
  case array([InitialValue])

  /// JSON `null`.
  public init(nilLiteral: ()) { self = .value(.null) }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
  /// An integer, stored as ``JSONValue`` stores an integer literal.
  public init(integerLiteral value: Int64) { self = .value(JSONValue(integerLiteral: value)) }
  /// A double.
  public init(floatLiteral value: Double) { self = .value(.double(value)) }
  /// A string (a plain value: write ``text(_:)`` for a text).
  public init(stringLiteral value: String) { self = .value(.string(value)) }
  /// An array.
  public init(arrayLiteral elements: InitialValue...) { self = .array(elements) }
  /// An object. A key given twice keeps its last value.
  public init(dictionaryLiteral elements: (String, InitialValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension JSONObject {
  /// Sets `value` at `key`, creating the texts, counters and containers it holds.
  func setInitial(_ key: String, _ value: InitialValue) throws {
    switch value {
    case .value(let json):
      try set(key, json)
    case .text(let content):
      let text = setNewText(key)
      if !content.isEmpty { try text.edit(0, 0, content) }
    case .counter(let start):
      setNewCounter(key, start)
    case .tree(let root):
      setNewTree(key, root)
    case .object(let members):
      try setNewObject(key).setInitialMembers(members)
    case .array(let elements):
      try setNewArray(key).appendInitialElements(elements)
    }
  }
}

extension JSONObject {
  /// Sets every member of `members`, in key order (what every replica then shows first).
  func setInitialMembers(_ members: [String: InitialValue]) throws {
    for (name, member) in members.sorted(by: { $0.key < $1.key }) { try setInitial(name, member) }
  }
}

extension JSONArray {
  /// Appends every element of `elements`, in order.
  func appendInitialElements(_ elements: [InitialValue]) throws {
    for element in elements { try appendInitial(element) }
  }

  /// Appends `value`, creating the texts, counters and containers it holds.
  func appendInitial(_ value: InitialValue) throws {
    switch value {
    case .value(let json):
      try append(json)
    case .text(let content):
      let text = appendNewText()
      if !content.isEmpty { try text.edit(0, 0, content) }
    case .counter(let start):
      appendNewCounter(start)
    case .tree(let root):
      appendNewTree(root)
    case .object(let members):
      try appendNewObject().setInitialMembers(members)
    case .array(let elements):
      try appendNewArray().appendInitialElements(elements)
    }
  }
}

extension Document {
  /// Sets, in one update (keys in order), the members of `initialRoot` the root lacks: what a
  /// client's attach does with its `initialRoot` once the server's content is in. Nothing for
  /// nil or empty, or when every key is present. Invalid input (a key with a dot, a NaN)
  /// throws and sets nothing. Returns whether it set any key.
  @discardableResult
  package func setMissingKeys(_ initialRoot: [String: InitialValue]?) throws -> Bool {
    guard let initialRoot, !initialRoot.isEmpty else { return false }
    return try update { root, _ in
      var setAny = false
      for (name, value) in initialRoot.sorted(by: { $0.key < $1.key }) where !root.has(name) {
        try root.setInitial(name, value)
        setAny = true
      }
      return setAny
    }
  }

  /// Throws what ``setMissingKeys(_:)`` would throw for `initialRoot` on an empty document,
  /// changing nothing here: a client checks `initialRoot` before it asks the server anything.
  package static func validate(initialRoot: [String: InitialValue]?) async throws {
    guard let initialRoot, !initialRoot.isEmpty else { return }
    try await Document(key: "").setMissingKeys(initialRoot)
  }
}
