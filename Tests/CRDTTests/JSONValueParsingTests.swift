import CRDT
import Foundation
import Testing

@Suite("JSONValue(parsing:)")
struct JSONValueParsingTests {
  @Test("valid JSON becomes the value, numbers typed as the JS SDK stores them")
  func parsesValues() throws {
    let value = try JSONValue(parsing: #" {"title": "milk \u00e9\n", "n": 7, "big": 5000000000, "x": -0.5e1, "tags": [true, null, []], "o": {}} "#)
    #expect(value == .object(JSONValue.Object([
      (key: "title", value: .string("milk é\n")), (key: "n", value: .integer(7)), (key: "big", value: .long(5_000_000_000)),
      (key: "x", value: .double(-5)), (key: "tags", value: .array([.bool(true), .null, .array([])])), (key: "o", value: .object(JSONValue.Object())),
    ])))
    #expect(try JSONValue(parsing: "0") == .integer(0))
    #expect(try JSONValue(parsing: "\"\"") == .string(""))
  }

  @Test("invalid JSON is an invalidJSON error at the byte offset where parsing stopped",
        arguments: [
          ("", 0), ("   ", 3), ("[1,]", 3), ("[1 2]", 3), ("{\"a\" 1}", 5), ("{a:1}", 1), ("tru", 3), ("nul!", 3), ("01", 1),
          ("1.", 2), ("-", 1), ("1e+", 3), ("\"abc", 4), ("\"a\u{1}\"", 2), ("\"\\x\"", 2), ("\"\\u12G4\"", 2),
          ("{\"é\":1,}", 8), ("[1] x", 4), ("NaN", 0), ("1e999", 0),
        ])
  func reportsOffset(text: String, offset: Int) {
    do {
      let value = try JSONValue(parsing: text)
      Issue.record("\(text.debugDescription) parsed as \(value)")
    } catch {
      #expect(error.code == .invalidJSON, "\(text.debugDescription)")
      #expect(error.offset == offset, "\(text.debugDescription): \(error)")
    }
  }

  @Test("nesting deeper than 512 is refused, not a stack overflow")
  func deepNesting() throws {
    let text = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: YorkieError.self) { try JSONValue(parsing: text) }
    #expect(try JSONValue(parsing: String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) != .null)
  }

  /// The forms of updater that must keep compiling next to the unavailable Sendable
  /// conformances of the proxies (Document+ProxyResult.swift): `{ root, _ in root.setNewText("t") }`
  /// does not compile, with "conformance of 'JSONText' to 'Sendable' is unavailable: a proxy is
  /// valid only inside its update: …".
  @Test("updaters that end with no value, a discarded proxy or a plain value compile and run")
  func updaterForms() async throws {
    let doc = Document(key: "forms")
    try await doc.update { root, _ in root["a"] = 1 }
    try await doc.update { root, _ in _ = root.setNewText("t") }
    try await doc.update { root, _ in
      let list = root.setNewArray("list")
      try list.append(1)
    }
    let count = try await doc.update { root, _ in root.array("list")?.count ?? -1 }
    #expect(count == 1)
    let text = try await doc.update { root, _ in root.text("t")?.string ?? "" }
    #expect(text == "")
    try await doc.update { root, presence in presence.set(["k": 1]) }
    #expect(await doc.toJSON() == #"{"a":1,"t":[],"list":[1]}"#)
  }
}
