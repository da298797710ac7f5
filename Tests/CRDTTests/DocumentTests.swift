import Foundation
import Testing
import CRDT

// Document-level behaviour: the initial state, atomic updates and rollback, which updates record a
// change, toSortedJSON, value(atPath:), local changes and their acknowledgement, clocks.

@Suite("Document")
struct DocumentTests {
  @Test("a new document is detached, empty and has no local changes")
  func newDocument() async throws {
    // Mirrors Go pkg/document TestDocument "constructor test" and "status test"
    let doc = Document(key: "d1")
    #expect(doc.key == "d1")
    #expect(await doc.status == .detached)
    #expect(await doc.hasLocalChanges == false)
    #expect(await doc.toJSON() == "{}")
    #expect(await doc.toSortedJSON() == "{}")
    #expect(await doc.garbageLength == 0)
    #expect(await pendingChangeCount(doc) == 0)
  }

  @Test("an update marks the document as having local changes")
  func updateRecordsLocalChange() async throws {
    // Mirrors JS integration primitive_test "should apply updates of string" and Go
    // TestDocument "nested update test"
    let doc = Document(key: "test-doc")
    #expect(await doc.hasLocalChanges == false)
    try await doc.update(message: "set v1, v2") { root, _ in
      root["k1"] = "v1"
      root["k2"] = "v2"
      #expect(root["k1"] == .string("v1"))
    }
    #expect(await doc.toSortedJSON() == #"{"k1":"v1","k2":"v2"}"#)
    #expect(await doc.hasLocalChanges)
  }

  @Test("two documents differ once one of them is updated")
  func documentsDiffer() async throws {
    // Mirrors Go pkg/document TestDocument "equals test"
    let doc1 = Document(key: "d1")
    let doc2 = Document(key: "d2")
    let doc3 = Document(key: "d3")
    try await doc1.update(message: "updates k1") { root, _ in
      root["k1"] = "v1"
    }
    let json1 = await doc1.toJSON()
    let json2 = await doc2.toJSON()
    let json3 = await doc3.toJSON()
    #expect(json1 != json2)
    #expect(json2 == json3)
    #expect(json1 == #"{"k1":"v1"}"#)
  }

  @Test("a throwing updater is rolled back and its error is rethrown unchanged")
  func rollbackRethrows() async throws {
    // Mirrors Go pkg/document TestDocument "rollback test"
    let doc = Document(key: "d1")
    try await doc.update { root, _ in
      root["k1"] = [1, 2, 3]
    }
    #expect(await doc.toJSON() == #"{"k1":[1,2,3]}"#)

    await #expect(throws: DummyError()) {
      try await doc.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.append(4)
        try k1.append(5)
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"k1":[1,2,3]}"#)

    try await doc.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.append(4)
      try k1.append(5)
    }
    #expect(await doc.toJSON() == #"{"k1":[1,2,3,4,5]}"#)
  }

  @Test("rolling back restores a removed member of a nested object")
  func rollbackRestoresRemovedMember() async throws {
    // Mirrors JS integration primitive_test "can rollback, primitive deepcopy" (Go
    // "rollback test, primitive deepcopy" uses the keys "k1.1", invalid here)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["k1"] = [:]
      let k1 = try #require(root.object("k1"))
      k1["k1-1"] = 1
      k1["k1-2"] = 2
    }
    #expect(await doc.toSortedJSON() == #"{"k1":{"k1-1":1,"k1-2":2}}"#)
    await #expect(throws: DummyError.self) {
      try await doc.update(message: "dummy error") { root, _ in
        root.object("k1")?.remove("k1-1")
        throw DummyError()
      }
    }
    #expect(await doc.toSortedJSON() == #"{"k1":{"k1-1":1,"k1-2":2}}"#)
  }

  @Test("a rolled-back update records no change")
  func rollbackRecordsNoChange() async throws {
    // api.md: "update rethrows the updater's own error unchanged, after rolling everything back"
    // and records a change only when something changed.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [1, 2, 3]
    }
    #expect(await pendingChangeCount(doc) == 1)
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        let list = try #require(root.array("list"))
        try list.append(4)
        try list.remove(at: 0)
        try list.move(from: 0, to: 2)
        root["x"] = "y"
        _ = root.setNewCounter("c", .int(1))
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"list":[1,2,3]}"#)
    #expect(await pendingChangeCount(doc) == 1)
    #expect(await doc.garbageLength == 0)
  }

  @Test("an update that changes nothing records no change")
  func noOpUpdate() async throws {
    // api.md: "records one change when something changed, and none for an update that changed
    // nothing"; Yorkie's ChangeContext.hasChange gates the change the same way.
    let doc = Document(key: "test-doc")
    try await doc.update { _, _ in }
    #expect(await doc.hasLocalChanges == false)
    #expect(await pendingChangeCount(doc) == 0)

    try await doc.update { root, _ in
      root["a"] = 1
    }
    #expect(await pendingChangeCount(doc) == 1)

    try await doc.update { root, _ in
      #expect(root["a"] == .integer(1))
      #expect(root.keys == ["a"])
    }
    #expect(await pendingChangeCount(doc) == 1)
  }

  @Test("removing a missing key is a no-op that records nothing")
  func removeMissingKey() async throws {
    // Mirrors JS unit document_test "doesnt return error when trying to delete a missing key"
    // (api.md: "Removing a key that does not exist is a no-op that records nothing"). The JS
    // test also deletes a missing array index without error; api.md makes that throw instead
    // (see InvalidInputTests).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["k1"] = "1"
      root["k2"] = "2"
      root["k3"] = [1, 2]
    }
    try await doc.update { root, _ in
      root.remove("k1")
      try root.array("k3")?.remove(at: 0)
      root.remove("k4")
    }
    #expect(await doc.toJSON() == #"{"k2":"2","k3":[2]}"#)
    #expect(await pendingChangeCount(doc) == 2)

    try await doc.update { root, _ in
      root.remove("k4")
      root.remove("k1")
    }
    #expect(await pendingChangeCount(doc) == 2)
    #expect(await doc.toJSON() == #"{"k2":"2","k3":[2]}"#)
  }

  @Test("each update that changes something records one change with its message")
  func oneChangePerUpdate() async throws {
    // Mirrors the change messages of Go TestDocument ("updates k1,k2,k3", "deletes k2"); the
    // sequence numbers follow yorkie-protocol.md 6.1 (clientSeq + 1 per change).
    let doc = Document(key: "test-doc")
    try await doc.setActor(actor(1))
    try await doc.update(message: "updates k1,k2,k3") { root, _ in
      root["k1"] = "v1"
      root["k2"] = ["k4": "v4"]
      root["k3"] = ["v5", "v6"]
    }
    try await doc.update(message: "deletes k2") { root, _ in
      root.remove("k2")
    }
    try await doc.update { root, _ in
      root["k5"] = 5
    }
    let pack = try await doc.createChangePack()
    #expect(pack.key == "test-doc")
    #expect(pack.changes.count == 3)
    #expect(pack.changes.map(\.id.clientSeq) == [1, 2, 3])
    #expect(pack.changes.map(\.message) == ["updates k1,k2,k3", "deletes k2", nil])
    #expect(pack.changes.allSatisfy { $0.id.actorID == actor(1) })
  }

  @Test("local changes stay pending until a pack acknowledges them")
  func acknowledgement() async throws {
    // The crossSync harness (yorkie-reference.md 0, item 6): after the self-ack with the last
    // pushed clientSeq, nothing is pending.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["a"] = 1 }
    try await d1.update { root, _ in root["b"] = 2 }
    #expect(await d1.hasLocalChanges)
    #expect(await pendingChangeCount(d1) == 2)
    try await crossSync(d1, d2)
    #expect(await d1.hasLocalChanges == false)
    #expect(await pendingChangeCount(d1) == 0)
    #expect(await d2.hasLocalChanges == false)
    #expect(await d2.toJSON() == #"{"a":1,"b":2}"#)

    // A partial acknowledgement drops only the acknowledged changes.
    try await d1.update { root, _ in root["c"] = 3 }
    try await d1.update { root, _ in root["d"] = 4 }
    let pack = try await d1.createChangePack()
    #expect(pack.changes.map(\.id.clientSeq) == [3, 4])
    try await d1.applyChangePack(
      ChangePack(key: "test-doc", checkpoint: Checkpoint(serverSeq: 0, clientSeq: 3), changes: []))
    #expect(try await d1.createChangePack().changes.map(\.id.clientSeq) == [4])
    #expect(await d1.hasLocalChanges)
  }

  @Test("remote changes apply without becoming local changes")
  func remoteChangesAreNotLocal() async throws {
    // Mirrors the in-process delivery of Yorkie's crossSync harness.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in
      root["todos"] = [["title": "buy milk", "done": false]]
    }
    try await d2.applyChangePack(delivery(of: try await d1.createChangePack()))
    #expect(await d2.toJSON() == #"{"todos":[{"title":"buy milk","done":false}]}"#)
    #expect(await d2.hasLocalChanges == false)
    #expect(await pendingChangeCount(d2) == 0)
  }

  @Test("version vectors advance as yorkie-protocol.md 6.1 describes")
  func versionVectors() async throws {
    // yorkie-protocol.md 6.1: a local change sets VV[self] = lamport + 1; a remote change sets
    // lamport = max(local, remote) + 1 and VV[self] = lamport, merging the remote entries.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["a"] = 1 }
    #expect(await d1.versionVector[actor(1)] == 1)
    #expect(await d1.versionVector[actor(2)] == nil)
    try await crossSync(d1, d2)
    #expect(await d2.versionVector[actor(1)] == 1)
    #expect(await d2.versionVector[actor(2)] == 2)
    try await d2.update { root, _ in root["b"] = 2 }
    #expect(await d2.versionVector[actor(2)] == 3)
  }

  @Test("toSortedJSON sorts keys by UTF-16 code units, recursively")
  func sortedKeys() async throws {
    // Serialization rule (yorkie-reference.md 2.9): JS sorts with the default Array#sort, i.e. by
    // UTF-16 code units ("😀" is a surrogate pair 0xD83D… and sorts before U+FF46 "ｆ", unlike
    // Swift's Unicode-scalar String order). Order checked with node.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      for (index, key) in ["b", "a", "B", "_", "é", "😀", "ｆ", "", "$x", "10", "9"].enumerated() {
        root[key] = .integer(Int32(index))
      }
      root["nested"] = ["z": ["y": 1, "x": 2], "m": 0]
    }
    #expect(
      await doc.toSortedJSON()
        == #"{"":7,"$x":8,"10":9,"9":10,"B":2,"_":3,"a":1,"b":0,"nested":{"m":0,"z":{"x":2,"y":1}},"é":4,"😀":5,"ｆ":6}"#)
    #expect(
      await doc.toJSON()
        == #"{"b":0,"a":1,"B":2,"_":3,"é":4,"😀":5,"ｆ":6,"":7,"$x":8,"10":9,"9":10,"nested":{"z":{"y":1,"x":2},"m":0}}"#)
  }

  @Test("toSortedJSON leaves objects inside arrays in insertion order (JS)")
  func sortedJSONInsideArrays() async throws {
    // Mirrors JS unit document_test "generic type parameter test". Known divergence: JS
    // CRDTArray.toSortedJSON calls toJSON on its elements, so objects inside arrays are not
    // sorted; iOS and Go sort them. This follows JS.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["todos"] = [["title": "buy milk", "done": false]]
    }
    #expect(await doc.toSortedJSON() == #"{"todos":[{"title":"buy milk","done":false}]}"#)
    try await doc.update { root, _ in
      try root.array("todos")?.append(["title": "drink water", "done": true])
    }
    #expect(
      await doc.toSortedJSON()
        == #"{"todos":[{"title":"buy milk","done":false},{"title":"drink water","done":true}]}"#)
    try await doc.update { root, _ in
      root["b"] = ["list": [["d": 1, "c": 2]], "a": 0]
    }
    #expect(
      await doc.toSortedJSON()
        == #"{"b":{"a":0,"list":[{"d":1,"c":2}]},"todos":[{"title":"buy milk","done":false},{"title":"drink water","done":true}]}"#)
  }

  @Test("value(atPath:) reads members and array elements")
  func valueAtPath() async throws {
    // Mirrors JS unit document_test "null value test" (getValueByPath) and the `$.todos.0` path
    // of "check OperationInfo type for subscribe path".
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = ["": nil, "null": nil]
      root["todos"] = [["text": "hello", "completed": false]]
      root["num"] = 1
    }
    #expect(await doc.toSortedJSON() == #"{"data":{"":null,"null":null},"num":1,"todos":[{"text":"hello","completed":false}]}"#)
    #expect(try await doc.value(atPath: "$.data.null") == .null)
    let todo: JSONValue = ["completed": false, "text": "hello"]
    #expect(try await doc.value(atPath: "$.todos.0") == todo)
    #expect(try await doc.value(atPath: "$.todos.0.text") == .string("hello"))
    #expect(try await doc.value(atPath: "$.todos.0.completed") == .bool(false))
    #expect(try await doc.value(atPath: "$.num") == .integer(1))
    #expect(try await doc.value(atPath: "$.todos.1") == nil)
    #expect(try await doc.value(atPath: "$.missing") == nil)
    #expect(try await doc.value(atPath: "$.num.deeper") == nil)
  }

  @Test("edits made after a rollback build on the state before it")
  func editsAfterRollback() async throws {
    // Mirrors JS integration object_test "should apply updates inside nested map" (the failed
    // push followed by a successful one) with a nested object and a counter.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["shape"] = ["point": ["x": 0, "y": 0]]
      _ = root.setNewCounter("cnt", .int(0))
    }
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        root.object("shape")?["point"] = ["x": 9, "y": 9]
        root.counter("cnt")?.increase(by: 5)
        root.remove("shape")
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"shape":{"point":{"x":0,"y":0}},"cnt":0}"#)
    try await doc.update { root, _ in
      root.object("shape")?.object("point")?["x"] = 1
      root.counter("cnt")?.increase(by: 1)
    }
    // Re-setting `x` gives it a newer ticket, so it prints after `y` (JS 0.7.x iterates members
    // by creation: yorkie-reference.md 2.9).
    #expect(await doc.toJSON() == #"{"shape":{"point":{"y":0,"x":1}},"cnt":1}"#)
    #expect(await doc.garbageLength == 1)
  }
}
