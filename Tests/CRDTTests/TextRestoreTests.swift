import Foundation
import Testing
import CRDT

// Identity-preserving restore edits (Yorkie v0.7.13+ text undo/redo): Edit operations that carry
// restoreSpans / restoreMode / retombstoneSpans. The changes are built by hand, as a server
// delivers them, and applied with `applyChangePack`.
//
// Sources of the cases: the recorded fixture 06-attach-text-undo.json (Yorkie v0.7.17 server,
// Go SDK writer); Go pkg/document/crdt/text_restore_test.go (TestTextRestore,
// TestTextRestoreExecuteAfterGC, TestTextRestoreDocSizeAccounting,
// TestTextRestoreAfterGCKeepsOrderAcrossInsertions, TestTextRestoreRejectsForgedIdentity,
// TestTextRestoreTwoReplicaPurgedInsertion, TestTextRestoreDocSizeReversibleAcrossUndoRedoCycle);
// JS packages/sdk/test/unit/document/text_restore_after_gc_test.ts,
// text_restore_relink_test.ts and text_restore_convergence_test.ts. Yorkie's docSize assertions
// have no counterpart here; garbage counts stand in for them.

/// A replica fed with hand-built changes: one author's changes, numbered as a server would.
private final class Feed {
  let doc: Document
  private var clientSeq: [ActorID: UInt32] = [:]

  init(key: String = "restore-doc") {
    doc = Document(key: key)
  }

  /// Applies one change of `author` at `lamport` (version vector `vector`, empty for "knows
  /// everything", as Yorkie's Go tests execute with a nil vector), then checks the invariants.
  func apply(_ author: ActorID, _ lamport: Int64, vector: VersionVector = VersionVector(), _ operations: [CRDT.Operation]) async throws {
    try await doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [change(author, lamport, vector: vector, operations)]))
    #expect(await doc.checkInvariants() == nil)
  }

  /// The change `apply` would apply.
  func change(_ author: ActorID, _ lamport: Int64, vector: VersionVector = VersionVector(), _ operations: [CRDT.Operation]) -> Change {
    let seq = (clientSeq[author] ?? 0) + 1
    clientSeq[author] = seq
    return Change(id: ChangeID(clientSeq: seq, lamport: lamport, actorID: author, versionVector: vector), operations: operations)
  }

  /// Positions of the visible range `from..<to` of the text at `key`.
  func range(_ from: Int, _ to: Int, key: String = "t") async throws -> (TextPosition, TextPosition) {
    let box = Captured<(TextPosition, TextPosition)>()
    try await doc.update { root, _ in box.value = try root.text(key)?.indexRangeToPosRange((from, to)) }
    return try #require(box.value)
  }

  var text: String {
    get async {
      guard case .array(let pieces)? = try? await doc.value(atPath: "$.t") else { return "?" }
      return pieces.map { piece -> String in
        guard case .object(let object) = piece, case .string(let value)? = object["val"] else { return "?" }
        return value
      }.joined()
    }
  }
}

private let authorA = actor(1)
private let authorB = actor(2)
private let textTicket = TimeTicket(lamport: 1, delimiter: 1, actorID: authorA)
private let head = TextPosition(id: TextNodeID(createdAt: .initial, offset: 0), relativeOffset: 0)

private func ticket(_ lamport: Int64, _ delimiter: UInt32 = 1, _ author: ActorID = authorA) -> TimeTicket {
  TimeTicket(lamport: lamport, delimiter: delimiter, actorID: author)
}

private func setText(at: TimeTicket = textTicket) -> CRDT.Operation {
  .set(parentCreatedAt: .initial, key: "t", value: .text([], ElementSnapshot.Meta(createdAt: at)), executedAt: at)
}

private func edit(_ range: (TextPosition, TextPosition), _ content: String, at: TimeTicket) -> CRDT.Operation {
  .edit(parentCreatedAt: textTicket, from: range.0, to: range.1, content: content, attributes: nil, executedAt: at)
}

private func restore(_ spans: [RestoreSpan], removing: [RestoreSpan] = [], mode: RestoreMode = .restore,
                     anchor: TextPosition = head, at: TimeTicket) -> CRDT.Operation {
  .restoreEdit(parentCreatedAt: textTicket, from: anchor, to: anchor, restoreSpans: spans, restoreMode: mode,
               retombstoneSpans: removing, executedAt: at)
}

/// A feed holding `content` inserted at once at `seed` (Go's `seededText`).
private func seeded(_ seed: TimeTicket, content: String = "0123456789") async throws -> Feed {
  let feed = Feed()
  try await feed.apply(authorA, 1, [setText()])
  try await feed.apply(authorA, seed.lamport, [edit(try await feed.range(0, 0), content, at: seed)])
  #expect(await feed.text == content)
  return feed
}

/// A small deterministic generator (SplitMix64) for the randomized cases.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private func deleteRange(_ feed: Feed, _ from: Int, _ to: Int, at: TimeTicket) async throws {
  try await feed.apply(at.actorID, at.lamport, [edit(try await feed.range(from, to), "", at: at)])
}

@Suite("Text restore edits")
struct TextRestoreTests {
  // MARK: The recorded fixture

  @Test("the recorded undo/redo changes of fixture 06-attach-text-undo end as abef in pieces a, b, ef")
  func recordedFixture() async throws {
    // exchanges[1].response.changePack.changes of /work/shared/fixtures/wire/06-attach-text-undo.json,
    // rebuilt operation by operation (actor awJjSX63Cjb0rDu3 = 6b0263497eb70a36f4ac3bb7).
    let writer = try ActorID(hex: "6b0263497eb70a36f4ac3bb7")
    func t(_ lamport: Int64, _ delimiter: UInt32) -> TimeTicket { TimeTicket(lamport: lamport, delimiter: delimiter, actorID: writer) }
    func vv(_ lamport: Int64) -> VersionVector { VersionVector([writer: lamport]) }
    func id(_ seq: UInt32, _ lamport: Int64) -> ChangeID {
      ChangeID(clientSeq: seq, serverSeq: Int64(seq), lamport: lamport, actorID: writer, versionVector: lamport == 0 ? VersionVector() : vv(lamport))
    }
    let text = t(1, 1)
    let insertion = t(1, 2)
    let xy = t(5, 1)
    func pos(_ createdAt: TimeTicket, _ relative: Int32) -> TextPosition {
      TextPosition(id: TextNodeID(createdAt: createdAt, offset: 0), relativeOffset: relative)
    }
    let cd = RestoreSpan(createdAt: insertion, start: 2, end: 4, content: "cd")
    let changes = [
      Change(id: id(1, 0), operations: [], presenceChange: .put([:])),
      Change(id: id(2, 1), operations: [
        .set(parentCreatedAt: .initial, key: "t", value: .text([], ElementSnapshot.Meta(createdAt: text)), executedAt: text),
        .edit(parentCreatedAt: text, from: pos(.initial, 0), to: pos(.initial, 0), content: "abcdef", attributes: nil, executedAt: insertion),
      ], message: "create text"),
      Change(id: id(3, 2), operations: [
        .edit(parentCreatedAt: text, from: pos(insertion, 2), to: pos(insertion, 4), content: "", attributes: nil, executedAt: t(2, 1)),
      ], message: "delete cd"),
      Change(id: id(4, 3), operations: [
        .restoreEdit(parentCreatedAt: text, from: pos(.initial, 2), to: pos(.initial, 2), restoreSpans: [cd],
                     restoreMode: .restore, retombstoneSpans: [], executedAt: t(3, 1)),
      ]),
      Change(id: id(5, 4), operations: [
        .restoreEdit(parentCreatedAt: text, from: pos(.initial, 2), to: pos(.initial, 2), restoreSpans: [cd],
                     restoreMode: .retombstone, retombstoneSpans: [], executedAt: t(4, 1)),
      ]),
      Change(id: id(6, 5), operations: [
        .edit(parentCreatedAt: text, from: pos(insertion, 1), to: pos(insertion, 1), content: "XY", attributes: nil, executedAt: xy),
      ], message: "insert XY"),
      Change(id: id(7, 6), operations: [
        .restoreEdit(parentCreatedAt: text, from: pos(.initial, 1), to: pos(.initial, 1), restoreSpans: [],
                     restoreMode: .restore, retombstoneSpans: [RestoreSpan(createdAt: xy, start: 0, end: 2, content: "XY")],
                     executedAt: t(6, 1)),
      ]),
      Change(id: id(8, 0), operations: [], presenceChange: .clear),
    ]
    let expectedAfter = ["", #"{"t":[]}"#, #"{"t":[{"val":"abcdef"}]}"#, #"{"t":[{"val":"ab"},{"val":"ef"}]}"#,
                         #"{"t":[{"val":"ab"},{"val":"cd"},{"val":"ef"}]}"#, #"{"t":[{"val":"ab"},{"val":"ef"}]}"#,
                         #"{"t":[{"val":"a"},{"val":"XY"},{"val":"b"},{"val":"ef"}]}"#,
                         #"{"t":[{"val":"a"},{"val":"b"},{"val":"ef"}]}"#, #"{"t":[{"val":"a"},{"val":"b"},{"val":"ef"}]}"#]

    // Change by change, checking every step.
    let stepwise = Document(key: "fx1795318601-undo")
    for (i, change) in changes.enumerated() {
      try await stepwise.applyChangePack(ChangePack(key: "fx1795318601-undo", checkpoint: Checkpoint(serverSeq: Int64(i + 1), clientSeq: 0), changes: [change]))
      #expect(await stepwise.checkInvariants() == nil)
      if i >= 1 { #expect(await stepwise.toJSON() == expectedAfter[i + 1], "after change \(i + 1)") }
    }

    // The whole pack at once, as the attach response delivers it.
    let doc = Document(key: "fx1795318601-undo")
    try await doc.applyChangePack(ChangePack(key: "fx1795318601-undo", checkpoint: Checkpoint(serverSeq: 8, clientSeq: 0),
                                             changes: changes, versionVector: VersionVector()))
    #expect(await doc.checkInvariants() == nil)
    // expected.texts {"$.t": "abef"}; goYSON Text([{"val":"a"},{"val":"b"},{"val":"ef"}]).
    #expect(await doc.toJSON() == #"{"t":[{"val":"a"},{"val":"b"},{"val":"ef"}]}"#)
    #expect(await doc.toSortedJSON() == #"{"t":[{"val":"a"},{"val":"b"},{"val":"ef"}]}"#)
    #expect(await stepwise.debugPieces("$.t") == doc.debugPieces("$.t"))
    // a, {XY}, b, {cd}, ef: the two removed pieces are the garbage.
    let pieces = await doc.debugPieces("$.t").split(separator: "\n")
    #expect(pieces.count == 5)
    #expect(pieces[1].contains("\"XY\" r6:"))
    #expect(pieces[3].contains("\"cd\" r4:"))
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: VersionVector([writer: 6])) == 2)
    #expect(await doc.toJSON() == #"{"t":[{"val":"a"},{"val":"b"},{"val":"ef"}]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  // MARK: Go TestTextRestore

  @Test("overlapping undos converge in both restore orders")
  func overlappingUndosConverge() async throws {
    let seed = ticket(2)
    var results: [String] = []
    for d1First in [true, false] {
      let feed = try await seeded(seed)
      // Both ranges computed on the original, then both deletes applied.
      let r1 = try await feed.range(4, 6)
      let r2 = try await feed.range(2, 8)
      try await feed.apply(authorA, 3, [edit(r1, "", at: ticket(3))])
      try await feed.apply(authorA, 4, [edit(r2, "", at: ticket(4))])
      #expect(await feed.text == "0189")
      let d1 = restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(d1First ? 5 : 6))
      let d2 = restore([RestoreSpan(createdAt: seed, start: 2, end: 8, content: "234567")], at: ticket(d1First ? 6 : 5))
      try await feed.apply(authorA, 5, [d1First ? d1 : d2])
      try await feed.apply(authorA, 6, [d1First ? d2 : d1])
      #expect(await feed.text == "0123456789")
      #expect(await feed.doc.garbageLength == 0)
      results.append(await feed.doc.toJSON())
    }
    #expect(results[0] == results[1])
  }

  @Test("two authors undoing concurrent overlapping deletions converge on identical pieces", arguments: [true, false])
  func twoAuthorsUndoOverlappingDeletes(firstUndoFirst: Bool) async throws {
    // JS text_restore_convergence_test.ts: d1 deletes "45", d2 concurrently deletes "234567";
    // each undoes its own deletion. Replicas receiving everything in different orders must
    // show the same text and the same pieces, and purge the same garbage.
    let seed = ticket(2)
    let replicas = [try await seeded(seed), try await seeded(seed)]
    let r45 = try await replicas[0].range(4, 6)
    let r234567 = try await replicas[0].range(2, 8)
    let seen = VersionVector([authorA: 2])
    let delete1 = replicas[0].change(authorA, 3, vector: seen, [edit(r45, "", at: ticket(3))])
    let delete2 = replicas[0].change(authorB, 3, vector: seen.merged(with: VersionVector([authorB: 3])), [edit(r234567, "", at: ticket(3, 1, authorB))])
    // Each undo has seen both deletions (and not the other undo: they are concurrent).
    let all = VersionVector([authorA: 3, authorB: 3])
    let undo1 = replicas[0].change(authorA, firstUndoFirst ? 4 : 5, vector: all.merged(with: VersionVector([authorA: firstUndoFirst ? 4 : 5])),
                                   [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(firstUndoFirst ? 4 : 5))])
    let undo2 = replicas[0].change(authorB, firstUndoFirst ? 5 : 4, vector: all.merged(with: VersionVector([authorB: firstUndoFirst ? 5 : 4])),
                                   [restore([RestoreSpan(createdAt: seed, start: 2, end: 8, content: "234567")],
                                            at: ticket(firstUndoFirst ? 5 : 4, 1, authorB))])
    let orders = [[delete1, delete2, undo1, undo2], [delete2, delete1, undo2, undo1]]
    for (replica, order) in zip(replicas, orders) {
      for change in order {
        try await replica.doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [change]))
        #expect(await replica.doc.checkInvariants() == nil)
      }
      #expect(await replica.text == "0123456789")
    }
    #expect(await replicas[0].doc.debugPieces("$.t") == replicas[1].doc.debugPieces("$.t"))
    let vector = maxVector([authorA, authorB])
    #expect(await replicas[0].doc.garbageCollect(minSyncedVersionVector: vector) == replicas[1].doc.garbageCollect(minSyncedVersionVector: vector))
    #expect(await replicas[0].doc.garbageLength == 0)
    #expect(await replicas[1].doc.garbageLength == 0)
  }

  @Test("restoring one of two overlapping deletions revives only its own characters")
  func onlyOneSideUndone() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    let r1 = try await feed.range(4, 6)
    let r2 = try await feed.range(2, 8)
    try await feed.apply(authorA, 3, [edit(r1, "", at: ticket(3))])
    try await feed.apply(authorA, 4, [edit(r2, "", at: ticket(4))])
    try await feed.apply(authorA, 5, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(5))])
    #expect(await feed.text == "014589")
    try await feed.apply(authorA, 6, [restore([RestoreSpan(createdAt: seed, start: 2, end: 8, content: "234567")], at: ticket(6))])
    #expect(await feed.text == "0123456789")
  }

  @Test("partial overlap [4,6) x [2,5) restores to the original")
  func partialOverlap() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    let r1 = try await feed.range(4, 6)
    let r2 = try await feed.range(2, 5)
    try await feed.apply(authorA, 3, [edit(r1, "", at: ticket(3))])
    try await feed.apply(authorA, 4, [edit(r2, "", at: ticket(4))])
    #expect(await feed.text == "016789")
    try await feed.apply(authorA, 5, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(5))])
    try await feed.apply(authorA, 6, [restore([RestoreSpan(createdAt: seed, start: 2, end: 5, content: "234")], at: ticket(6))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.garbageLength == 0)
  }

  @Test("redo (retombstone) then undo again, and the garbage count follows each step")
  func redoThenUndo() async throws {
    // Also Go TestTextRestoreDocSizeReversibleAcrossUndoRedoCycle and JS "reverses GC accounting
    // exactly across delete/undo/redo/undo", with the garbage count for docSize.
    let seed = ticket(2)
    let span = [RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")]
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    #expect(await feed.text == "01236789")
    #expect(await feed.doc.garbageLength == 1)
    try await feed.apply(authorA, 4, [restore(span, at: ticket(4))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.garbageLength == 0)
    // RETOMBSTONE swaps the lists: the span to remove again travels as restoreSpans.
    try await feed.apply(authorA, 5, [restore(span, mode: .retombstone, at: ticket(5))])
    #expect(await feed.text == "01236789")
    #expect(await feed.doc.garbageLength == 1)
    try await feed.apply(authorA, 6, [restore(span, at: ticket(6))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.garbageLength == 0)
    #expect(await feed.doc.toJSON() == #"{"t":[{"val":"0123"},{"val":"45"},{"val":"6789"}]}"#)
  }

  @Test("a duplicate restore is a no-op")
  func duplicateRestore() async throws {
    let seed = ticket(2)
    let span = [RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")]
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    try await feed.apply(authorA, 4, [restore(span, at: ticket(4))])
    let once = await feed.doc.debugPieces("$.t")
    try await feed.apply(authorA, 5, [restore(span, at: ticket(5))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.debugPieces("$.t") == once)
  }

  @Test("a span covering only part of a removed piece splits it; the remainders stay garbage")
  func partialPieceSplit() async throws {
    // Go TestTextRestoreDocSizeAccounting: [2,8) removed as one piece, [4,6) restored.
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 2, 8, at: ticket(3))
    #expect(await feed.text == "0189")
    #expect(await feed.doc.garbageLength == 1)
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))])
    #expect(await feed.text == "014589")
    #expect(await feed.doc.toJSON() == #"{"t":[{"val":"01"},{"val":"45"},{"val":"89"}]}"#)
    let pieces = await feed.doc.debugPieces("$.t").split(separator: "\n")
    #expect(pieces.count == 5)
    #expect(pieces[1].contains("\"23\" r3:"))
    #expect(pieces[2].contains("\"45\" r {"))
    #expect(pieces[3].contains("\"67\" r3:"))
    // [2,4) and [6,8) are the garbage; purging them leaves the restored text alone.
    #expect(await feed.doc.garbageLength == 2)
    #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 2)
    #expect(await feed.doc.garbageLength == 0)
    #expect(await feed.text == "014589")
    #expect(await feed.doc.checkInvariants() == nil)
  }

  @Test("a span covering a live piece and a removed one revives the removed part and marks the live one revived, cut to the span")
  func spanOverLiveAndRemoved() async throws {
    // The live "34" gets the revival as a step, cut at the span's start as where it was
    // removed (the restored-copy case of fuzz seed 11649393; Yorkie leaves a live piece
    // unsplit, and shows the same text).
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 5, 8, at: ticket(3))
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 3, end: 7, content: "3456")], at: ticket(4))])
    #expect(await feed.text == "012345689")
    #expect(await feed.doc.toJSON() == #"{"t":[{"val":"012"},{"val":"34"},{"val":"56"},{"val":"89"}]}"#)
    #expect(await feed.doc.garbageLength == 1)
  }

  @Test("a restore of live characters and a concurrent older deletion of them leave them live in either order",
        arguments: [false, true])
  func restoreOfLiveMeetsOlderDeletion(deletionFirst: Bool) async throws {
    // Fuzz seed 11649393: the deletion the undo reverses never took effect here (skipped in a
    // copy an undo brought back), so "34" is live, never removed. B's restore (ticket 5 of B)
    // and A's deletion (ticket 5 of A, older; A had not seen the restore) meet. Where the
    // deletion came first, the restore revives "34" (its step is the latest); where the
    // restore came first, it must leave a step too, or the deletion removes "34" there alone.
    let seed = ticket(2)
    let feed = try await seeded(seed)
    let range = try await feed.range(3, 5)
    let deletion = feed.change(authorA, 5, vector: VersionVector([authorA: 4]), [edit(range, "", at: ticket(5))])
    let restoring = feed.change(authorB, 5, vector: VersionVector([authorA: 2, authorB: 5]),
                                [restore([RestoreSpan(createdAt: seed, start: 3, end: 5, content: "34")], at: ticket(5, 1, authorB))])
    for change in deletionFirst ? [deletion, restoring] : [restoring, deletion] {
      try await feed.doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [change]))
      #expect(await feed.doc.checkInvariants() == nil)
    }
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.toJSON() == #"{"t":[{"val":"012"},{"val":"34"},{"val":"56789"}]}"#)
  }

  @Test("an unspecified mode with spans runs as a restore; with no spans it is a plain edit")
  func unspecifiedMode() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], mode: .unspecified, at: ticket(4))])
    #expect(await feed.text == "0123456789")
    let range = try await feed.range(1, 3)
    try await feed.apply(authorA, 5, [.restoreEdit(parentCreatedAt: textTicket, from: range.0, to: range.1, restoreSpans: [],
                                                    restoreMode: .unspecified, retombstoneSpans: [], executedAt: ticket(5))])
    #expect(await feed.text == "03456789")
  }

  // MARK: After garbage collection

  @Test("restoring after the removed pieces were purged recreates them, in both orders", arguments: [true, false])
  func restoreAfterGC(d1First: Bool) async throws {
    // Go TestTextRestoreExecuteAfterGC.
    let seed = ticket(2)
    let feed = try await seeded(seed)
    let r1 = try await feed.range(4, 6)
    let r2 = try await feed.range(2, 8)
    try await feed.apply(authorA, 3, [edit(r1, "", at: ticket(3))])
    try await feed.apply(authorA, 4, [edit(r2, "", at: ticket(4))])
    #expect(await feed.text == "0189")
    #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) > 0)
    #expect(await feed.doc.checkInvariants() == nil)
    let d1 = [RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")]
    let d2 = [RestoreSpan(createdAt: seed, start: 2, end: 8, content: "234567")]
    try await feed.apply(authorA, 5, [restore(d1First ? d1 : d2, at: ticket(5))])
    try await feed.apply(authorA, 6, [restore(d1First ? d2 : d1, at: ticket(6))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.garbageLength == 0)
    // The recreated pieces carry their original ids and split as the original would.
    try await deleteRange(feed, 3, 5, at: ticket(7))
    #expect(await feed.text == "01256789")
    try await feed.apply(authorA, 8, [restore([RestoreSpan(createdAt: seed, start: 3, end: 5, content: "34")], at: ticket(8))])
    #expect(await feed.text == "0123456789")
  }

  @Test("a purged interior piece is recreated in place, and later edits at its edges land right")
  func recreatedPieceRelinked() async throws {
    // JS text_restore_relink_test.ts (yorkie-js-sdk#1327).
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 1)
    #expect(await feed.doc.garbageLength == 0)
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))])
    #expect(await feed.text == "0123456789")
    try await feed.apply(authorA, 5, [edit(try await feed.range(6, 6), "X", at: ticket(5))])
    #expect(await feed.text == "012345X6789")
    try await feed.apply(authorA, 6, [edit(try await feed.range(4, 4), "Y", at: ticket(6))])
    #expect(await feed.text == "0123Y45X6789")
    // A position made against the original piece still resolves through the recreated one.
    let inside = TextPosition(id: TextNodeID(createdAt: seed, offset: 0), relativeOffset: 5)
    try await feed.apply(authorA, 7, [edit((inside, inside), "Z", at: ticket(7))])
    #expect(await feed.text == "0123Y4Z5X6789")
  }

  @Test("a purged run typed character by character is recreated in document order")
  func purgedRunKeepsOrder() async throws {
    // Go TestTextRestoreAfterGCKeepsOrderAcrossInsertions, JS text_restore_after_gc_test.ts.
    let s = Array("hello my name is")
    let feed = Feed()
    try await feed.apply(authorA, 1, [setText()])
    var tickets: [TimeTicket] = []
    for (i, character) in s.enumerated() {
      let at = ticket(Int64(2 + i))
      tickets.append(at)
      try await feed.apply(authorA, at.lamport, [edit(try await feed.range(i, i), String(character), at: at)])
    }
    #expect(await feed.text == String(s))
    try await deleteRange(feed, 6, 13, at: ticket(100))
    #expect(await feed.text == "hello  is")
    #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 7)
    // The reverse op carries the deletion's left boundary as its anchor.
    let anchor = try await feed.range(6, 6).0
    let spans = (6..<13).map { RestoreSpan(createdAt: tickets[$0], start: 0, end: 1, content: String(s[$0])) }
    try await feed.apply(authorA, 101, [restore(spans, anchor: anchor, at: ticket(101))])
    #expect(await feed.text == String(s))
  }

  @Test("characters recreated before several surviving pieces go before the nearest one, as without GC")
  func recreatedBeforeNearestRightPiece() async throws {
    // Yorkie's findRestoreAnchor rule (c) anchors before the insertion's *last* piece, which
    // here would give "56012389" on the replica that purged and "01235689" on one that did not.
    let seed = ticket(2)
    var results: [String] = []
    for purge in [false, true] {
      let feed = try await seeded(seed)
      try await deleteRange(feed, 0, 5, at: ticket(3))   // "01234"
      try await deleteRange(feed, 2, 3, at: ticket(4))   // "7" of "56789"
      #expect(await feed.text == "5689")
      if purge { #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 2) }
      try await feed.apply(authorA, 5, [restore([RestoreSpan(createdAt: seed, start: 0, end: 4, content: "0123")], at: ticket(5))])
      results.append(await feed.text)
    }
    #expect(results == ["01235689", "01235689"])
  }

  @Test("a whole purged insertion restored in halves converges in both orders")
  func purgedInsertionHalves() async throws {
    // Go TestTextRestoreTwoReplicaPurgedInsertion.
    let seed = ticket(2)
    let left = RestoreSpan(createdAt: seed, start: 0, end: 5, content: "01234")
    let right = RestoreSpan(createdAt: seed, start: 5, end: 10, content: "56789")
    var results: [String] = []
    for leftFirst in [true, false] {
      let feed = try await seeded(seed)
      try await deleteRange(feed, 0, 10, at: ticket(3))
      #expect(await feed.text == "")
      #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 1)
      try await feed.apply(authorA, 4, [restore([leftFirst ? left : right], at: ticket(4))])
      try await feed.apply(authorA, 5, [restore([leftFirst ? right : left], at: ticket(5))])
      #expect(await feed.text == "0123456789")
      results.append(await feed.doc.debugPieces("$.t"))
    }
    #expect(results[0] == results[1])
  }

  @Test("a restored text round-trips through a snapshot, recreated pieces included")
  func snapshotRoundTrip() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 2, 8, at: ticket(3))
    #expect(await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) == 1)
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))])
    try await deleteRange(feed, 0, 1, at: ticket(5))
    let loaded = Document(key: "restore-doc")
    try await loaded.applyChangePack(ChangePack(key: "restore-doc", checkpoint: Checkpoint(serverSeq: 5, clientSeq: 0), changes: [],
                                                versionVector: VersionVector([authorA: 5]), snapshot: await feed.doc.snapshot()))
    #expect(await loaded.checkInvariants() == nil)
    #expect(await loaded.toJSON() == feed.doc.toJSON())
    #expect(await loaded.debugPieces("$.t") == feed.doc.debugPieces("$.t"))
    #expect(await loaded.garbageLength == feed.doc.garbageLength)
    // Both keep working the same way: restore the rest after loading.
    let rest = restore([RestoreSpan(createdAt: seed, start: 0, end: 10, content: "0123456789")], at: ticket(6))
    try await feed.apply(authorA, 6, [rest])
    try await loaded.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [
      Change(id: ChangeID(clientSeq: 6, lamport: 6, actorID: authorA, versionVector: VersionVector()), operations: [rest]),
    ]))
    #expect(await loaded.checkInvariants() == nil)
    #expect(await feed.text == "0123456789")
    #expect(await loaded.debugPieces("$.t") == feed.doc.debugPieces("$.t"))
  }

  // MARK: Concurrency

  @Test("concurrent edits around a restored span converge on every replica, with or without GC")
  func concurrentEditsConverge() async throws {
    // A inserts "0123456789", deletes "45", then undoes the deletion; concurrently B (having seen
    // the deletion) inserts "X" where "45" was and deletes "7". Three replicas receive the
    // changes in different orders; the third purged "45" before the undo arrived.
    let seed = ticket(2)
    func replica() async throws -> Feed {
      let feed = try await seeded(seed)
      try await deleteRange(feed, 4, 6, at: ticket(3))
      return feed
    }
    let undo = restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))
    let knowsDelete = VersionVector([authorA: 3])
    // B's positions, taken on a replica in the state B saw ("01236789").
    let b = try await replica()
    let bInsert = try await b.range(4, 4)
    let bSeven = try await b.range(5, 6)
    let bChange: [CRDT.Operation] = [
      .edit(parentCreatedAt: textTicket, from: bInsert.0, to: bInsert.1, content: "X", attributes: nil, executedAt: ticket(4, 1, authorB)),
      .edit(parentCreatedAt: textTicket, from: bSeven.0, to: bSeven.1, content: "", attributes: nil, executedAt: ticket(4, 2, authorB)),
    ]

    let r1 = try await replica()
    try await r1.apply(authorA, 4, vector: VersionVector([authorA: 4]), [undo])
    try await r1.apply(authorB, 4, vector: knowsDelete.merged(with: VersionVector([authorB: 4])), bChange)

    let r2 = try await replica()
    try await r2.apply(authorB, 4, vector: knowsDelete.merged(with: VersionVector([authorB: 4])), bChange)
    try await r2.apply(authorA, 4, vector: VersionVector([authorA: 4]), [undo])

    let r3 = try await replica()
    try await r3.apply(authorB, 4, vector: knowsDelete.merged(with: VersionVector([authorB: 4])), bChange)
    // Everyone has seen both deletions: "45" and "7" are purged here before the undo arrives.
    #expect(await r3.doc.garbageCollect(minSyncedVersionVector: VersionVector([authorA: 3, authorB: 4])) == 2)
    try await r3.apply(authorA, 4, vector: VersionVector([authorA: 4]), [undo])

    #expect(await r1.text == "0123X45689")
    #expect(await r1.doc.toJSON() == r2.doc.toJSON())
    #expect(await r1.doc.toJSON() == r3.doc.toJSON())
    // A later edit by B that knows everything lands the same way everywhere.
    let range = try await r1.range(5, 7)
    for feed in [r1, r2, r3] {
      try await feed.apply(authorB, 5, vector: VersionVector([authorA: 4, authorB: 5]),
                           [edit(range, "-", at: ticket(5, 1, authorB))])
    }
    #expect(await r1.text == "0123X-689")
    #expect(await r1.doc.toJSON() == r2.doc.toJSON())
    #expect(await r1.doc.toJSON() == r3.doc.toJSON())
  }

  @Test("random deletions, restores and redos match a model, with and without garbage collection", arguments: Array(UInt64(1)...UInt64(40)))
  func randomizedAgainstModel(seedValue: UInt64) async throws {
    // One insertion of 24 characters; each step deletes a visible range by position, restores
    // a span by identity, or removes a span again. The model is a visibility flag per
    // character. Replica `gc` also purges every tombstone at random moments, so its restores
    // recreate characters instead of reviving them; both must show the model's text.
    var random = SplitMix(seed: seedValue)
    let characters = Array("abcdefghijklmnopqrstuvwx")
    let seed = ticket(2)
    let plain = try await seeded(seed, content: String(characters))
    let gc = try await seeded(seed, content: String(characters))
    var visible = [Bool](repeating: true, count: characters.count)
    for step in 0..<120 {
      let lamport = Int64(3 + step)
      let at = ticket(lamport)
      let operation: CRDT.Operation
      switch random.next() % 3 {
      case 0:
        let shown = visible.indices.filter { visible[$0] }
        guard !shown.isEmpty else { continue }
        let from = Int(random.next() % UInt64(shown.count))
        let to = from + 1 + Int(random.next() % UInt64(min(5, shown.count - from)))
        for i in shown[from..<to] { visible[i] = false }
        operation = edit(try await plain.range(from, to), "", at: at)
      case let kind:
        let start = Int(random.next() % UInt64(characters.count))
        let end = start + 1 + Int(random.next() % UInt64(min(8, characters.count - start)))
        let span = RestoreSpan(createdAt: seed, start: Int32(start), end: Int32(end), content: String(characters[start..<end]))
        for i in start..<end { visible[i] = kind == 1 }
        operation = kind == 1 ? restore([span], at: at) : restore([], removing: [span], at: at)
      }
      try await plain.apply(authorA, lamport, [operation])
      try await gc.apply(authorA, lamport, [operation])
      if random.next() % 4 == 0 {
        _ = await gc.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA]))
        #expect(await gc.doc.garbageLength == 0)
        #expect(await gc.doc.checkInvariants() == nil)
      }
      let expected = String(characters.indices.filter { visible[$0] }.map { characters[$0] })
      #expect(await plain.text == expected, "step \(step)")
      #expect(await gc.text == expected, "step \(step)")
    }
  }

  @Test("a range deletion concurrent with a restore inside it leaves the restored piece, in both orders")
  func deletionConcurrentWithRestore() async throws {
    // B deletes "36" of "01236789" (its range spans the tombstone "45") while A restores "45".
    // Yorkie's rules diverge: where the restore arrives first, "45" is live when B's deletion
    // comes and B had seen its creation, so it is deleted ("012789"); where B's deletion arrives
    // first, it skips the tombstone and the restore then revives it ("01245789"). Here the
    // revived piece remembers its revival, and B's deletion, which had seen "45" removed and
    // not revived, leaves it alone in both orders (CRDTText+Revival.swift, rule 3).
    let seed = ticket(2)
    func replica() async throws -> Feed {
      let feed = try await seeded(seed)
      try await deleteRange(feed, 4, 6, at: ticket(3))
      return feed
    }
    let undo = restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))
    let b = try await replica()
    let range = try await b.range(3, 5)   // "36" around the tombstone
    let bDelete: [CRDT.Operation] = [edit(range, "", at: ticket(4, 1, authorB))]
    let r1 = try await replica()
    try await r1.apply(authorA, 4, vector: VersionVector([authorA: 4]), [undo])
    try await r1.apply(authorB, 4, vector: VersionVector([authorA: 3, authorB: 4]), bDelete)
    let r2 = try await replica()
    try await r2.apply(authorB, 4, vector: VersionVector([authorA: 3, authorB: 4]), bDelete)
    try await r2.apply(authorA, 4, vector: VersionVector([authorA: 4]), [undo])
    #expect(await r1.text == "01245789")
    #expect(await r2.text == "01245789")
    #expect(await r1.doc.checkInvariants() == nil)
    #expect(await r2.doc.checkInvariants() == nil)
  }

  @Test("a deletion that saw the piece live and a concurrent restore of it: the newer ticket wins, in both orders",
        arguments: [(deletionLamport: Int64(4), expected: "012345789"), (deletionLamport: Int64(6), expected: "0123789")])
  func deletionOfLivePieceConcurrentWithRestore(deletionLamport: Int64, expected: String) async throws {
    // A deletes "45" of "0123456789" and undoes it (restore at lamport 5); B, who had seen
    // neither, deletes "456". Yorkie: where the restore comes first, B's deletion removes "45";
    // where it comes last, the restore revives "45": "0123789" against "012345789". Here
    // removals and revivals of a piece order by ticket (CRDTText+Revival.swift, rule 4): B's
    // deletion at lamport 4 is older than the restore and "45" stays; at lamport 6 it is newer
    // and "45" goes, on both replicas.
    let seed = ticket(2)
    let undo = restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(5))
    let b = try await seeded(seed)
    let range = try await b.range(4, 7)   // "456"
    let bDelete: [CRDT.Operation] = [edit(range, "", at: ticket(deletionLamport, 1, authorB))]
    let aVector = VersionVector([authorA: 5])
    let bVector = VersionVector([authorA: 2, authorB: deletionLamport])
    let aDelete: [CRDT.Operation] = [edit(try await b.range(4, 6), "", at: ticket(3))]   // "45"
    let r1 = try await seeded(seed)
    try await r1.apply(authorA, 3, vector: VersionVector([authorA: 3]), aDelete)
    try await r1.apply(authorA, 5, vector: aVector, [undo])
    try await r1.apply(authorB, deletionLamport, vector: bVector, bDelete)
    let r2 = try await seeded(seed)
    try await r2.apply(authorB, deletionLamport, vector: bVector, bDelete)
    try await r2.apply(authorA, 3, vector: VersionVector([authorA: 3]), aDelete)
    try await r2.apply(authorA, 5, vector: aVector, [undo])
    #expect(await r1.text == expected)
    #expect(await r2.text == expected)
    #expect(await r1.doc.checkInvariants() == nil)
    #expect(await r2.doc.checkInvariants() == nil)
  }

  @Test("a redo's removal by an author who had not seen a concurrent restore of the same characters leaves them, in both orders")
  func retombstoneConcurrentWithRestore() async throws {
    // A deletes "45" of "0123456789" and undoes it (restore at lamport 5). B had seen the
    // deletion, not the undo, when its redo removes "45" again by identity (lamport 6, newer):
    // for B they were already removed. Yorkie removes them where B's redo comes after A's undo,
    // and keeps them where it came before; here they stay on both (CRDTText+Revival.swift).
    let seed = ticket(2)
    let b = try await seeded(seed)
    let aDelete: [CRDT.Operation] = [edit(try await b.range(4, 6), "", at: ticket(3))]
    let span = RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")
    let undo = restore([span], at: ticket(5))
    let redo = restore([], removing: [span], at: ticket(6, 1, authorB))
    let aVector = VersionVector([authorA: 5]), bVector = VersionVector([authorA: 3, authorB: 6])
    let r1 = try await seeded(seed)
    try await r1.apply(authorA, 3, vector: VersionVector([authorA: 3]), aDelete)
    try await r1.apply(authorA, 5, vector: aVector, [undo])
    try await r1.apply(authorB, 6, vector: bVector, [redo])
    let r2 = try await seeded(seed)
    try await r2.apply(authorA, 3, vector: VersionVector([authorA: 3]), aDelete)
    try await r2.apply(authorB, 6, vector: bVector, [redo])
    try await r2.apply(authorA, 5, vector: aVector, [undo])
    #expect(await r1.text == "0123456789")
    #expect(await r2.text == "0123456789")
  }

  @Test("a deletion that had seen one of two concurrent removals of a revived piece leaves it, in every order")
  func deletionAfterOneOfTwoRemovals() async throws {
    // B removes "45" of "0123456789" (lamport 4); C, who had not seen that, removes "45" too
    // (5) and undoes it (6); A, who had seen B's removal only, deletes "3456" (7). For A, "45"
    // was already removed: its deletion leaves them, and C's revival, the latest step, keeps
    // them live. Keeping only the latest removal a revival outlived (C's, which A had not
    // seen) made A's deletion remove them where it arrived after the revival.
    let seed = ticket(2)
    let authorC = actor(3)
    let b = try await seeded(seed)
    let r45 = try await b.range(4, 6), r3456 = try await b.range(3, 7)
    let span = RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")
    typealias Step = (author: ActorID, lamport: Int64, vector: VersionVector, ops: [CRDT.Operation])
    let bRemoval: Step = (authorB, 4, VersionVector([authorA: 2, authorB: 4]), [edit(r45, "", at: ticket(4, 1, authorB))])
    let cRemoval: Step = (authorC, 5, VersionVector([authorA: 2, authorC: 5]), [edit(r45, "", at: ticket(5, 1, authorC))])
    let cUndo: Step = (authorC, 6, VersionVector([authorA: 2, authorC: 6]), [restore([span], at: ticket(6, 1, authorC))])
    let aDeletion: Step = (authorA, 7, VersionVector([authorA: 7, authorB: 4]), [edit(r3456, "", at: ticket(7))])
    for order in [[bRemoval, aDeletion, cRemoval, cUndo], [cRemoval, cUndo, bRemoval, aDeletion], [bRemoval, cRemoval, cUndo, aDeletion]] {
      let replica = try await seeded(seed)
      for step in order { try await replica.apply(step.author, step.lamport, vector: step.vector, step.ops) }
      #expect(await replica.text == "01245789")
    }
  }

  @Test("a style older than a restore that arrives after it is cleared as if it had come first, tombstones included")
  func olderStyleAfterRestore() async throws {
    // A deletes "45" of "0123456789" (lamport 3) and undoes it (5); B, who had seen neither,
    // makes "3456" italic (4). The restore gives "45" back the attributes they had when removed
    // (none), at 5: B's older italic goes from "45" in both orders, and the tombstone it leaves
    // is the same (the same size on both replicas).
    let seed = ticket(2)
    let b = try await seeded(seed)
    let r45 = try await b.range(4, 6), r3456 = try await b.range(3, 7)
    let span = RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")
    let italic: [CRDT.Operation] = [.style(parentCreatedAt: textTicket, from: r3456.0, to: r3456.1, attributes: ["i": "true"],
                                           attributesToRemove: [], executedAt: ticket(4, 1, authorB))]
    let bVector = VersionVector([authorA: 2, authorB: 4])
    var sizes: [DocSize] = []
    for styleFirst in [true, false] {
      let replica = try await seeded(seed)
      if styleFirst { try await replica.apply(authorB, 4, vector: bVector, italic) }
      try await replica.apply(authorA, 3, vector: VersionVector([authorA: 3]), [edit(r45, "", at: ticket(3))])
      try await replica.apply(authorA, 5, vector: VersionVector([authorA: 5]), [restore([span], at: ticket(5))])
      if !styleFirst { try await replica.apply(authorB, 4, vector: bVector, italic) }
      #expect(await replica.doc.toJSON() == #"{"t":[{"val":"012"},{"attrs":{"i":true},"val":"3"},{"val":"45"},{"attrs":{"i":true},"val":"6"},{"val":"789"}]}"#)
      sizes.append(await replica.doc.size)
      #expect(await replica.doc.garbageLength == 1, "the italic tombstone on \"45\"")
    }
    #expect(sizes[0] == sizes[1])
  }

  @Test("a snapshot carries the liveness steps: a replica loaded from it decides a concurrent deletion as the others")
  func snapshotCarriesLivenessSteps() async throws {
    // As "a range deletion concurrent with a restore inside it": the replica that applied A's
    // undo is snapshotted before B's deletion arrives; the loaded replica must leave "45" too.
    let seed = ticket(2)
    let b = try await seeded(seed)
    try await deleteRange(b, 4, 6, at: ticket(3))
    let range = try await b.range(3, 5)   // "36" around the tombstone
    let source = try await seeded(seed)
    try await deleteRange(source, 4, 6, at: ticket(3))
    try await source.apply(authorA, 4, vector: VersionVector([authorA: 4]),
                           [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))])
    let loaded = Feed()
    try await loaded.doc.applyChangePack(ChangePack(key: "", checkpoint: Checkpoint(serverSeq: 4, clientSeq: 0), changes: [],
                                                    versionVector: VersionVector([authorA: 4]), snapshot: await source.doc.snapshot()))
    #expect(await loaded.doc.snapshot() == source.doc.snapshot())
    let bDelete: [CRDT.Operation] = [edit(range, "", at: ticket(4, 1, authorB))]
    for replica in [source, loaded] {
      try await replica.apply(authorB, 4, vector: VersionVector([authorA: 3, authorB: 4]), bDelete)
      #expect(await replica.text == "01245789")
    }
  }

  // MARK: Validation and rollback

  @Test("a span naming an insertion the change had not seen is refused and changes nothing")
  func forgedIdentity() async throws {
    // Go TestTextRestoreRejectsForgedIdentity.
    let seed = ticket(2)
    let victim = actor(3)
    let cases: [(TimeTicket, VersionVector)] = [
      (TimeTicket(lamport: 3, delimiter: 0, actorID: victim), VersionVector([authorA: .max])),
      (TimeTicket(lamport: 999, delimiter: 0, actorID: victim), VersionVector([authorA: .max, victim: 5])),
    ]
    for (forged, vector) in cases {
      let feed = try await seeded(seed)
      let before = await feed.doc.debugPieces("$.t")
      let op = restore([RestoreSpan(createdAt: forged, start: 4, end: 6, content: "XY")], at: ticket(2000))
      await #expect(throws: YorkieError.self) {
        try await feed.apply(authorA, 2000, vector: vector, [op])
      }
      do {
        try await feed.apply(authorA, 2000, vector: vector, [op])
      } catch let error as YorkieError {
        #expect(error.code == .unknownRestoreIdentity)
      }
      #expect(await feed.text == "0123456789")
      #expect(await feed.doc.debugPieces("$.t") == before)
      #expect(await feed.doc.checkInvariants() == nil)
      // The same span in the retombstone list is checked too.
      let removal = restore([], removing: [RestoreSpan(createdAt: forged, start: 4, end: 6, content: "XY")], at: ticket(2000))
      await #expect(throws: YorkieError.self) { try await feed.apply(authorA, 2000, vector: vector, [removal]) }
    }
    // An identity the change knows is admitted.
    let feed = try await seeded(seed)
    try await feed.apply(authorA, 3, vector: VersionVector([authorA: 3]), [edit(try await feed.range(4, 6), "", at: ticket(3))])
    #expect(await feed.text == "01236789")
    try await feed.apply(authorA, 4, vector: VersionVector([authorA: 4]), [restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")], at: ticket(4))])
    #expect(await feed.text == "0123456789")
  }

  @Test("malformed spans are refused before anything changes")
  func malformedSpans() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    let before = await feed.doc.debugPieces("$.t")
    let bad: [RestoreSpan] = [
      RestoreSpan(createdAt: seed, start: 4, end: 6, content: "4"),        // content shorter than the range
      RestoreSpan(createdAt: seed, start: 6, end: 4, content: ""),         // reversed range
      RestoreSpan(createdAt: seed, start: -1, end: 1, content: "ab"),      // negative offset
      RestoreSpan(createdAt: .initial, start: 0, end: 1, content: "a"),    // the head
    ]
    for span in bad {
      do {
        try await feed.apply(authorA, 4, [restore([span], at: ticket(4))])
        Issue.record("\(span) was accepted")
      } catch let error as YorkieError {
        #expect(error.code == .invalidWireData)
      }
      #expect(await feed.doc.debugPieces("$.t") == before)
    }
    // A restore edit aimed at something that is not a text.
    let notText = CRDT.Operation.restoreEdit(parentCreatedAt: .initial, from: head, to: head,
                                        restoreSpans: [RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")],
                                        restoreMode: .restore, retombstoneSpans: [], executedAt: ticket(4))
    await #expect(throws: YorkieError.self) { try await feed.apply(authorA, 4, [notText]) }
    #expect(await feed.doc.debugPieces("$.t") == before)
  }

  @Test("a change whose second operation fails leaves the document as it was", arguments: [false, true])
  func rollback(purged: Bool) async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 2, 8, at: ticket(3))
    if purged { _ = await feed.doc.garbageCollect(minSyncedVersionVector: maxVector([authorA])) }
    try await feed.apply(authorA, 4, [restore([RestoreSpan(createdAt: seed, start: 3, end: 4, content: "3")], at: ticket(4))])
    let json = await feed.doc.toJSON()
    let pieces = await feed.doc.debugPieces("$.t")
    let garbage = await feed.doc.garbageLength
    let vector = await feed.doc.versionVector
    let snapshot = await feed.doc.snapshot()
    // First op: revive (or recreate) and split, retombstone another part; second op: unknown element.
    let first = restore([RestoreSpan(createdAt: seed, start: 5, end: 7, content: "56")],
                        removing: [RestoreSpan(createdAt: seed, start: 0, end: 1, content: "0")], at: ticket(5))
    let second = CRDT.Operation.edit(parentCreatedAt: ticket(99), from: head, to: head, content: "!", attributes: nil, executedAt: ticket(5, 2))
    await #expect(throws: YorkieError.self) { try await feed.apply(authorA, 5, [first, second]) }
    #expect(await feed.doc.checkInvariants() == nil)
    #expect(await feed.doc.toJSON() == json)
    #expect(await feed.doc.debugPieces("$.t") == pieces)
    #expect(await feed.doc.garbageLength == garbage)
    #expect(await feed.doc.versionVector == vector)
    #expect(await feed.doc.snapshot() == snapshot)
    // The same first op alone applies, and the text can still be restored completely.
    try await feed.apply(authorA, 5, [first])
    #expect(await feed.text == "135689")
    try await feed.apply(authorA, 6, [restore([RestoreSpan(createdAt: seed, start: 0, end: 10, content: "0123456789")], at: ticket(6))])
    #expect(await feed.text == "0123456789")
    #expect(await feed.doc.garbageLength == 0)
  }

  @Test("restore edits report edit events with the revived and removed ranges")
  func events() async throws {
    let seed = ticket(2)
    let feed = try await seeded(seed)
    try await deleteRange(feed, 4, 6, at: ticket(3))
    let stream = await feed.doc.events()
    let op = restore([RestoreSpan(createdAt: seed, start: 4, end: 6, content: "45")],
                     removing: [RestoreSpan(createdAt: seed, start: 0, end: 2, content: "01")], at: ticket(4))
    try await feed.apply(authorA, 4, [op])
    var iterator = stream.makeAsyncIterator()
    guard case .remoteChange(let change)? = await iterator.next() else {
      Issue.record("no remote change event")
      return
    }
    #expect(change.operations == [
      OperationInfo(type: .edit, path: "$.t", from: 0, to: 2, value: .string("")),
      OperationInfo(type: .edit, path: "$.t", from: 2, to: 2, value: .string("45")),
    ])
    #expect(await feed.text == "23456789")
  }
}
