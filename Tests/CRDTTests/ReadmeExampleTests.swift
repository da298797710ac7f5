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

/// The README's "Sync by hand" section, line for line.
@Test("the README's two replicas syncing by hand converge, with presence")
func readmeSyncByHand() async throws {
  let alice = Document(key: "notes")
  let bob = Document(key: "notes")
  try await alice.setActor(.random())
  try await bob.setActor(.random())
  await alice.setStatus(.attached)
  await bob.setStatus(.attached)
  await alice.setOnlineClients([await bob.actorID])
  await bob.setOnlineClients([await alice.actorID])

  // Sends what `to` lacks; sending twice is harmless. Once `to` has the changes, the
  // sender may forget them.
  func send(from: Document, to: Document) async throws {
    let changes = try await from.changes(since: await to.versionVector)
    try await to.applyChanges(changes)
    if let last = changes.last { try await from.acknowledgeChanges(through: last.id.clientSeq) }
  }

  try await alice.update { root, presence in
    root["title"] = "Groceries"
    try root.setNewArray("todos").append("milk")
    presence.set(["name": "Alice"])
  }
  try await send(from: alice, to: bob)
  try await bob.update { root, presence in
    try root.array("todos")?.append("eggs")
    presence.set(["name": "Bob", "cursor": 1])
  }
  try await send(from: bob, to: alice)

  #expect(await alice.toJSON() == #"{"title":"Groceries","todos":["milk","eggs"]}"#)
  #expect(await bob.toJSON() == (await alice.toJSON()))
  #expect(await alice.presence(of: await bob.actorID) == ["name": "Bob", "cursor": 1])
  #expect(await alice.hasLocalChanges == false)
}

/// The README's tree example ("Block and rich-text documents: trees"), line for line.
@Test("the README's tree example prints what the README says")
func readmeTree() async throws {
  let doc = Document(key: "outline")
  try await doc.update { root, _ in
    let tree = root.setNewTree("content", .element("doc", children: [
      .element("p", children: [.text("Hello world")]),
    ]))
    try tree.edit(7, 7, splitLevel: 1)                 // Enter after "Hello "
    try tree.edit(9, 10, [.text("W")])                 // "world" becomes "World"
    try tree.style(0, 1, ["bold": true])               // the first paragraph
  }
  let content = try await doc.tree(atPath: "$.content")
  #expect(content?.xml ?? "" == #"<doc><p bold="true">Hello </p><p>World</p></doc>"#)
  #expect(content?.size ?? 0 == 15)
  #expect(await doc.toJSON() == #"{"content":{"type":"doc","children":[{"type":"p","children":[{"type":"text","value":"Hello "}],"attributes":{"bold":true}},{"type":"p","children":[{"type":"text","value":"W"},{"type":"text","value":"orld"}]}]}}"#)
}
