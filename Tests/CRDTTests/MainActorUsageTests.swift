import Foundation
import Testing
import CRDT

// The SwiftUI pattern, compiled in Swift 6 mode: a main-actor view model owns a document,
// edits it with `update`, takes values out of updates by returning them, reads typed values
// outside updates, and follows the document's events in a task. This file compiling with no
// warning is half of the test; the tests below check that it also behaves.

/// A note editor's view model, as a SwiftUI app would write it (minus `ObservableObject`,
/// which Linux lacks): main-actor state that views read, and async intents that edit the
/// document.
@MainActor
final class NoteEditorModel {
  let document: Document

  /// The title, as the view shows it.
  private(set) var title = ""
  /// The body's plain content.
  private(set) var body = ""
  /// The body's runs, for a styled rendering.
  private(set) var bodySpans: [TextSpan] = []
  /// Where the caret is in the body, in UTF-16 code units: what a text view takes.
  private(set) var caretOffset = 0
  /// The caret as the document knows it: a position that stays between the same characters
  /// while others edit the body (an offset kept across a remote edit would not).
  private var caret: TextPosition?
  /// The tags, in order.
  private(set) var tags: [String] = []
  /// The remote changes seen so far, described.
  private(set) var remoteLog: [String] = []
  /// How many events the observation task has handled.
  private(set) var handledEvents = 0

  private var observation: Task<Void, Never>?

  init(document: Document) {
    self.document = document
  }

  /// Starts following the document: every event refreshes the view state.
  func start() async {
    let events = await document.events()
    observation = Task { [weak self] in
      for await event in events {
        guard let self else { return }
        if case .remoteChange = event { self.remoteLog.append(event.description) }
        await self.refresh()
        self.handledEvents += 1
      }
    }
  }

  /// Stops following the document.
  func stop() {
    observation?.cancel()
    observation = nil
  }

  /// Creates the document's structure.
  func setUp(title: String) async throws {
    try await document.update(message: "set up") { root, _ in
      root["title"] = .string(title)
      _ = root.setNewText("body")
      root["tags"] = []
    }
    await refresh()
  }

  /// Types `text` at the caret and moves the caret after it. The caret is main-actor state: a
  /// copy goes into the update, and the new caret comes back as the update's result.
  func type(_ text: String) async throws {
    let caret = self.caret
    self.caret = try await document.update { root, presence in
      guard let body = root.text("body") else { return caret }
      let at = try caret.map { try body.posRangeToIndexRange(($0, $0)).0 } ?? 0
      let (end, _) = try body.edit(at, at, text)
      presence.set(["caret": JSONValue(end)])
      return try body.indexRangeToPosRange((end, end)).0
    }
    await refresh()
  }

  /// Makes `range` bold and returns the body's length, read inside the same update.
  func embolden(_ range: Range<Int>) async throws -> Int {
    try await document.update(message: "bold") { root, _ in
      guard let body = root.text("body") else { return 0 }
      try body.setStyle(range.lowerBound, range.upperBound, ["bold": true])
      return body.length
    }
  }

  /// Appends a tag and returns how many tags there are now.
  @discardableResult
  func addTag(_ tag: String) async throws -> Int {
    let count = try await document.update { root, _ -> Int in
      guard let tags = root.array("tags") else { return 0 }
      try tags.append(.string(tag))
      return tags.count
    }
    await refresh()
    return count
  }

  /// Reads the view state back from the document, through the typed accessors.
  func refresh() async {
    let value = await document.value
    title = value["title"]?.string ?? ""
    tags = value["tags"]?.array?.compactMap(\.string) ?? []
    let text = value["body"]?.textValue
    body = text?.string ?? ""
    bodySpans = text?.spans ?? []
    // Where the caret is now, after whatever others did: an update that changes nothing
    // records nothing, it only reads.
    let caret = self.caret
    caretOffset = (try? await document.update { root, _ in
      try caret.flatMap { try root.text("body")?.posRangeToIndexRange(($0, $0)).0 }
    }) ?? 0
  }
}

/// Polls `condition` on the main actor until it holds or two seconds pass.
@MainActor
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<400 {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 5_000_000)
  }
  return condition()
}

@MainActor
@Suite("Main-actor usage")
struct MainActorUsageTests {
  @Test("a main-actor view model edits, returns values out of updates and reads typed values")
  func viewModelEdits() async throws {
    let model = NoteEditorModel(document: Document(key: "note"))
    try await model.setUp(title: "Groceries")
    #expect(model.title == "Groceries")
    #expect(model.body == "")

    try await model.type("milk")
    #expect(model.caretOffset == 4)
    try await model.type(" and eggs")
    #expect(model.caretOffset == 13)
    #expect(model.body == "milk and eggs")

    let length = try await model.embolden(0..<4)
    #expect(length == 13)
    await model.refresh()
    #expect(model.bodySpans == [TextSpan("milk", attributes: ["bold": true]), TextSpan(" and eggs")])

    #expect(try await model.addTag("food") == 1)
    #expect(try await model.addTag("weekly") == 2)
    #expect(model.tags == ["food", "weekly"])
    #expect(await model.document.toJSON()
      == #"{"title":"Groceries","body":[{"attrs":{"bold":true},"val":"milk"},{"val":" and eggs"}],"#
      + #""tags":["food","weekly"]}"#)
  }

  @Test("the view model's observation task sees a remote change and refreshes")
  func viewModelFollowsRemoteChanges() async throws {
    let (local, remote) = await makeReplicas(key: "note")
    let model = NoteEditorModel(document: local)
    try await model.setUp(title: "Draft")
    try await crossSync(local, remote)
    await model.start()

    try await remote.update(message: "retitle") { root, _ in
      root["title"] = "Final"
      try root.text("body")?.edit(0, 0, "Hello")
    }
    try await crossSync(local, remote)

    #expect(await eventually { model.title == "Final" && model.body == "Hello" })
    #expect(model.remoteLog == [#"remoteChange(actor …000002, 2 ops, seq 1, "retitle")"#])
    model.stop()
  }

  @Test("the caret keeps its place between the same characters after a remote edit before it")
  func caretFollowsRemoteEdits() async throws {
    let (local, remote) = await makeReplicas(key: "note")
    let model = NoteEditorModel(document: local)
    try await model.setUp(title: "Draft")
    try await model.type("milk")
    try await crossSync(local, remote)
    await model.start()

    try await remote.update { root, _ in try root.text("body")?.edit(0, 0, "fresh ") }
    try await crossSync(local, remote)
    #expect(await eventually { model.body == "fresh milk" && model.handledEvents == 1 })
    #expect(model.caretOffset == 10)

    try await model.type(" and eggs")
    #expect(model.body == "fresh milk and eggs")
    #expect(model.caretOffset == 19)
    model.stop()
  }

  @Test("update returns the updater's result, and nothing is recorded for a read-only update")
  func updateReturnsResult() async throws {
    let doc = Document(key: "d")
    let caret = try await doc.update { root, _ in
      try root.setNewText("t").edit(0, 0, "hello").0
    }
    #expect(caret == 5)
    let snapshot: (Int, String?) = try await doc.update { root, _ in
      (root.text("t")?.length ?? -1, root["t"]?.textValue?.string)
    }
    #expect(snapshot.0 == 5)
    #expect(snapshot.1 == "hello")
    #expect(await pendingChangeCount(doc) == 1)
  }

  @Test("a throwing updater returns nothing and rolls back")
  func throwingUpdater() async throws {
    let doc = Document(key: "d")
    await #expect(throws: DummyError()) {
      let _: Int = try await doc.update { root, _ in
        root["x"] = 1
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == "{}")
    #expect(await pendingChangeCount(doc) == 0)
  }
}
