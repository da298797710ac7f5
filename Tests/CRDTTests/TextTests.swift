import Foundation
import Testing
import CRDT

// The collaborative text on a single replica: edits, styles, serialization, UTF-16 offsets,
// invalid ranges and change events. Expected strings are Yorkie's own (JS `toJSON` is the
// reference; Go's `Marshal` prints the same text JSON when attribute values are strings, see
// yorkie-reference.md 2.9). Yorkie's structure strings (`[1:00:2:0 A]…`) are internal and have no
// counterpart here; where a Yorkie test checks them, the visible JSON and the position round trip
// stand in for them.
//
// Concurrent text: TextConcurrencyTests.swift. Text garbage: TextGarbageCollectionTests.swift.

// MARK: - Helpers shared by the text test files

/// The UTF-16 code units of `string`. Swift compares strings by canonical equivalence
/// (`"e\u{301}" == "é"`), so tests that care about the exact code units compare these.
func utf16Units(_ string: String) -> [UInt16] { Array(string.utf16) }

/// An index range as an array, so that `#expect` can compare and print it.
func indexPair(_ range: (Int, Int)) -> [Int] { [range.0, range.1] }

/// What a text holds, read through a no-op update (an update that changes nothing records
/// nothing, api.md).
struct TextState: Equatable, CustomStringConvertible {
  var string: String
  var length: Int
  var json: String
  var description: String { "\(json) (length \(length))" }
}

/// The state of the text at `key` in `doc`.
func textState(_ doc: Document, _ key: String) async throws -> TextState {
  let box = Captured<TextState>()
  try await doc.update { root, _ in
    let text = try #require(root.text(key))
    box.value = TextState(string: text.string, length: text.length, json: text.toJSON())
  }
  return try #require(box.value)
}

/// Checks that `body`, run on the text at `key` inside an update, throws a `YorkieError` and
/// leaves the document exactly as it was: same JSON, same pending changes, same garbage.
func expectTextEditRejected(
  _ doc: Document,
  _ key: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (JSONText) throws -> Void
) async throws {
  let json = await doc.toSortedJSON()
  let pending = await pendingChangeCount(doc)
  let garbage = await doc.garbageLength
  await #expect(throws: YorkieError.self, sourceLocation: sourceLocation) {
    try await doc.update { root, _ in
      let text = try #require(root.text(key))
      try body(text)
    }
  }
  #expect(await doc.toSortedJSON() == json, sourceLocation: sourceLocation)
  #expect(await pendingChangeCount(doc) == pending, sourceLocation: sourceLocation)
  #expect(await doc.garbageLength == garbage, sourceLocation: sourceLocation)
}

/// The fields of an `OperationInfo` that Yorkie's change-info tests pin (the operand `value` is
/// left out: Yorkie reports `{attributes, content}` there, which this API does not promise).
private struct OperationSummary: Equatable, CustomStringConvertible {
  var type: String
  var path: String
  var key: String?
  var from: Int?
  var to: Int?

  init(type: String, path: String, key: String? = nil, from: Int? = nil, to: Int? = nil) {
    self.type = type
    self.path = path
    self.key = key
    self.from = from
    self.to = to
  }

  init(_ info: OperationInfo) {
    self.init(type: info.type.rawValue, path: info.path, key: info.key, from: info.from, to: info.to)
  }

  var description: String {
    "\(type) \(path)" + (key.map { " key=\($0)" } ?? "") + (from.map { " from=\($0)" } ?? "")
      + (to.map { " to=\($0)" } ?? "")
  }
}

/// The first `count` events of `stream`, or fewer when they do not arrive within five seconds.
private func firstEvents(_ count: Int, of stream: AsyncStream<DocEvent>) async -> [DocEvent] {
  await withTaskGroup(of: [DocEvent]?.self) { group in
    group.addTask {
      var events: [DocEvent] = []
      for await event in stream {
        events.append(event)
        if events.count == count { break }
      }
      return events
    }
    group.addTask {
      try? await Task.sleep(nanoseconds: 5_000_000_000)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first ?? []
  }
}

/// One edit of a command list, as Yorkie's TextView tests write them.
private struct EditCommand: Sendable {
  var from: Int
  var to: Int
  var content: String = ""
}

/// Runs `commands` one update each on a fresh text and checks the text after every command
/// against `expected`. Yorkie's tests compare the text with a view rebuilt from the change
/// events; here the expected strings are written out (they are what that view holds).
private func runCommands(_ commands: [EditCommand], expecting expected: [String]) async throws {
  precondition(commands.count == expected.count)
  let doc = Document(key: "test-doc")
  try await doc.update { root, _ in _ = root.setNewText("text") }
  for (command, want) in zip(commands, expected) {
    try await doc.update { root, _ in
      try #require(root.text("text")).edit(command.from, command.to, command.content)
    }
    let state = try await textState(doc, "text")
    #expect(state.string == want, "after edit(\(command.from), \(command.to), \"\(command.content)\")")
    #expect(state.length == want.utf16.count)
  }
}

// MARK: - Tests

@Suite("Text")
struct TextTests {
  // MARK: Editing

  @Test("replacing a range splits the node and leaves the removed run as a tombstone")
  func editReplacesRange() async throws {
    // Mirrors Go pkg/document TestDocument "text test" and JS integration text_test "should handle
    // edit operations" (the single-document one).
    let doc = Document(key: "test-doc")
    #expect(await doc.toSortedJSON() == "{}")
    try await doc.update(message: #"set {"k1":"A12D"}"#) { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ABCD")
      try text.edit(1, 3, "12")
      #expect(text.toJSON() == #"[{"val":"A"},{"val":"12"},{"val":"D"}]"#)
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"A"},{"val":"12"},{"val":"D"}]}"#)
    #expect(await doc.toJSON() == #"{"k1":[{"val":"A"},{"val":"12"},{"val":"D"}]}"#)
    let state = try await textState(doc, "k1")
    #expect(state.string == "A12D")
    #expect(state.length == 4)
  }

  @Test("every index of a split text survives the round trip through a position")
  func indexPositionRoundTrip() async throws {
    // Mirrors the CreateRange checks of Go TestDocument "text test" and JS integration text_test
    // "should handle edit operations": indexes 0…4 of [A][12]{BC}[D] each resolve to a position
    // (Yorkie pins the position strings, which are internal here) and back to the same index.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ABCD")
      try text.edit(1, 3, "12")
    }
    try await doc.update { root, _ in
      let text = try #require(root.text("k1"))
      for index in 0...4 {
        let positions = try text.indexRangeToPosRange((index, index))
        let back = try text.posRangeToIndexRange(positions)
        #expect(indexPair(back) == [index, index], "index \(index)")
      }
      for (from, to) in [(0, 4), (1, 3), (0, 1), (3, 4), (2, 4)] {
        let back = try text.posRangeToIndexRange(try text.indexRangeToPosRange((from, to)))
        #expect(indexPair(back) == [from, to], "range \(from)..<\(to)")
      }
    }
    #expect(await doc.hasLocalChanges)
    #expect(await pendingChangeCount(doc) == 1, "reading positions records no change")
  }

  @Test("an insertion inside a node splits it around the new node")
  func insertNewlineInsideNode() async throws {
    // Mirrors JS integration text_test "should handle edit operations2"
    let doc = Document(key: "test-doc")
    try await doc.update(message: #"set {"k1":"ABC\nD"}"#) { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ABCD")
      try text.edit(3, 3, "\n")
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"ABC"},{"val":"\n"},{"val":"D"}]}"#)
    #expect(try await textState(doc, "k1").string == "ABC\nD")
  }

  @Test("composing Hangul by repeated replacement leaves only the final syllables")
  func hangulComposition() async throws {
    // Mirrors Go TestDocument "text composition test" and JS integration text_test "should handle
    // type 하늘"
    let doc = Document(key: "test-doc")
    try await doc.update(message: #"set {"k1":"하늘"}"#) { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ㅎ")
      try text.edit(0, 1, "하")
      try text.edit(0, 1, "한")
      try text.edit(0, 1, "하")
      try text.edit(1, 1, "느")
      try text.edit(1, 2, "늘")
      #expect(text.toJSON() == #"[{"val":"하"},{"val":"늘"}]"#)
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"하"},{"val":"늘"}]}"#)
    let state = try await textState(doc, "k1")
    #expect(state.string == "하늘")
    #expect(state.length == 2)
  }

  @Test("replacing the tail of a text and styling its first character")
  func replaceTailThenStyleHead() async throws {
    // Mirrors Go pkg/document/crdt TestText "marshal test" (both subtests of that name)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      try root.setNewText("k1").edit(0, 0, "Hello World")
      #expect(root.text("k1")?.toJSON() == #"[{"val":"Hello World"}]"#)
    }
    try await doc.update { root, _ in
      let text = try #require(root.text("k1"))
      try text.edit(6, 11, "Yorkie")
      #expect(text.toJSON() == #"[{"val":"Hello "},{"val":"Yorkie"}]"#)
    }
    try await doc.update { root, _ in
      try #require(root.text("k1")).setStyle(0, 1, ["b": "1"])
    }
    #expect(try await textState(doc, "k1").json
      == #"[{"attrs":{"b":"1"},"val":"H"},{"val":"ello "},{"val":"Yorkie"}]"#)
  }

  @Test("styles, overlapping styles, a replacement and an attributed insertion")
  func richTextSequence() async throws {
    // Mirrors Go TestDocument "rich text test" (Go passes attribute values as strings, so "1" and
    // "true" print quoted, exactly as the JS SDK prints string values)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      try root.setNewText("k1").edit(0, 0, "Hello world")
    }
    #expect(await doc.toJSON() == #"{"k1":[{"val":"Hello world"}]}"#)

    try await doc.update { root, _ in
      try #require(root.text("k1")).setStyle(0, 5, ["b": "1"])
    }
    #expect(await doc.toJSON() == #"{"k1":[{"attrs":{"b":"1"},"val":"Hello"},{"val":" world"}]}"#)

    try await doc.update { root, _ in
      let text = try #require(root.text("k1"))
      try text.setStyle(0, 5, ["b": "1"])
      #expect(text.toJSON() == #"[{"attrs":{"b":"1"},"val":"Hello"},{"val":" world"}]"#)
      try text.setStyle(3, 5, ["i": "1"])
    }
    #expect(await doc.toJSON()
      == #"{"k1":[{"attrs":{"b":"1"},"val":"Hel"},{"attrs":{"b":"1","i":"1"},"val":"lo"},{"val":" world"}]}"#)

    try await doc.update { root, _ in
      try #require(root.text("k1")).edit(5, 11, " Yorkie")
    }
    #expect(await doc.toJSON()
      == #"{"k1":[{"attrs":{"b":"1"},"val":"Hel"},{"attrs":{"b":"1","i":"1"},"val":"lo"},{"val":" Yorkie"}]}"#)

    try await doc.update { root, _ in
      try #require(root.text("k1")).edit(5, 5, "\n", attributes: ["list": "true"])
    }
    #expect(await doc.toJSON()
      == #"{"k1":[{"attrs":{"b":"1"},"val":"Hel"},{"attrs":{"b":"1","i":"1"},"val":"lo"},{"attrs":{"list":"true"},"val":"\n"},{"val":" Yorkie"}]}"#)
  }

  @Test("attributes given to an edit belong to the inserted node only")
  func editWithAttributes() async throws {
    // Mirrors JS integration text_test "should handle text edit operations with attributes"
    let doc = Document(key: "test-doc")
    #expect(await doc.toSortedJSON() == "{}")
    try await doc.update(message: #"set {"k1":"ABC\nD"}"#) { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ABCD", attributes: ["b": "1"])
      try text.edit(3, 3, "\n")
    }
    #expect(await doc.toSortedJSON()
      == #"{"k1":[{"attrs":{"b":"1"},"val":"ABC"},{"val":"\n"},{"attrs":{"b":"1"},"val":"D"}]}"#)
  }

  @Test("delete removes the range")
  func deleteRemovesRange() async throws {
    // Mirrors JS integration text_test "should handle text delete operations"
    let doc = Document(key: "test-doc")
    try await doc.update(message: "set ABCD") { root, _ in
      try root.setNewText("k1").edit(0, 0, "ABCD")
    }
    #expect(try await textState(doc, "k1").string == "ABCD")
    try await doc.update(message: "delete BC") { root, _ in
      try #require(root.text("k1")).delete(1, 3)
    }
    let state = try await textState(doc, "k1")
    #expect(state.string == "AD")
    #expect(state.length == 2)
    #expect(state.json == #"[{"val":"A"},{"val":"D"}]"#)
  }

  @Test("deleting the whole text leaves an empty text that prints []")
  func deleteEverything() async throws {
    // Mirrors JS integration text_test "should handle text empty operations" (JS `empty()` is
    // `edit(0, length, "")`; this API spells it `delete(0, length)`)
    let doc = Document(key: "test-doc")
    try await doc.update(message: "set ABCD") { root, _ in
      try root.setNewText("k1").edit(0, 0, "ABCD")
    }
    try await doc.update(message: "empty") { root, _ in
      let text = try #require(root.text("k1"))
      try text.delete(0, text.length)
    }
    let state = try await textState(doc, "k1")
    #expect(state.string == "")
    #expect(state.length == 0)
    #expect(state.json == "[]")
    #expect(await doc.toJSON() == #"{"k1":[]}"#)
  }

  @Test("deleting ranges that span nested, already split nodes")
  func nestedDeletions() async throws {
    // Mirrors JS integration text_test "should handle deletion of nested nodes"
    try await runCommands(
      [
        EditCommand(from: 0, to: 0, content: "ABC"),
        EditCommand(from: 3, to: 3, content: "DEF"),
        EditCommand(from: 2, to: 4, content: "1"),
        EditCommand(from: 1, to: 4, content: "2"),
      ],
      expecting: ["ABC", "ABCDEF", "AB1EF", "A2F"])
  }

  @Test("deleting the last nodes, with and without splits")
  func lastNodeDeletions() async throws {
    // Mirrors JS integration text_test "should handle deletion of the last nodes"
    try await runCommands(
      [
        EditCommand(from: 0, to: 0, content: "A"),
        EditCommand(from: 1, to: 1, content: "B"),
        EditCommand(from: 2, to: 2, content: "C"),
        EditCommand(from: 3, to: 3, content: "DE"),
        EditCommand(from: 5, to: 5, content: "F"),
        EditCommand(from: 6, to: 6, content: "GHI"),
        EditCommand(from: 9, to: 9),  // empty range at the end: nothing removed
        EditCommand(from: 8, to: 9),  // the tail of the last node (splits it)
        EditCommand(from: 6, to: 8),  // the whole remaining last node
        EditCommand(from: 4, to: 6),  // two trailing nodes, one of them split
        EditCommand(from: 2, to: 4),  // two whole trailing nodes
        EditCommand(from: 0, to: 2),  // everything left, first node included
      ],
      expecting: [
        "A", "AB", "ABC", "ABCDE", "ABCDEF", "ABCDEFGHI", "ABCDEFGHI", "ABCDEFGH", "ABCDEF", "ABCD",
        "AB", "",
      ])
  }

  @Test("deleting ranges whose boundary nodes are already removed")
  func deletionsAcrossRemovedBoundaries() async throws {
    // Mirrors JS integration text_test "should handle deletion with boundary nodes already removed"
    try await runCommands(
      [
        EditCommand(from: 0, to: 0, content: "1A1BCXEF1"),
        EditCommand(from: 8, to: 9),
        EditCommand(from: 2, to: 3),
        EditCommand(from: 0, to: 1),
        EditCommand(from: 0, to: 1),  // "A": tombstones on both sides
        EditCommand(from: 0, to: 1),  // "B": a tombstone on its left
        EditCommand(from: 3, to: 4),  // "F": a tombstone on its right
        EditCommand(from: 1, to: 2),
        EditCommand(from: 0, to: 2),  // "CE" around the removed "X"
      ],
      expecting: ["1A1BCXEF1", "1A1BCXEF", "1ABCXEF", "ABCXEF", "BCXEF", "CXEF", "CXE", "CE", ""])
  }

  @Test("edit returns the caret after the inserted content, in UTF-16 code units")
  func editReturnsCaret() async throws {
    // Mirrors the return value of JS json/text.ts `Text.edit` (the range after the edit, both
    // ends at the caret). A deletion at the very end is left out: there JS anchors the caret on
    // the left node and reports its start, a quirk api.md does not ask for.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("k1")
      let afterInsert = try text.edit(0, 0, "ABCD")
      #expect(indexPair(afterInsert) == [4, 4])
      let afterReplace = try text.edit(1, 3, "12")
      #expect(indexPair(afterReplace) == [3, 3])
      let afterDelete = try text.edit(1, 2, "")
      #expect(indexPair(afterDelete) == [1, 1])
      let afterEmoji = try text.edit(0, 0, "🌷")
      #expect(indexPair(afterEmoji) == [2, 2])
      let afterHangul = try text.edit(2, 2, "한글", attributes: ["b": "1"])
      #expect(indexPair(afterHangul) == [4, 4])
      #expect(text.string == "🌷한글A2D")
    }
  }

  @Test("an empty edit splits the node it lands in and changes no content")
  func emptyEditSplitsNode() async throws {
    // Mirrors JS unit document_size_test "text test" (the toJSON it pins after `edit(1, 1, "")`);
    // the sizes it also pins are not part of this API.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in _ = root.setNewText("text") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(0, 0, "helloworld") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(5, 5, " ") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(6, 11, "") }
    try await doc.update { root, _ in try #require(root.text("text")).setStyle(0, 5, ["bold": true]) }
    try await doc.update { root, _ in try #require(root.text("text")).edit(1, 1, "") }
    #expect(await doc.toJSON()
      == #"{"text":[{"attrs":{"bold":true},"val":"h"},{"attrs":{"bold":true},"val":"ello"},{"val":" "}]}"#)
    #expect(await doc.garbageLength == 1, "\"world\" is the only removed node")
  }

  @Test("a text nested in an object prints inside it")
  func textInNestedObject() async throws {
    // Mirrors Go test/integration TestObject "object.set with json literal text type test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      _ = root.setNewObject("obj").setNewText("txt")
      #expect(root.toJSON() == #"{"obj":{"txt":[]}}"#)
      try #require(root.object("obj")?.text("txt")).edit(0, 0, "ABCD")
      #expect(root.toJSON() == #"{"obj":{"txt":[{"val":"ABCD"}]}}"#)
    }
    #expect(await doc.toJSON() == #"{"obj":{"txt":[{"val":"ABCD"}]}}"#)
  }

  @Test("texts appended to an array are edited through text(at:)")
  func textsInArray() async throws {
    // Mirrors the Text part of Go test/integration TestArray "array.set with Counter, Text, Tree
    // slice test" (`[[{"val":"hello"}],[],[]]`)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let texts = root.setNewArray("texts")
      _ = texts.appendNewText()
      _ = texts.appendNewText()
      _ = texts.appendNewText()
      try #require(texts.text(at: 0)).edit(0, 0, "hello")
      #expect(texts.count == 3)
      #expect(texts.text(at: 3) == nil)
    }
    #expect(await doc.toJSON() == #"{"texts":[[{"val":"hello"}],[],[]]}"#)
    try await doc.update { root, _ in
      try #require(root.array("texts")?.text(at: 2)).edit(0, 0, "world", attributes: ["b": "1"])
    }
    #expect(await doc.toJSON() == #"{"texts":[[{"val":"hello"}],[],[{"attrs":{"b":"1"},"val":"world"}]]}"#)
  }

  // MARK: Attributes and escaping

  @Test("attribute values of any JSON type print as JSON, sorted")
  func typedAttributeValues() async throws {
    // Mirrors JS unit document_test "sets any type of custom attribute values and can returns JSON
    // parsable string"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("textWithAttr")
      try text.edit(0, 0, "aaa", attributes: ["bold": true])
      try text.setStyle(0, 3, ["italic": true])
      try text.setStyle(0, 3, ["italic": .null])
      try text.setStyle(0, 3, ["indent": 1])
      try text.setStyle(0, 3, ["color": "red"])
    }
    let json = await doc.toSortedJSON()
    #expect(json == #"{"textWithAttr":[{"attrs":{"bold":true,"color":"red","indent":1,"italic":null},"val":"aaa"}]}"#)
    #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "the output parses as JSON")
  }

  @Test("text content is escaped in JSON")
  func escapesContent() async throws {
    // Mirrors JS unit document_test "escapes string for text"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      try root.setNewText("text").edit(0, 0, "\"hello\"")
    }
    #expect(await doc.toSortedJSON() == #"{"text":[{"val":"\"hello\""}]}"#)
  }

  @Test("attribute values are escaped in JSON")
  func escapesAttributeValues() async throws {
    // Mirrors JS unit document_test "escapes string for text with Attributes"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      try root.setNewText("textWithAttr").edit(0, 0, "\"hello\"", attributes: ["b": "\n"])
    }
    #expect(await doc.toSortedJSON() == #"{"textWithAttr":[{"attrs":{"b":"\n"},"val":"\"hello\""}]}"#)
  }

  @Test("attribute items are sorted as whole \"key\":value strings, as the JS SDK sorts them")
  func attributeItemsSortedAsStrings() async throws {
    // Follows JS crdt/text.ts `CRDTTextValue.toJSON`, which sorts the rendered `"k":v` items
    // (yorkie-reference.md 2.9). Go sorts by key instead; the two differ only when a key has a
    // character below '"' (space, '!'), as "a b" against "a": `"a b"…` sorts before `"a"…` in JS,
    // after it in Go. JS is the reference here.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      try root.setNewText("k").edit(0, 0, "x", attributes: ["a": 1, "a b": 2, "b": "3", "A": 4])
    }
    #expect(try await textState(doc, "k").json == #"[{"attrs":{"A":4,"a b":2,"a":1,"b":"3"},"val":"x"}]"#)
  }

  @Test("removeStyle drops the attribute from the range and keeps the split")
  func removeStyleDropsAttribute() async throws {
    // No Yorkie text test pins this string (JS reaches it only through undo); it follows the
    // rules of JS `CRDTTextValue.toJSON`: removed attributes are not printed and a node without
    // live attributes prints as {"val":…}.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "Hello world")
      try text.setStyle(0, 5, ["b": "1", "i": "1"])
    }
    #expect(await doc.toJSON() == #"{"k1":[{"attrs":{"b":"1","i":"1"},"val":"Hello"},{"val":" world"}]}"#)
    try await doc.update { root, _ in
      try #require(root.text("k1")).removeStyle(0, 5, keys: ["b"])
    }
    #expect(await doc.toJSON() == #"{"k1":[{"attrs":{"i":"1"},"val":"Hello"},{"val":" world"}]}"#)
    try await doc.update { root, _ in
      try #require(root.text("k1")).removeStyle(0, 11, keys: ["i", "missing"])
    }
    #expect(await doc.toJSON() == #"{"k1":[{"val":"Hello"},{"val":" world"}]}"#)
  }

  @Test("a style over a range that spans a node deleted earlier styles the live nodes around it")
  func styleAcrossDeletedNode() async throws {
    // Mirrors JS unit style_tombstone_test "lands on a node the same actor already deleted" (the
    // part before its undo steps): "ef" carried b=OLD and was deleted; the new style prints on the
    // live nodes only.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("t").edit(0, 0, "abcdefghij") }
    try await doc.update { root, _ in try #require(root.text("t")).setStyle(4, 6, ["b": "OLD"]) }
    try await doc.update { root, _ in try #require(root.text("t")).edit(4, 6, "") }
    try await doc.update { root, _ in try #require(root.text("t")).setStyle(0, 8, ["b": "NEW"]) }
    #expect(try await textState(doc, "t").json
      == #"[{"attrs":{"b":"NEW"},"val":"abcd"},{"attrs":{"b":"NEW"},"val":"ghij"}]"#)
    #expect(await doc.garbageLength == 1, "the deleted \"ef\" node")
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(try await textState(doc, "t").json
      == #"[{"attrs":{"b":"NEW"},"val":"abcd"},{"attrs":{"b":"NEW"},"val":"ghij"}]"#)
  }

  // MARK: UTF-16

  @Test(
    "length counts UTF-16 code units",
    arguments: [
      (4, "abcd"),
      (2, "\u{D55C}\u{AE00}"),  // 한글
      (8, "\u{0905}\u{0928}\u{0941}\u{091A}\u{094D}\u{091B}\u{0947}\u{0926}"),  // अनुच्छेद
      (12, "\u{1F337}\u{1F381}\u{1F4A9}\u{1F61C}\u{1F44D}\u{1F3F3}"),  // 🌷🎁💩😜👍🏳
      (10, "L\u{0301}o\u{0342}r\u{030C}e\u{0327}m\u{0305}"),  // Ĺo͂řȩm̅, fully decomposed
    ])
  func utf16Lengths(length: Int, value: String) async throws {
    // Mirrors Go pkg/document/crdt TestText "UTF-16 code units test": each value has the given
    // length, and the part after offset 2 has length - 2 (Go splits a node there; here the first
    // two code units are deleted).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("k").edit(0, 0, value) }
    let inserted = try await textState(doc, "k")
    #expect(inserted.length == length)
    #expect(utf16Units(inserted.string) == utf16Units(value))
    try await doc.update { root, _ in try #require(root.text("k")).delete(0, 2) }
    let rest = try await textState(doc, "k")
    #expect(rest.length == length - 2)
    #expect(utf16Units(rest.string) == Array(utf16Units(value).dropFirst(2)))
  }

  @Test("emoji take two code units each, in edits, deletions and styles")
  func emojiOffsets() async throws {
    // Offsets are UTF-16 code units (api.md; Go TestText "UTF-16 code units test" gives the
    // lengths). The expected strings follow from that rule.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("k")
      try text.edit(0, 0, "🌷🎁💩😜👍🏳")
      #expect(text.length == 12)
      try text.delete(2, 4)  // 🎁
      #expect(text.string == "🌷💩😜👍🏳")
      try text.edit(10, 10, "!")
      try text.setStyle(0, 2, ["b": "1"])
    }
    let state = try await textState(doc, "k")
    #expect(state.length == 11)
    #expect(state.json == #"[{"attrs":{"b":"1"},"val":"🌷"},{"val":"💩😜👍🏳"},{"val":"!"}]"#)
  }

  @Test("an offset inside a surrogate pair is rejected by edit, delete, setStyle and removeStyle")
  func midSurrogateRejected() async throws {
    // Mirrors JS unit surrogate_index_test "Reject mid-surrogate-pair indexes" (Text.edit,
    // Text.setStyle), matching Go's IsMidSurrogate guard (yorkie#2085). Splitting a pair is not
    // allowed: the natural behaviour, and the one the newest Yorkie has, is to throw and change
    // nothing (an older JS moved the split after the pair instead, surrogate_split_test).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("text").edit(0, 0, "😀x") }
    try await expectTextEditRejected(doc, "text") { text in try text.edit(1, 1, "y") }
    try await expectTextEditRejected(doc, "text") { text in try text.setStyle(0, 1, ["bold": "true"]) }
    try await expectTextEditRejected(doc, "text") { text in try text.delete(1, 3) }
    try await expectTextEditRejected(doc, "text") { text in try text.edit(0, 1, "") }
    try await expectTextEditRejected(doc, "text") { text in try text.removeStyle(1, 2, keys: ["bold"]) }
    let state = try await textState(doc, "text")
    #expect(utf16Units(state.string) == utf16Units("😀x"))
    #expect(state.length == 3)
  }

  @Test("offsets at the edges of a surrogate pair stay editable", arguments: [(0, "y😀x"), (2, "😀yx"), (3, "😀xy")])
  func surrogateBoundariesEditable(index: Int, expected: String) async throws {
    // Mirrors JS unit surrogate_index_test "keeps valid Text boundaries editable"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("text").edit(0, 0, "😀x") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(index, index, "y") }
    #expect(utf16Units(try await textState(doc, "text").string) == utf16Units(expected))
  }

  @Test("a pair in a later node is found by its offset in the whole text")
  func surrogateInLaterNode() async throws {
    // Mirrors JS unit surrogate_index_test "resolves Text indexes in a later node"
    func twoNodeDoc() async throws -> Document {
      let doc = Document(key: "test-doc")
      try await doc.update { root, _ in try root.setNewText("text").edit(0, 0, "😀x") }
      try await doc.update { root, _ in try #require(root.text("text")).edit(3, 3, "😀y") }
      return doc
    }
    try await expectTextEditRejected(try await twoNodeDoc(), "text") { text in try text.edit(4, 4, "w") }
    for (index, expected) in [(3, "😀xw😀y"), (5, "😀x😀wy"), (6, "😀x😀yw")] {
      let doc = try await twoNodeDoc()
      try await doc.update { root, _ in try #require(root.text("text")).edit(index, index, "w") }
      #expect(utf16Units(try await textState(doc, "text").string) == utf16Units(expected), "index \(index)")
    }
  }

  @Test("a rejected mid-pair edit discards the earlier edits of its update")
  func rejectedSurrogateEditRollsBack() async throws {
    // Mirrors the Text case of JS unit surrogate_index_test "discards earlier edits of the rejected
    // update" (without its undo/redo steps, which this API does not have)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("text").edit(0, 0, "😀x") }
    try await expectTextEditRejected(doc, "text") { text in
      try text.edit(3, 3, "z")
      try text.edit(1, 1, "y")
    }
    #expect(utf16Units(try await textState(doc, "text").string) == utf16Units("😀x"))
    try await doc.update { root, _ in try #require(root.text("text")).edit(3, 3, "z") }
    #expect(utf16Units(try await textState(doc, "text").string) == utf16Units("😀xz"))
  }

  @Test("ZWJ sequences, Hangul and combining marks are edited by code unit, not by character")
  func graphemeClustersAreNotAtomic() async throws {
    // No Yorkie test; the rule is api.md's (offsets are UTF-16 code units) with the one exception
    // Yorkie makes: the middle of a surrogate pair. Grapheme clusters get no protection.
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // 👨‍👩‍👧
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let text = root.setNewText("k")
      try text.edit(0, 0, family)
      #expect(text.length == 8)
      try text.edit(2, 2, "x")  // between 👨 and the first ZWJ
    }
    #expect(utf16Units(try await textState(doc, "k").string)
      == utf16Units("\u{1F468}x\u{200D}\u{1F469}\u{200D}\u{1F467}"))
    try await expectTextEditRejected(doc, "k") { text in try text.edit(5, 5, "y") }  // inside 👩

    try await doc.update { root, _ in
      let text = try #require(root.text("k"))
      try text.delete(0, text.length)
      try text.edit(0, 0, "\u{D55C}\u{AE00}")  // 한글
      try text.edit(1, 1, "\u{AD6D}")  // 국
      try text.edit(3, 3, "e\u{0301}")  // e + combining acute
      try text.edit(4, 4, "x")  // between the base letter and its mark
    }
    let state = try await textState(doc, "k")
    #expect(utf16Units(state.string) == utf16Units("\u{D55C}\u{AD6D}\u{AE00}ex\u{0301}"))
    #expect(state.length == 6)
  }

  // MARK: Invalid input

  @Test("a range outside the text throws indexOutOfBounds and changes nothing")
  func outOfRangeThrows() async throws {
    // api.md: "an index or range out of bounds (…, text ranges)" throws and changes nothing.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("k1").edit(0, 0, "abc") }
    try await expectTextEditRejected(doc, "k1") { text in try text.edit(0, 4, "") }
    try await expectTextEditRejected(doc, "k1") { text in try text.edit(4, 4, "x") }
    try await expectTextEditRejected(doc, "k1") { text in try text.edit(-1, 0, "x") }
    try await expectTextEditRejected(doc, "k1") { text in try text.delete(3, 4) }
    try await expectTextEditRejected(doc, "k1") { text in try text.setStyle(0, 5, ["b": "1"]) }
    try await expectTextEditRejected(doc, "k1") { text in try text.removeStyle(2, 9, keys: ["b"]) }
    try await expectTextEditRejected(doc, "k1") { text in _ = try text.indexRangeToPosRange((0, 4)) }
    do {
      try await doc.update { root, _ in try #require(root.text("k1")).edit(0, 4, "") }
      Issue.record("an edit past the end was accepted")
    } catch let error as YorkieError {
      #expect(error.code == .indexOutOfBounds)
    }
    #expect(await doc.toJSON() == #"{"k1":[{"val":"abc"}]}"#)
    // The end of the text is inside it.
    try await doc.update { root, _ in try #require(root.text("k1")).edit(3, 3, "d") }
    #expect(try await textState(doc, "k1").string == "abcd")
  }

  @Test("a reversed range throws")
  func reversedRangeThrows() async throws {
    // Mirrors JS json/text.ts `Text.edit` and `Text.setStyle`: "from should be less than or
    // equal to to".
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("k1").edit(0, 0, "abc") }
    try await expectTextEditRejected(doc, "k1") { text in try text.edit(2, 1, "") }
    try await expectTextEditRejected(doc, "k1") { text in try text.setStyle(3, 0, ["b": "1"]) }
    try await expectTextEditRejected(doc, "k1") { text in try text.delete(1, 0) }
    #expect(await doc.toJSON() == #"{"k1":[{"val":"abc"}]}"#)
  }

  @Test("an invalid range rolls back the valid edits before it")
  func invalidRangeRollsBackUpdate() async throws {
    // api.md: "a throw rolls the whole update back"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("k1").edit(0, 0, "abc") }
    try await expectTextEditRejected(doc, "k1") { text in
      try text.edit(0, 0, "new ")
      try text.setStyle(0, 3, ["b": "1"])
      try text.delete(0, 100)
    }
    #expect(await doc.toJSON() == #"{"k1":[{"val":"abc"}]}"#)
    #expect(await pendingChangeCount(doc) == 1)
  }

  @Test("a text proxy used after its update returned throws instead of editing")
  func expiredTextProxy() async throws {
    // api.md: "a proxy used after its update returned throws a clear error, it never edits silently"
    let doc = Document(key: "test-doc")
    let stale = Captured<JSONText>()
    try await doc.update { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "abc")
      stale.value = text
    }
    #expect(stale.value != nil)
    let json = await doc.toJSON()
    await #expect(throws: YorkieError.self) {
      try await doc.update { _, _ in _ = try stale.value?.edit(0, 0, "x") }
    }
    await #expect(throws: YorkieError.self) {
      try await doc.update { _, _ in try stale.value?.setStyle(0, 1, ["b": "1"]) }
    }
    await #expect(throws: YorkieError.self) {
      try await doc.update { _, _ in try stale.value?.delete(0, 1) }
    }
    #expect(await doc.toJSON() == json)
    #expect(await pendingChangeCount(doc) == 1)
  }

  // MARK: Change events

  @Test("edit and style report the text's path and their UTF-16 range")
  func editAndStyleOperationInfos() async throws {
    // Mirrors JS unit document_test "changeInfo test for text" and "changeInfo test for text with
    // attributes" (type, path, key, from and to; the operand is not compared)
    let doc = Document(key: "test-doc")
    let events = await doc.events()
    try await doc.update { root, _ in
      try root.setNewText("text").edit(0, 0, "hello world")
    }
    try await doc.update { root, _ in
      let text = root.setNewText("textWithAttr")
      try text.edit(0, 0, "hello world")
      try text.setStyle(0, 1, ["bold": "true"])
    }
    let received = await firstEvents(2, of: events)
    try #require(received.count == 2)
    guard case .localChange(let first) = received[0], case .localChange(let second) = received[1] else {
      Issue.record("expected two local changes, got \(received)")
      return
    }
    #expect(first.operations.map { OperationSummary($0) } == [
      OperationSummary(type: "set", path: "$", key: "text"),
      OperationSummary(type: "edit", path: "$.text", from: 0, to: 0),
    ])
    #expect(second.operations.map { OperationSummary($0) } == [
      OperationSummary(type: "set", path: "$", key: "textWithAttr"),
      OperationSummary(type: "edit", path: "$.textWithAttr", from: 0, to: 0),
      OperationSummary(type: "style", path: "$.textWithAttr", from: 0, to: 1),
    ])
  }

  @Test("a path subscription on a text receives its edits")
  func pathStreamSeesTextEdits() async throws {
    // Mirrors the "$.text" part of JS unit document_test "check OperationInfo type for subscribe
    // path": every edit delivered at "$.text" has the path "$.text".
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in _ = root.setNewText("text") }
    let events = await doc.events(at: "$.text")
    try await doc.update { root, _ in try #require(root.text("text")).edit(0, 0, "hello world") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(6, 11, "yorkie") }
    let received = await firstEvents(2, of: events)
    try #require(received.count == 2)
    for event in received {
      guard case .localChange(let change) = event else {
        Issue.record("expected a local change, got \(event)")
        continue
      }
      #expect(change.operations.allSatisfy { $0.type == .edit && $0.path == "$.text" })
    }
    guard case .localChange(let last) = received[1] else { return }
    #expect(last.operations.map { OperationSummary($0) } == [
      OperationSummary(type: "edit", path: "$.text", from: 6, to: 11)
    ])
  }
}
