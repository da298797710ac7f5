import Foundation
import Observation
import Testing
import YorkieServer

@testable import CRDT
@testable import YorkieClient
@testable import YorkieObservation

/// A to-do as the app models it.
private struct Todo: Codable, Equatable, Sendable {
  var title: String
  var done: Bool
}

/// A main-actor view model over the document model, as an app writes one: its edits pass
/// copies of main-actor state into `update` and compile in Swift 6 mode without `@unchecked`
/// or `nonisolated(unsafe)`.
@MainActor
private final class TodoScreen {
  let model: DocumentModel
  var draft = ""

  init(model: DocumentModel) { self.model = model }

  var todos: [Todo] { (try? model.decode([Todo].self, at: "$.todos")) ?? [] }

  func add() async throws {
    let todo = Todo(title: draft, done: false)
    try await model.update(message: "add") { root, _ in
      if root.array("todos") == nil { _ = root.setNewArray("todos") }
      try root.array("todos")?.append(encoding: todo)
    }
    draft = ""
  }
}

@MainActor
@Suite("DocumentModel", .serialized)
struct DocumentModelTests {
  @Test("an edit through the model shows when it returns, decoded, and notifies once")
  func localEdit() async throws {
    let screen = TodoScreen(model: DocumentModel(document: Document(key: "todos")))
    await screen.model.refresh()
    let counter = ObservationCounter { readEverything(screen.model) }
    screen.draft = "milk"
    try await screen.add()
    #expect(screen.todos == [Todo(title: "milk", done: false)])
    #expect(screen.model.isSaved == false)  // no client: the change waits for an acknowledgement
    await settle()
    #expect(counter.count == 1)
  }

  @Test("a pulled pack of 1,000 changes is one observable update")
  func thousandChangePack() async throws {
    let (local, remote) = try await makeReplicas(key: "burst")
    let model = DocumentModel(document: local)
    await model.refresh()
    let before = model.statistics.notifications
    let counter = ObservationCounter { readEverything(model) }
    try await remote.update { root, _ in _ = root.setNewText("note") }
    for index in 0..<999 {
      try await remote.update { root, _ in _ = try root.text("note")?.edit(index, index, "x") }
    }
    let pack = try await remote.createChangePack()
    #expect(pack.changes.count == 1000)
    try await local.applyChangePack(pack)
    #expect(await eventually { model.value["note"]?.textValue?.string.count == 999 })
    await settle()
    #expect(counter.count == 1)
    #expect(model.statistics.notifications - before == 1)
  }

  @Test("a snapshot is one observable update")
  func snapshotNotifiesOnce() async throws {
    let (local, remote) = try await makeReplicas(key: "snapshot")
    let model = DocumentModel(document: local)
    await model.refresh()
    for index in 0..<200 {
      try await remote.update { root, _ in root["k\(index % 20)"] = .integer(Int32(index)) }
    }
    try await remote.update { root, _ in _ = try root.setNewText("note").edit(0, 0, "from a snapshot") }
    let before = model.statistics.notifications
    let counter = ObservationCounter { readEverything(model) }
    // As a server answers a replica that is too far behind: the whole document, no changes.
    try await local.applyChangePack(ChangePack(
      key: "snapshot", checkpoint: Checkpoint(serverSeq: 201, clientSeq: 0), changes: [],
      versionVector: await remote.versionVector, snapshot: await remote.snapshot()))
    #expect(await eventually { model.value["note"]?.textValue?.string == "from a snapshot" })
    await settle()
    #expect(model.value == (await remote.value))
    #expect(counter.count == 1)
    #expect(model.statistics.notifications - before == 1)
  }

  @Test(
    "a peer typing 60 (or 240) edits a second makes at most one refresh per frame",
    arguments: [60, 240])
  func typingPeer(editsPerSecond: Int) async throws {
    let (local, remote) = try await makeReplicas(key: "typing-\(editsPerSecond)")
    let model = DocumentModel(document: local)
    try await remote.update { root, _ in _ = root.setNewText("note") }
    try await local.applyChangePack(try await remote.createChangePack())
    #expect(await eventually { model.value["note"] != nil })
    await settle()
    let before = model.statistics
    // Two seconds of typing, each key its own change applied as it arrives. The bound is the
    // number of frames that actually passed, so a slow machine cannot make the test fail: it
    // only makes fewer refreshes.
    let clock = ContinuousClock()
    let start = clock.now
    let keys = editsPerSecond * 2
    for index in 0..<keys {
      try await clock.sleep(until: start + .seconds(1) / editsPerSecond * index)
      try await remote.update { root, _ in _ = try root.text("note")?.edit(index, index, "k") }
      try await local.applyChanges(try await remote.changes(since: await local.versionVector))
    }
    #expect(await eventually { model.value["note"]?.textValue?.string.count == keys })
    let frames = Int((clock.now - start) / model.refreshInterval)
    let refreshes = model.statistics.refreshes - before.refreshes
    print("typing peer: \(keys) edits at \(editsPerSecond)/s, \(refreshes) refreshes in \(frames) frames")
    #expect(refreshes >= 1)
    #expect(refreshes <= frames + 2)
    #expect(model.statistics.notifications - before.notifications <= refreshes)
  }

  @Test("events more often than the interval make at most one refresh per interval")
  func coalescesTyping() async throws {
    let (local, remote) = try await makeReplicas(key: "typing")
    // A long interval makes the rule visible without timing the test: 20 packs applied in
    // a row, each its own set of events, all land in the refresh that follows the first.
    let model = DocumentModel(document: local, refreshInterval: .seconds(1))
    await model.refresh()
    try await remote.update { root, _ in _ = root.setNewText("note") }
    try await local.applyChangePack(try await remote.createChangePack())
    #expect(await eventually { model.value["note"] != nil })
    let refreshes = model.statistics.refreshes
    for index in 0..<20 {
      try await remote.update { root, _ in _ = try root.text("note")?.edit(index, index, "k") }
      try await local.applyChanges(try await remote.changes(since: await local.versionVector))
    }
    #expect(await eventually { model.value["note"]?.textValue?.string.count == 20 })
    #expect(model.statistics.refreshes - refreshes == 1)
  }

  @Test("releasing the model ends its tasks and the document's subscription")
  func releaseEndsObservation() async throws {
    let doc = Document(key: "released")
    weak var weakModel: DocumentModel?
    let feed: RefreshFeed
    do {
      let model = DocumentModel(document: doc)
      await model.refresh()
      weakModel = model
      feed = model.feed
      // The document's events, its history states and the refresh loop.
      #expect(feed.runningTasks == 3)
      #expect(await doc.hasSubscribers)
      #expect(await !doc.historySubscribers.isEmpty)
    }
    #expect(weakModel == nil)
    #expect(await eventually { feed.runningTasks == 0 })
    #expect(await eventually { await !doc.hasSubscribers })
    #expect(await eventually { await doc.historySubscribers.isEmpty })
    // Later changes reach no one.
    try await doc.update { root, _ in root["after"] = true }
    #expect(feed.runningTasks == 0)
  }

  @Test("a refresh reads the value only when the content changed")
  func observedStateReadsOnlyWhatIsNeeded() async throws {
    let doc = Document(key: "needs")
    try await doc.update { root, _ in root["title"] = "draft" }
    #expect(await doc.observedState(.content).value == ["title": "draft"])
    #expect(await doc.observedState(.all).value == ["title": "draft"])
    // Not `.some(.null)`: the model would show an empty document until the next content change.
    #expect(await doc.observedState(.presence).value == nil)
    #expect(await doc.observedState(.sync).value == nil)
    #expect(await doc.observedState(.content).presences == nil)
  }

  @Test("decode reads the model's value and names the path that failed")
  func decodeFromModel() async throws {
    let model = DocumentModel(document: Document(key: "decode"))
    try await model.update { root, _ in root["todos"] = [["title": "milk", "done": "no"]] }
    #expect(throws: YorkieError.self) { try model.decode([Todo].self, at: "$.todos") }
    do {
      _ = try model.decode([Todo].self, at: "$.todos")
    } catch let error as YorkieError {
      #expect(error.code == .decodingFailed)
      #expect(error.field == "$.todos.0.done")
    }
    #expect(try model.decode(String.self, at: "$.todos.0.title") == "milk")
  }

  @Test("undo and redo through the model show at once; canUndo and canRedo follow edits made on the document too")
  func undoRedo() async throws {
    let doc = Document(key: "history")
    let model = DocumentModel(document: doc)
    await model.refresh()
    #expect(model.canUndo == false && model.canRedo == false)
    try await model.update { root, _ in root["title"] = "draft" }
    #expect(model.canUndo == true && model.canRedo == false)
    let counter = ObservationCounter { readEverything(model) }
    try await model.undo()
    // The value and both flags changed in one refresh: one notification.
    #expect(model.value == JSONValue.object(JSONValue.Object()))
    #expect(model.canUndo == false && model.canRedo == true)
    await settle()
    #expect(counter.count == 1)
    try await model.redo()
    #expect(model.value == ["title": "draft"])
    #expect(model.canUndo == true && model.canRedo == false)
    // An edit made on the document directly reaches the flags through historyStates().
    await doc.clearHistory()
    #expect(await eventually { model.canUndo == false && model.canRedo == false })
    await #expect(throws: YorkieError.self) { try await model.undo() }
  }
}
