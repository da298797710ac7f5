import Foundation
import Testing
import CRDT

// Invalid input: a key containing '.', an index out of bounds, a NaN or infinite Double, a local
// move of a removed element, a proxy used after its update. Each must throw (a `YorkieError`) and
// change nothing: the JSON, the pending changes and the garbage stay as they were, because the
// whole update is rolled back (api.md, "Invalid input throws a precise error and changes
// nothing").

/// Checks that `update` throws a `YorkieError` and leaves `doc` exactly as it was.
private func expectRejected(
  _ doc: Document,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ updater: @escaping @Sendable (JSONObject) throws -> Void
) async throws {
  let json = await doc.toJSON()
  let sorted = await doc.toSortedJSON()
  let pending = await pendingChangeCount(doc)
  let garbage = await doc.garbageLength
  await #expect(throws: YorkieError.self, sourceLocation: sourceLocation) {
    try await doc.update { root, _ in try updater(root) }
  }
  #expect(await doc.toJSON() == json, sourceLocation: sourceLocation)
  #expect(await doc.toSortedJSON() == sorted, sourceLocation: sourceLocation)
  #expect(await pendingChangeCount(doc) == pending, sourceLocation: sourceLocation)
  #expect(await doc.garbageLength == garbage, sourceLocation: sourceLocation)
}

@Suite("Invalid input")
struct InvalidInputTests {
  // MARK: - Keys

  @Test("a key containing '.' is rejected, at the root and in nested literals")
  func dottedKeys() async throws {
    // Mirrors JS integration object_test "valid key test"
    let doc = Document(key: "test-doc")
    try await expectRejected(doc) { root in root["."] = "dot" }
    try await expectRejected(doc) { root in root["$...hello"] = "world" }
    try await expectRejected(doc) { root in root[""] = [".": "dot"] }
    #expect(await doc.toJSON() == "{}")
    #expect(await doc.hasLocalChanges == false)
  }

  @Test("a dotted key rolls back the valid edits made before it in the same update")
  func dottedKeyRollsBackUpdate() async throws {
    // api.md: setters that cannot throw record the error and `update` throws it, rolling the
    // whole update back (JS throws from the proxy and Document.update rolls back the clone).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["keep"] = 1
    }
    try await expectRejected(doc) { root in
      root["a"] = 1
      root["keep"] = 2
      root["a.b"] = 3
      root["after"] = 4
    }
    #expect(await doc.toJSON() == #"{"keep":1}"#)
  }

  @Test("setNewObject, setNewArray and setNewCounter reject dotted keys")
  func dottedKeysInSetNew() async throws {
    // api.md: "Setters that cannot throw (the subscript, setNew…, remove(_:)) record the error on
    // the proxy and update throws it".
    let doc = Document(key: "test-doc")
    try await expectRejected(doc) { root in _ = root.setNewObject("a.b") }
    try await expectRejected(doc) { root in _ = root.setNewArray("x.y") }
    try await expectRejected(doc) { root in _ = root.setNewCounter("c.d", .int(0)) }
    #expect(await doc.toJSON() == "{}")
  }

  @Test("dotted keys are rejected inside nested objects and in values appended to arrays")
  func dottedKeysNested() async throws {
    // Mirrors JS integration object_test "valid key test" (a nested object literal with '.')
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["obj"] = ["a": 1]
      root["list"] = [1]
    }
    try await expectRejected(doc) { root in root.object("obj")?["b.c"] = 2 }
    try await expectRejected(doc) { root in try root.array("list")?.append(["x.y": 1]) }
    try await expectRejected(doc) { root in try root.array("list")?.insert(["deep": ["x.y": 1]], at: 0) }
    try await expectRejected(doc) { root in try root.array("list")?.set(["x.y": 1], at: 0) }
    #expect(await doc.toJSON() == #"{"obj":{"a":1},"list":[1]}"#)
  }

  // MARK: - Indexes

  @Test("remove(at:) out of bounds throws")
  func removeOutOfBounds() async throws {
    // api.md rule. Divergence: JS `delete root.k3[2]` on a missing index is silently ignored
    // (JS unit document_test "doesnt return error when trying to delete a missing key").
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [1, 2, 3] }
    try await expectRejected(doc) { root in try root.array("list")?.remove(at: 3) }
    try await expectRejected(doc) { root in try root.array("list")?.remove(at: -1) }
    try await expectRejected(doc) { root in try root.array("list")?.remove(at: 100) }
    #expect(await doc.toJSON() == #"{"list":[1,2,3]}"#)
  }

  @Test("insert(_:at:) beyond count or below zero throws")
  func insertOutOfBounds() async throws {
    // api.md: insert(_:at:) accepts 0...count.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [1, 2, 3] }
    try await expectRejected(doc) { root in try root.array("list")?.insert(4, at: 4) }
    try await expectRejected(doc) { root in try root.array("list")?.insert(0, at: -1) }
    try await doc.update { root, _ in try root.array("list")?.insert(4, at: 3) }
    #expect(await doc.toJSON() == #"{"list":[1,2,3,4]}"#)
  }

  @Test("set(_:at:) out of bounds throws")
  func setOutOfBounds() async throws {
    // api.md rule (Yorkie's ArraySet needs an existing element to replace).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = ["a", "b", "c"] }
    try await expectRejected(doc) { root in try root.array("list")?.set("d", at: 3) }
    try await expectRejected(doc) { root in try root.array("list")?.set("d", at: -1) }
    #expect(await doc.toJSON() == #"{"list":["a","b","c"]}"#)
  }

  @Test("move(from:to:) out of bounds throws")
  func moveOutOfBounds() async throws {
    // api.md rule.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [0, 1, 2] }
    try await expectRejected(doc) { root in try root.array("list")?.move(from: 3, to: 0) }
    try await expectRejected(doc) { root in try root.array("list")?.move(from: 0, to: 3) }
    try await expectRejected(doc) { root in try root.array("list")?.move(from: -1, to: 1) }
    try await expectRejected(doc) { root in try root.array("list")?.move(from: 1, to: -1) }
    #expect(await doc.toJSON() == #"{"list":[0,1,2]}"#)
  }

  @Test("an out-of-bounds call rolls back the valid edits before it")
  func outOfBoundsRollsBack() async throws {
    // api.md: "a throw rolls the whole update back"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [0, 1, 2] }
    try await expectRejected(doc) { root in
      let list = try #require(root.array("list"))
      try list.append(3)
      try list.remove(at: 0)
      try list.move(from: 0, to: 2)
      root["other"] = true
      try list.remove(at: 10)
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,2]}"#)
  }

  // MARK: - Numbers

  @Test("NaN and infinite doubles are rejected wherever they appear")
  func nonFiniteDoubles() async throws {
    // api.md rule: "a Double that is NaN or infinite" throws and changes nothing.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [1]
      root["obj"] = [:]
    }
    try await expectRejected(doc) { root in root["d"] = .double(.nan) }
    try await expectRejected(doc) { root in root["d"] = .double(.infinity) }
    try await expectRejected(doc) { root in root["d"] = .double(-.infinity) }
    try await expectRejected(doc) { root in root["d"] = [1, .double(.nan)] }
    try await expectRejected(doc) { root in root.object("obj")?["d"] = ["x": .double(.signalingNaN)] }
    try await expectRejected(doc) { root in try root.array("list")?.append(.double(.nan)) }
    try await expectRejected(doc) { root in try root.array("list")?.insert(.double(.infinity), at: 0) }
    try await expectRejected(doc) { root in try root.array("list")?.set(.double(.nan), at: 0) }
    #expect(await doc.toJSON() == #"{"list":[1],"obj":{}}"#)
  }

  @Test("finite extreme doubles are accepted")
  func finiteExtremes() async throws {
    // Positive control for the rule above: only NaN and ±infinity are invalid.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["max"] = .double(.greatestFiniteMagnitude)
      root["min"] = .double(-.greatestFiniteMagnitude)
      root["tiny"] = .double(.leastNonzeroMagnitude)
    }
    #expect(await doc.toJSON() == #"{"max":1.7976931348623157e+308,"min":-1.7976931348623157e+308,"tiny":5e-324}"#)
  }

  // MARK: - Removed elements and expired proxies

  @Test("a local move of a removed element throws")
  func moveRemovedElement() async throws {
    // api.md rule: "a local move of a removed element" throws (a remote one still applies).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [0, 1, 2] }
    try await expectRejected(doc) { root in
      let list = try #require(root.array("list"))
      let id = try elementID(list, 0)
      try list.remove(at: 0)
      try list.moveToFront(id)
    }
    try await expectRejected(doc) { root in
      let list = try #require(root.array("list"))
      let id = try elementID(list, 1)
      let anchor = try elementID(list, 2)
      try list.remove(at: 1)
      try list.moveAfter(id, previous: anchor)
    }
    try await expectRejected(doc) { root in
      let list = try #require(root.array("list"))
      let id = try elementID(list, 2)
      let next = try elementID(list, 0)
      try list.remove(at: 2)
      try list.moveBefore(id, next: next)
    }
    try await expectRejected(doc) { root in
      let list = try #require(root.array("list"))
      let id = try elementID(list, 0)
      try list.remove(at: 0)
      try list.moveToEnd(id)
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,2]}"#)
  }

  @Test("an element removed in an earlier update cannot be moved")
  func moveElementRemovedEarlier() async throws {
    // api.md rule; the ID is carried from the update that removed the element.
    let doc = Document(key: "test-doc")
    let removedID = Captured<TimeTicket>()
    try await doc.update { root, _ in root["list"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      removedID.value = try elementID(list, 1)
      try list.remove(at: 1)
    }
    #expect(await doc.toJSON() == #"{"list":[0,2]}"#)
    let id = try #require(removedID.value)
    try await expectRejected(doc) { root in try root.array("list")?.moveToFront(id) }
    #expect(await doc.toJSON() == #"{"list":[0,2]}"#)
  }

  @Test("a proxy used after its update returned throws instead of editing")
  func expiredProxy() async throws {
    // api.md: "a proxy used after its update returned throws a clear error, it never edits silently"
    let doc = Document(key: "test-doc")
    let stale = Captured<JSONArray>()
    try await doc.update { root, _ in
      root["list"] = [1]
      stale.value = root.array("list")
    }
    #expect(stale.value != nil)
    // The box (Sendable) is captured, not the proxy itself.
    try await expectRejected(doc) { _ in try stale.value?.append(2) }
    try await expectRejected(doc) { _ in try stale.value?.remove(at: 0) }
    #expect(await doc.toJSON() == #"{"list":[1]}"#)
  }

  @Test("remote operations are not rejected: a remote move of a removed element applies")
  func remoteMoveOfRemovedElement() async throws {
    // api.md: "Remote operations are never rejected for these reasons: a remote move of a removed
    // element still applies, as in Yorkie." Replica 1 moves an element replica 2 removed.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["list"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      let list = try #require(root.array("list"))
      try list.moveToFront(try elementID(list, 2))
    }
    #expect(await d1.toJSON() == #"{"list":[2,0,1]}"#)
    try await d2.update { root, _ in try root.array("list")?.remove(at: 2) }
    #expect(await d2.toJSON() == #"{"list":[0,1]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"list":[0,1]}"#)
    #expect(await d2.toJSON() == #"{"list":[0,1]}"#)
  }
}
