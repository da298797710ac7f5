import Foundation
import YorkieClient

/// Who a scripted client is and what it will type.
struct Role: Sendable {
  /// The client's key and display name.
  var name: String
  /// Its color, in its presence.
  var color: String
  /// The words it types, one per round.
  var words: [String]
  /// The to-do item it adds.
  var todo: String

  /// The three clients of the demo.
  static let cast = [
    Role(name: "ann", color: "tomato", words: ["Ship", "the", "demo."], todo: "Buy oat milk"),
    Role(name: "bob", color: "blue", words: ["Write", "clear", "docs."], todo: "Print the badges"),
    Role(name: "cho", color: "green", words: ["Test", "every", "path."], todo: "Check the Wi-Fi"),
  ]
}

/// The document's starting shape: what the first client to attach puts there through
/// `initialRoot` (the text and the counter too, so that no client creates its own).
enum Shape {
  /// The key of the text.
  static let text = "note"
  /// The key of the counter.
  static let counter = "likes"
  /// The key of the outline: a Yorkie Tree of paragraphs, one per client.
  static let outline = "outline"
  /// Every key of the shape.
  static let initialRoot: [String: InitialValue] = [
    "title": "Team offsite",
    "todos": [
      ["title": "Book the venue", "done": false, "by": "ann"],
      ["title": "Send the invites", "done": false, "by": "bob"],
    ],
    text: .text(),
    counter: .counter(.long(0)),
    outline: .tree(.element("outline", children: [.element("h1", children: [.text("Agenda")])])),
  ]
}

/// What a client does to the to-do list in a round.
enum TodoAction: Sendable {
  /// Appends an item with this title.
  case append(String)
  /// Toggles `done` of the item picked by the number.
  case toggle(UInt64)
  /// Moves the item picked by the number to the top (the top one to the bottom).
  case move(UInt64)
  /// Removes the item picked by the number.
  case remove(UInt64)
}

/// One round of a client's script, drawn from its seeded generator before the update runs.
struct RoundPlan: Sendable {
  /// The client's name (for the items it adds).
  var author: String
  /// The to-do list edit.
  var todo: TodoAction
  /// The word to type at the cursor (a space follows it).
  var word: String
  /// The style to give the word (`bold` or `italic`), if any.
  var style: String?
  /// How much to increase the counter by.
  var likes: Int64
  /// The cursor, as a position that follows the text's edits; nil for the start.
  var cursor: TextPosition?

  /// Applies the round inside an update; returns what it did and the new cursor.
  func apply(to root: JSONObject, _ presence: Presence) throws -> (summary: String, cursor: TextPosition) {
    guard let todos = root.array("todos"), let text = root.text(Shape.text), let counter = root.counter(Shape.counter),
      let outline = root.tree(Shape.outline)
    else {
      throw DemoError("the document lacks its to-do list, text, counter or outline")
    }
    let todoSummary = try edit(todos)
    let outlineSummary = try edit(outline)
    let start = try cursor.map { try text.posRangeToIndexRange(($0, $0)).0 } ?? 0
    let (caret, _) = try text.edit(start, start, word + " ")
    var typed = "typed \"\(word)\" at \(start)"
    if let style {
      try text.setStyle(start, start + word.utf16.count, [style: true])
      typed += " (\(style))"
    }
    counter.increase(by: likes)
    presence.set(["cursor": JSONValue(caret)])
    let summary = [todoSummary, typed, outlineSummary, "likes +\(likes)"].compactMap { $0 }.joined(separator: " · ")
    return (summary, try text.indexRangeToPosRange((caret, caret)).0)
  }

  /// Edits the outline: the client's own paragraph (`<p>ann: Ship</p>`) is appended at the
  /// end in its first round; later rounds type the word at the end of it and mark the
  /// paragraph with its author (an attribute). Returns what it did.
  private func edit(_ outline: JSONTree) throws -> String {
    let prefix = author + ":"
    guard case .element(_, _, let blocks) = outline.root,
      let mine = blocks.firstIndex(where: { block in
        guard case .element("p", _, let children) = block, case .text(let first)? = children.first else { return false }
        return first.hasPrefix(prefix)
      })
    else {
      try outline.edit(outline.size, outline.size, [.element("p", children: [.text(prefix + " " + word)])])
      return "outline ¶ \"\(word)\""
    }
    guard case .element(_, _, let children) = blocks[mine] else { return "outline unchanged" }
    let length = children.reduce(0) { total, child in
      if case .text(let value) = child { return total + value.utf16.count }
      return total
    }
    try outline.editByPath([mine, length], [mine, length], [.text(" " + word)])
    if style != nil {
      let start = try outline.pathToIndex([mine])
      try outline.style(start, start + 1, ["by": .string(author)])
    }
    return "outline +\"\(word)\""
  }

  /// Edits the to-do list; returns what it did (nil when there was nothing to do).
  private func edit(_ todos: JSONArray) throws -> String? {
    let count = todos.count
    func title(_ index: Int) -> String { todos[index]?["title"]?.string ?? "?" }
    switch todo {
    case .append(let title):
      try todos.append(["title": .string(title), "done": false, "by": .string(author)])
      return "added \"\(title)\""
    case .toggle(let pick):
      guard count > 0, let item = todos.object(at: Int(pick % UInt64(count))) else { return nil }
      let done = !(item["done"]?.bool ?? false)
      item["done"] = .bool(done)
      return "\(done ? "checked" : "unchecked") \"\(item["title"]?.string ?? "?")\""
    case .move(let pick):
      guard count > 1 else { return nil }
      let index = Int(pick % UInt64(count))
      let target = index == 0 ? count - 1 : 0
      let moved = title(index)
      try todos.move(from: index, to: target)
      return "moved \"\(moved)\" to the \(target == 0 ? "top" : "bottom")"
    case .remove(let pick):
      guard count > 0 else { return nil }
      let index = Int(pick % UInt64(count))
      let removed = title(index)
      try todos.remove(at: index)
      return "removed \"\(removed)\""
    }
  }
}

extension Participant {
  /// Plays `rounds` rounds with small random pauses; broadcasts on the channel after round
  /// `broadcastAfter` (1-based) when given; adds its counter increases to `likesAdded`.
  func play(rounds: Int, broadcastAfter: Int?) async throws {
    // Round 1 types plainly; rounds 2 and 3 make the word bold and italic, in a seeded order.
    let styles = Bool.random(using: &rng) ? ["bold", "italic"] : ["italic", "bold"]
    for round in 1...rounds {
      try await Task.sleep(nanoseconds: UInt64(Int.random(in: 5...40, using: &rng)) * 1_000_000)
      let todo: TodoAction
      switch round {
      case 1: todo = .append(role.todo)
      case 2: todo = .toggle(rng.next())
      default: todo = Bool.random(using: &rng) ? .move(rng.next()) : .remove(rng.next())
      }
      let style = round == 1 ? nil : styles[(round - 2) % styles.count]
      let plan = RoundPlan(
        author: name, todo: todo, word: role.words[(round - 1) % role.words.count], style: style,
        likes: Int64.random(in: 1...5, using: &rng), cursor: cursor)
      let outcome = try await document.update(message: "r\(round)") { root, presence in
        try plan.apply(to: root, presence)
      }
      cursor = outcome.cursor
      likesAdded += plan.likes
      log.event(name, "▸ r\(round) \(outcome.summary)")
      if round == broadcastAfter {
        let payload: JSONValue = ["msg": "halfway there, keep typing!"]
        log.event(name, "▸ broadcasts \"chat\" \(payload.jsonString) on the channel")
        try await client.broadcast(channel: room.key, topic: "chat", payload: payload)
      }
    }
  }
}
