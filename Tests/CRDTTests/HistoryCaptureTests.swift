import CRDT
import Testing

// What one update collects for its undo step (`HistoryRecording`: captures by operation index,
// ArraySets' replaced elements, presence) and how a deleted run is captured (inline for one
// run, an array for two or more): every capture kind in one update, undone and redone to the
// exact JSON, and a deletion history past the 50-step depth. CI also runs this suite under
// AddressSanitizer with every invariant checked after each mutation (.ci/run).

@Suite("History: what one update captures")
struct HistoryCaptureTests {
  @Test("an update with many captures of every text, object, array and presence kind undoes and redoes exactly")
  func manyCapturesInOneUpdate() async throws {
    let doc = Document(key: "capture")
    try await doc.setActor(actor(1))
    await doc.setStatus(.attached)
    try await doc.update { root, _ in
      root["k"] = 0
      try root.setNewText("t").edit(0, 0, "hello ")
    }
    // A second insertion: a deletion across "hello " and "world" removes two runs.
    try await doc.update { root, _ in try root.text("t")!.edit(6, 6, "world") }
    try await doc.update { root, _ in
      let array = root.setNewArray("a")
      for value in 1...3 { try array.append(.integer(Int32(value))) }
    }
    let before = await doc.toSortedJSON()
    #expect(before == #"{"a":[1,2,3],"k":0,"t":[{"val":"hello "},{"val":"world"}]}"#)

    try await doc.update { root, presence in
      for value in 1...1_000 { root["k"] = .integer(Int32(value)) }
      let text = root.text("t")!
      try text.edit(4, 8, "")   // "o wo": two runs
      try text.edit(0, 2, "")   // "he": one run
      try root.array("a")!.set(.integer(9), at: 1)
      presence.set(["cursor": 3], addToHistory: true)
    }
    let after = await doc.toSortedJSON()
    #expect(after == #"{"a":[1,9,3],"k":1000,"t":[{"val":"ll"},{"val":"rld"}]}"#)

    // The characters come back by identity, in the pieces the deletions split them into.
    let undone = #"{"a":[1,2,3],"k":0,"t":[{"val":"he"},{"val":"ll"},{"val":"o "},{"val":"wo"},{"val":"rld"}]}"#
    try await doc.undo()
    #expect(await doc.toSortedJSON() == undone)
    #expect(await doc.myPresence == [:])
    #expect(await doc.checkInvariants() == nil)
    try await doc.redo()
    #expect(await doc.toSortedJSON() == after)
    #expect(await doc.myPresence == ["cursor": 3])
    try await doc.undo()
    #expect(await doc.toSortedJSON() == undone)
    #expect(await doc.historyDepths.undo == 3)
    #expect(await doc.historyDepths.redo == 1)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("sixty one-character deletions: the latest fifty undo in order, the older ten fell off the stack")
  func keystrokeDeletionsPastTheDepth() async throws {
    let doc = Document(key: "capture")
    let typed = String(repeating: "abcdefghij", count: 8)   // 80 characters
    try await doc.update { root, _ in try root.setNewText("t").edit(0, 0, typed) }
    // Each update deletes the last character: one run, captured inline.
    for _ in 0..<60 {
      try await doc.update { root, _ in
        let text = root.text("t")!
        try text.edit(text.length - 1, text.length, "")
      }
    }
    #expect(await doc.historyDepths.undo == 50)
    for _ in 0..<50 { try await doc.undo() }
    #expect(await doc.canUndo == false)
    let restored = try await doc.update { root, _ in root.text("t")!.string }
    #expect(restored == String(typed.prefix(70)))
    for _ in 0..<50 { try await doc.redo() }
    let redone = try await doc.update { root, _ in root.text("t")!.string }
    #expect(redone == String(typed.prefix(20)))
    #expect(await doc.checkInvariants() == nil)
  }
}
