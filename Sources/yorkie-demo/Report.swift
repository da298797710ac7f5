import Foundation
import YorkieClient

/// The end of the demo: prints the converged document and checks that every client holds the
/// same one, with the counter the scripts add up to.
enum Report {
  /// Prints the document and checks convergence; throws ``DemoError`` when the clients differ
  /// or the counter is not `expectedLikes`.
  static func check(_ cast: [Participant], expectedLikes: Int64, log: DemoLog) async throws {
    var replicas: [(name: String, json: String)] = []
    for participant in cast {
      replicas.append((participant.name, await participant.document.toSortedJSON()))
    }
    guard let first = replicas.first else { throw DemoError("no clients") }
    guard replicas.allSatisfy({ $0.json == first.json }) else {
      for replica in replicas { log.plain("\(replica.name): \(replica.json)") }
      throw DemoError("the clients did not converge: their documents differ (printed above)")
    }
    let document = cast[0].document
    let value = await document.value
    let text = try await document.text(atPath: "$.\(Shape.text)")
    let likes = value[Shape.counter]?.int64
    let todos = (value["todos"]?.array ?? []).map { item in
      "\(item["done"]?.bool == true ? "[x]" : "[ ]") \(item["title"]?.string ?? "?")"
    }
    log.plain("")
    log.plain("document (sorted JSON):")
    log.plain(first.json)
    log.plain("text:    \(text.map(styled) ?? "(none)")")
    log.plain("plain:   \(JSONValue.string(text?.string ?? "").jsonString)")
    log.plain("todos:   \(todos.joined(separator: " · "))")
    if let outline = try await document.tree(atPath: "$.\(Shape.outline)") {
      log.plain("outline: \(outline.xml)")
    }
    log.plain("likes:   \(likes.map(String.init) ?? "(none)") (expected \(expectedLikes), the sum of every client's increases)")
    guard likes == expectedLikes else {
      throw DemoError("the counter is \(likes.map(String.init) ?? "missing"), expected \(expectedLikes)")
    }
    log.plain("converged: identical on all \(cast.count) clients")
    log.plain("")
  }

  /// The text with its styles marked as in Markdown: `**bold**`, `_italic_`.
  private static func styled(_ text: TextValue) -> String {
    text.spans.map { span in
      var run = span.text
      let trimmed = run.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return run }
      var marked = trimmed
      if span.attributes["italic"]?.bool == true { marked = "_\(marked)_" }
      if span.attributes["bold"]?.bool == true { marked = "**\(marked)**" }
      run = run.replacingOccurrences(of: trimmed, with: marked)
      return run
    }.joined().trimmingCharacters(in: .whitespaces)
  }
}
