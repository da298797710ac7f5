import Foundation
import Testing
import CRDT

/// Typed reads of `JSONValue` and texts read as spans, outside `update`.
@Suite("Read accessors")
struct ReadAccessorTests {
  @Test("each accessor reads its own kind and gives nil for the others")
  func scalarAccessors() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let bytes = Data([1, 2, 3])
    #expect(JSONValue.string("a").string == "a")
    #expect(JSONValue.integer(3).string == nil)
    #expect(JSONValue.bool(true).bool == true)
    #expect(JSONValue.integer(1).bool == nil)
    #expect(JSONValue.bytes(bytes).bytes == bytes)
    #expect(JSONValue.date(date).date == date)
    #expect(JSONValue.string("2024-01-01").date == nil)
    #expect(JSONValue.null.isNull)
    #expect(!JSONValue.integer(0).isNull)
    #expect(JSONValue.array([1, 2]).array == [1, 2])
    #expect(JSONValue.object(["a": 1]).object == ["a": 1])
    #expect(JSONValue.array([]).object == nil)
  }

  @Test("int reads Integer and Long only; double reads any number")
  func numbers() {
    #expect(JSONValue.integer(-7).int == -7)
    #expect(JSONValue.long(5_000_000_000).int == 5_000_000_000)
    #expect(JSONValue.double(3.0).int == nil)
    #expect(JSONValue.string("3").int == nil)
    #expect(JSONValue.integer(-7).int64 == -7)
    #expect(JSONValue.long(Int64.max).int64 == Int64.max)
    #expect(JSONValue.double(1).int64 == nil)
    #expect(JSONValue.double(2.5).double == 2.5)
    #expect(JSONValue.integer(2).double == 2.0)
    #expect(JSONValue.long(1 << 40).double == 1_099_511_627_776.0)
    #expect(JSONValue.bool(true).double == nil)
  }

  @Test("subscripts read members and elements, nil when absent or of another kind")
  func subscripts() {
    let value: JSONValue = ["todos": [["title": "milk", "done": false], ["title": "eggs", "done": true]], "count": 2]
    #expect(value["count"]?.int == 2)
    #expect(value["todos"]?[1]?["title"]?.string == "eggs")
    #expect(value["todos"]?[0]?["done"]?.bool == false)
    #expect(value["todos"]?[2] == nil)
    #expect(value["todos"]?[-1] == nil)
    #expect(value["missing"] == nil)
    #expect(value[0] == nil)
    #expect(value["count"]?["x"] == nil)
  }

  @Test("a document's value reads through the accessors")
  func documentValue() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      root["title"] = "Groceries"
      root["items"] = ["milk", "eggs"]
      root["price"] = 2.5
      root.setNewCounter("visits", .long(4)).increase(by: 1)
    }
    let value = await doc.value
    #expect(value["title"]?.string == "Groceries")
    #expect(value["items"]?.array?.compactMap(\.string) == ["milk", "eggs"])
    #expect(value["price"]?.double == 2.5)
    #expect(value["visits"]?.int == 5)
    #expect(try await doc.value(atPath: "$.items.1")?.string == "eggs")
  }

  @Test("a text reads as runs of equal attributes, with neighbouring pieces merged")
  func textSpans() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      let text = root.setNewText("body")
      try text.edit(0, 0, "Hello")
      try text.edit(5, 5, " world")
      try text.edit(11, 11, "!")
      try text.setStyle(0, 5, ["bold": true, "color": "red"])
      try text.setStyle(6, 11, ["link": ["href": "https://yorkie.dev"]])
    }
    #expect(await doc.toJSON() == #"{"body":[{"attrs":{"bold":true,"color":"red"},"val":"Hello"},{"val":" "},"#
      + #"{"attrs":{"link":{"href":"https://yorkie.dev"}},"val":"world"},{"val":"!"}]}"#)
    let text = try #require(try await doc.text(atPath: "$.body"))
    #expect(text.spans == [
      TextSpan("Hello", attributes: ["bold": true, "color": "red"]),
      TextSpan(" "),
      TextSpan("world", attributes: ["link": ["href": "https://yorkie.dev"]]),
      TextSpan("!"),
    ])
    #expect(text.string == "Hello world!")
    #expect(text.length == 12)
    #expect(text.description
      == #"["Hello" {"bold":true,"color":"red"}, " ", "world" {"link":{"href":"https://yorkie.dev"}}, "!"]"#)

    // Removing the attributes makes the runs one.
    try await doc.update { root, _ in
      let body = try #require(root.text("body"))
      try body.removeStyle(0, 12, keys: ["bold", "color", "link"])
    }
    #expect(try await doc.text(atPath: "$.body")?.spans == [TextSpan("Hello world!")])
  }

  @Test("text(atPath:) is nil for no element or another kind, and empty for an empty text")
  func textAtPathMisses() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      _ = root.setNewText("empty")
      root["list"] = [1]
      let notes = root.setNewArray("notes")
      try notes.appendNewText().edit(0, 0, "in an array")
      try root.setNewText("gone").edit(0, 0, "x")
      try root.text("gone")?.delete(0, 1)
    }
    #expect(try await doc.text(atPath: "$.empty") == TextValue(spans: []))
    #expect(try await doc.text(atPath: "$.gone")?.string == "")
    #expect(try await doc.text(atPath: "$.notes.0")?.string == "in an array")
    #expect(try await doc.text(atPath: "$.list") == nil)
    #expect(try await doc.text(atPath: "$.missing") == nil)
    #expect(try await doc.text(atPath: "$") == nil)
    await #expect(throws: YorkieError.self) { try await doc.text(atPath: "body") }
  }

  @Test("textValue reads a text's JSON form and refuses other arrays")
  func textValueFromJSON() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      let text = root.setNewText("t")
      try text.edit(0, 0, "ab")
      try text.setStyle(0, 1, ["b": 1])
    }
    let value = try #require(await doc.value["t"])
    #expect(value.textValue == TextValue(spans: [TextSpan("a", attributes: ["b": 1]), TextSpan("b")]))
    #expect(value.textValue == (try await doc.text(atPath: "$.t")))

    #expect(JSONValue.array([]).textValue == TextValue(spans: []))
    #expect(JSONValue.array(["a"]).textValue == nil)
    #expect(JSONValue.array([["val": 1]]).textValue == nil)
    #expect(JSONValue.array([["val": "a", "other": 1]]).textValue == nil)
    #expect(JSONValue.array([["val": "a", "attrs": "bold"]]).textValue == nil)
    #expect(JSONValue.string("ab").textValue == nil)
  }

  @Test("TextValue merges equal neighbours and drops empty runs")
  func textValueMerging() {
    let text = TextValue(spans: [TextSpan("a"), TextSpan(""), TextSpan("b"), TextSpan("c", attributes: ["i": true]),
                                 TextSpan("d", attributes: ["i": true]), TextSpan("🌷")])
    #expect(text.spans == [TextSpan("ab"), TextSpan("cd", attributes: ["i": true]), TextSpan("🌷")])
    #expect(text.length == 6)
  }
}

@Test("a path that does not start at the root is invalidPath; a missing element is nil")
func pathsStartAtTheRoot() async throws {
  let doc = Document(key: "paths")
  try await doc.update { root, _ in try root.setNewArray("todos").append("milk") }
  for path in ["todos", "", "todos.0", ".todos"] {
    do {
      _ = try await doc.value(atPath: path)
      Issue.record("value(atPath: \"\(path)\") did not throw")
    } catch let error as YorkieError {
      #expect(error.code == .invalidPath)
    }
  }
  #expect(try await doc.value(atPath: "$.todos.0") == "milk")
  #expect(try await doc.value(atPath: "$.todos.1") == nil)
  #expect(try await doc.value(atPath: "$.nothing") == nil)
  #expect(try await doc.text(atPath: "$.todos") == nil)
  await #expect(throws: YorkieError.self) { try await doc.text(atPath: "todos") }
}

@Suite("Paths: Yorkie's dot notation; bracket notation refused with the path to write")
struct PathNotationTests {
  /// The message of the `invalidPath` error `value(atPath:)` throws for `path` (recording an
  /// issue when it throws none, or another error).
  static func refusal(_ doc: Document, _ path: String) async -> String? {
    do {
      _ = try await doc.value(atPath: path)
      Issue.record("value(atPath: \(path)) did not throw")
    } catch let error as YorkieError {
      #expect(error.code == .invalidPath, "\(path)")
      return error.message
    } catch {
      Issue.record("not a YorkieError: \(error)")
    }
    return nil
  }

  @Test("bracket notation is invalidPath naming the dotted path to write")
  func bracketsRefused() async throws {
    let doc = Document(key: "brackets")
    try await doc.update { root, _ in
      root["a"] = ["b": "c"]
      root["list"] = [[10, 11]]
      root["it's"] = 1
      root["say \"hi\""] = 2
      _ = root.setNewText("notes")
    }
    let expected: [(path: String, dotted: String)] = [
      ("$['a']", "$.a"),
      ("$[\"a\"]", "$.a"),
      ("$['a']['b']", "$.a.b"),
      ("$.a['b']", "$.a.b"),
      ("$.list[0]", "$.list.0"),
      ("$.list[0][1]", "$.list.0.1"),
      ("$.list.0[1]", "$.list.0.1"),
      ("$[\"it's\"]", "$.it's"),
      ("$['say \"hi\"']", "$.say \"hi\""),
      ("$[0]", "$.0"),
    ]
    for (path, dotted) in expected {
      #expect(
        await Self.refusal(doc, path) == "bracket notation is not supported: write \"\(dotted)\" instead of \"\(path)\"")
    }
    // The dotted paths read what the brackets meant.
    #expect(try await doc.value(atPath: "$.a") == ["b": "c"])
    #expect(try await doc.value(atPath: "$.a.b") == "c")
    #expect(try await doc.value(atPath: "$.list.0.1") == 11)
    #expect(try await doc.value(atPath: "$.it's") == 1)
    #expect(try await doc.value(atPath: "$.say \"hi\"") == 2)
    // No dotted form: a quoted key with a dot (Yorkie's keys never have one), or no key at all.
    let general = "bracket notation is not supported: a path is \"$\" followed by \".key\" and \".index\" parts (keys never contain \".\"): "
    #expect(await Self.refusal(doc, "$['a.b']") == general + "\"$['a.b']\"")
    #expect(await Self.refusal(doc, "$[]") == general + "\"$[]\"")
    #expect(await Self.refusal(doc, "$.a[x]") == general + "\"$.a[x]\"")
    // text(atPath:) reads paths the same way.
    do {
      _ = try await doc.text(atPath: "$['notes']")
      Issue.record("text(atPath:) took bracket notation")
    } catch let error as YorkieError {
      #expect(error.code == .invalidPath)
      #expect(error.message == "bracket notation is not supported: write \"$.notes\" instead of \"$['notes']\"")
    }
    #expect(try await doc.text(atPath: "$.notes")?.string == "")
  }

  @Test("keys with brackets or quotes are read as written; a missing one is nil unless it reads as brackets")
  func bracketKeysReadAsWritten() async throws {
    let doc = Document(key: "bracket-keys")
    try await doc.update { root, _ in
      root["x[0]"] = "literal"
      root["[y]"] = "bracketed"
      root["q'"] = "quote"
      root["x"] = ["first"]
    }
    #expect(try await doc.value(atPath: "$.x[0]") == "literal")
    #expect(try await doc.value(atPath: "$.[y]") == "bracketed")
    #expect(try await doc.value(atPath: "$.q'") == "quote")
    #expect(try await doc.value(atPath: "$.x.0") == "first")
    #expect(try await doc.value(atPath: "$.q'.z") == nil)
    #expect(try await doc.value(atPath: "$.x[") == nil)
    #expect(await Self.refusal(doc, "$.x[1]") == "bracket notation is not supported: write \"$.x.1\" instead of \"$.x[1]\"")
  }

  @Test("a path that does not start at the root names the form of a path")
  func notAtTheRoot() async throws {
    let doc = Document(key: "not-root")
    #expect(await Self.refusal(doc, "a.b") == "a path starts at the root, \"$\" (as in \"$.todos.0\"): \"a.b\"")
    #expect(await Self.refusal(doc, "['a']") == "a path starts at the root, \"$\" (as in \"$.todos.0\"): \"['a']\"")
  }
}
