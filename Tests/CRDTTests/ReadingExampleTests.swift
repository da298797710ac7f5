import Testing
import CRDT

/// The "Reading, returning values and observing" example proposed for the README, continued
/// from the quick start, so that what it promises is true.
@Test("the README's reading example gives what its comments say")
func readmeReadingExample() async throws {
  // The quick start.
  let doc = Document(key: "todos")
  try await doc.update { root, presence in
    root["title"] = "Groceries"
    let items = root.setNewArray("items")
    try items.append(["name": "milk", "done": false])
    root.setNewCounter("visits", .int(0)).increase(by: 1)
    let note = root.setNewText("note")
    try note.edit(0, 0, "Buy milk")
    try note.setStyle(4, 8, ["bold": true])
    presence.set(["cursor": 0])
  }
  try await doc.setActor(try ActorID(hex: "000000000000000000000001"))

  // The example.
  let events = await doc.events()
  let caret = try await doc.update { root, _ in
    try root.text("note")?.edit(8, 8, " and eggs").0 ?? 0
  }
  #expect(caret == 17)

  let value = await doc.value
  #expect(value["title"]?.string == "Groceries")
  #expect(value["items"]?[0]?["done"]?.bool == false)
  #expect(value["visits"]?.int == 1)
  let note = try #require(try await doc.text(atPath: "$.note"))
  #expect(note.string == "Buy milk and eggs")
  #expect("\(note.spans)" == #"["Buy ", "milk" {"bold":true}, " and eggs"]"#)

  for await event in events {
    #expect("\(event)" == "localChange(actor …000001, 1 op, seq 2)")
    if case .localChange(let change) = event {
      #expect("\(change.operations)" == #"[edit $.note 8..<8 " and eggs"]"#)
    }
    break
  }
}
