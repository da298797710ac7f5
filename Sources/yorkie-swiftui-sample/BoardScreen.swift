import Foundation
import YorkieClient
import YorkieObservation

/// A to-do as the app models it: decoded from the document with `Codable`.
struct Todo: Codable, Equatable, Sendable {
  var title: String
  var done: Bool
}

/// A peer's caret in the note, as its presence carries it (UTF-16 offsets of the note).
struct PeerCursor: Equatable {
  var name: String
  var offset: Int
}

/// What the screen shows, computed from the model alone: a view's body reads these.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
struct BoardScreen {
  let model: DocumentModel

  var todos: [Todo] { (try? model.decode([Todo].self, at: "$.todos")) ?? [] }

  var note: String { model.value["note"]?.textValue?.string ?? "" }

  var cursors: [PeerCursor] {
    model.others.compactMap { peer in
      guard let name = peer.presence["name"]?.string, let offset = peer.presence["cursor"]?.int else { return nil }
      return PeerCursor(name: name, offset: offset)
    }
  }

  var savedLabel: String { model.isSaved ? "saved" : "saving…" }

  var connectionLabel: String {
    switch model.connection {
    case .connected?: return "live"
    case .disconnected?: return "offline"
    case nil: return "local"
    }
  }

  /// The note with each peer's caret drawn as `|name|` where it is.
  var noteWithCursors: String {
    var units = Array(note.utf16)
    for cursor in cursors.sorted(by: { $0.offset > $1.offset }) where cursor.offset <= units.count {
      units.insert(contentsOf: Array("|\(cursor.name)|".utf16), at: cursor.offset)
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// The screen as text: what the headless run prints.
  var rendered: String {
    var lines = ["[\(connectionLabel), \(savedLabel)]", "To do:"]
    for todo in todos { lines.append("  [\(todo.done ? "x" : " ")] \(todo.title)") }
    lines.append("Note: \(noteWithCursors)")
    lines.append("Peers: " + cursors.map(\.name).joined(separator: ", "))
    return lines.joined(separator: "\n")
  }

  // MARK: - Intents

  func add(_ title: String) async throws {
    let todo = Todo(title: title, done: false)
    try await model.update(message: "add to-do") { root, _ in
      try root.array("todos")?.append(encoding: todo)
    }
  }

  func toggle(_ index: Int) async throws {
    try await model.update(message: "toggle") { root, _ in
      guard let todo = root.array("todos")?.object(at: index), let done = todo["done"]?.bool else { return }
      todo["done"] = .bool(!done)
    }
  }
}
