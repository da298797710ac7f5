import CRDT
import Foundation
import Testing

// Yorkie's document-size cases that go through undo, with Yorkie's expected sizes, from
// yorkie-js-sdk packages/sdk/test/unit/document/document_size_test.ts: "restoring a container
// over a diverged tombstone test", "undoing the removal of an array container test", "restoring a
// container holding an earlier tombstone test", "restoring an array container holding an earlier
// tombstone test", "removing an array container that was restored test". The cases without undo
// are in DocumentSizeTests.swift. Two replicas exchange changes with `crossSync` (TestSupport).

private func data(_ data: Int, _ meta: Int) -> DataSize { DataSize(data: data, meta: meta) }

@Suite("Yorkie's document size cases with undo")
struct YorkieSizeCaseTests {
  @Test("restoring a container over a diverged tombstone costs what the container cost")
  func restoreOverDivergedTombstone() async throws {
    do {
      let (d1, d2) = await makeReplicas()
      try await d1.update { root, _ in root["k"] = .object(["a": "1"]) }
      try await crossSync(d1, d2)
      let built = await d1.size
      try await d1.update { root, _ in root.remove("k") }
      try await d2.update { root, _ in root.object("k")?["b"] = "2" }
      try await crossSync(d1, d2)
      #expect(await d1.canUndo)
      try await d1.undo()
      #expect(await d1.toSortedJSON() == #"{"k":{"a":"1"}}"#)
      #expect(await d1.size == built)
      #expect(await d1.checkInvariants() == nil)
    }
  }

  @Test("undoing the removal of an array container, then collecting, costs what it was built at")
  func undoArrayContainerRemoval() async throws {
    do {
      let doc = Document(key: "test-doc")
      try await doc.update { root, _ in try root.setNewArray("k").append(.object(["a": "1"])) }
      let built = await doc.size
      #expect(built.live == data(2, 144))
      try await doc.update { root, _ in try root.array("k")?.remove(at: 0) }
      try await doc.undo()
      #expect(await doc.toSortedJSON() == #"{"k":[{"a":"1"}]}"#)
      _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
      #expect(await doc.size == built)
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("restoring a container holding an earlier tombstone costs what it cost before the removal")
  func restoreContainerWithTombstone() async throws {
    do {
      let doc = Document(key: "test-doc")
      try await doc.update { root, _ in root["k"] = .object(["a": "1", "b": "2"]) }
      try await doc.update { root, _ in root.object("k")?.remove("b") }
      let beforeRemoval = await doc.size
      #expect(beforeRemoval.live == data(2, 120))
      #expect(beforeRemoval.gc == data(2, 72))
      try await doc.update { root, _ in root.remove("k") }
      try await doc.undo()
      #expect(await doc.toSortedJSON() == #"{"k":{"a":"1"}}"#)
      #expect(await doc.size == beforeRemoval)
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
      #expect(await doc.size.live == data(2, 120))
      #expect(await doc.size.gc == data(0, 0))
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("restoring an array container holding an earlier tombstone costs what it cost before the removal")
  func restoreArrayContainerWithTombstone() async throws {
    do {
      let doc = Document(key: "test-doc")
      try await doc.update { root, _ in try root.setNewArray("k").append(.object(["a": "1", "b": "2"])) }
      try await doc.update { root, _ in
        guard let list = root.array("k") else { return }
        list.object(at: 0)?.remove("b")
      }
      let beforeRemoval = await doc.size
      #expect(beforeRemoval.live == data(2, 144))
      try await doc.update { root, _ in try root.array("k")?.remove(at: 0) }
      try await doc.undo()
      #expect(await doc.toSortedJSON() == #"{"k":[{"a":"1"}]}"#)
      #expect(await doc.size.live == beforeRemoval.live)
      _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
      #expect(await doc.size.live == beforeRemoval.live)
      #expect(await doc.size.gc == data(0, 0))
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("removing an array container that was restored, then collecting, costs an empty array")
  func removeRestoredArrayContainer() async throws {
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewArray("k").append(.object(["a": "1", "b": "2"])) }
    try await doc.update { root, _ in
      guard let list = root.array("k") else { return }
      list.object(at: 0)?.remove("b")
    }
    try await doc.update { root, _ in try root.array("k")?.remove(at: 0) }
    try await doc.undo()
    try await doc.update { root, _ in try root.array("k")?.remove(at: 0) }
    _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
    #expect(await doc.toSortedJSON() == #"{"k":[]}"#)
    let empty = Document(key: "test-doc")
    try await empty.update { root, _ in _ = root.setNewArray("k") }
    #expect(await doc.size == empty.size)
    #expect(await doc.checkInvariants() == nil)
  }
}
