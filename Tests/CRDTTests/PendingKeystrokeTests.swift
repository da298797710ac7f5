import CRDT
import Foundation
import Testing

// A keystroke's undo step keeps no copy of its operation while its change is pending: it reads
// the operation from the document's pending changes, and the step is written whole when the
// change is acknowledged and dropped, or when garbage collection needs the characters a
// deletion removed (`History.PendingKeystroke`). These cases acknowledge, collect and undo at
// every point of that life, against a model of the text.

private func text(_ doc: Document) async -> String {
  (try? await doc.update { root, _ in root.text("t")?.string ?? "" }) ?? "?"
}

/// What a server's answer to a push does to the pushing replica: its changes up to
/// `clientSeq` are acknowledged (and dropped from its pending changes).
private func acknowledge(_ doc: Document, through clientSeq: UInt32) async throws {
  try await doc.applyChangePack(ChangePack(key: doc.key, checkpoint: Checkpoint(serverSeq: 0, clientSeq: clientSeq), changes: []))
}

/// One random edit of one UTF-16 unit, or a replacement of a short range, at a random index
/// of a text `length` long: (from, to, content).
private func randomKeystroke(length: Int, _ rng: inout SeededRandom) -> (Int, Int, String) {
  let letter = String("abcdefghij".randomElement(using: &rng)!)
  let at = Int.random(in: 0...length, using: &rng)
  let roll = Int.random(in: 0..<10, using: &rng)
  if roll < 5 || (roll < 8 && length == 0) { return (at, at, letter) }
  if roll < 8 {
    let from = min(at, length - 1)
    return (from, from + 1, "")
  }
  return (at, min(length, at + Int.random(in: 0...3, using: &rng)), letter)
}

private func apply(_ edit: (Int, Int, String), to model: String) -> String {
  var units = Array(model.utf16)
  units.replaceSubrange(edit.0..<edit.1, with: Array(edit.2.utf16))
  return String(decoding: units, as: UTF16.self)
}

@Suite("History: keystrokes whose change is pending")
struct PendingKeystrokeTests {
  @Test("a keystroke's step reads its change while pending, and is written whole when the change is acknowledged")
  func adoptedAtAcknowledgement() async throws {
    let doc = Document(key: "pending")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in _ = root.setNewText("t") }
    for letter in ["a", "b", "c", "d"] {
      try await doc.update { root, _ in
        let t = root.text("t")!
        try t.edit(t.length, t.length, letter)
      }
    }
    // The text's creation is a whole step (a Set); the four keystrokes are pending.
    #expect(await doc.historyPendingKeystrokeCount == 4)
    // The server acknowledges the creation and the first two keystrokes (client sequences 1-3).
    try await acknowledge(doc, through: 3)
    #expect(await doc.pendingChanges.count == 2)
    #expect(await doc.historyPendingKeystrokeCount == 2)
    #expect(await doc.checkInvariants() == nil)
    // A deletion is a keystroke too; garbage collection writes its step whole first, to read
    // the removed character before the purge.
    try await doc.update { root, _ in try root.text("t")!.delete(1, 2) }
    #expect(await doc.historyPendingKeystrokeCount == 3)
    try await acknowledge(doc, through: await doc.lastLocalClientSeq)
    #expect(await doc.historyPendingKeystrokeCount == 0)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVector([actor(1)])) > 0)
    for expected in ["abcd", "abc", "ab", "a", "", nil as String?] {
      try await doc.undo()
      #expect(await doc.checkInvariants() == nil)
      if let expected { #expect(await text(doc) == expected) } else { #expect(try await doc.update { root, _ in root.text("t") == nil }) }
    }
    #expect(await !doc.canUndo)
  }

  @Test("garbage collection while keystrokes are pending reads their deletions, and undo restores them")
  func collectedWhilePending() async throws {
    let doc = Document(key: "pending-gc")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "hello") }
    try await acknowledge(doc, through: 1)
    for _ in 0..<3 { try await doc.update { root, _ in try root.text("t")!.delete(0, 1) } }
    #expect(await doc.historyPendingKeystrokeCount == 3)
    // Nothing acknowledged: the changes stay pending, the purge still reads what they removed.
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVector([actor(1)])) > 0)
    #expect(await doc.historyPendingKeystrokeCount == 0)
    #expect(await doc.pendingChanges.count == 3)
    #expect(await text(doc) == "lo")
    for expected in ["llo", "ello", "hello"] {
      try await doc.undo()
      #expect(await text(doc) == expected)
    }
    #expect(await doc.checkInvariants() == nil)
  }

  /// `CRDT_PENDING_TRACE=1` prints every update, acknowledgement and collection.
  @Test("typing acknowledged and collected at random points is undone and redone exactly (a model of the text)")
  func randomAcknowledgements() async throws {
    for seed in SeededRandom.seeds(12, base: 0x4B45) {
      print("pending-keystroke seed \(seed)")
      var rng = SeededRandom(seed: seed)
      let doc = Document(key: "pending-random")
      try await doc.setActor(actor(1))
      try await doc.update { root, _ in _ = root.setNewText("t") }
      var model = ""
      // The text after each update, newest last (the creation's: "").
      var states = [""]
      let updates = Int.random(in: 40...140, using: &rng)
      for _ in 0..<updates {
        switch Int.random(in: 0..<20, using: &rng) {
        case 0:
          // A whole step between keystrokes: a Set beside the text.
          let marker = Int32(states.count)
          try await doc.update { root, _ in root["n"] = .integer(marker) }
          states.append(model)
        case 1:
          // Two edits in one update: a whole step too.
          let first = randomKeystroke(length: model.utf16.count, &rng)
          let afterFirst = apply(first, to: model)
          let second = randomKeystroke(length: afterFirst.utf16.count, &rng)
          try await doc.update { root, _ in
            let t = root.text("t")!
            try t.edit(first.0, first.1, first.2)
            try t.edit(second.0, second.1, second.2)
          }
          if ProcessInfo.processInfo.environment["CRDT_PENDING_TRACE"] != nil { print("two edits \(first) \(second)") }
          model = apply(second, to: afterFirst)
          states.append(model)
        default:
          let edit = randomKeystroke(length: model.utf16.count, &rng)
          try await doc.update { root, _ in try root.text("t")!.edit(edit.0, edit.1, edit.2) }
          if ProcessInfo.processInfo.environment["CRDT_PENDING_TRACE"] != nil { print("edit \(edit)") }
          model = apply(edit, to: model)
          states.append(model)
        }
        if Int.random(in: 0..<6, using: &rng) == 0 {
          let acknowledged = await doc.pendingChanges.first?.id.clientSeq ?? 0
          let last = await doc.lastLocalClientSeq
          if acknowledged > 0 { try await acknowledge(doc, through: UInt32.random(in: acknowledged...last, using: &rng)) }
        }
        if Int.random(in: 0..<15, using: &rng) == 0 {
          let purged = await doc.garbageCollect(minSyncedVersionVector: maxVector([actor(1)]))
          if ProcessInfo.processInfo.environment["CRDT_PENDING_TRACE"] != nil { print("gc \(purged)") }
        }
        #expect(await doc.checkInvariants() == nil, "seed \(seed)")
        #expect(await text(doc) == model, "seed \(seed)")
        if ProcessInfo.processInfo.environment["CRDT_PENDING_TRACE"] != nil {
          print("update \(states.count - 1): \(model) pending \(await doc.pendingChanges.map(\.id.clientSeq)) keystrokes \(await doc.historyPendingKeystrokeCount)")
        }
      }
      let steps = min(History.maxDepth, states.count)
      for undone in 1...steps {
        try await doc.undo()
        #expect(await doc.checkInvariants() == nil, "seed \(seed)")
        if states.count - 1 - undone >= 0 {
          let shown = await text(doc)
          #expect(shown == states[states.count - 1 - undone], "seed \(seed), undo \(undone): \(shown)")
        }
        if Int.random(in: 0..<8, using: &rng) == 0 {
          try await acknowledge(doc, through: await doc.lastLocalClientSeq)
        }
      }
      for redone in 1...steps {
        try await doc.redo()
        #expect(await doc.checkInvariants() == nil, "seed \(seed)")
        let index = states.count - 1 - steps + redone
        if index >= 0 { #expect(await text(doc) == states[index], "seed \(seed), redo \(redone)") }
      }
      #expect(await text(doc) == model, "seed \(seed)")
    }
  }
}
