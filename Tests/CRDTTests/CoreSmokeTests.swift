import Testing
import CRDT

@Suite("Core smoke")
struct CoreSmokeTests {
  @Test("objects, arrays and counters print as the JS SDK prints them")
  func basics() async throws {
    let doc = Document(key: "doc")
    try await doc.update { root, _ in
      root["title"] = "hello"
      root["point"] = ["x": 1, "y": 2]
      root["tags"] = ["a", "b"]
      let likes = root.setNewCounter("likes", .long(0))
      likes.increase(by: 2)
      try root.array("tags")?.append("c")
    }
    #expect(await doc.toJSON() == #"{"title":"hello","point":{"x":1,"y":2},"tags":["a","b","c"],"likes":2}"#)
    try await doc.update { root, _ in
      root.remove("title")
      try root.array("tags")?.move(from: 0, to: 2)
    }
    #expect(await doc.toJSON() == #"{"point":{"x":1,"y":2},"tags":["b","c","a"],"likes":2}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("a throwing update leaves the document exactly as before")
  func rollback() async throws {
    struct Stop: Error {}
    let doc = Document(key: "doc")
    try await doc.update { root, _ in root["list"] = [1, 2, 3] }
    let before = await doc.toJSON()
    await #expect(throws: Stop.self) {
      try await doc.update { root, _ in
        try root.array("list")?.append(4)
        try root.array("list")?.remove(at: 0)
        try root.array("list")?.move(from: 0, to: 2)
        root["x"] = "y"
        throw Stop()
      }
    }
    #expect(await doc.toJSON() == before)
    #expect(await doc.pendingChanges.count == 1)
    #expect(await doc.checkInvariants() == nil)
  }
}
