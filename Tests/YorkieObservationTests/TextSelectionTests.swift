import Foundation
import Testing

@testable import CRDT
@testable import YorkieObservation

@Suite("TextSelection")
struct TextSelectionTests {
  @Test("a caret and a selection keep their characters across a peer's edits before them")
  func followsRemoteEdits() async throws {
    let (local, remote) = try await makeReplicas(key: "note")
    try await local.update { root, _ in _ = try root.setNewText("note").edit(0, 0, "milk and eggs") }
    try await remote.applyChanges(try await local.changes(since: await remote.versionVector))
    let caret = try await local.selection(inTextAt: "$.note", utf16: 4..<4)        // after "milk"
    let eggs = try await local.selection(inTextAt: "$.note", utf16: 9..<13)        // "eggs"
    #expect(caret.isCaret)

    // The peer puts an emoji (two UTF-16 units) and a word before both, and deletes "and ".
    try await remote.update { root, _ in
      _ = try root.text("note")?.edit(0, 0, "🥛 fresh ")
      _ = try root.text("note")?.edit(14, 18, "")
    }
    try await local.applyChanges(try await remote.changes(since: await local.versionVector))
    let string = try #require(try await local.text(atPath: "$.note")?.string)
    #expect(string == "🥛 fresh milk eggs")
    #expect(try await local.utf16Range(of: caret, inTextAt: "$.note") == 13..<13)
    let range = try await local.utf16Range(of: eggs, inTextAt: "$.note")
    #expect(range == 14..<18)
    let indexes = try #require(TextSelection.stringRange(range, in: string))
    #expect(string[indexes] == "eggs")
    #expect(TextSelection.utf16Range(indexes, in: string) == 14..<18)
  }

  @Test("offsets outside the text, inside a surrogate pair, or at no text are refused")
  func refusals() async throws {
    let doc = Document(key: "note")
    try await doc.update { root, _ in
      _ = try root.setNewText("note").edit(0, 0, "🥛ab")
      root["title"] = "x"
    }
    #expect(TextSelection.stringRange(1..<2, in: "🥛ab") == nil)
    #expect(TextSelection.stringRange(0..<5, in: "🥛ab") == nil)
    await #expect(throws: YorkieError.self) { try await doc.selection(inTextAt: "$.note", utf16: 0..<5) }
    do {
      _ = try await doc.selection(inTextAt: "$.title", utf16: 0..<0)
      Issue.record("a selection of a string")
    } catch let error as YorkieError {
      #expect(error.code == .typeMismatch)
    }
  }
}
