import CRDT
import Foundation
import Testing

// Undo and redo (issue 24), after Yorkie's history_test.ts, history_text_test.ts and
// history_array_test.ts: each kind's reverse on one replica, then the concurrency cases with
// two and three replicas exchanging changes through an in-process server (ChangeLog) in seeded
// random orders.

/// Syncs every replica twice in a random order, then expects them all to show the same JSON.
private func converge(_ docs: [Document], _ log: ChangeLog, _ rng: inout SeededRandom, collectGarbage: Bool = true,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
  try await syncInRandomOrder(docs, through: log, using: &rng, collectGarbage: collectGarbage)
  let first = await docs[0].toSortedJSON()
  for doc in docs.dropFirst() {
    await expectSorted(doc, first, sourceLocation: sourceLocation)
  }
  for doc in docs { #expect(await doc.checkInvariants() == nil, sourceLocation: sourceLocation) }
  return first
}

/// The code of the YorkieError `body` throws (nil when it throws none).
private func errorCode(_ body: () async throws -> Void) async -> YorkieError.Code? {
  do {
    try await body()
    return nil
  } catch {
    return (error as? YorkieError)?.code
  }
}

private func expectSorted(_ doc: Document, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async {
  let json = await doc.toSortedJSON()
  #expect(json == expected, sourceLocation: sourceLocation)
}

private func expectText(_ doc: Document, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async {
  let value = await text(doc)
  #expect(value == expected, sourceLocation: sourceLocation)
}

private func text(_ doc: Document, _ key: String = "t") async -> String {
  (try? await doc.update { root, _ in root.text(key)?.string ?? "" }) ?? "?"
}

@Suite("History: undo and redo")
struct HistoryTests {
  // MARK: One replica, each kind

  @Test("object set and remove are undone and redone in order")
  func objectSetAndRemove() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in root["a"] = 1 }
    try await doc.update { root, _ in root["a"] = 2 }
    try await doc.update { root, _ in root["b"] = .object(["c": "x"]) }
    try await doc.update { root, _ in root.remove("a") }
    await expectSorted(doc, #"{"b":{"c":"x"}}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"a":2,"b":{"c":"x"}}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"a":2}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"a":1}"#)
    try await doc.undo()
    await expectSorted(doc, "{}")
    #expect(await doc.canUndo == false)
    #expect(await doc.canRedo == true)
    for expected in [#"{"a":1}"#, #"{"a":2}"#, #"{"a":2,"b":{"c":"x"}}"#, #"{"b":{"c":"x"}}"#] {
      try await doc.redo()
      await expectSorted(doc, expected)
    }
    #expect(await doc.canRedo == false)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("array add, remove, move and set are undone and redone")
  func arrayKinds() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in try root.setNewArray("l").append(1); try root.array("l")?.append(2); try root.array("l")?.append(3) }
    try await doc.update { root, _ in try root.array("l")?.append(4) }
    try await doc.update { root, _ in try root.array("l")?.remove(at: 0) }
    try await doc.update { root, _ in try root.array("l")?.move(from: 0, to: 2) }
    try await doc.update { root, _ in try root.array("l")?.set(9, at: 1) }
    let states = [#"{"l":[1,2,3]}"#, #"{"l":[1,2,3,4]}"#, #"{"l":[2,3,4]}"#, #"{"l":[3,4,2]}"#, #"{"l":[3,9,2]}"#]
    await expectSorted(doc, states[4])
    for expected in states.dropLast().reversed() {
      try await doc.undo()
      await expectSorted(doc, expected)
      #expect(await doc.checkInvariants() == nil)
    }
    for expected in states.dropFirst() {
      try await doc.redo()
      await expectSorted(doc, expected)
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("an update that adds to an array, replaces the array, then sets the added element in it undoes to the array before it")
  func arraySetInReplacedArray() async throws {
    // Fuzz seed 14278501. The Set's reverse brings the array back as it was when replaced
    // (holding 1.5); the ArraySet's reverse is skipped (its array was removed then), and the
    // Add's reverse named the element by the ArraySet's alias, which that copy does not hold:
    // 1.5 stayed.
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = root.setNewArray("l") }
    await doc.clearHistory()
    try await doc.update { root, _ in
      let list = try #require(root.array("l"))
      try list.append(1.5)
      _ = root.setNewCounter("l", .int(0))
      try list.set(.null, at: 0)
    }
    await expectSorted(doc, #"{"l":0}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"l":[]}"#)
    #expect(await doc.checkInvariants() == nil)
    try await doc.redo()
    await expectSorted(doc, #"{"l":0}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"l":[]}"#)
  }

  @Test("an element re-created by an undo, then copied with its container beside its own tombstone, is still undone")
  func recreatedBesideItsTombstone() async throws {
    // Editing fuzz seed 1597760. The undo of the removal of "p" re-creates it as a new array
    // (the old one stays a tombstone in "d"); an ArraySet replaces "d", and its undo brings "d"
    // back as a copy holding both, the tombstone and the re-created array. The copy paired the
    // old tombstone with its removed copy, replacing the alias that led to the live one, and the
    // undo of the first Add (into "p") was skipped: "🇯🇵" stayed.
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = root.setNewArray("c").appendNewArray().appendNewArray() }
    await doc.clearHistory()
    try await doc.update { root, _ in try root.array("c")?.array(at: 0)?.array(at: 0)?.append(.string("🇯🇵")) }
    try await doc.update { root, _ in try root.array("c")?.array(at: 0)?.remove(at: 0) }
    await expectSorted(doc, #"{"c":[[]]}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"c":[[["🇯🇵"]]]}"#)
    try await doc.update { root, _ in try root.array("c")?.set(.integer(1), at: 0) }
    await expectSorted(doc, #"{"c":[1]}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"c":[[["🇯🇵"]]]}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"c":[[[]]]}"#)
    #expect(await doc.checkInvariants() == nil)
    #expect(await !doc.canUndo)
    try await doc.redo()
    await expectSorted(doc, #"{"c":[[["🇯🇵"]]]}"#)
  }

  @Test("text edits and styles are undone by identity and redone")
  func textKinds() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "hello world") }
    try await doc.update { root, _ in _ = try root.text("t")?.edit(0, 5, "HEY") }
    try await doc.update { root, _ in try root.text("t")?.setStyle(0, 3, ["b": true]) }
    await expectSorted(doc, #"{"t":[{"attrs":{"b":true},"val":"HEY"},{"val":" world"}]}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"t":[{"val":"HEY"},{"val":" world"}]}"#)
    try await doc.undo()
    await expectText(doc, "hello world")
    try await doc.undo()
    await expectText(doc, "")
    try await doc.redo()
    try await doc.redo()
    await expectText(doc, "HEY world")
    try await doc.redo()
    await expectSorted(doc, #"{"t":[{"attrs":{"b":true},"val":"HEY"},{"val":" world"}]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("undo of a style after garbage collection purged the deleted text before the styled run")
  func undoStyleAfterGarbageCollection() async throws {
    // The reverse Style of "bc" used to start at the end of the piece before it, the removed
    // "a", which the collection purged: the undo named a piece that no longer exists and was
    // skipped, leaving "bc" bold. It anchors on live text when it is undone now.
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abc") }
    try await doc.update { root, _ in try root.text("t")?.delete(0, 1) }
    try await doc.update { root, _ in try root.text("t")?.setStyle(0, 2, ["b": true]) }
    await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
    #expect(await doc.garbageLength == 0)
    try await doc.undo()
    await expectSorted(doc, #"{"t":[{"val":"bc"}]}"#)
    try await doc.undo()
    await expectText(doc, "abc")
    try await doc.redo()
    try await doc.redo()
    await expectSorted(doc, #"{"t":[{"attrs":{"b":true},"val":"bc"}]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("a counter's increase is undone by the opposite increase")
  func counterIncrease() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = root.setNewCounter("c", .int(10)) }
    try await doc.update { root, _ in root.counter("c")?.increase(by: 5) }
    try await doc.update { root, _ in root.counter("c")?.increase(by: -2) }
    await expectSorted(doc, #"{"c":13}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"c":15}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"c":10}"#)
    try await doc.redo()
    await expectSorted(doc, #"{"c":15}"#)
  }

  @Test("a new update empties the redo stack; undo with nothing to undo throws nothingToUndo")
  func newUpdateClearsRedo() async throws {
    let doc = Document(key: "h")
    #expect(await errorCode { try await doc.undo() } == .nothingToUndo)
    #expect(await errorCode { try await doc.redo() } == .nothingToRedo)
    try await doc.update { root, _ in root["a"] = 1 }
    try await doc.update { root, _ in root["a"] = 2 }
    try await doc.undo()
    #expect(await doc.canRedo)
    try await doc.update { root, _ in root["b"] = 3 }
    #expect(await doc.canRedo == false)
    #expect(await errorCode { try await doc.redo() } == .nothingToRedo)
    await expectSorted(doc, #"{"a":1,"b":3}"#)
  }

  @Test("the undo stack keeps the latest 50 steps")
  func fiftySteps() async throws {
    let doc = Document(key: "h")
    for value in 1...60 { try await doc.update { root, _ in root["n"] = .integer(Int32(value)) } }
    for _ in 0..<50 { try await doc.undo() }
    #expect(await doc.canUndo == false)
    await expectSorted(doc, #"{"n":10}"#)
    #expect(await doc.historyDepths.redo == 50)
    #expect(await errorCode { try await doc.undo() } == .nothingToUndo)
  }

  @Test("clearHistory empties both stacks")
  func clearHistory() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in root["a"] = 1 }
    try await doc.update { root, _ in root["a"] = 2 }
    try await doc.undo()
    await doc.clearHistory()
    #expect(await doc.canUndo == false)
    #expect(await doc.canRedo == false)
  }

  @Test("presence set with addToHistory travels with undo and redo")
  func presenceTravels() async throws {
    let doc = Document(key: "h")
    try await doc.setActor(actor(1))
    await doc.setStatus(.attached)
    try await doc.update { root, presence in
      root["a"] = 1
      presence.set(["cursor": 0], addToHistory: true)
    }
    try await doc.update { root, presence in
      root["a"] = 2
      presence.set(["cursor": 5], addToHistory: true)
    }
    try await doc.undo()
    #expect(await doc.myPresence == ["cursor": 0])
    await expectSorted(doc, #"{"a":1}"#)
    try await doc.undo()
    #expect(await doc.myPresence == [:])
    try await doc.redo()
    #expect(await doc.myPresence == ["cursor": 0])
    try await doc.redo()
    #expect(await doc.myPresence == ["cursor": 5])
    // A presence set without addToHistory is no step.
    try await doc.update { _, presence in presence.set(["cursor": 7]) }
    try await doc.undo()
    #expect(await doc.myPresence == ["cursor": 0])
  }

  @Test("an undo is a localChange whose infos say what was restored; historyStates follows both flags")
  func events() async throws {
    let doc = Document(key: "h")
    let events = await doc.events()
    let states = await doc.historyStates()
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abc") }
    try await doc.update { root, _ in try root.text("t")?.delete(1, 2) }
    try await doc.undo()
    try await doc.undo()
    try await doc.redo()
    await doc.clearHistory()
    var received: [DocEvent] = []
    for await event in events {
      received.append(event)
      if received.count == 5 { break }
    }
    let infos = received.compactMap { event -> [OperationInfo]? in
      if case .localChange(let change) = event { return change.operations } else { return nil }
    }
    // Only Yorkie's events: five local changes and nothing else.
    #expect(infos.count == 5)
    // The undo of the deletion puts "b" back at 1; the undo of the insertion removes "ac".
    #expect(infos[2].map(\.type) == [.edit])
    #expect(infos[2].first?.from == 1 && infos[2].first?.to == 1 && infos[2].first?.value == .string("b"))
    // One removal of all three characters, though the undo above split them into pieces.
    #expect(infos[3].map(\.type) == [.edit, .remove])
    #expect(infos[3].first?.from == 0 && infos[3].first?.to == 3)
    // The redo of that undo sets the text again and puts "abc" back.
    #expect(infos[4].map(\.type) == [.set, .edit])
    #expect(infos[4].last?.from == 0 && infos[4].last?.to == 0 && infos[4].last?.value == .string("abc"))
    var seen: [HistoryState] = []
    for await state in states {
      seen.append(state)
      if seen.count == 6 { break }
    }
    // The first state is the current one; then one per change of a flag (the second update
    // changes neither, so it sends nothing).
    #expect(seen == [HistoryState(canUndo: false, canRedo: false), HistoryState(canUndo: true, canRedo: false),
                     HistoryState(canUndo: true, canRedo: true), HistoryState(canUndo: false, canRedo: true),
                     HistoryState(canUndo: true, canRedo: true), HistoryState(canUndo: false, canRedo: false)])
  }

  // MARK: Found by the fuzzer

  @Test("undo of an array set inside a value the same update then replaced sets the old value back")
  func undoArraySetInsideReplacedValue() async throws {
    // The undo sets "k" back to the array as it was just before the update replaced it (with
    // "xyz"), as new elements; the array set's reverse names the old ones and must reach the
    // copies (it was skipped as acting on a removed array).
    let doc = Document(key: "h")
    try await doc.update { root, _ in root["k"] = .array([false, .array(["", 1]), true]) }
    try await doc.update { root, _ in
      try root.array("k")?.array(at: 1)?.set("xyz", at: 0)
      root["k"] = 419
    }
    try await doc.undo()
    await expectSorted(doc, #"{"k":[false,["",1],true]}"#)
    try await doc.redo()
    await expectSorted(doc, #"{"k":419}"#)
    try await doc.undo()
    await expectSorted(doc, #"{"k":[false,["",1],true]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  // MARK: Replicas

  @Test("a peer's edits are never undone; undo syncs and converges (3 replicas)")
  func peersNotUndone() async throws {
    for seed in SeededRandom.seeds(4, base: 0x4157) {
      print("history seed \(seed) (peers not undone)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(3)
      let log = ChangeLog(actors: [actor(1), actor(2), actor(3)])
      try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "base") }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in _ = try root.text("t")?.edit(4, 4, "-A") }
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(0, 0, "B-") }
      try await docs[2].update { root, _ in root["x"] = 3 }
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()
      let json = try await converge(docs, log, &rng)
      #expect(json == #"{"t":[{"val":"B-"},{"val":"base"}],"x":3}"#)
      #expect(await docs[0].canUndo)  // its first update, the text's creation, is still there
    }
  }

  @Test("undo of a set inside an object a peer removed meanwhile is skipped, and converges")
  func undoTargetRemovedByPeer() async throws {
    for seed in SeededRandom.seeds(4, base: 0x5E7) {
      print("history seed \(seed) (target removed)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(2)
      let log = ChangeLog(actors: [actor(1), actor(2)])
      try await docs[0].update { root, _ in _ = root.setNewObject("o") }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in root.object("o")?["k"] = "v" }
      try await docs[1].update { root, _ in root.remove("o") }
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()  // its set targets a removed object: skipped
      do { let json = try await converge(docs, log, &rng); #expect(json == "{}") }
      try await docs[0].undo()  // the object's creation: removes it (already removed)
      do { let json = try await converge(docs, log, &rng); #expect(json == "{}") }
      #expect(await docs[0].canUndo == false)
    }
  }

  @Test("edits a peer made inside an element whose removal is undone concurrently are dropped on every replica, in both orders",
        arguments: [false, true])
  func editsInsideRestoredElement(inArray: Bool) async throws {
    // A removes a container holding a text and undoes the removal (a copy as it was, under its
    // old tickets); B, who saw neither, types "Z" into the text, styles it and types "Q" after
    // "b". Where the restore arrives last it replaces the tombstone B edited; where it arrives
    // first, B's operations name the copy and B's own insertion, which the copy lacks: applied,
    // they would fail (and refuse B's whole change) or show "Q" on one replica only.
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      if inArray {
        try root.setNewArray("c").appendNewText().edit(0, 0, "ab")
      } else {
        try root.setNewObject("c").setNewText("t").edit(0, 0, "ab")
      }
    }
    try await b.applyChanges(await a.pendingChanges)
    try await a.update { root, _ in
      if inArray { try root.array("c")?.remove(at: 0) } else { root.remove("c") }
    }
    try await a.undo()
    try await b.update { root, _ in
      let text = inArray ? root.array("c")?.text(at: 0) : root.object("c")?.text("t")
      _ = try text?.edit(1, 1, "Z")
      try text?.setStyle(1, 2, ["bold": true])
      _ = try text?.edit(3, 3, "Q")
      if inArray { _ = root.array("c")?.appendNewObject() } else { _ = root.object("c")?.setNewObject("o") }
    }
    // A later change of B's edits the object its previous one created inside the copy.
    try await b.update { root, _ in
      let object = inArray ? root.array("c")?.object(at: 1) : root.object("c")?.object("o")
      object?["k"] = 1
    }
    // In the array, the object B appended is no edit inside the restored text: it stays.
    let expected = inArray ? #"{"c":[[{"val":"ab"}],{"k":1}]}"# : #"{"c":{"t":[{"val":"ab"}]}}"#
    let fromA = await a.pendingChanges, fromB = await b.pendingChanges
    try await a.applyChanges(fromB)
    try await b.applyChanges(fromA)
    #expect(await a.toSortedJSON() == expected)
    #expect(await b.toSortedJSON() == expected)
    #expect(await a.checkInvariants() == nil)
    #expect(await b.checkInvariants() == nil)
    // B's next edit, made after it saw the restore, lands in the copy on both.
    try await b.update { root, _ in
      let text = inArray ? root.array("c")?.text(at: 0) : root.object("c")?.text("t")
      _ = try text?.edit(2, 2, "!")
    }
    try await a.applyChanges(await b.pendingChanges)
    let typed = expected.replacingOccurrences(of: #"{"val":"ab"}"#, with: #"{"val":"ab"},{"val":"!"}"#)
    #expect(await a.toSortedJSON() == typed)
    #expect(await b.toSortedJSON() == typed)
  }

  @Test("a peer's edit inside what it created in a container whose removal is undone concurrently is dropped where the creation came before the restore",
        arguments: [false, true])
  func editInsideCreationBeforeRestore(inArray: Bool) async throws {
    // Fuzz seed 1584344 (three replicas): B creates an object inside the container A removes
    // and restores, then sets a key in it, before seeing A's changes. C receives B's creation,
    // then A's removal and restore (the copy replaces the tombstone holding B's object), then
    // B's Set naming that object: C must skip it as A does (where the creation itself was
    // skipped), not refuse B's change for an element it no longer has.
    let docs = try await makeReplicas(3)
    let (a, b, c) = (docs[0], docs[1], docs[2])
    try await a.update { root, _ in
      if inArray { try root.setNewArray("c").appendNewText().edit(0, 0, "ab") } else { try root.setNewObject("c").setNewText("t").edit(0, 0, "ab") }
    }
    for peer in [b, c] { try await peer.applyChanges(await a.pendingChanges) }
    try await a.update { root, _ in
      if inArray { try root.array("c")?.remove(at: 0) } else { root.remove("c") }
    }
    try await a.undo()
    try await b.update { root, _ in
      if inArray { _ = root.array("c")?.appendNewObject() } else { _ = root.object("c")?.setNewObject("o") }
    }
    let creation = await b.pendingChanges
    try await b.update { root, _ in
      let object = inArray ? root.array("c")?.object(at: 1) : root.object("c")?.object("o")
      object?["k"] = 1
    }
    let fromA = await a.pendingChanges, fromB = await b.pendingChanges
    try await c.applyChanges(creation)
    try await c.applyChanges(fromA)
    try await c.applyChanges(fromB)
    try await a.applyChanges(fromB)
    try await b.applyChanges(fromA)
    let expected = inArray ? #"{"c":[[{"val":"ab"}],{"k":1}]}"# : #"{"c":{"t":[{"val":"ab"}]}}"#
    for doc in docs {
      #expect(await doc.toSortedJSON() == expected)
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("undo of a Set inside an object that an undone ArraySet put back as a copy restores into the copy, once")
  func undoSetInsideCopiedObject() async throws {
    // Fuzz seed 3643284. The undo of the ArraySet puts back a copy of the object with new
    // tickets, its text's included; the undo of the Set before it then restored the text under
    // its first ticket beside the copy's, while the original stayed in the replaced object: two
    // elements with one ticket, and a snapshot that did not load.
    let doc = Document(key: "doc")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in
      let object = root.setNewArray("list").appendNewObject()
      try object.setNewText("t").edit(0, 0, "ab")
    }
    await doc.clearHistory()
    try await doc.update { root, _ in _ = root.array("list")?.object(at: 0)?.setNewCounter("t", .int(7)) }
    try await doc.update { root, _ in try root.array("list")?.set(.string("x"), at: 0) }
    #expect(await doc.toJSON() == #"{"list":["x"]}"#)
    try await doc.undo()
    #expect(await doc.toJSON() == #"{"list":[{"t":7}]}"#)
    try await doc.undo()
    #expect(await doc.toJSON() == #"{"list":[{"t":[{"val":"ab"}]}]}"#)
    #expect(await doc.checkInvariants() == nil)
    let follower = Document(key: "doc")
    try await follower.setActor(actor(9))
    try await follower.applyChangePack(ChangePack(key: "doc", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                  versionVector: await doc.versionVector, snapshot: await doc.snapshot()))
    #expect(await follower.toJSON() == #"{"list":[{"t":[{"val":"ab"}]}]}"#)
    // A peer that applies the changes holds the same, and so does its snapshot.
    let peer = Document(key: "doc")
    try await peer.setActor(actor(2))
    try await peer.applyChanges(await doc.pendingChanges)
    #expect(await peer.toJSON() == #"{"list":[{"t":[{"val":"ab"}]}]}"#)
    #expect(await peer.snapshot() == doc.snapshot())
    try await doc.redo()
    try await doc.redo()
    #expect(await doc.toJSON() == #"{"list":["x"]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("undoing an update that moved an element and then replaced its array's container, then the removal before it")
  func undoRemovalAfterMoveAndReplacedContainer() async throws {
    // (Editing fuzz seed 663318.) The ArraySet's undo puts the container back as a copy under
    // new tickets; the removal's undo then puts "E" back after the position "B" had before it
    // moved. The copy kept that position (dead, under "B"'s new ticket); without it the
    // ticket named "B"'s current place, at the end, and "E" went after "X".
    let doc = Document(key: "h")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in
      let inner = root.setNewArray("l").appendNewObject().setNewArray("c")
      for value in ["B", "E", "X"] { try inner.append(.string(value)) }
    }
    await doc.clearHistory()
    try await doc.update { root, _ in try root.array("l")!.object(at: 0)!.array("c")!.remove(at: 1) }
    try await doc.update { root, _ in
      let inner = root.array("l")!.object(at: 0)!.array("c")!
      try inner.moveToEnd(inner.id(at: 0)!)
      try root.array("l")!.set(.object(["t": .bool(false)]), at: 0)
    }
    try await doc.undo()
    #expect(await doc.toSortedJSON() == #"{"l":[{"c":["B","X"]}]}"#)
    try await doc.undo()
    #expect(await doc.toSortedJSON() == #"{"l":[{"c":["B","E","X"]}]}"#)
    #expect(await doc.checkInvariants() == nil)
    try await doc.redo()
    try await doc.redo()
    #expect(await doc.toSortedJSON() == #"{"l":[{"t":false}]}"#)
  }

  @Test("undo of a move whose element a peer removed, and collected, moves nothing and stops no one's sync")
  func undoMoveOfRemovedElement() async throws {
    // (yorkie-demo under load: ann moved an item, cho removed it; bob and cho collected it; ann's
    // undo moved it back and their sync stopped with elementNotFound.)
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      let list = root.setNewArray("l")
      for value in ["x", "y", "z"] { try list.append(.string(value)) }
    }
    try await b.applyChanges(await a.pendingChanges)
    await a.clearHistory()
    try await a.update { root, _ in let list = root.array("l")!; try list.moveToFront(list.id(at: 2)!) }
    try await b.update { root, _ in try root.array("l")!.remove(at: 2) }
    let fromA = await a.pendingChanges, fromB = await b.pendingChanges
    try await a.applyChanges(fromB)
    try await b.applyChanges(fromA)
    #expect(await b.garbageCollect(minSyncedVersionVector: await a.versionVector.minimum(with: await b.versionVector)) > 0)
    let pending = await a.pendingChanges.count
    try await a.undo()
    // The reverse Move is skipped: nothing to send, nothing to redo.
    #expect(await a.pendingChanges.count == pending)
    #expect(await a.canRedo == false)
    #expect(await a.toSortedJSON() == #"{"l":["x","y"]}"#)
    #expect(await b.toSortedJSON() == #"{"l":["x","y"]}"#)
  }

  @Test("a peer's move of an element this replica collected applies as nothing, as a Remove of it does")
  func remoteMoveOfCollectedElement() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in
      let list = root.setNewArray("l")
      for value in ["x", "y", "z"] { try list.append(.string(value)) }
    }
    let created = await a.pendingChanges
    try await b.applyChanges(created)
    let arrayID = try #require(created.first?.operations.first?.createdValue?.createdAt)
    let zID = try #require(try await b.update { root, _ in root.array("l")!.id(at: 2) })
    try await b.update { root, _ in try root.array("l")!.remove(at: 2) }
    try await a.applyChanges(await b.pendingChanges)
    #expect(await b.garbageCollect(minSyncedVersionVector: await a.versionVector.minimum(with: await b.versionVector)) > 0)
    // A third peer's change (as a Yorkie peer's undo sends it) moves the collected "z" to the front.
    let peer = actor(3)
    let at = TimeTicket(lamport: 50, delimiter: 1, actorID: peer)
    let move = Change(id: ChangeID(clientSeq: 1, lamport: 50, actorID: peer, versionVector: (await b.versionVector).merged(with: VersionVector([peer: 50]))),
                      operations: [.move(parentCreatedAt: arrayID, previousCreatedAt: .initial, createdAt: zID, executedAt: at)])
    try await b.applyChanges([move])
    #expect(await b.toSortedJSON() == #"{"l":["x","y"]}"#)
    #expect(await b.checkInvariants() == nil)
  }

  @Test("a snapshot carries the restores: a replica loaded from it drops a peer's concurrent edit inside the copy too")
  func snapshotCarriesRestores() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in try root.setNewObject("c").setNewText("t").edit(0, 0, "ab") }
    try await b.applyChanges(await a.pendingChanges)
    try await a.update { root, _ in root.remove("c") }
    try await a.undo()
    try await b.update { root, _ in _ = try root.object("c")?.text("t")?.edit(1, 1, "Z") }
    // A replica loaded from A's snapshot (which holds the copy), then B's edit.
    let loaded = Document(key: "test-doc")
    try await loaded.applyChangePack(ChangePack(key: "test-doc", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: await a.versionVector, snapshot: await a.snapshot()))
    #expect(await loaded.snapshot() == a.snapshot())
    let fromB = await b.pendingChanges
    try await a.applyChanges(fromB)
    try await loaded.applyChanges(fromB)
    #expect(await a.toSortedJSON() == #"{"c":{"t":[{"val":"ab"}]}}"#)
    #expect(await loaded.toSortedJSON() == a.toSortedJSON())
  }

  @Test("a peer's removal concurrent with the undo of a removal: the newer of the two wins, in both orders",
        arguments: [0, 3])
  func removalConcurrentWithRestore(peerUpdatesBefore: Int) async throws {
    // A removes "k" and undoes it (a Set of the removed value under its own ticket); B, who saw
    // neither, removes "k" too, after `peerUpdatesBefore` updates of its own that move its
    // clock past A's undo or not. Yorkie removes the copy where B's removal comes after the
    // undo and keeps it where it came before; here the newer ticket decides on both.
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in root.setNewObject("k")["x"] = 1 }
    try await b.applyChanges(await a.pendingChanges)
    try await a.update { root, _ in root["m"] = 0 }
    try await a.update { root, _ in root.remove("k") }
    try await a.undo()
    for index in 0..<peerUpdatesBefore { try await b.update { root, _ in root["n"] = .integer(Int32(index)) } }
    try await b.update { root, _ in root.remove("k") }
    let fromA = await a.pendingChanges, fromB = await b.pendingChanges
    let undoLamport = try #require(fromA.last?.id.lamport)
    let removalLamport = try #require(fromB.last?.id.lamport)
    #expect((removalLamport > undoLamport) == (peerUpdatesBefore > 0))
    try await a.applyChanges(fromB)
    try await b.applyChanges(fromA)
    let expected = peerUpdatesBefore > 0 ? #"{"m":0,"n":\#(peerUpdatesBefore - 1)}"# : #"{"k":{"x":1},"m":0}"#
    #expect(await a.toSortedJSON() == expected)
    #expect(await b.toSortedJSON() == expected)
    #expect(await a.checkInvariants() == nil)
    #expect(await b.checkInvariants() == nil)
  }

  @Test("undo of a remove whose element a peer moved meanwhile puts it back once, and converges")
  func undoRemoveOfMovedElement() async throws {
    for seed in SeededRandom.seeds(4, base: 0x30E) {
      print("history seed \(seed) (moved then removed)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(2)
      let log = ChangeLog(actors: [actor(1), actor(2)])
      try await docs[0].update { root, _ in
        let list = root.setNewArray("l")
        for value in 1...4 { try list.append(.integer(Int32(value))) }
      }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in try root.array("l")?.remove(at: 1) }
      try await docs[1].update { root, _ in try root.array("l")?.move(from: 1, to: 3) }
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()
      let json = try await converge(docs, log, &rng)
      #expect(json == #"{"l":[1,2,3,4]}"#)
      try await docs[0].redo()
      do { let json = try await converge(docs, log, &rng); #expect(json == #"{"l":[1,3,4]}"#) }
    }
  }

  @Test("undo of a text deletion after a peer inserted inside the range keeps the peer's text")
  func undoTextAfterConcurrentInsert() async throws {
    for seed in SeededRandom.seeds(4, base: 0x7E47) {
      print("history seed \(seed) (concurrent insert)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(3)
      let log = ChangeLog(actors: [actor(1), actor(2), actor(3)])
      try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
      _ = try await converge(docs, log, &rng, collectGarbage: false)
      try await docs[0].update { root, _ in try root.text("t")?.delete(1, 5) }  // "af"
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(3, 3, "XY") }  // "abcXYdef"
      try await docs[2].update { root, _ in _ = try root.text("t")?.edit(6, 6, "!") }
      _ = try await converge(docs, log, &rng, collectGarbage: false)
      await expectText(docs[0], "aXYf!")
      try await docs[0].undo()
      _ = try await converge(docs, log, &rng, collectGarbage: false)
      await expectText(docs[1], "abcXYdef!")
      try await docs[0].redo()
      _ = try await converge(docs, log, &rng, collectGarbage: false)
      await expectText(docs[2], "aXYf!")
    }
  }

  @Test("undo of a deletion a peer inserted into, after garbage collection purged it on some replicas, converges (3 replicas)")
  func undoTextAfterConcurrentInsertAndGarbageCollection() async throws {
    // A replica that purged "bcde" recreates it where the purge noted it was, "bc" before "XY"
    // and "de" after it (CRDTText+PurgeNotes.swift); one that had not revives it in place, around
    // "XY". Without the notes the purged replicas put "bcde" after "XY" (as Yorkie's
    // findRestoreAnchor does) and the replicas disagreed (DocC Convergence).
    for seed in SeededRandom.seeds(12, base: 0x7E48) {
      print("history seed \(seed) (concurrent insert, GC at different times)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(3)
      let log = ChangeLog(actors: [actor(1), actor(2), actor(3)])
      try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
      _ = try await converge(docs, log, &rng, collectGarbage: false)
      try await docs[0].update { root, _ in try root.text("t")?.delete(1, 5) }  // "af"
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(3, 3, "XY") }  // "abcXYdef"
      try await docs[2].update { root, _ in _ = try root.text("t")?.edit(6, 6, "!") }
      // Every replica has every change and has reported it: the minimum vector covers the
      // deletion from the next sync on.
      for _ in 0..<3 {
        for doc in docs.shuffled(using: &rng) { try await log.sync(doc, collectGarbage: false) }
      }
      // Some replicas collect (one or two of them, the undoing one or not), the others not yet.
      let collectors = Set((0..<3).shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)))
      print("  collecting first: \(collectors.sorted())")
      for index in (0..<3).shuffled(using: &rng) { try await log.sync(docs[index], collectGarbage: collectors.contains(index)) }
      try await docs[0].undo()
      // The others collect whenever they sync: before or after the undo reaches them.
      for _ in 0..<2 {
        for doc in docs.shuffled(using: &rng) { try await log.sync(doc, collectGarbage: Bool.random(using: &rng)) }
      }
      do { let json = try await converge(docs, log, &rng); #expect(json == #"{"t":[{"val":"a"},{"val":"bc"},{"val":"XY"},{"val":"de"},{"val":"f"},{"val":"!"}]}"#) }
      for doc in docs { await expectText(doc, "abcXYdef!") }
      try await docs[0].redo()
      _ = try await converge(docs, log, &rng)
      for doc in docs { await expectText(doc, "aXYf!") }
    }
  }

  @Test("a style concurrent with the undo of a deletion does not reach the restored text, on replicas that purged it or not, in either order")
  func styleConcurrentWithRestoreAfterPurge() async throws {
    // Fuzz seed 903310. A deletes the bold "b" and undoes it; B, which purged "b" and had not
    // seen the undo, colours "ac": on B nothing lay between "a" and "c" to colour, and the
    // recreated "b" takes the attributes it had. C, which kept the tombstone, receives B's style
    // before A's undo; A after. Once the style's ticket was newer than the undo's, C and A
    // coloured "b" as well (last writer wins), B did not.
    let docs = try await makeReplicas(3)
    let (a, b, c) = (docs[0], docs[1], docs[2])
    try await a.update { root, _ in
      let text = root.setNewText("t")
      _ = try text.edit(0, 0, "abc")
      try text.setStyle(1, 2, ["bold": true])
    }
    for peer in [b, c] { try await peer.applyChanges(await a.pendingChanges) }
    await a.clearHistory()
    try await a.update { root, _ in try root.text("t")?.delete(1, 2) }
    let deletion = await a.pendingChanges.suffix(1)
    for peer in [b, c] { try await peer.applyChanges(Array(deletion)) }
    #expect(await b.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    try await a.undo()
    let undo = Array(await a.pendingChanges.suffix(1))
    // B's clock runs ahead of A's: its style's ticket is newer than the undo's.
    for _ in 0..<3 { try await b.update { root, _ in root["n"] = 1 } }
    try await b.update { root, _ in try root.text("t")?.setStyle(0, 2, ["color": "red"]) }
    let fromB = await b.pendingChanges
    try await c.applyChanges(fromB)
    try await c.applyChanges(undo)
    try await a.applyChanges(fromB)
    try await b.applyChanges(undo)
    let expected = #"{"n":1,"t":[{"attrs":{"color":"red"},"val":"a"},{"attrs":{"bold":true},"val":"b"},{"attrs":{"color":"red"},"val":"c"}]}"#
    for doc in docs {
      #expect(await doc.toSortedJSON() == expected)
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("undo after garbage collection purged the removed text recreates it, on every replica")
  func undoAfterGarbageCollection() async throws {
    for seed in SeededRandom.seeds(4, base: 0x6C) {
      print("history seed \(seed) (after GC)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(2)
      let log = ChangeLog(actors: [actor(1), actor(2)])
      try await docs[0].update { root, _ in
        _ = try root.setNewText("t").edit(0, 0, "hello")
        root["o"] = .object(["k": 1])
      }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in
        try root.text("t")?.delete(1, 4)
        root.remove("o")
      }
      _ = try await converge(docs, log, &rng)
      _ = try await converge(docs, log, &rng)
      for doc in docs { #expect(await doc.garbageLength == 0) }
      try await docs[0].undo()
      let json = try await converge(docs, log, &rng)
      #expect(json == #"{"o":{"k":1},"t":[{"val":"h"},{"val":"ell"},{"val":"o"}]}"#)
    }
  }

  @Test("undo of a move after a concurrent move of the same element converges")
  func undoMoveAfterConcurrentMove() async throws {
    for seed in SeededRandom.seeds(4, base: 0x30F) {
      print("history seed \(seed) (move after move)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(3)
      let log = ChangeLog(actors: [actor(1), actor(2), actor(3)])
      try await docs[0].update { root, _ in
        let list = root.setNewArray("l")
        for value in ["a", "b", "c", "d"] { try list.append(.string(value)) }
      }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in try root.array("l")?.move(from: 0, to: 3) }  // b c d a
      try await docs[1].update { root, _ in try root.array("l")?.move(from: 0, to: 1) }  // b a c d
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()
      let json = try await converge(docs, log, &rng)
      // The undo moves "a" back after what preceded it (the head): first, whoever won before.
      #expect(json == #"{"l":["a","b","c","d"]}"#)
      try await docs[0].redo()
      _ = try await converge(docs, log, &rng)
    }
  }

  @Test("undo of an array set puts the old value back, also after a peer's set of the same element")
  func undoArraySet() async throws {
    for seed in SeededRandom.seeds(4, base: 0xA5E7) {
      print("history seed \(seed) (array set)")
      var rng = SeededRandom(seed: seed)
      let docs = try await makeReplicas(2)
      let log = ChangeLog(actors: [actor(1), actor(2)])
      try await docs[0].update { root, _ in
        let list = root.setNewArray("l")
        for value in 1...3 { try list.append(.integer(Int32(value))) }
      }
      _ = try await converge(docs, log, &rng)
      try await docs[0].update { root, _ in try root.array("l")?.set(20, at: 1) }
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()
      do { let json = try await converge(docs, log, &rng); #expect(json == #"{"l":[1,2,3]}"#) }
      try await docs[0].redo()
      do { let json = try await converge(docs, log, &rng); #expect(json == #"{"l":[1,20,3]}"#) }
      // A peer replaces the element the redo made; the undo's target is then gone: skipped.
      try await docs[1].update { root, _ in try root.array("l")?.set(30, at: 1) }
      _ = try await converge(docs, log, &rng)
      try await docs[0].undo()
      do { let json = try await converge(docs, log, &rng); #expect(json == #"{"l":[1,30,3]}"#) }
    }
  }
}

extension HistoryTests {
  @Test("undo of an array set whose old value was a text with deleted characters keeps them collectable")
  func undoArraySetOfTextKeepsGarbageTracked() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in
      let list = root.setNewArray("l")
      let text = list.appendNewText()
      _ = try text.edit(0, 0, "abc")
    }
    try await doc.update { root, _ in try root.array("l")?.text(at: 0)?.delete(1, 2) }
    try await doc.update { root, _ in try root.array("l")?.set(7, at: 0) }
    try await doc.undo()
    #expect(await doc.toSortedJSON() == #"{"l":[[{"val":"a"},{"val":"c"}]]}"#)
    // The copy holds the deleted "b" as garbage, tracked as such (checkInvariants says so).
    #expect(await doc.checkInvariants() == nil)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    #expect(await doc.checkInvariants() == nil)
  }
}
