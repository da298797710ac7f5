import Testing
import CRDT

/// The README's quick start, so that what it promises stays true.
@Test("the README quick start prints what the README says")
func readmeQuickStart() async throws {
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
  #expect(await doc.toJSON() == #"{"title":"Groceries","items":[{"name":"milk","done":false}],"visits":1,"note":[{"val":"Buy "},{"attrs":{"bold":true},"val":"milk"}]}"#)
}
