import CRDT
import Foundation
import Testing

// A deletion's undo step holds the removed characters by identity only; the characters are
// read when the undo needs them, or when garbage collection is about to purge the pieces that
// hold them (`HistoryCapture.RemovedRun`, `History.readRemovedContent(in:)`). These cases purge
// the pieces before the undo, in the shapes that make the reading take each of its paths.

private func text(_ doc: Document, _ key: String = "t") async -> String {
  (try? await doc.update { root, _ in root.text(key)?.string ?? "" }) ?? "?"
}

/// Syncs every replica twice in a random order through `log`, collecting garbage, and
/// returns the text they all show (expected equal, invariants checked).
private func converge(_ docs: [Document], _ log: ChangeLog, _ rng: inout SeededRandom,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
  try await syncInRandomOrder(docs, through: log, using: &rng, collectGarbage: true)
  let first = await text(docs[0])
  for doc in docs.dropFirst() { #expect(await text(doc) == first, sourceLocation: sourceLocation) }
  for doc in docs { #expect(await doc.checkInvariants() == nil, sourceLocation: sourceLocation) }
  return first
}

/// Two replicas through a new log, the first having typed `content` into `$.t`, converged.
private func replicas(typing content: String, _ rng: inout SeededRandom) async throws -> (docs: [Document], log: ChangeLog) {
  let docs = try await makeReplicas(2)
  let log = ChangeLog(actors: [actor(1), actor(2)])
  try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, content) }
  #expect(try await converge(docs, log, &rng) == content)
  return (docs, log)
}

@Suite("History: removed text read before garbage collection purges it")
struct HistoryRemovedTextTests {
  @Test("a deletion purged by garbage collection on one replica is undone exactly")
  func purgedOnOneReplica() async throws {
    let doc = Document(key: "removed")
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "hello, world") }
    try await doc.update { root, _ in try root.text("t")?.delete(5, 12) }
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    #expect(await doc.garbageLength == 0)
    try await doc.undo()
    #expect(await text(doc) == "hello, world")
    try await doc.redo()
    #expect(await text(doc) == "hello")
    try await doc.undo()
    #expect(await text(doc) == "hello, world")
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("the piece a deletion removed was split by a peer's insertion inside it before the purge")
  func splitBeforePurge() async throws {
    for seed in SeededRandom.seeds(4, base: 0x5A) {
      print("removed-text seed \(seed) (split)")
      var rng = SeededRandom(seed: seed)
      let (docs, log) = try await replicas(typing: "abcdef", &rng)
      // Concurrently: replica 0 deletes "bcde", replica 1 types inside it. Where replica 0
      // applies the insertion, its removed piece is split in two: the piece the step noted no
      // longer holds all the characters, which are then found by their insertion.
      try await docs[0].update { root, _ in try root.text("t")?.delete(1, 5) }
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(3, 3, "X") }
      #expect(try await converge(docs, log, &rng) == "aXf")
      // A second round reports every replica's vector to the other: both purge.
      _ = try await converge(docs, log, &rng)
      for doc in docs { #expect(await doc.garbageLength == 0) }
      try await docs[0].undo()
      // The purged "bcde" is recreated where it was, around the peer's "X": the purge left
      // notes of "bc" on "X" and of "de" on "f" (CRDTText+PurgeNotes.swift). Before those
      // notes, "bcde" went after "a", its insertion's surviving piece, behind "X": "aXbcdef",
      // where a replica that had not purged it shows "abcXdef".
      let undone = try await converge(docs, log, &rng)
      #expect(undone == "abcXdef")
    }
  }

  @Test("a deletion across several insertions (several removed runs) is undone after the purge")
  func severalRuns() async throws {
    for seed in SeededRandom.seeds(4, base: 0x5B) {
      print("removed-text seed \(seed) (runs)")
      var rng = SeededRandom(seed: seed)
      let (docs, log) = try await replicas(typing: "ab", &rng)
      try await docs[1].update { root, _ in _ = try root.text("t")?.edit(2, 2, "cd") }
      try await docs[0].update { root, _ in try root.text("t")?.setStyle(0, 1, ["bold": true]) }
      #expect(try await converge(docs, log, &rng) == "abcd")
      try await docs[0].update { root, _ in try root.text("t")?.delete(0, 4) }
      #expect(try await converge(docs, log, &rng) == "")
      _ = try await converge(docs, log, &rng)
      for doc in docs { #expect(await doc.garbageLength == 0) }
      try await docs[0].undo()
      #expect(try await converge(docs, log, &rng) == "abcd")
      // The bold "a" comes back bold: its attributes were noted when it was removed.
      let json = await docs[1].toSortedJSON()
      #expect(json == #"{"t":[{"attrs":{"bold":true},"val":"a"},{"val":"b"},{"val":"cd"}]}"#)
    }
  }

  @Test("the text reads characters of an insertion by identity, and none once they are purged")
  func contentByIdentity() async throws {
    let doc = Document(key: "identity")
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    try await doc.update { root, _ in try root.text("t")?.delete(2, 4) }
    let read = try await doc.update { root, _ -> [String?] in
      guard let text = root.text("t")?.element else { return [] }
      let insertion = text.pieces.map { text.node($0).id.createdAt }.first { $0 != .initial }!
      return [
        text.content(ofInsertion: insertion, from: 2, to: 4, hint: -1),  // looked up: the removed "cd"
        text.content(ofInsertion: insertion, from: 1, to: 5, hint: -1),  // across three pieces
        text.content(ofInsertion: insertion, from: 0, to: 6, hint: 12_345),  // a hint out of range
        text.content(ofInsertion: insertion, from: 4, to: 9, hint: -1),  // past the insertion's end
      ]
    }
    #expect(read == ["cd", "bcde", "abcdef", nil])
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    let afterPurge = try await doc.update { root, _ -> String? in
      guard let text = root.text("t")?.element else { return "no text" }
      let insertion = text.pieces.map { text.node($0).id.createdAt }.first { $0 != .initial }!
      return text.content(ofInsertion: insertion, from: 1, to: 5, hint: -1)
    }
    #expect(afterPurge == nil)
  }
}
