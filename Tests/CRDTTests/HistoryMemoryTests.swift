import CRDT
import Testing

// Undo and redo (issue 24, "Speed and memory"): what the history keeps is bounded by its 50
// steps, not by the number of updates or undos. The stacks are rings of 50; the aliases of
// re-created elements (one per undo of a removal, one per ArraySet) are pruned to the tickets
// the kept steps name.

@Suite("History: memory")
struct HistoryMemoryTests {
  /// Updates and undo cycles per test. Builds with `CRDT_INTERNAL_CHECKS` recount the whole
  /// document after every change, which makes 10,000 updates take minutes (the CI run under
  /// AddressSanitizer); their smaller counts still exceed every bound the tests check (50 steps,
  /// 64 and 100 aliases), so a history that kept one alias per undo or set would still fail.
  #if CRDT_INTERNAL_CHECKS
    static let updates = 400
    static let cycles = 150
  #else
    static let updates = 10_000
    static let cycles = 1_000
  #endif

  @Test("10,000 updates, then 1,000 undo/redo cycles of a removal: the stacks and aliases stay bounded, old steps still resolve")
  func removalCyclesStayBounded() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in _ = root.setNewText("t") }
    for index in 0..<Self.updates { try await doc.update { root, _ in try root.text("t")?.edit(index, index, "a") } }
    try await doc.update { root, _ in root["o"] = .object(["x": 1]) }
    try await doc.update { root, _ in root.object("o")?["x"] = 5 }
    try await doc.update { root, _ in root.remove("o") }
    #expect(await doc.historyDepths.undo == History.maxDepth)
    // Each undo re-creates "o" under a new ticket: an alias the two steps before name.
    for _ in 0..<Self.cycles {
      try await doc.undo()
      try await doc.redo()
    }
    #expect(await doc.historyDepths.undo == History.maxDepth)
    #expect(await doc.historyDepths.redo == 0)
    let aliases = await doc.historyAliasCount
    #expect(aliases <= History.minimumAliasLimit, "the history keeps \(aliases) aliases after \(Self.cycles) undos")
    // The set of "x" and the creation of "o" name the object by its first ticket: the pruned
    // map still resolves it to the object as re-created last.
    try await doc.undo()
    #expect(try await doc.update { root, _ in root["o"] } == .object(["x": 5]))
    try await doc.undo()
    #expect(try await doc.update { root, _ in root["o"] } == .object(["x": 1]))
    try await doc.undo()
    #expect(try await doc.update { root, _ in root["o"] } == nil)
    #expect(try await doc.update { root, _ in root.text("t")?.string } == String(repeating: "a", count: Self.updates))
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("10,000 array sets of one element keep the aliases bounded; the latest 50 are undone in order")
  func arraySetsStayBounded() async throws {
    let doc = Document(key: "h")
    try await doc.update { root, _ in try root.setNewArray("l").append(0) }
    for value in 1...Self.updates { try await doc.update { root, _ in try root.array("l")?.set(.integer(Int32(value)), at: 0) } }
    // Each kept step names the element its set replaced (an alias each), and the map is pruned
    // once it holds twice what the last pruning kept: at most 2 × 50.
    let aliases = await doc.historyAliasCount
    #expect(aliases <= 2 * History.maxDepth, "the history keeps \(aliases) aliases after \(Self.updates) array sets")
    for undone in 1...History.maxDepth {
      try await doc.undo()
      #expect(await doc.toSortedJSON() == #"{"l":[\#(Self.updates - undone)]}"#)
    }
    #expect(await doc.canUndo == false)
    #expect(await doc.historyAliasCount <= 2 * History.maxDepth)
    #expect(await doc.checkInvariants() == nil)
  }
}
