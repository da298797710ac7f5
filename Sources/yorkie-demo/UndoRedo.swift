import Foundation
import YorkieClient

/// Which way a client moves through its history.
enum HistoryAction: String, Sendable {
  case undo
  case redo
}

extension Participant {
  /// Undoes or redoes this client's latest step (its last round, for the first undo); returns
  /// what the change did, for the log. The change syncs like any edit.
  func replay(_ action: HistoryAction) async throws -> String {
    let events = await document.events()
    switch action {
    case .undo: try await document.undo()
    case .redo: try await document.redo()
    }
    // The change's own event: what the undo or redo restored, operation by operation.
    var kinds: [String] = []
    for await event in events {
      if case .localChange(let change) = event {
        kinds = change.operations.map(\.type.rawValue)
        break
      }
    }
    let flags = (await document.canUndo, await document.canRedo)
    let summary = kinds.isEmpty ? "nothing to restore" : "\(kinds.count) operations (\(Array(Set(kinds)).sorted().joined(separator: ", ")))"
    log.event(name, "▸ \(action.rawValue): \(summary) · can undo \(flags.0), can redo \(flags.1)")
    return summary
  }
}

extension Scenario {
  /// The first client undoes its last round, then redoes it; each time every other client must
  /// come to show the same document. After the redo the document is what it was before the
  /// undo (nobody else edits meanwhile).
  func undoAndRedo(_ cast: [Participant]) async throws {
    guard let author = cast.first else { return }
    let others = cast.dropFirst()
    let names = others.map(\.name).joined(separator: " and ")
    let before = await author.document.toSortedJSON()
    for action in [HistoryAction.undo, .redo] {
      _ = try await step(10, "\(author.name)'s \(action.rawValue)") { try await author.replay(action) }
      try await step(10, "the server acknowledging \(author.name)'s \(action.rawValue)") { try await author.settle() }
      try await waitUntil(5, "\(names) to see \(author.name)'s \(action.rawValue)") {
        let target = await author.document.toSortedJSON()
        for other in others where await other.document.toSortedJSON() != target { return false }
        return true
      }
      let now = await author.document.toSortedJSON()
      switch action {
      case .undo where now == before:
        throw DemoError("\(author.name)'s undo changed nothing: its last round should be gone")
      case .redo where now != before:
        throw DemoError("\(author.name)'s redo did not bring its last round back:\nbefore \(before)\nafter  \(now)")
      default:
        log.event("all", "see \(author.name)'s \(action.rawValue)")
      }
    }
  }
}
