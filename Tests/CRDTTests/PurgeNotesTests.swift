@testable import CRDT
import Foundation
import Testing

// Undo of a deletion after garbage collection purged what it deleted on some replicas and not
// on others, with a peer's text typed next to or inside the deleted run meanwhile: the replicas
// that purged recreate the characters where the purge noted they were
// (CRDTText+PurgeNotes.swift), the others revive them in place, and all show the same text.
// Without the notes, the purging replicas put the characters on the wrong side of the peer's
// text (the first three cases diverged so).

private func text(_ doc: Document) async -> String {
  (try? await doc.update { root, _ in root.text("t")?.string ?? "" }) ?? "?"
}

/// Two rounds in which every replica syncs through `log`, collecting no garbage: each has then
/// applied every change.
private func exchange(_ docs: [Document], _ log: ChangeLog) async throws {
  for _ in 0..<2 {
    for doc in docs { try await log.sync(doc, collectGarbage: false) }
  }
}

/// Which replicas purge before the undo: the undoing one, the peer, both or neither.
enum Purgers: String, CaseIterable, CustomTestStringConvertible {
  case undoer, peer, both, neither
  var testDescription: String { rawValue }
  func purges(_ index: Int) -> Bool {
    switch self {
    case .undoer: return index == 0
    case .peer: return index == 1
    case .both: return true
    case .neither: return false
    }
  }
}

/// A case: the text replica 0 types (one update per string), the range it deletes, what the
/// peer (replica 1) inserts concurrently and where, and the text once replica 0 undid.
struct PurgeNoteCase: Sendable, CustomTestStringConvertible {
  var name: String
  var typed: [String]
  var deleted: (Int, Int)
  var inserted: (Int, String)
  var undone: String
  var testDescription: String { name }
}

@Suite("Undo after garbage collection: recreated text goes where it was")
struct PurgeNotesTests {
  static let cases: [PurgeNoteCase] = [
    PurgeNoteCase(name: "peer's text inside the deleted run", typed: ["abcdef"], deleted: (1, 5), inserted: (3, "XY"),
                  undone: "abcXYdef"),
    PurgeNoteCase(name: "peer's text right after the deleted run", typed: ["abcdef"], deleted: (1, 5), inserted: (5, "Z"),
                  undone: "abcdeZf"),
    PurgeNoteCase(name: "peer's text right before a deleted run reaching the end", typed: ["abcdef"], deleted: (1, 6),
                  inserted: (1, "Q"), undone: "aQbcdef"),
    PurgeNoteCase(name: "typed one character per update, peer's text inside", typed: ["h", "e", "l", "l", "o"],
                  deleted: (0, 5), inserted: (2, "X"), undone: "heXllo"),
  ]

  @Test("every replica shows the text where it was, whichever replicas purged",
        arguments: cases, Purgers.allCases)
  func recreatedWhereItWas(_ testCase: PurgeNoteCase, _ purgers: Purgers) async throws {
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = root.setNewText("t") }
    var length = 0
    for piece in testCase.typed {
      let at = length
      try await docs[0].update { root, _ in _ = try root.text("t")?.edit(at, at, piece) }
      length += piece.utf16.count
    }
    for doc in docs { try await log.sync(doc, collectGarbage: false) }
    await docs[0].clearHistory()
    let (from, to) = testCase.deleted
    try await docs[0].update { root, _ in try root.text("t")?.delete(from, to) }
    let (at, content) = testCase.inserted
    try await docs[1].update { root, _ in _ = try root.text("t")?.edit(at, at, content) }
    try await exchange(docs, log)
    for (index, doc) in docs.enumerated() where purgers.purges(index) {
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    }
    try await docs[0].undo()
    try await exchange(docs, log)
    for doc in docs {
      #expect(await text(doc) == testCase.undone)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[0].toSortedJSON() == docs[1].toSortedJSON())
  }

  @Test("two replicas undo their deletions next to each other after both purged, in either order",
        arguments: [true, false])
  func concurrentRecreations(undoerFirst: Bool) async throws {
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    for doc in docs { try await log.sync(doc, collectGarbage: false) }
    for doc in docs { await doc.clearHistory() }
    try await docs[0].update { root, _ in try root.text("t")?.delete(1, 2) }  // "b"
    try await docs[1].update { root, _ in try root.text("t")?.delete(2, 3) }  // "c"
    try await exchange(docs, log)
    for doc in docs { #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0) }
    #expect(await text(docs[0]) == "adef")
    try await docs[0].undo()
    try await docs[1].undo()
    let order = undoerFirst ? docs : docs.reversed()
    try await exchange(order, log)
    for doc in docs {
      #expect(await text(doc) == "abcdef")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[0].toSortedJSON() == docs[1].toSortedJSON())
  }

  @Test("runs purged at different times before the same piece are recreated in their order")
  func notesHandedOn() async throws {
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    try await exchange(docs, log)
    await docs[0].clearHistory()
    // "bc" is purged while "de" follows it (its note goes on "de"); then the peer types "Y" after
    // "e", and "de" is deleted and purged too: its note, and the one it held, go on "Y".
    try await docs[0].update { root, _ in try root.text("t")?.delete(1, 3) }
    try await exchange(docs, log)
    #expect(await docs[0].garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    try await docs[1].update { root, _ in _ = try root.text("t")?.edit(3, 3, "Y") }
    try await exchange(docs, log)
    try await docs[0].update { root, _ in try root.text("t")?.delete(1, 3) }
    try await exchange(docs, log)
    #expect(await docs[0].garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await text(docs[0]) == "aYf")
    try await docs[0].undo()
    try await docs[0].undo()
    try await exchange(docs, log)
    for doc in docs {
      #expect(await text(doc) == "abcdeYf")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[0].toSortedJSON() == docs[1].toSortedJSON())
  }

  @Test("a run purged whole and restored in two parts, the later part first, comes back in one place",
        arguments: Purgers.allCases)
  func joinedRunRestoredInParts(_ purgers: Purgers) async throws {
    // Fuzz seed 974581 (three replicas). One update deletes "llo wo" and replaces "rl" with
    // "XY": the purge leaves one note, "llo worl" sat before "d". The undo restores "rl"
    // first (before "d"), then "llo wo", whose note lies past "rl", the insertion's next piece:
    // they sat right before it, after the peer's "Q" and the "XY" typed after "He", not
    // right after "He".
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "Hello world") }
    // "w" styled: the deleted characters are three pieces, "llo ", "w" and "o", restored as
    // three spans; no surviving piece holds the end of the first.
    try await docs[0].update { root, _ in try root.text("t")?.setStyle(6, 7, ["b": true]) }
    try await exchange(docs, log)
    await docs[0].clearHistory()
    try await docs[0].update { root, _ in
      try root.text("t")?.delete(2, 8)
      _ = try root.text("t")?.edit(2, 4, "XY")
    }
    try await exchange(docs, log)
    #expect(await text(docs[0]) == "HeXYd")
    for (index, doc) in docs.enumerated() where purgers.purges(index) {
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    }
    try await docs[1].update { root, _ in _ = try root.text("t")?.edit(2, 2, "Q") }
    try await exchange(docs, log)
    try await docs[0].undo()
    try await exchange(docs, log)
    for doc in docs {
      #expect(await text(doc) == "HeQllo world")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[0].toSortedJSON() == docs[1].toSortedJSON())
  }

  @Test("characters purged as several pieces come back as those pieces, which toJSON shows",
        arguments: Purgers.allCases)
  func recreatedAsThePiecesTheyWere(_ purgers: Purgers) async throws {
    // Fuzz seeds 1338855, 919148 and 1077528. A deletes "bcde" (its undo names one span);
    // B deletes "c" concurrently, which splits the tombstone into "b", "c" and "de" everywhere.
    // A replica that kept them revives three pieces; one that purged them joins them into one
    // noted run, and recreated one piece until the note kept where the pieces met.
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    try await exchange(docs, log)
    await docs[0].clearHistory()
    try await docs[0].update { root, _ in try root.text("t")?.delete(1, 5) }
    try await docs[1].update { root, _ in try root.text("t")?.delete(2, 3) }
    try await exchange(docs, log)
    for (index, doc) in docs.enumerated() where purgers.purges(index) {
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 3)
    }
    try await docs[0].undo()
    try await exchange(docs, log)
    for doc in docs {
      #expect(await doc.toJSON() == #"{"t":[{"val":"a"},{"val":"b"},{"val":"c"},{"val":"de"},{"val":"f"}]}"#)
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("a snapshot carries the notes: a replica loaded from it places recreated characters as the one it was taken from",
        arguments: [false, true])
  func snapshotCarriesNotes(atTheEnd: Bool) async throws {
    // Fuzz seeds 2376244, 3920449 and 4522293: a follower loaded from a purging replica's
    // snapshot had no notes and placed the undo's characters by the surviving pieces. Here B
    // types "XY" inside the run A deletes ("bcde", or "bcdef" to the end of the text, whose note
    // the end holds), B purges, a follower loads B's snapshot, and A's undo reaches both.
    let docs = try await makeReplicas(2)
    let (a, b) = (docs[0], docs[1])
    try await a.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    try await b.applyChanges(await a.pendingChanges)
    await a.clearHistory()
    try await a.update { root, _ in try root.text("t")?.delete(1, atTheEnd ? 6 : 5) }
    try await b.update { root, _ in _ = try root.text("t")?.edit(3, 3, "XY") }
    try await b.applyChanges(Array(await a.pendingChanges.suffix(1)))
    try await a.applyChanges(await b.pendingChanges)
    #expect(await b.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    let follower = Document(key: "doc")
    try await follower.setActor(actor(9))
    try await follower.applyChangePack(ChangePack(key: "doc", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                  versionVector: await b.versionVector, snapshot: await b.snapshot()))
    #expect(await follower.snapshot() == b.snapshot())
    try await a.undo()
    let undo = Array(await a.pendingChanges.suffix(1))
    try await b.applyChanges(undo)
    try await follower.applyChanges(undo)
    for doc in [a, b, follower] {
      #expect(await text(doc) == "abcXYdef")
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await follower.toJSON() == b.toJSON())
  }

  @Test("a snapshot's notes and liveness steps are checked: malformed ones are refused, nothing adopted")
  func malformedSnapshotNotesAreRefused() throws {
    let author = actor(1)
    func t(_ lamport: Int64) -> TimeTicket { TimeTicket(lamport: lamport, delimiter: 1, actorID: author) }
    func run(_ start: Int32, _ end: Int32, cuts: [Int32] = []) -> CRDTText.PurgedRunRecord {
      CRDTText.PurgedRunRecord(createdAt: t(1), start: start, end: end, cuts: cuts)
    }
    let text = CRDTText(createdAt: t(1))
    var state = CRDTText.DecodeState()
    Array("abc".utf8).withUnsafeBufferPointer { utf8 -> Void in
      #expect(throws: YorkieError.self) {
        // Steps whose latest is a revival, on a removed piece (L2).
        try text.appendDecodedPiece(id: TextNodeID(createdAt: t(2), offset: 0), utf8: utf8, removedAt: t(3), attributes: [],
                                    livenessSteps: [(t(3), false), (t(4), true)], state: &state)
      }
    }
    let refused: [[CRDTText.PurgedRunRecord]] = [
      (0...CRDTText.PurgeNotes.capacity).map { run(Int32($0 * 2), Int32($0 * 2 + 1)) },  // one run too many
      [run(3, 3)],  // empty
      [run(-1, 2)],  // negative
      [run(0, 4, cuts: [2, 1])],  // cuts out of order
      [run(0, 4, cuts: [4])],  // a cut at the end
    ]
    for records in refused {
      #expect(throws: YorkieError.self) { try text.adoptPurgeNotes(records, heldBy: CRDTText.endOfText) }
      #expect(text.purgeNoteRecords(heldBy: CRDTText.endOfText).isEmpty)
    }
    let kept = [run(0, 2), run(5, 9, cuts: [6, 8])]
    try text.adoptPurgeNotes(kept, heldBy: CRDTText.endOfText)
    #expect(text.purgeNoteRecords(heldBy: CRDTText.endOfText) == kept)
  }

  @Test("characters whose note was dropped go before the later part of their insertion noted on the same piece",
        arguments: Purgers.allCases)
  func droppedRunBeforeLaterPart(_ purgers: Purgers) async throws {
    // Fuzz seed 4514374. The peer types a digit after each of the letters "b" to "j" and "QR"
    // after "k": the deletion of "ab1c2…9k" leaves nineteen runs to purge before "Q" ("ab", "1",
    // "c", "2", … "k"), and the three farthest, "ab", "1" and "c", are dropped past the capacity
    // (then sixteen). "ab" went before the insertion's next surviving piece, "lmn", after "QR", where a
    // replica that kept it shows it after the peer's "!".
    // (With the capacity at sixty-four, the "digits" are one character each: Greek letters.)
    let digits = CRDTText.PurgeNotes.capacity / 2 + 1
    let letters = String("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPSTUVWXYZ".prefix(2 + digits + 3))
    func mark(_ digit: Int) -> String { String(UnicodeScalar(0x3B0 + digit)!) }
    precondition(letters.count == 2 + digits + 3, "the test needs more letters")
    let docs = try await makeReplicas(2)
    let log = ChangeLog(actors: [actor(1), actor(2)])
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, letters) }
    try await exchange(docs, log)
    for digit in 1...digits {
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(2 * digit, 2 * digit, mark(digit)) }
    }
    try await docs[1].update { root, _ in _ = try root.text("t")?.edit(2 * digits + 2, 2 * digits + 2, "QR") }
    try await exchange(docs, log)
    var typed = "ab"
    for (digit, letter) in zip(1...digits, letters.dropFirst(2)) { typed += "\(mark(digit))\(letter)" }
    typed += "QR" + letters.suffix(3)
    #expect(await text(docs[0]) == typed)
    await docs[0].clearHistory()
    try await docs[0].update { root, _ in try root.text("t")?.delete(0, 2 * digits + 2) }
    try await docs[1].update { root, _ in _ = try root.text("t")?.edit(0, 0, "!") }
    try await exchange(docs, log)
    for (index, doc) in docs.enumerated() where purgers.purges(index) {
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2 * digits + 1)
    }
    try await docs[0].undo()
    try await exchange(docs, log)
    for doc in docs {
      #expect(await text(doc) == "!" + typed)
      #expect(await doc.checkInvariants() == nil)
    }
    #expect(await docs[0].toJSON() == docs[1].toJSON())
  }

  @Test("a run of purged pieces leaves the same notes collected in one pass or in two, and none joins a run across a dropped one")
  func notesIndependentOfPasses() async throws {
    // "a" and "b" are one insertion with "Z" typed between them, then capacity - 1 characters one
    // update each, then "H". "b" and the fifteen are deleted, then "a" and "Z". The collection
    // runs right to left: "H" gets the typed ones and "b" (the capacity), "Z" is dropped,
    // and so is "a", which must not join "b" across "Z" (a replica that kept "Z" revives "a Z b").
    let typed = CRDTText.PurgeNotes.capacity - 1
    func build() async throws -> Document {
      let doc = Document(key: "notes")
      try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "ab") }
      try await doc.update { root, _ in _ = try root.text("t")?.edit(1, 1, "Z") }
      for index in 0...typed {
        try await doc.update { root, _ in _ = try root.text("t")?.edit(3 + index, 3 + index, index == typed ? "H" : "x") }
      }
      try await doc.update { root, _ in try root.text("t")?.delete(2, 3 + typed) }
      return doc
    }
    func notes(_ doc: Document) async throws -> [CRDTText.PurgedRunRecord] {
      try await doc.update { root, _ in
        guard let text = root.text("t")?.element else { return [] }
        return text.purgeNoteRecords(heldBy: text.pieces.last!)
      }
    }
    let once = try await build()
    let twice = try await build()
    let firstDeletion = await twice.versionVector
    try await once.update { root, _ in try root.text("t")?.delete(0, 2) }
    try await twice.update { root, _ in try root.text("t")?.delete(0, 2) }
    #expect(await twice.garbageCollect(minSyncedVersionVector: firstDeletion) == typed + 1)
    #expect(await twice.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await once.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == typed + 3)
    for doc in [once, twice] {
      #expect(await text(doc) == "H")
      #expect(await doc.checkInvariants() == nil)
    }
    let kept = try await notes(once)
    #expect(kept.count == CRDTText.PurgeNotes.capacity)
    #expect(kept.first.map { [$0.start, $0.end] + $0.cuts } == [1, 2])
    #expect(try await notes(twice) == kept)
  }

  @Test("a piece keeps at most sixty-four notes, the nearest, whatever was purged next to it")
  func notesStayBounded() async throws {
    let doc = Document(key: "notes")
    try await doc.update { root, _ in _ = root.setNewText("t") }
    // More single-character insertions than the capacity, before a final "Z", each deleted in
    // its own update and purged: each purge notes itself on "Z" (its notes move on as pieces
    // are purged).
    try await doc.update { root, _ in _ = try root.text("t")?.edit(0, 0, "Z") }
    for _ in 0..<(CRDTText.PurgeNotes.capacity + 24) {
      try await doc.update { root, _ in _ = try root.text("t")?.edit(0, 0, "x") }
      try await doc.update { root, _ in try root.text("t")?.delete(0, 1) }
      _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
    }
    #expect(await text(doc) == "Z")
    #expect(await doc.checkInvariants() == nil)
    let counts = try await doc.update { root, _ in (root.text("t")?.element?.purgeNotes.values.map(\.count)) ?? [] }
    #expect(counts == [CRDTText.PurgeNotes.capacity])
  }
}
