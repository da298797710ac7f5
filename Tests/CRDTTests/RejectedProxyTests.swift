import Testing
import CRDT

// A setter that cannot throw records its error and hands out a proxy anyway. That proxy must
// name nothing the document does not own: editing through it fails with the setter's error,
// the update throws that first error, and the document is exactly as before.

@Suite("Rejected and expired proxies")
struct RejectedProxyTests {
  /// Runs `edit`, expects the update to fail with `code`, and checks that the document's JSON
  /// and snapshot are unchanged and that the document still takes edits.
  private func expectRejected(_ code: YorkieError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                              _ edit: @escaping @Sendable (JSONObject) throws -> Void) async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      root["kept"] = "yes"
      try root.setNewArray("list").append(1)
      try root.setNewText("note").edit(0, 0, "hi")
    }
    let json = await doc.toJSON()
    let snapshot = await doc.snapshot()
    do {
      try await doc.update { root, _ in try edit(root) }
      Issue.record("the update should have failed with \(code)", sourceLocation: sourceLocation)
    } catch let error as YorkieError {
      #expect(error.code == code, sourceLocation: sourceLocation)
    }
    #expect(await doc.toJSON() == json, sourceLocation: sourceLocation)
    #expect(await doc.snapshot() == snapshot, sourceLocation: sourceLocation)
    #expect(await doc.checkInvariants() == nil, sourceLocation: sourceLocation)
    try await doc.update { root, _ in root["after"] = 1 }
    #expect(await doc.toJSON() == #"{"kept":"yes","list":[1],"note":[{"val":"hi"}],"after":1}"#, sourceLocation: sourceLocation)
  }

  @Test("the four crash lines of issue #11 fail with invalidKey and leave the document as it was")
  func issueLines() async throws {
    try await expectRejected(.invalidKey) { root in root.setNewObject("user.name")["x"] = 1 }
    try await expectRejected(.invalidKey) { root in try root.setNewArray("a.b").append(1) }
    try await expectRejected(.invalidKey) { root in try root.setNewText("t.x").edit(0, 0, "hi") }
    try await expectRejected(.invalidKey) { root in root.setNewObject("ok").setNewObject("bad.key")["y"] = 2 }
  }

  @Test("every editing call through a rejected proxy fails with the setter's error")
  func everyCallOnRejectedProxies() async throws {
    try await expectRejected(.invalidKey) { root in
      let object = root.setNewObject("a.b")
      object["x"] = 1
      object.setNewArray("y").appendNewObject()["z"] = 2
      object.setNewText("t")
      object.setNewCounter("c", .int(1)).increase(by: 2)
      object.setNewDedupCounter("d").add("ann")
      object.remove("x")
      #expect(object["x"] == nil)
      #expect(object.keys == [])
      #expect(object.object("y") == nil)
    }
    try await expectRejected(.invalidKey) { root in
      let array = root.setNewArray("a.b")
      #expect(throws: YorkieError.self) { try array.append(1) }
      #expect(throws: YorkieError.self) { try array.insert(1, at: 0) }
      #expect(throws: YorkieError.self) { try array.set(1, at: 0) }
      #expect(throws: YorkieError.self) { try array.remove(at: 0) }
      #expect(throws: YorkieError.self) { try array.move(from: 0, to: 0) }
      array.appendNewObject()["x"] = 1
      array.appendNewArray().appendNewText()
      array.appendNewCounter(.long(3)).increase(by: 1)
      #expect(array.count == 0)
      #expect(array[0] == nil)
    }
    try await expectRejected(.invalidKey) { root in
      let text = root.setNewText("a.b")
      #expect(throws: YorkieError.self) { try text.edit(0, 0, "x") }
      #expect(throws: YorkieError.self) { try text.setStyle(0, 0, ["b": true]) }
      #expect(throws: YorkieError.self) { try text.removeStyle(0, 0, keys: ["b"]) }
      #expect(throws: YorkieError.self) { try text.indexRangeToPosRange((0, 0)) }
      #expect(text.length == 0)
      #expect(text.string == "")
    }
    try await expectRejected(.invalidKey) { root in
      let counter = root.setNewCounter("a.b", .int(5))
      counter.increase(by: 1)
      #expect(counter.value == .int(0))
    }
    // A rejected proxy's error wins over later, unrelated errors: the update reports the first.
    try await expectRejected(.invalidKey) { root in
      let list = root.array("list")!
      root.setNewArray("bad.key").appendNewText()
      try? list.remove(at: 99)
    }
  }

  @Test("a caught error from a rejected proxy still fails the update")
  func caughtErrorStillFails() async throws {
    try await expectRejected(.invalidKey) { root in
      let array = root.setNewArray("a.b")
      do { try array.append(1) } catch {}
      root["fine"] = 1
    }
  }

  @Test("rejected proxies from arrays of the document (appendNew… on a full path) never edit the document")
  func rejectedInsideNesting() async throws {
    try await expectRejected(.invalidKey) { root in
      let list = root.array("list")!
      let item = list.appendNewObject()
      item["ok"] = true
      let bad = item.setNewObject("x.y")
      bad["z"] = 1
      bad.setNewText("t")
    }
    try await expectRejected(.invalidNumber) { root in
      root["n"] = .double(.nan)
      root.setNewObject("o")["p"] = 1
    }
  }

  @Test("reads through an expired proxy answer as for an absent element, and edits throw proxyExpired")
  func expiredProxies() async throws {
    let doc = Document(key: "d")
    final class Box: @unchecked Sendable {
      var object: JSONObject?
      var array: JSONArray?
      var text: JSONText?
      var counter: JSONCounter?
      var presence: Presence?
    }
    let box = Box()
    try await doc.update { root, presence in
      box.object = root.setNewObject("o")
      box.object?["k"] = "v"
      box.array = root.setNewArray("a")
      try box.array?.append(1)
      box.text = root.setNewText("t")
      try box.text?.edit(0, 0, "hello")
      box.counter = root.setNewCounter("c", .int(7))
      box.presence = presence
    }
    let object = try #require(box.object), array = try #require(box.array)
    let text = try #require(box.text), counter = try #require(box.counter)
    #expect(object["k"] == nil)
    #expect(object.keys == [])
    #expect(object.toJSON() == "{}")
    #expect(array.count == 0)
    #expect(array[0] == nil)
    #expect(array.toJSON() == "[]")
    #expect(text.length == 0)
    #expect(text.string == "")
    #expect(text.toJSON() == "[]")
    #expect(counter.value == .int(0))
    #expect(throws: YorkieError.self) { try array.append(2) }
    #expect(throws: YorkieError.self) { try text.edit(0, 0, "x") }
    do {
      try text.edit(0, 0, "x")
    } catch let error as YorkieError {
      #expect(error.code == .proxyExpired)
    }
    object["k"] = "w"
    counter.increase(by: 1)
    #expect(await doc.toJSON() == #"{"o":{"k":"v"},"a":[1],"t":[{"val":"hello"}],"c":7}"#)
    #expect(await doc.checkInvariants() == nil)
  }
}
