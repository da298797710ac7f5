import Foundation
import Testing
import CRDT

// JSONValue ⇄ Codable: a realistic app model round-trips through JSONValue and through a
// document; errors name the path that failed; integers keep the widths Yorkie stores.

/// A shared board, as an app would model it.
private struct Board: Codable, Equatable {
  var title: String
  var createdAt: Date
  var owner: Person
  var todos: [Todo]
  var limits: [String: Int]
  var revision: Int64
}

private struct Person: Codable, Equatable {
  var name: String
  var avatar: Data?
}

private struct Todo: Codable, Equatable {
  var title: String
  var done: Bool
  var due: Date?
  var priority: Int8
  var weight: Double
  var tags: [String]
  var attachments: [Attachment]
}

/// An enum with associated values: Swift's synthesized conformance nests it as an object.
private enum Attachment: Codable, Equatable {
  case link(URL)
  case file(name: String, bytes: Data)
  case note(String, pinned: Bool)
  case none
}

private func sampleBoard() -> Board {
  // Whole milliseconds: a document keeps dates to the millisecond.
  let created = Date(timeIntervalSince1970: 1_700_000_000.125)
  return Board(
    title: "Groceries",
    createdAt: created,
    owner: Person(name: "ann", avatar: Data([0, 1, 254, 255])),
    todos: [
      Todo(title: "milk", done: false, due: created.addingTimeInterval(86_400), priority: 2, weight: 1.5, tags: ["dairy"],
           attachments: [.link(URL(string: "https://example.com/milk")!), .none]),
      Todo(title: "eggs", done: true, due: nil, priority: -1, weight: 0, tags: [],
           attachments: [.file(name: "list.txt", bytes: Data("12 eggs".utf8)), .note("free range", pinned: true)]),
    ],
    limits: ["items": 40],
    revision: 7)
}

@Suite("Codable")
struct CodableTests {
  @Test("a board round-trips through JSONValue, with Yorkie's types for dates, bytes and integer widths")
  func roundTripThroughJSONValue() throws {
    let board = sampleBoard()
    let value = try JSONValueEncoder().encode(board)
    #expect(value["createdAt"] == .date(board.createdAt))
    #expect(value["owner"]?["avatar"] == .bytes(Data([0, 1, 254, 255])))
    #expect(value["revision"] == .long(7))                         // Int64: always a Long
    #expect(value["limits"]?["items"] == .integer(40))             // Int that fits: an Integer
    #expect(value["todos"]?[0]?["priority"] == .integer(2))
    #expect(value["todos"]?[1]?["due"] == nil)                     // nil: no member
    #expect(value["todos"]?[1]?["attachments"]?[1]?.jsonString == #"{"note":{"_0":"free range","pinned":true}}"#)
    #expect(value["todos"]?[0]?["attachments"]?[1]?.jsonString == #"{"none":{}}"#)
    #expect(try JSONValueDecoder().decode(Board.self, from: value) == board)
  }

  @Test("a board written with set(_:encoding:) reads back with doc.decode, and its JSON is plain")
  func roundTripThroughDocument() async throws {
    let doc = Document(key: "board")
    let board = sampleBoard()
    try await doc.update { root, _ in
      try root.set("board", encoding: board)
      try root.set("note", encoding: Todo(title: "x", done: false, due: nil, priority: 0, weight: 0.25, tags: ["a"], attachments: []))
    }
    #expect(try await doc.decode(Board.self, at: "$.board") == board)
    #expect(try await doc.decode([Todo].self, at: "$.board.todos") == board.todos)
    #expect(try await doc.decode(String.self, at: "$.board.todos.1.title") == "eggs")
    #expect(await doc.toJSON().hasSuffix(
      #""note":{"title":"x","done":false,"priority":0,"weight":0.25,"tags":["a"],"attachments":[]}}"#))
  }

  @Test("arrays take encoded values: append, insert and set, with the element's path in errors")
  func arrayForms() async throws {
    let doc = Document(key: "todos")
    try await doc.update { root, _ in
      let todos = root.setNewArray("todos")
      try todos.append(encoding: Person(name: "b", avatar: nil))
      try todos.insert(encoding: Person(name: "a", avatar: nil), at: 0)
      try todos.append(encoding: Person(name: "c", avatar: nil))
      try todos.set(encoding: Person(name: "C", avatar: Data([9])), at: 2)
    }
    #expect(try await doc.decode([Person].self, at: "$.todos")
      == [Person(name: "a", avatar: nil), Person(name: "b", avatar: nil), Person(name: "C", avatar: Data([9]))])
    let error = try #require(await decodeError {
      try await doc.update { root, _ in try root.array("todos")?.append(encoding: ["bad": Double.nan]) }
    })
    #expect(error.code == .invalidNumber)
    #expect(error.field == "$.todos.3.bad")
    #expect(try await doc.decode([Person].self, at: "$.todos").count == 3)
  }

  @Test("a value of the wrong kind fails with its path: $.board.todos.1.due")
  func decodeErrorNamesThePath() async throws {
    let doc = Document(key: "bad")
    let board = sampleBoard()
    try await doc.update { root, _ in
      try root.set("board", encoding: board)
      // A peer wrote a string where the app expects a date.
      root.object("board")?.array("todos")?.object(at: 1)?["due"] = "tomorrow"
    }
    let error = try #require(await decodeError { try await doc.decode(Board.self, at: "$.board") })
    #expect(error.code == .decodingFailed)
    #expect(error.field == "$.board.todos.1.due")
    #expect(error.message == "$.board.todos.1.due: expected a date, found a string")
    guard case .typeMismatch? = error.underlying as? DecodingError else {
      Issue.record("underlying: \(String(describing: error.underlying))")
      return
    }
  }

  @Test("a missing member names its own path; a missing path decodes an optional as nil")
  func missingValues() async throws {
    let doc = Document(key: "missing")
    try await doc.update { root, _ in
      root["todos"] = [["title": "milk", "done": false, "priority": 1, "weight": 1, "tags": [], "attachments": []], ["done": true]]
    }
    let error = try #require(await decodeError { try await doc.decode([Todo].self, at: "$.todos") })
    #expect(error.field == "$.todos.1.title")
    #expect(error.message == "$.todos.1.title: missing")
    // An integral weight stored as an Integer (as a JS peer stores 1) reads as a Double.
    #expect(try await doc.decode(Double.self, at: "$.todos.0.weight") == 1)
    #expect(try await doc.decode(String?.self, at: "$.nothing") == nil)
    let absent = try #require(await decodeError { try await doc.decode(String.self, at: "$.nothing") })
    #expect(absent.field == "$.nothing")
  }

  @Test("integers that do not fit their Swift type fail with the path, never truncate")
  func integerOverflow() throws {
    struct Small: Codable { var level: Int8 }
    struct Medium: Codable { var count: Int32 }
    struct Unsigned: Codable { var size: UInt16 }
    let decoder = JSONValueDecoder()
    let tooBig = try #require(decodeError { _ = try decoder.decode(Small.self, from: ["level": 300]) })
    #expect(tooBig.field == "$.level")
    #expect(tooBig.message == "$.level: 300 does not fit in Int8")
    let long = try #require(decodeError { _ = try decoder.decode(Medium.self, from: ["count": .long(5_000_000_000)]) })
    #expect(long.message == "$.count: 5000000000 does not fit in Int32")
    let negative = try #require(decodeError { _ = try decoder.decode(Unsigned.self, from: ["size": -1]) })
    #expect(negative.field == "$.size")
    let fraction = try #require(decodeError { _ = try decoder.decode(Medium.self, from: ["count": 1.5]) })
    #expect(fraction.message == "$.count: 1.5 does not fit in Int32")
    #expect(try decoder.decode(Medium.self, from: ["count": 3.0]).count == 3)
    #expect(try decoder.decode(Int64.self, from: .long(Int64.max)) == Int64.max)

    // Encoding: Int as an Integer while it fits, a Long beyond; UInt64 past Int64 is refused.
    let encoder = JSONValueEncoder()
    #expect(try encoder.encode(Int(Int32.max)) == .integer(Int32.max))
    #expect(try encoder.encode(Int(Int32.max) + 1) == .long(Int64(Int32.max) + 1))
    #expect(try encoder.encode(UInt32.max) == .long(Int64(UInt32.max)))
    #expect(try encoder.encode(Int64(1)) == .long(1))
    #expect(try encoder.encode([UInt64(5)]) == [5])
    let huge = try #require(decodeError { _ = try encoder.encode(["size": UInt64.max]) })
    #expect(huge.code == .invalidNumber)
    #expect(huge.field == "$.size")
  }

  @Test("encoding refuses what a document cannot hold, naming the path; the update changes nothing")
  func encodingErrors() async throws {
    struct Reading: Codable { var value: Double }
    struct Keyed: Codable { var values: [String: Int] }
    let doc = Document(key: "refused")
    try await doc.update { root, _ in root["kept"] = true }
    let nan = try #require(await decodeError {
      try await doc.update { root, _ in try root.set("reading", encoding: [Reading(value: 1), Reading(value: .infinity)]) }
    })
    #expect(nan.code == .invalidNumber)
    #expect(nan.field == "$.reading.1.value")
    let dotted = try #require(await decodeError {
      try await doc.update { root, _ in try root.set("keyed", encoding: Keyed(values: ["a.b": 1])) }
    })
    #expect(dotted.code == .invalidKey)
    #expect(dotted.field == "$.keyed.values.a.b")
    let farDate = try #require(decodeError { _ = try JSONValueEncoder().encode(["at": Date(timeIntervalSince1970: 1e16)]) })
    #expect(farDate.code == .invalidNumber)
    #expect(farDate.field == "$.at")
    #expect(await doc.toJSON() == #"{"kept":true}"#)
    #expect(await pendingChangeCount(doc) == 1)
  }

  @Test("an error thrown by a type's own encode(to:) is encodingFailed at that value's path")
  func ownEncodeError() throws {
    struct Refusing: Encodable {
      func encode(to encoder: any Encoder) throws { throw DummyError() }
    }
    struct Holder: Encodable { var items: [Refusing] }
    let error = try #require(decodeError { _ = try JSONValueEncoder().encode(Holder(items: [Refusing()])) })
    #expect(error.code == .encodingFailed)
    #expect(error.field == "$.items.0")
    #expect(error.underlying as? DummyError == DummyError())
  }
}

/// The YorkieError `body` throws, or nil when it throws none (or another error).
private func decodeError(_ body: () throws -> Void) -> YorkieError? {
  do { try body() } catch let error as YorkieError { return error } catch { return nil }
  return nil
}

private func decodeError<T>(_ body: () async throws -> T) async -> YorkieError? {
  do { _ = try await body() } catch let error as YorkieError { return error } catch { return nil }
  return nil
}
