import Testing
@testable import CRDT

// A local insertion enters the insertion table only when the table is next read or changed.
// These cases read it while entries are still pending, without invariant checks in between
// (a check reads the table and so enters them).

@Suite("Text deferred lookups")
struct TextDeferredLookupTests {
  /// Types `content` into the text at `index`, one update per character.
  private func type(_ content: String, at index: Int, into doc: Document) async throws {
    for (offset, character) in content.enumerated() {
      try await doc.update { root, _ in try root.text("t")?.edit(index + offset, index + offset, String(character)) }
    }
  }

  private func string(_ doc: Document) async throws -> String? {
    let content = Captured<String>()
    try await doc.update { root, _ in content.value = root.text("t")?.string }
    return content.value
  }

  @Test("remote edits inside characters typed locally find them while their entries are pending")
  func remoteEditsInsidePendingInsertions() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in _ = root.setNewText("t") }
    try await crossSync(a, b)
    try await type("hello", at: 0, into: a)
    try await crossSync(a, b)
    // b edits between and over a's characters; a has only typed since its table was last read.
    try await type("world", at: 5, into: a)
    try await b.update { root, _ in
      let text = try #require(root.text("t"))
      try text.edit(2, 2, "XY")
      try text.delete(5, 6)
      try text.edit(1, 1, "!")
    }
    try await crossSync(a, b)
    #expect(try await string(a) == "h!eXYloworld")
    #expect(try await string(b) == "h!eXYloworld")
    #expect(await a.toSortedJSON() == b.toSortedJSON())
    #expect(await a.checkInvariants() == nil)
    #expect(await b.checkInvariants() == nil)
  }

  @Test("garbage collection and rollback find pieces whose entries are pending")
  func collectAndRollBackPending() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in _ = root.setNewText("t") }
    try await type("abcdef", at: 0, into: doc)
    try await doc.update { root, _ in try root.text("t")?.delete(1, 4) }
    #expect(await doc.garbageLength == 3)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 3)
    #expect(try await string(doc) == "aef")
    // Insertions then a failure in one update: the rollback unlinks pieces not entered yet.
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        let text = try #require(root.text("t"))
        for i in 0..<20 { try text.edit(1 + i, 1 + i, "x") }
        try text.delete(0, 2)
        throw DummyError()
      }
    }
    #expect(try await string(doc) == "aef")
    try await type("123", at: 3, into: doc)
    #expect(try await string(doc) == "aef123")
    #expect(await doc.checkInvariants() == nil)
    let snapshot = await doc.snapshot()
    let loaded = Document(key: "d")
    try await loaded.applyChangePack(ChangePack(key: "d", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: VersionVector(), snapshot: snapshot))
    #expect(await loaded.toJSON() == doc.toJSON())
  }

  /// The position a search of the index finds for `index` (what `position(at:)` answers
  /// without the memo of the last insertion).
  private static func searched(_ text: CRDTText, _ index: Int) -> TextPosition? {
    if index == 0 { return TextPosition(id: text.id(of: CRDTText.head), relativeOffset: 0) }
    guard let found = text.index.find(index, inclusiveEnd: true) else { return nil }
    return TextPosition(id: text.id(of: found.handle), relativeOffset: Int32(found.offset))
  }

  @Test("positions near the caret after typing, deleting, styling, remote edits and rollbacks are those a search finds",
        arguments: SeededRandom.seeds(3, base: 900))
  func positionsAfterLastInsertion(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in try root.setNewText("t").edit(0, 0, "seed") }
    try await crossSync(a, b)
    var caret = 4
    var mismatches: [String] = []
    for step in 0..<400 {
      let roll = Int.random(in: 0..<100, using: &random)
      let jump = Int.random(in: 0..<12, using: &random) == 0
      let fails = step % 53 == 52
      do {
        try await a.update { root, _ in
          let text = try #require(root.text("t"))
          if jump { caret = Int.random(in: 0...text.length, using: &random) }
          caret = min(caret, text.length)
          if roll < 70 {
            try text.edit(caret, caret, Int.random(in: 0..<8, using: &random) == 0 ? "xy" : "k")
            caret += text.length > 0 ? 1 : 0
          } else if roll < 85, caret > 0 {
            try text.delete(caret - 1, caret)
            caret -= 1
          } else if roll < 95, caret + 2 <= text.length {
            try text.edit(caret, caret + 2, "R")
            caret += 1
          } else if caret > 0 {
            try text.setStyle(caret - 1, caret, ["b": .bool(true)])
          }
          for index in max(0, caret - 3)...min(text.length, caret + 3) {
            let element = try #require(text.element)
            let memo = element.position(at: index)
            let search = Self.searched(element, index)
            if memo != search { mismatches.append("step \(step) index \(index): \(String(describing: memo)) vs \(String(describing: search))") }
          }
          if fails { throw DummyError() }
        }
      } catch is DummyError {}
      if step % 25 == 24 {
        // Someone else edits near the start; the next local insertion must not trust an old memo.
        try await b.update { root, _ in
          let text = try #require(root.text("t"))
          try text.edit(1, min(3, text.length), "bb")
        }
        try await crossSync(a, b)
      }
    }
    #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(3))")
    #expect(await a.toSortedJSON() == b.toSortedJSON())
    #expect(await a.checkInvariants() == nil)
  }
}
