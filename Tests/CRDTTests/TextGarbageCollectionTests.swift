import Foundation
import Testing
import CRDT

// Garbage in texts: removed text nodes and removed attributes are tombstones until every replica
// has seen their removal. `garbageLength` and the count `garbageCollect` returns are checked
// exactly as Yorkie's tests check them: one per removed node (a node split after its removal
// counts once per piece), one per removed attribute entry, and a removed text element counts
// itself once, like any element.
//
// Yorkie's two-client GC tests let the server's min synced version vector trigger collection;
// here the vector is given to `garbageCollect` directly (`maxVector` of both actors once both
// replicas have seen everything), as GarbageCollectionTests.swift does for the other types.
// Yorkie's docSize assertions have no counterpart in this API and are left out.

/// Every pending change of `sender` delivered to `receiver` only, then acknowledged to `sender`:
/// one direction of `crossSync`, as a push-only sync leaves it.
private func deliverOneWay(from sender: Document, to receiver: Document) async throws {
  let pack = try await sender.createChangePack()
  try await receiver.applyChangePack(delivery(of: pack))
  try await sender.applyChangePack(acknowledgement(of: pack))
}

@Suite("Text garbage collection")
struct TextGarbageCollectionTests {
  // MARK: Single replica

  @Test("replacing the head of a text leaves one tombstone, and deleting the rest another", arguments: [false, true])
  func replacedHeadIsOneTombstone(inOneUpdate: Bool) async throws {
    // Mirrors Go pkg/document TestDocument "text garbage collection test" (one update) and JS unit
    // gc_test "should collect garbage for text node" (three updates). Yorkie's structure strings
    // show [12]{AB}[CD], then [12][CD], then [12]{CD}.
    let doc = Document(key: "test-doc")
    if inOneUpdate {
      try await doc.update { root, _ in
        let text = root.setNewText("text")
        try text.edit(0, 0, "ABCD")
        try text.edit(0, 2, "12")
      }
    } else {
      try await doc.update { root, _ in _ = root.setNewText("text") }
      try await doc.update { root, _ in try #require(root.text("text")).edit(0, 0, "ABCD") }
      try await doc.update { root, _ in try #require(root.text("text")).edit(0, 2, "12") }
    }
    #expect(await doc.toJSON() == #"{"text":[{"val":"12"},{"val":"CD"}]}"#)
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.toJSON() == #"{"text":[{"val":"12"},{"val":"CD"}]}"#)

    try await doc.update { root, _ in try #require(root.text("text")).edit(2, 4, "") }
    #expect(await doc.toJSON() == #"{"text":[{"val":"12"}]}"#)
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
  }

  @Test("a node removed in one update and its neighbour in the next count one each")
  func alreadyRemovedNodeCountsOnce() async throws {
    // Mirrors JS unit gc_test "should return correct gc count with already removed text node"
    let doc = Document(key: "test-doc")
    #expect(await doc.toSortedJSON() == "{}")
    try await doc.update(message: "edit text k1") { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ab")
      try text.edit(0, 1, "c")
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"c"},{"val":"b"}]}"#)
    #expect(await doc.garbageLength == 1)

    try await doc.update(message: "deletes 2") { root, _ in
      try #require(root.text("k1")).edit(1, 2, "d")
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"c"},{"val":"d"}]}"#)
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await doc.garbageLength == 0)
  }

  @Test("replacements around attributed nodes count one tombstone per removed piece")
  func attributedNodes() async throws {
    // Mirrors JS unit gc_test "should collect garbage for text node with attributes"
    let doc = Document(key: "test-doc")
    var expected = #"{"k1":[{"attrs":{"b":"1"},"val":"Hello "},{"val":"mario"}]}"#
    try await doc.update(message: "edit text k1") { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "Hello world", attributes: ["b": "1"])
      try text.edit(6, 11, "mario")
      #expect(root.toJSON() == #"{"k1":[{"attrs":{"b":"1"},"val":"Hello "},{"val":"mario"}]}"#)
    }
    #expect(await doc.toSortedJSON() == expected)
    #expect(await doc.garbageLength == 1)

    expected =
      #"{"k1":[{"attrs":{"b":"1"},"val":"Hi"},{"attrs":{"b":"1"},"val":" "},{"val":"j"},{"attrs":{"b":"1"},"val":"ane"}]}"#
    try await doc.update(message: "edit text k1") { root, _ in
      let text = try #require(root.text("k1"))
      try text.edit(0, 5, "Hi", attributes: ["b": "1"])
      try text.edit(3, 4, "j")
      try text.edit(4, 8, "ane", attributes: ["b": "1"])
    }
    #expect(await doc.toSortedJSON() == expected)
    #expect(await doc.garbageLength == 4)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 4)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.toSortedJSON() == expected)
  }

  @Test("styling a styled range again replaces the value without leaving garbage")
  func restyleLeavesNoGarbage() async throws {
    // Mirrors Go pkg/document TestTextGC "style-style test" and JS unit gc_test "Garbage
    // Collection for text" "style-style test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("t").edit(0, 0, "AB") }
    #expect(try await textState(doc, "t").json == #"[{"val":"AB"}]"#)
    #expect(await doc.garbageLength == 0)

    try await doc.update { root, _ in try #require(root.text("t")).setStyle(0, 2, ["b": "t"]) }
    #expect(try await textState(doc, "t").json == #"[{"attrs":{"b":"t"},"val":"AB"}]"#)
    #expect(await doc.garbageLength == 0)

    try await doc.update { root, _ in try #require(root.text("t")).setStyle(0, 2, ["b": "f"]) }
    #expect(try await textState(doc, "t").json == #"[{"attrs":{"b":"f"},"val":"AB"}]"#)
    #expect(await doc.garbageLength == 0)

    _ = await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached())
    #expect(await doc.garbageLength == 0)
  }

  @Test("deleting a styled node leaves the node as the only garbage")
  func styledThenDeleted() async throws {
    // Mirrors Go TestTextGC "style-delete test" and JS unit gc_test "Garbage Collection for text"
    // "style-delete test"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("t").edit(0, 0, "AB") }
    try await doc.update { root, _ in try #require(root.text("t")).setStyle(0, 2, ["b": "t"]) }
    #expect(try await textState(doc, "t").json == #"[{"attrs":{"b":"t"},"val":"AB"}]"#)
    #expect(await doc.garbageLength == 0)

    try await doc.update { root, _ in try #require(root.text("t")).edit(0, 2, "") }
    #expect(try await textState(doc, "t").json == "[]")
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
  }

  @Test("deleting the end of a text leaves one tombstone")
  func deletedTailCollected() async throws {
    // Mirrors Go pkg/document TestTextGCSize "should update gc size correctly after text garbage
    // collection" (counts only; sizes are not part of this API)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in _ = root.setNewText("text") }
    #expect(await doc.garbageLength == 0)
    try await doc.update { root, _ in try #require(root.text("text")).edit(0, 0, "Hello world") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(6, 11, "") }
    #expect(await doc.garbageLength == 1)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 1)
    #expect(await doc.garbageLength == 0)
    #expect(try await textState(doc, "text").string == "Hello ")
  }

  @Test("a replaced middle character and a deleted last one are two tombstones")
  func middleAndTailTombstones() async throws {
    // Mirrors Go TestTextGCSize "should update gc size correctly after multiple text operations
    // and gc" ("B and C should be garbage")
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in _ = root.setNewText("text") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(0, 0, "ABC") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(1, 2, "X") }
    try await doc.update { root, _ in try #require(root.text("text")).edit(2, 3, "") }
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await doc.garbageLength == 0)
    #expect(try await textState(doc, "text").json == #"[{"val":"A"},{"val":"X"}]"#)
  }

  @Test("a removed container counts a text inside it once, like any element")
  func removedTextElementCountsOnce() async throws {
    // Mirrors the "Text in struct" cases of Go test/integration TestObject (`{"obj":{"M":[]}}`,
    // 2 tombstones: the object and the text) and the text member of "object.set with json literal
    // test" (a text counts 1 among the removed object's elements).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in _ = root.setNewObject("obj").setNewText("M") }
    #expect(await doc.toJSON() == #"{"obj":{"M":[]}}"#)
    try await doc.update { root, _ in root.remove("obj") }
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await doc.toJSON() == "{}")

    try await doc.update { root, _ in
      let obj = root.setNewObject("obj")
      obj["str"] = "v"
      try obj.setNewText("txt").edit(0, 0, "ABCD")
    }
    #expect(await doc.toSortedJSON() == #"{"obj":{"str":"v","txt":[{"val":"ABCD"}]}}"#)
    try await doc.update { root, _ in root.remove("obj") }
    #expect(await doc.garbageLength == 3)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 3)
    #expect(await doc.garbageLength == 0)
  }

  @Test("a removed attribute is a tombstone, and a split copies it into both pieces")
  func removedAttributeSplitCopiesTombstone() async throws {
    // Mirrors JS unit gc_attr_split_test "counts and collects the tombstone a text split copied".
    // JS tombstones the attribute by undoing the style (the reverse carries attributesToRemove);
    // removeStyle issues the same Style operation with attributesToRemove directly.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in try root.setNewText("k").edit(0, 0, "abcdefghij") }
    try await doc.update { root, _ in try #require(root.text("k")).setStyle(0, 10, ["b": "1"]) }
    #expect(await doc.garbageLength == 0)
    try await doc.update { root, _ in try #require(root.text("k")).removeStyle(0, 10, keys: ["b"]) }
    #expect(try await textState(doc, "k").json == #"[{"val":"abcdefghij"}]"#)
    #expect(await doc.garbageLength == 1)

    try await doc.update { root, _ in try #require(root.text("k")).edit(5, 5, "X") }
    #expect(try await textState(doc, "k").json == #"[{"val":"abcde"},{"val":"X"},{"val":"fghij"}]"#)
    #expect(await doc.garbageLength == 2)
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 2)
    #expect(await doc.garbageLength == 0)
    #expect(try await textState(doc, "k").json == #"[{"val":"abcde"},{"val":"X"},{"val":"fghij"}]"#)
  }

  // MARK: Two replicas

  @Test("an attribute tombstone copied by a split is purged the same on both replicas")
  func removedAttributeAcrossReplicas() async throws {
    // Mirrors JS unit gc_attr_split_test "purges the same text tombstones on both replicas"
    // (removeStyle in place of the undo, as above)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in try root.setNewText("k").edit(0, 0, "abcdefghij") }
    try await d1.update { root, _ in try #require(root.text("k")).setStyle(0, 10, ["b": "1"]) }
    try await d1.update { root, _ in try #require(root.text("k")).removeStyle(0, 10, keys: ["b"]) }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in try #require(root.text("k")).edit(5, 5, "X") }
    try await crossSync(d1, d2)

    #expect(try await textState(d2, "k").json == (try await textState(d1, "k").json))
    #expect(await d1.garbageLength == 2)
    #expect(await d2.garbageLength == 2)
    let all = maxVector([actor(1), actor(2)])
    let purged1 = await d1.garbageCollect(minSyncedVersionVector: all)
    let purged2 = await d2.garbageCollect(minSyncedVersionVector: all)
    #expect(purged1 == purged2)
    #expect(purged1 == 2)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("pieces split off a tombstone by a remote delete are purged the same on both replicas")
  func tombstoneSplitRemotely() async throws {
    // Mirrors Go pkg/document TestTextTombstoneSplitGC "purges pieces split off a tombstoned text
    // node" and JS unit gc_split_leak_test (Text) of the same name. Yorkie asserts the two purge
    // counts are equal; 3 is the number of pieces, "ab", "cd" and "ef", all removed.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in try root.setNewText("k").edit(0, 0, "abcdef") }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in try #require(root.text("k")).edit(0, 6, "") }
    try await d2.update { root, _ in try #require(root.text("k")).edit(2, 4, "") }
    try await crossSync(d1, d2)

    #expect(try await textState(d1, "k").string == "")
    #expect(try await textState(d2, "k").string == "")
    #expect(await d1.garbageLength == (await d2.garbageLength))
    let all = maxVector([actor(1), actor(2)])
    let purged1 = await d1.garbageCollect(minSyncedVersionVector: all)
    let purged2 = await d2.garbageCollect(minSyncedVersionVector: all)
    #expect(purged1 == purged2, "asymmetric purge: d1=\(purged1) d2=\(purged2)")
    #expect(purged1 == 3)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
    #expect(await d1.toJSON() == #"{"k":[]}"#)
  }

  @Test("a newer concurrent delete over a tombstone keeps it registered for collection")
  func newerDeleteOverTombstone() async throws {
    // Mirrors JS unit gc_split_leak_test (Text) "keeps GC registration when a newer concurrent
    // delete overwrites a tombstone", step for step: d1's extra edit bumps its clock before its
    // whole-range delete, and one of the two removals overwrites the other's tombstone on "cd"
    // (which one depends on the tickets; the count does not). 4 = the pieces "ab", "cd", "ef" and
    // "!", all removed.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in try root.setNewText("k").edit(0, 0, "abcdef") }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in try #require(root.text("k")).edit(6, 6, "!") }
    try await d1.update { root, _ in try #require(root.text("k")).edit(0, 7, "") }
    try await d2.update { root, _ in try #require(root.text("k")).edit(2, 4, "") }
    try await crossSync(d1, d2)

    #expect(try await textState(d1, "k").string == "")
    #expect(try await textState(d2, "k").string == "")
    let all = maxVector([actor(1), actor(2)])
    let purged1 = await d1.garbageCollect(minSyncedVersionVector: all)
    let purged2 = await d2.garbageCollect(minSyncedVersionVector: all)
    #expect(purged1 == purged2, "asymmetric purge: d1=\(purged1) d2=\(purged2)")
    #expect(purged1 == 4)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("text garbage reaches the other replica and is collected once both have seen it")
  func textGarbageAcrossReplicas() async throws {
    // Mirrors JS integration gc_test "Can handle garbage collection for text type" and Go
    // test/integration TestGarbageCollection "garbage collection for text type test". The removals
    // are d2's change at lamport 3 (d2 reached lamport 2 applying d1's change, yorkie-protocol.md
    // 6.1): "node removedAt = 4@c2, minVV[c2] = 4 meet GC condition" in Go's numbering.
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "sets text") { root, _ in
      try root.setNewText("text").edit(0, 0, "Hello World")
      try root.setNewText("textWithAttr").edit(0, 0, "Hello World")
    }
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
    try await crossSync(d1, d2)

    try await d2.update(message: "edit text type elements") { root, _ in
      let text = try #require(root.text("text"))
      try text.edit(0, 1, "a")
      try text.edit(1, 2, "b")
      try #require(root.text("textWithAttr")).edit(0, 1, "a", attributes: ["b": "1"])
    }
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 3)

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 3)
    #expect(await d2.garbageLength == 3)
    let expected =
      #"{"text":[{"val":"a"},{"val":"b"},{"val":"llo World"}],"textWithAttr":[{"attrs":{"b":"1"},"val":"a"},{"val":"ello World"}]}"#
    #expect(await d1.toSortedJSON() == expected)
    #expect(await d2.toSortedJSON() == expected)

    // d2's entry below the removals' lamport: nothing is purged.
    #expect(await d1.garbageCollect(minSyncedVersionVector: VersionVector([actor(1): Int64.max, actor(2): 2])) == 0)
    #expect(await d1.garbageLength == 3)
    // Every actor has seen the removals.
    #expect(await d1.garbageCollect(minSyncedVersionVector: VersionVector([actor(1): 1, actor(2): 3])) == 3)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 3)
    #expect(await d2.garbageCollect(minSyncedVersionVector: maxVector([actor(1), actor(2)])) == 3)
    #expect(await d2.garbageLength == 0)
    #expect(await d1.toSortedJSON() == expected)
  }

  @Test("removed elements and text nodes together, collected on both replicas")
  func elementsAndTextNodesTogether() async throws {
    // Mirrors JS integration gc_test "Can handle garbage collection with detached document test"
    // and Go TestGarbageCollection "garbage collection with detached document test": 6 = the
    // array "2" with its three elements, and one replaced node in each text.
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "sets 1, 2, 3, 4, 5") { root, _ in
      root["1"] = 1
      root["2"] = [1, 2, 3]
      root["3"] = 3
      try root.setNewText("4").edit(0, 0, "hi")
      try root.setNewText("5").edit(0, 0, "hi")
    }
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
    try await crossSync(d1, d2)

    try await d1.update(message: "removes 2 and edit text type elements") { root, _ in
      root.remove("2")
      try #require(root.text("4")).edit(0, 1, "h")
      try #require(root.text("5")).edit(0, 1, "h", attributes: ["b": "1"])
    }
    #expect(await d1.garbageLength == 6)
    #expect(await d2.garbageLength == 0)

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 6)
    #expect(await d2.garbageLength == 6)
    let expected = #"{"1":1,"3":3,"4":[{"val":"h"},{"val":"i"}],"5":[{"attrs":{"b":"1"},"val":"h"},{"val":"i"}]}"#
    #expect(await d1.toSortedJSON() == expected)
    #expect(await d2.toSortedJSON() == expected)

    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 6)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 6)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("several removed nodes are collected together, and a later insertion still lands")
  func multipleNodesCollected() async throws {
    // Mirrors Go TestGarbageCollection and JS integration gc_test "Should work properly when there
    // are multiple nodes to be collected in text type"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in try root.setNewText("text").edit(0, 0, "z") }
    try await d1.update { root, _ in try #require(root.text("text")).edit(0, 1, "a") }
    try await d1.update { root, _ in try #require(root.text("text")).edit(1, 1, "b") }
    try await d1.update { root, _ in try #require(root.text("text")).edit(2, 2, "d") }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"b"},{"val":"d"}]}"#)
    #expect(await d2.toJSON() == #"{"text":[{"val":"a"},{"val":"b"},{"val":"d"}]}"#)
    #expect(await d1.garbageLength == 1, "z")
    #expect(await d2.garbageLength == 1, "z")
    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 1)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 1)

    try await d1.update { root, _ in try #require(root.text("text")).edit(2, 2, "c") }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"b"},{"val":"c"},{"val":"d"}]}"#)
    #expect(await d2.toJSON() == #"{"text":[{"val":"a"},{"val":"b"},{"val":"c"},{"val":"d"}]}"#)

    try await d1.update { root, _ in try #require(root.text("text")).edit(1, 3, "") }
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"d"}]}"#)
    #expect(await d1.garbageLength == 2, "b, c")
    try await d2.update { root, _ in try #require(root.text("text")).edit(0, 0, "a") }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"a"},{"val":"d"}]}"#)
    #expect(await d2.toJSON() == #"{"text":[{"val":"a"},{"val":"a"},{"val":"d"}]}"#)
    #expect(await d2.garbageLength == 2)
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 2)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 2)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
  }

  @Test("a delete concurrent with an insertion inside its range collects only what it removed")
  func concurrentGarbageCollection() async throws {
    // Mirrors Go TestGarbageCollection "concurrent garbage collection test". d2's "c" was not
    // seen by d1's delete, so it survives; Yorkie does not print the final text, "ac1" is what
    // RGA gives ("1" goes right after d2's "c", the caret d2 typed at).
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "sets text") { root, _ in
      let text = root.setNewText("text")
      try text.edit(0, 0, "a")
      try text.edit(1, 1, "b")
      try text.edit(2, 2, "c")
    }
    try await crossSync(d1, d2)

    try await d2.update(message: "insert c") { root, _ in try #require(root.text("text")).edit(2, 2, "c") }
    try await d1.update(message: "delete bd") { root, _ in try #require(root.text("text")).edit(1, 3, "") }
    #expect(await d1.garbageLength == 2)
    #expect(await d2.garbageLength == 0)

    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 2)
    #expect(await d2.garbageLength == 2)
    #expect(try await textState(d1, "text").string == "ac")
    #expect(try await textState(d2, "text").string == "ac")

    try await d2.update(message: "insert 1") { root, _ in try #require(root.text("text")).edit(2, 2, "1") }
    let all = maxVector([actor(1), actor(2)])
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 2)
    try await crossSync(d1, d2)
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 2)
    #expect(await d1.garbageLength == 0)
    #expect(await d2.garbageLength == 0)
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"c"},{"val":"1"}]}"#)
    #expect(await d2.toJSON() == #"{"text":[{"val":"a"},{"val":"c"},{"val":"1"}]}"#)
  }

  @Test("insertions pushed one way before the delete arrives converge and collect the same")
  func pushOnlyGarbageCollection() async throws {
    // Mirrors Go TestGarbageCollection "concurrent garbage collection test(with pushonly)": d2
    // keeps pushing insertions next to nodes d1 has deleted before it pulls that delete. The
    // final text and the counts are Yorkie's.
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "insert ab") { root, _ in
      let text = root.setNewText("text")
      try text.edit(0, 0, "a")
      try text.edit(1, 1, "b")
    }
    try await crossSync(d1, d2)
    try await d2.update(message: "insert d") { root, _ in try #require(root.text("text")).edit(2, 2, "d") }
    try await crossSync(d1, d2)

    try await d2.update(message: "insert c") { root, _ in try #require(root.text("text")).edit(2, 2, "c") }
    try await d1.update(message: "remove ac") { root, _ in try #require(root.text("text")).edit(1, 3, "") }
    try await deliverOneWay(from: d2, to: d1)  // push only

    try await d2.update(message: "insert 1 (pushonly)") { root, _ in
      try #require(root.text("text")).edit(2, 2, "1")
    }
    try await deliverOneWay(from: d2, to: d1)
    #expect(await d1.garbageLength == 2)
    #expect(await d2.garbageLength == 0)

    try await d2.update(message: "insert 2 (pushonly)") { root, _ in
      try #require(root.text("text")).edit(2, 2, "2")
    }
    try await deliverOneWay(from: d2, to: d1)
    try await crossSync(d1, d2)
    #expect(await d1.garbageLength == 2)
    #expect(await d2.garbageLength == 2)

    let all = maxVector([actor(1), actor(2)])
    #expect(await d1.garbageCollect(minSyncedVersionVector: all) == 2)
    #expect(await d2.garbageCollect(minSyncedVersionVector: all) == 2)
    #expect(await d1.toJSON() == #"{"text":[{"val":"a"},{"val":"2"},{"val":"1"},{"val":"c"}]}"#)
    #expect(await d2.toJSON() == #"{"text":[{"val":"a"},{"val":"2"},{"val":"1"},{"val":"c"}]}"#)
  }
}
