// `swift run yorkie-swiftui-sample`: the SwiftUI sample of issue 25, headless. An in-process
// development server, two clients on one board (a to-do list and a shared note). Ann's screen
// is a DocumentModel; Bob edits and moves his caret; each step prints what Ann's view shows:
// the to-dos, the note with Bob's caret, and the "saved" indicator. On Apple platforms
// BoardView.swift shows the same model in SwiftUI.
//
// The run checks itself: each step names the screen it must show, and a step whose screen does
// not come within 10 s ends the run with status 1 (CI runs it).
import Foundation
import YorkieClient
import YorkieObservation
import YorkieServer

/// A step whose screen never became the expected one.
struct WrongScreen: Error, CustomStringConvertible {
  var step: String
  var expected: [String]
  var shown: String

  var description: String {
    "the step \"\(step)\" showed\n\(shown)\ninstead of\n" + expected.joined(separator: "\nor\n")
  }
}

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

  /// Waits (up to 10 s) until Ann's screen is one of `expected`, prints it, and throws
  /// `WrongScreen` when it never was. `wait: false` checks the screen as it is now.
  func show(_ step: String, _ expected: String..., wait: Bool = true) async throws {
    if wait {
      for _ in 0..<2_000 where !expected.contains(screen.rendered) { try? await Task.sleep(nanoseconds: 5_000_000) }
    }
    let shown = screen.rendered
    print("— \(step)\n\(shown)\n")
    guard expected.contains(shown) else { throw WrongScreen(step: step, expected: expected, shown: shown) }
  }

  try await show("Bob joins", """
    [live, saved]
    To do:
    Note: |bob|
    Peers: bob
    """)

  try await screen.add("milk")
  // Whether the push was acknowledged before the edit's refresh read the client depends on
  // timing: either label is right, the to-do must be there.
  try await show("Ann adds \"milk\" (the edit shows at once)", """
    [live, saving…]
    To do:
      [ ] milk
    Note: |bob|
    Peers: bob
    """, """
    [live, saved]
    To do:
      [ ] milk
    Note: |bob|
    Peers: bob
    """, wait: false)
  try await show("the server acknowledges it", """
    [live, saved]
    To do:
      [ ] milk
    Note: |bob|
    Peers: bob
    """)

  // Bob pulls "milk" first, so that his to-do goes after it (concurrent appends would be
  // ordered by their tickets, and the screens below would depend on timing).
  try await bob.sync(bobDoc)
  try await bobDoc.update { root, presence in
    try root.array("todos")?.append(encoding: Todo(title: "eggs", done: false))
    _ = try root.text("note")?.edit(0, 0, "Buy for Sunday")
    presence.set(["cursor": 14])
  }
  try await show("Bob adds \"eggs\" and types in the note", """
    [live, saved]
    To do:
      [ ] milk
      [ ] eggs
    Note: Buy for Sunday|bob|
    Peers: bob
    """)

  try await bobDoc.update { root, presence in
    _ = try root.text("note")?.edit(4, 4, "fresh things ")
    presence.set(["cursor": 17])
  }
  try await show("Bob inserts \"fresh things \" and his caret moves with it", """
    [live, saved]
    To do:
      [ ] milk
      [ ] eggs
    Note: Buy fresh things |bob|for Sunday
    Peers: bob
    """)

  try await screen.toggle(0)
  try await show("Ann ticks \"milk\"", """
    [live, saved]
    To do:
      [x] milk
      [ ] eggs
    Note: Buy fresh things |bob|for Sunday
    Peers: bob
    """)
  // (A wrong screen ends the process, clients and all: there is nothing to close then.)
  await ann.close()
  await bob.close()
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
  do {
    try await runSample()
  } catch {
    FileHandle.standardError.write(Data("yorkie-swiftui-sample: \(error)\n".utf8))
    exit(1)
  }
} else {
  print("yorkie-swiftui-sample needs the Observation framework (macOS 14 or later)")
}
