@testable import CRDT
import Foundation
import Testing

// Garbage collection compacts the liveness steps of text pieces (CRDTText+Liveness.swift):
// the steps every replica has seen shrink to the latest of them, so undoing and redoing one
// deletion again and again does not grow the text's bookkeeping without bound, and a replica
// that compacted decides later removals and revivals as one that did not.

/// The explicit step lists of the text at `$.t`, by length.
private func stepCounts(_ doc: Document) async throws -> [Int] {
  try await doc.update { root, _ in (root.text("t")?.element?.livenessSteps.values.map(\.count) ?? []).sorted() }
}

private func text(_ doc: Document) async throws -> String {
  try await doc.update { root, _ in root.text("t")?.string ?? "?" }
}

@Suite("Liveness steps: compacted by garbage collection")
struct LivenessCompactionTests {
  @Test("a hundred undo and redo cycles of one deletion leave no step lists once collected")
  func cyclesStayBounded() async throws {
    let doc = Document(key: "steps")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abcdef") }
    try await doc.update { root, _ in try root.text("t")?.delete(1, 4) }
    for cycle in 0..<100 {
      try await doc.undo()
      #expect(try await text(doc) == "abcdef")
      try await doc.redo()
      #expect(try await text(doc) == "aef")
      if cycle == 0 { #expect(try await stepCounts(doc) == [3]) }
      _ = await doc.garbageCollect(minSyncedVersionVector: await doc.versionVector)
      // Collected, the removed run is purged; what stays is its recreation's bookkeeping on
      // the next undo, which the next collection compacts again.
    }
    try await doc.undo()
    #expect(try await text(doc) == "abcdef")
    for _ in 0..<50 {
      try await doc.redo()
      try await doc.undo()
    }
    #expect(try await stepCounts(doc).max() ?? 0 > 50)
    _ = await doc.garbageCollect(minSyncedVersionVector: await doc.versionVector)
    #expect(try await stepCounts(doc).isEmpty)
    #expect(try await text(doc) == "abcdef")
    try await doc.redo()
    #expect(try await text(doc) == "aef")
    try await doc.undo()
    #expect(try await text(doc) == "abcdef")
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("a replica that compacted a revival away decides a later restore and a concurrent deletion as the others",
        arguments: [false, true])
  func compactedRevivalKeepsItsList(compacts: Bool) async throws {
    // "b" is deleted by replicas 1 and 3 concurrently; replica 1 undoes (b is live again, its
    // steps: two removals and that revival), and everyone sees it. Replica 4 collects (its "b"
    // is left live without a list). Then replica 3 undoes its deletion (a step on the live "b")
    // while replica 2 deletes "b" without having seen that undo, with an older ticket: "b" stays
    // live everywhere (the undo is the latest step). Replica 4 receives the undo first: had the
    // undo recorded no step on a live "b" without a list, the deletion would have removed "b"
    // on replica 4 alone.
    let docs = try await makeReplicas(4)
    let log = ChangeLog(actors: (1...4).map { actor($0) })
    try await docs[0].update { root, _ in _ = try root.setNewText("t").edit(0, 0, "abc") }
    for doc in docs { try await log.sync(doc, collectGarbage: false) }
    for doc in docs { await doc.clearHistory() }
    try await docs[0].update { root, _ in try root.text("t")?.delete(1, 2) }
    try await docs[2].update { root, _ in try root.text("t")?.delete(1, 2) }
    for _ in 0..<2 { for doc in docs { try await log.sync(doc, collectGarbage: false) } }
    try await docs[0].undo()
    for _ in 0..<2 { for doc in docs { try await log.sync(doc, collectGarbage: false) } }
    for doc in docs { #expect(try await text(doc) == "abc") }
    if compacts {
      _ = await docs[3].garbageCollect(minSyncedVersionVector: await log.minimumVector)
      #expect(try await stepCounts(docs[3]).isEmpty)
    } else {
      #expect(try await stepCounts(docs[3]) == [3])
    }
    try await docs[2].undo()  // actor 3: same lamport as the deletion below, a newer ticket
    try await docs[1].update { root, _ in try root.text("t")?.delete(1, 2) }
    try await log.sync(docs[2], collectGarbage: false)
    try await log.sync(docs[3], collectGarbage: false)
    try await log.sync(docs[1], collectGarbage: false)
    for _ in 0..<2 { for doc in docs { try await log.sync(doc, collectGarbage: false) } }
    for doc in docs {
      #expect(try await text(doc) == "abc")
      #expect(await doc.checkInvariants() == nil)
    }
  }
}
