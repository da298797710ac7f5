// `swift run yorkie-swiftui-sample`: the SwiftUI sample of issue 25, headless. An in-process
// development server, two clients on one board (a to-do list and a shared note). Ann's screen
// is a DocumentModel; Bob edits and moves his caret; each step prints what Ann's view shows:
// the to-dos, the note with Bob's caret, and the "saved" indicator. On Apple platforms
// BoardView.swift shows the same model in SwiftUI.
import Foundation
import YorkieClient
import YorkieObservation
import YorkieServer

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
func runSample() async throws {
  let server = YorkieDevServer(configuration: YorkieDevServer.Configuration(logLevel: .error))
  let url = try server.start()
  defer { server.stop() }
  var annOptions = ClientOptions()
  annOptions.key = "ann"
  let ann = Client(url, options: annOptions)
  var bobOptions = ClientOptions()
  bobOptions.key = "bob"
  let bob = Client(url, options: bobOptions)
  try await ann.activate()
  try await bob.activate()

  let annDoc = Document(key: "board")
  try await ann.attach(annDoc, initialPresence: ["name": "ann"], initialRoot: ["todos": .value([]), "note": .text("")])
  let screen = BoardScreen(model: DocumentModel(document: annDoc, client: ann))
  let bobDoc = Document(key: "board")
  try await bob.attach(bobDoc, initialPresence: ["name": "bob", "cursor": 0])

  /// Waits until Ann's screen shows what `done` checks, then prints it.
  func show(_ step: String, until done: () -> Bool) async {
    for _ in 0..<2_000 where !done() { try? await Task.sleep(nanoseconds: 5_000_000) }
    print("— \(step)\n\(screen.rendered)\n")
    if ProcessInfo.processInfo.environment["SAMPLE_DEBUG"] != nil { print(screen.model.value.jsonString, Result { try screen.model.decode([Todo].self, at: "$.todos") }) }
  }

  await show("Bob joins") { screen.cursors.map(\.name) == ["bob"] && screen.model.isSaved }
  try await screen.add("milk")
  print("— Ann adds \"milk\" (the edit shows at once, not yet acknowledged)\n\(screen.rendered)\n")
  await show("the server acknowledges it") { screen.model.isSaved }

  try await bobDoc.update { root, presence in
    try root.array("todos")?.append(encoding: Todo(title: "eggs", done: false))
    _ = try root.text("note")?.edit(0, 0, "Buy for Sunday")
    presence.set(["cursor": 14])
  }
  await show("Bob adds \"eggs\" and types in the note") { screen.todos.count == 2 && screen.cursors.first?.offset == 14 }

  try await bobDoc.update { root, presence in
    _ = try root.text("note")?.edit(4, 4, "fresh things ")
    presence.set(["cursor": 17])
  }
  await show("Bob inserts \"fresh things \" and his caret moves with it") { screen.cursors.first?.offset == 17 }

  try await screen.toggle(0)
  await show("Ann ticks \"milk\"") { screen.todos.first?.done == true && screen.model.isSaved }
  await ann.close()
  await bob.close()
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
  try await runSample()
} else {
  print("yorkie-swiftui-sample needs the Observation framework (macOS 14 or later)")
}
