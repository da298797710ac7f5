import Foundation
import Testing
import CRDT

// Garbage collection of objects, arrays, primitives and counters: `garbageLength` and the count
// `garbageCollect(minSyncedVersionVector:)` returns, exactly as Yorkie's tests assert them.
// Yorkie counts a removed container as itself plus every descendant, each element once.
//
// Single-replica tests use a detached document, whose tickets carry `ActorID.initial`, and collect
// with `maxVectorOfDetached()` (Yorkie: `garbageCollect(maxVectorOf([doc.getChangeID().getActorID()]))`).
// Two-replica tests exchange packs with `crossSync` and collect with `maxVector([actor(1), actor(2)])`.

@Suite("Garbage collection")
struct GarbageCollectionTests {
  // MARK: - Single replica

  @Test("removing an array of three counts four tombstones and collects four")
  func collectRemovedArray() async throws {
    // Mirrors JS unit gc_test "should collect garbage" (and iOS GCTests
    // "test_should_collect_garbage", Go crdt TestRoot "garbage collection for container test")
    let doc = Document(key: "test-doc")
    #expect(await doc.toSortedJSON() == "{}")
    try await doc.update(message: "set 1, 2, 3") { root, _ in
      root["1"] = 1
      root["2"] = [1, 2, 3]
      root["3"] = 3
    }
    #expect(await doc.toSortedJSON() == #"{"1":1,"2":[1,2,3],"3":3}"#)
    try await doc.update(message: "deletes 2") { root, _ in
      root.remove("2")
    }
    #expect(await doc.toSortedJSON() == #"{"1":1,"3":3}"#)
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 4)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.toSortedJSON() == #"{"1":1,"3":3}"#)
  }

  @Test("after one collection, removing a primitive counts and collects one")
  func collectAgainAfterCollection() async throws {
    // Mirrors Go pkg/document/crdt TestRoot "garbage collection for container test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["1"] = 1
      root["2"] = [1, 2, 3]
      root["3"] = 3
    }
    #expect(await doc.toJSON() == #"{"1":1,"2":[1,2,3],"3":3}"#)
    try await doc.update { root, _ in root.remove("2") }
    #expect(await doc.toJSON() == #"{"1":1,"3":3}"#)
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 4)
    #expect(await doc.garbageLength == 0)

    try await doc.update { root, _ in root.remove("3") }
    #expect(await doc.toJSON() == #"{"1":1}"#)
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
  }

  @Test("a removed array of 10000 elements collects 10001 elements")
  func collectBigArray() async throws {
    // Mirrors JS unit gc_test "should collect garbage for big array"
    let size = 10000
    let doc = Document(key: "test-doc")
    try await doc.update(message: "sets big array") { root, _ in
      root["1"] = .array((0..<size).map { JSONValue.integer(Int32($0)) })
    }
    try await doc.update(message: "deletes the array") { root, _ in
      root.remove("1")
    }
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == size + 1)
    #expect(await doc.garbageLength == 0)
  }

  @Test("a removed array element counts and collects one")
  func collectArrayElement() async throws {
    // Mirrors JS unit gc_test "should collect garbage for nested elements" and Go crdt TestRoot
    // "garbage collection for array test"
    let doc = Document(key: "test-doc")
    try await doc.update(message: "set 1, 2, 3") { root, _ in
      root["list"] = [1, 2, 3]
    }
    #expect(await doc.toSortedJSON() == #"{"list":[1,2,3]}"#)
    try await doc.update(message: "deletes 2") { root, _ in
      try root.array("list")?.remove(at: 1)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[1,3]}"#)
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.toSortedJSON() == #"{"list":[1,3]}"#)
  }

  @Test("a nested object set and removed in one update counts four")
  func collectNestedObject() async throws {
    // Mirrors JS unit gc_test "should collect garbage for nested object" (shape, point, x, y)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["shape"] = ["point": ["x": 0, "y": 0]]
      root.remove("shape")
    }
    #expect(await doc.toJSON() == "{}")
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 4)
  }

  @Test("overwritten values are garbage too")
  func overwrittenValues() async throws {
    // Mirrors JS unit document_test "should remove previously inserted elements in heap when
    // running GC" and Go TestDocument "previously inserted elements in heap when running GC test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["a"] = 1
      root["a"] = 2
      root.remove("a")
    }
    #expect(await doc.toSortedJSON() == "{}")
    #expect(await doc.garbageLength == 2)
    _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
    #expect(await doc.toSortedJSON() == "{}")
    #expect(await doc.garbageLength == 0)
  }

  @Test("replacing an object three times leaves six tombstones")
  func replacedObjects() async throws {
    // Mirrors JS integration gc_test "Can collect removed elements from both root and clone"
    let doc = Document(key: "test-doc")
    for value in 0..<3 {
      try await doc.update { root, _ in
        root["point"] = ["x": .integer(Int32(value)), "y": .integer(Int32(value))]
      }
    }
    #expect(await doc.toJSON() == #"{"point":{"x":2,"y":2}}"#)
    #expect(await doc.garbageLength == 6)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 6)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.toJSON() == #"{"point":{"x":2,"y":2}}"#)
  }

  @Test("removals inside a nested array count one each")
  func nestedArrayRemovals() async throws {
    // Mirrors JS integration gc_test "Can collect removed elements from both root and clone for
    // nested array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [0, 1, 2]
      try root.array("list")?.append([3, 4, 5])
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,2,[3,4,5]]}"#)
    try await doc.update { root, _ in
      try root.array("list")?.remove(at: 1)
    }
    #expect(await doc.toJSON() == #"{"list":[0,2,[3,4,5]]}"#)
    try await doc.update { root, _ in
      try root.array("list")?.array(at: 2)?.remove(at: 1)
    }
    #expect(await doc.toJSON() == #"{"list":[0,2,[3,5]]}"#)
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
  }

  @Test("removing a nested array element counts the array and its elements")
  func nestedArrayInObjectLiteral() async throws {
    // Mirrors Go test/integration TestObject "object.set with json literal array type test"
    // (3 elements: the array [7,8], 7 and 8)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["obj"] = ["array": [1, 2, 3, [7, 8]]]
      let array = try #require(root.object("obj")?.array("array"))
      try array.remove(at: 3)
    }
    #expect(await doc.toJSON() == #"{"obj":{"array":[1,2,3]}}"#)
    #expect(await doc.garbageLength == 3)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 3)
  }

  @Test("an element removed before its container is counted once")
  func removedBeforeContainer() async throws {
    // Mirrors Go test/integration TestArray "array.set with value add, delete test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      // 01. set array with value
      root["k1"] = [0, [1, 2, 3]]
      let k1 = try #require(root.array("k1"))
      // 02. add values to the array
      try k1.append(4)
      try k1.append("str")
      // 03. remove a value from the array
      try k1.remove(at: 3)
      // 04. remove the array
      root.remove("k1")
    }
    #expect(await doc.toJSON() == "{}")
    #expect(await doc.garbageLength == 8)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 8)
  }

  @Test("an object holding primitives, an array, an object and a counter")
  func objectWithEveryKind() async throws {
    // Mirrors Go test/integration TestObject "object.set with json literal test": the object
    // built from a literal and the one built call by call print the same and count the same
    // tombstones. Adapted: text and tree members are left out (out of scope here), so 8
    // elements instead of Go's 10: obj, str, arr, 1, "str", obj, 42.2, cnt.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in
      root["obj"] = ["str": "v", "arr": [1, "str"], "obj": ["key3": 42.2]]
      _ = root.object("obj")?.setNewCounter("cnt", .long(0))
    }
    try await d2.update { root, _ in
      let obj = root.setNewObject("obj")
      obj["str"] = "v"
      let arr = obj.setNewArray("arr")
      try arr.append(1)
      try arr.append("str")
      obj.setNewObject("obj")["key3"] = 42.2
      _ = obj.setNewCounter("cnt", .long(0))
    }
    let expected = #"{"obj":{"arr":[1,"str"],"cnt":0,"obj":{"key3":42.2},"str":"v"}}"#
    #expect(await d1.toSortedJSON() == expected)
    #expect(await d2.toSortedJSON() == expected)

    for doc in [d1, d2] {
      try await doc.update { root, _ in root.remove("obj") }
      #expect(await doc.garbageLength == 8)
      #expect(await doc.garbageCollect(minSyncedVersionVector: maxVector([actor(1), actor(2)])) == 8)
      #expect(await doc.garbageLength == 0)
    }
  }

  @Test("an empty version vector collects nothing")
  func emptyVectorCollectsNothing() async throws {
    // yorkie-protocol.md 6.3: a tombstone is purged only when the min synced vector has an entry
    // for the remover's actor.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [1, 2, 3]
    }
    try await doc.update { root, _ in root.remove("list") }
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: VersionVector()) == 0)
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 4)
  }

  @Test("a collected element is gone and the array keeps working")
  func lookupAfterCollection() async throws {
    // Mirrors JS integration array_test "Returns undefined when looking up an element that doesnt
    // exist after GC"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [0, 1, 2]
    }
    try await doc.update { root, _ in
      try root.array("list")?.remove(at: 2)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[0,1]}"#)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      #expect(list.count == 2)
      #expect(list[2] == nil)
      #expect(list.id(at: 2) == nil)
      try list.append(3)
      try list.insert(9, at: 0)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[9,0,1,3]}"#)
  }

  @Test("a counter and its replaced value are garbage like any element")
  func counterGarbage() async throws {
    // Yorkie registers any removed element for GC; counters are elements too (Go TestObject
    // "object.set with json literal test" counts its counter).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let cnt = root.setNewCounter("cnt", .int(1))
      cnt.increase(by: 1)
    }
    try await doc.update { root, _ in
      _ = root.setNewCounter("cnt", .long(10))
    }
    #expect(await doc.toJSON() == #"{"cnt":10}"#)
    #expect(await doc.garbageLength == 1)
    try await doc.update { root, _ in root.remove("cnt") }
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await doc.toJSON() == "{}")
  }

  // MARK: - Two replicas

  @Test("garbage reaches the other replica and is collected once every actor has seen it")
  func containerGarbageAcrossReplicas() async throws {
    // Mirrors JS integration gc_test "Can handle garbage collection for container type" (and Go
    // TestGarbageCollection "garbage collection for container type test"); the server's min
    // synced version vector is given directly. The removal is d2's change at lamport 3
    // (d2 reached lamport 2 applying d1's change; yorkie-protocol.md 6.1), so a vector with
    // d2 at 2 does not cover it and one with d2 at 3 does (6.3).
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "sets 1, 2, 3") { root, _ in
      root["1"] = 1
      root["2"] = [1, 2, 3]
      root["3"] = 3
    }
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
    try await crossSync(d1, d2)

    try await d2.update(message: "removes 2") { root, _ in root.remove("2") }
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 4)

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 4)
    #expect(await d2.garbageLength == 4)

    // d2 is missing from the vector and the smallest entry is not past the removal's lamport:
    // nothing is purged (the JS SDK's rule for actors the server no longer tracks).
    #expect(await d1.garbageCollect(minSyncedVersionVector: VersionVector([actor(1): 1])) == 0)
    // d2's entry is below the removal's lamport: nothing is purged.
    let notYet = VersionVector([actor(1): Int64.max, actor(2): 2])
    #expect(await d1.garbageCollect(minSyncedVersionVector: notYet) == 0)
    #expect(await d1.garbageLength == 4)
    // Every actor has seen the removal.
    let seen = VersionVector([actor(1): 1, actor(2): 3])
    #expect(await d1.garbageCollect(minSyncedVersionVector: seen) == 4)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 4)
    #expect(await d2.garbageCollect(minSyncedVersionVector: maxVector([actor(1), actor(2)])) == 4)
    #expect(await d2.garbageLength == 0)
    #expect(await d1.toSortedJSON() == #"{"1":1,"3":3}"#)
    #expect(await d2.toSortedJSON() == #"{"1":1,"3":3}"#)
  }

  @Test("a parent removed on one replica and its child on the other count three on both")
  func concurrentParentAndChildRemoval() async throws {
    // Mirrors JS integration gc_test "getGarbageLen should return the actual number of elements
    // garbage-collected"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["point"] = ["x": 0, "y": 0] }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in root.remove("point") }
    #expect(await d1.garbageLength == 3)  // point, x, y
    try await d2.update { root, _ in root.object("point")?.remove("x") }
    #expect(await d2.garbageLength == 1)  // x

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 3)
    #expect(await d2.garbageLength == 3)
    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 3)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 3)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("edits inside an object that was replaced meanwhile become garbage")
  func purgeAfterPeersCannotAccess() async throws {
    // Mirrors JS integration gc_test "Can purges removed elements after peers can not access
    // them" (server syncs replaced by crossSync; the final collection by a full vector)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["point"] = ["x": 0, "y": 0] }
    try await d1.update { root, _ in root.object("point")?["x"] = 1 }
    #expect(await d1.garbageLength == 1)
    try await crossSync(d1, d2)
    #expect(await d2.garbageLength == 1)

    try await d2.update { root, _ in root.object("point")?["x"] = 2 }
    #expect(await d2.garbageLength == 2)
    try await d1.update { root, _ in root["point"] = ["x": 3, "y": 3] }
    #expect(await d1.garbageLength == 4)

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 5)
    #expect(await d2.garbageLength == 5)
    #expect(await d1.toSortedJSON() == #"{"point":{"x":3,"y":3}}"#)
    #expect(await d2.toSortedJSON() == #"{"point":{"x":3,"y":3}}"#)

    let all = maxVector([actor(1), actor(2)])
    _ = await d1.garbageCollect(minSyncedVersionVector: all)
    _ = await d2.garbageCollect(minSyncedVersionVector: all)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("the loser of a concurrent set is garbage on both replicas")
  func concurrentSetLoserIsGarbage() async throws {
    // yorkie-protocol.md 6.3 / yorkie-reference.md 2.8: a losing concurrent Set is marked removed
    // at once and registered for GC (JS ElementRHT.set, SetOperation.execute).
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = "v1" }
    try await d2.update { root, _ in root["k1"] = "v2" }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":"v2"}"#)
    #expect(await d1.garbageLength == 1)
    #expect(await d2.garbageLength == 1)
    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 1)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 1)
    #expect(await d2.toJSON() == #"{"k1":"v2"}"#)
  }

  @Test("an element removed on both replicas is one tombstone")
  func doubleRemovalIsOneTombstone() async throws {
    // Mirrors JS integration array_test "Can handle concurrent delete operations", counting the
    // tombstones: JS registers removed elements in a set, so a second removal adds nothing.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [1, 2, 3, 4] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in try root.array("k1")?.remove(at: 2) }
    try await d2.update { root, _ in try root.array("k1")?.remove(at: 2) }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[1,2,4]}"#)
    #expect(await d1.garbageLength == 1)
    #expect(await d2.garbageLength == 1)
    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 1)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 1)
  }
}
