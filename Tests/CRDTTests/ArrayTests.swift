import Foundation
import Testing
import CRDT

// Arrays: append, insert, remove, set and move (index-based and ID-based), on one replica and
// concurrently on two replicas exchanging change packs (`crossSync`, TestSupport.swift).
//
// Mapping from Yorkie's calls to api.md:
// - JS `push(v)` / Go `Add…(v)`               -> `append(v)`
// - JS `insertAfter(prevID, v)`               -> `insert(v, after: prevID)`
// - JS `insertBefore(nextID, v)`              -> `insert(v, at: indexOf(next))` (inserting so the
//                                                value ends up at the next element's index is
//                                                inserting after the element before it)
// - JS `delete arr[i]` / `deleteByID(id)`     -> `remove(at: i)` (the element's index)
// - JS `setValue(i, v)` / Go `SetInteger`     -> `set(v, at: i)`
// - JS `moveBefore(nextID, id)`               -> `moveBefore(id, next: nextID)`
// - JS `moveAfter(prevID, id)`                -> `moveAfter(id, previous: prevID)`
// - JS `moveFront(id)` / `moveLast(id)`       -> `moveToFront(id)` / `moveToEnd(id)`
// - Go `MoveAfterByIndex(prevIdx, idx)`       -> `moveAfter(id(at: idx), previous: id(at: prevIdx))`
// - Go `InsertIntegerAfter(i, v)`             -> `insert(v, at: i + 1)`

@Suite("Array")
struct ArrayTests {
  // MARK: - Append, insert, remove

  @Test("positions appended without a lookup since are found by remote inserts, moves and removals")
  func remoteEditsFindFreshPositions() async throws {
    // Appending leaves the new positions' lookup entries for one later pass; every way of
    // reaching a position by id (remote anchors, moves, removals, rollback) must see them.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in
      let list = root.setNewArray("list")
      for i in 0..<300 { try list.append(.integer(Int32(i))) }
    }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      let list = try #require(root.array("list"))
      for i in 300..<600 { try list.append(.integer(Int32(i))) }
    }
    try await d2.update { root, _ in
      let list = try #require(root.array("list"))
      try list.insert(.integer(-1), at: 150)
      try list.move(from: 10, to: 0)
      try list.remove(at: 299)
    }
    try await crossSync(d1, d2)
    // d1's fresh positions are anchors of nothing yet; now edit right after them remotely.
    try await d2.update { root, _ in
      let list = try #require(root.array("list"))
      try list.insert(.integer(-2), at: 599)
      try list.remove(at: 400)
    }
    try await crossSync(d1, d2)
    let json = await d1.toJSON()
    #expect(json == (await d2.toJSON()))
    #expect(await d1.checkInvariants() == nil)
    #expect(await d2.checkInvariants() == nil)
    var expected = (0..<600).map { Int32($0) }
    expected.insert(-1, at: 150)
    expected.insert(expected.remove(at: 10), at: 0)
    expected.remove(at: 299)
    expected.insert(-2, at: 599)
    expected.remove(at: 400)
    #expect(json == "{\"list\":[" + expected.map(String.init).joined(separator: ",") + "]}")
  }

  @Test("a failed update that appended thousands of elements leaves the array and its lookups as they were")
  func rollbackOfUnindexedAppends() async throws {
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      let list = root.setNewArray("list")
      for i in 0..<3 { try list.append(.integer(Int32(i))) }
    }
    await #expect(throws: YorkieError.self) {
      try await doc.update { root, _ in
        let list = try #require(root.array("list"))
        for i in 3..<5_000 { try list.append(.integer(Int32(i))) }
        try list.insert(.integer(-1), at: 2_500)
        throw YorkieError(.unsupported, "give up")
      }
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,2]}"#)
    #expect(await doc.checkInvariants() == nil)
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      try list.insert(.integer(9), at: 1)
      try list.append(.integer(10))
    }
    #expect(await doc.toJSON() == #"{"list":[0,9,1,2,10]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("removing an element and appending another")
  func removeThenAppend() async throws {
    // Mirrors JS integration array_test "should handle delete operations"
    let doc = Document(key: "test-doc")
    #expect(await doc.toSortedJSON() == "{}")
    try await doc.update(message: #"set {"k1":["1","2","3"]}"#) { root, _ in
      root["k1"] = ["1", "2", "3"]
    }
    #expect(await doc.toSortedJSON() == #"{"k1":["1","2","3"]}"#)
    try await doc.update(message: #"set {"k1":["1","3","4"]}"#) { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.remove(at: 1)
      try k1.append("4")
    }
    #expect(await doc.toSortedJSON() == #"{"k1":["1","3","4"]}"#)
  }

  @Test("appending an array and an object after a remove")
  func appendContainersAfterRemove() async throws {
    // Mirrors JS integration array_test "can push array element after delete operation" and
    // "can push object element after delete operation"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["k1"] = ["1", "2", "3"]
    }
    try await doc.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.remove(at: 1)
      try k1.append("4")
    }
    try await doc.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.append([4, 5, 6])
    }
    #expect(await doc.toJSON() == #"{"k1":["1","3","4",[4,5,6]]}"#)
    try await doc.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.append(["a": "1", "b": "2"])
    }
    #expect(await doc.toJSON() == #"{"k1":["1","3","4",[4,5,6],{"a":"1","b":"2"}]}"#)
  }

  @Test("appending an array literal inside the update that created the array")
  func appendArrayInSameUpdate() async throws {
    // Mirrors JS integration array_test "can push array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["arr"] = [1, 2, 3]
      let arr = try #require(root.array("arr"))
      try arr.append([4, 5, 6])
      #expect(arr.count == 4)
    }
    #expect(await doc.toJSON() == #"{"arr":[1,2,3,[4,5,6]]}"#)
  }

  @Test("appendNewObject and appendNewArray give proxies that edit the new element")
  func appendNewContainers() async throws {
    // Mirrors Go pkg/document/crdt TestArray "can push object element after delete operation"
    // and "can push array element after delete operation (document-based)"
    let doc = Document(key: "test-doc")
    try await doc.update(message: "set [1,2,3]") { root, _ in
      let k1 = root.setNewArray("k1")
      try k1.append("1")
      try k1.append("2")
      try k1.append("3")
    }
    try await doc.update(message: "delete '2' and push '4'") { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.remove(at: 1)
      try k1.append("4")
    }
    try await doc.update(message: "push object") { root, _ in
      let k1 = try #require(root.array("k1"))
      let object = k1.appendNewObject()
      object["a"] = "a"
      object["b"] = "b"
    }
    #expect(await doc.toJSON() == #"{"k1":["1","3","4",{"a":"a","b":"b"}]}"#)
    try await doc.update { root, _ in
      let k1 = try #require(root.array("k1"))
      let sub = k1.appendNewArray()
      try sub.append(4)
      try sub.append(5)
      try sub.append(6)
    }
    #expect(await doc.toJSON() == #"{"k1":["1","3","4",{"a":"a","b":"b"},[4,5,6]]}"#)
  }

  @Test("append keeps every primitive kind and nested arrays grow through array(at:)")
  func appendMixedValues() async throws {
    // Mirrors iOS Tests/Unit/Document/Json JSONArrayTests "test_can_append"
    let doc = Document(key: "doc1")
    try await doc.update { root, _ in
      root["array"] = []
      let array = try #require(root.array("array"))
      try array.append(.long(1))
      #expect(array[0] == .long(1))
      try array.append(2)
      try array.append("a")
      try array.append(1.2345)
      try array.append(true)
      try array.append([11, 12, 13])
      let nested = try #require(array.array(at: 5))
      try nested.append(21)
      try nested.append(22)
      try nested.append(23)
    }
    #expect(await doc.toJSON() == #"{"array":[1,2,"a",1.2345,true,[11,12,13,21,22,23]]}"#)
  }

  @Test("removing by index then appending the removed value again")
  func removeByIndexThenAppend() async throws {
    // Mirrors JS integration array_test "can push element then delete it by ID in array"
    let doc = Document(key: "test-doc")
    try await doc.update(message: #"set {"list":[4,3,2,1]}"#) { root, _ in
      root["list"] = []
      let list = try #require(root.array("list"))
      for value: JSONValue in [4, 3, 2, 1] {
        try list.append(value)
      }
      #expect(list.count == 4)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[4,3,2,1]}"#)
    try await doc.update(message: "delete 2") { root, _ in
      let list = try #require(root.array("list"))
      try list.remove(at: 2)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[4,3,1]}"#)
    try await doc.update(message: "push 2") { root, _ in
      let list = try #require(root.array("list"))
      try list.append(2)
      #expect(list.count == 4)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[4,3,1,2]}"#)
  }

  @Test("inserting after a given element, also after a remove")
  func insertAfterElement() async throws {
    // Mirrors JS integration array_test "can insert an element after the given element in array"
    let doc = Document(key: "test-doc")
    try await doc.update(message: #"set {"list":[1,2,4]}"#) { root, _ in
      root["list"] = [1, 2, 4]
    }
    try await doc.update(message: "insert 3") { root, _ in
      let list = try #require(root.array("list"))
      try list.insert(3, after: try elementID(list, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"list":[1,2,3,4]}"#)
    try await doc.update(message: "remove 2") { root, _ in
      let list = try #require(root.array("list"))
      try list.remove(at: 1)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[1,3,4]}"#)
    try await doc.update(message: "insert 2") { root, _ in
      let list = try #require(root.array("list"))
      try list.insert(2, after: try elementID(list, 0))
    }
    #expect(await doc.toSortedJSON() == #"{"list":[1,2,3,4]}"#)
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      for index in 0..<list.count {
        #expect(list[index] == .integer(Int32(index + 1)))
      }
    }
  }

  @Test("inserting before elements, expressed as index inserts")
  func insertBeforeElements() async throws {
    // Mirrors JS unit document_test "insert elements before a specific node of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = [0, 1, 2]
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,1,2]}"#)
    try await doc.update { root, _ in
      try root.array("data")?.insert(3, at: 0)  // before "0"
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,0,1,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
    try await doc.update { root, _ in
      try root.array("data")?.insert(4, at: 2)  // before "1"
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,0,4,1,2]}"#)
    try await doc.update { root, _ in
      try root.array("data")?.insert(5, at: 4)  // before "2"
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,0,4,1,5,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 6)
  }

  @Test("inserting before a position right after removing the element there")
  func insertBeforeAfterRemove() async throws {
    // Mirrors JS unit document_test "can insert an element before specific position after delete operation"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = [0, 1, 2]
    }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.remove(at: 0)
      try data.insert(3, at: 0)
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,1,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 3)
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.remove(at: 1)
      try data.insert(4, at: 1)
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,4,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 3)
  }

  @Test("insert(_:at:) puts the value at that index, count appends")
  func insertAtIndex() async throws {
    // api.md: insert(_:at:) with 0...count; the smoke of JS splice(i, 0, v) in document_test
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [1, 2, 3]
      let list = try #require(root.array("list"))
      try list.insert(0, at: 0)
      try list.insert(9, at: 4)
      try list.insert(5, at: 2)
      #expect(list.count == 6)
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,5,2,3,9]}"#)
  }

  @Test("removing every element one by one, with the count after each step")
  func removeAllElements() async throws {
    // Mirrors JS unit document_test "delete elements of array test" (and Go TestDocument
    // "delete elements of array test")
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = [0, 1, 2]
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,1,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 3)

    try await doc.update { root, _ in try root.array("data")?.remove(at: 0) }
    #expect(await doc.toSortedJSON() == #"{"data":[1,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 2)

    try await doc.update { root, _ in try root.array("data")?.remove(at: 1) }
    #expect(await doc.toSortedJSON() == #"{"data":[1]}"#)
    #expect(try await arrayCount(doc, "$.data") == 1)

    try await doc.update { root, _ in try root.array("data")?.remove(at: 0) }
    #expect(await doc.toSortedJSON() == #"{"data":[]}"#)
    #expect(try await arrayCount(doc, "$.data") == 0)
  }

  @Test("a removed element is no longer found by index")
  func removedElementNotFound() async throws {
    // Mirrors JS integration array_test "Returns undefined when looking up an element that doesnt exist"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["list"] = [0, 1, 2]
    }
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      #expect(list[2] == .integer(2))
      let removedID = try elementID(list, 2)
      try list.remove(at: 2)
      #expect(list[2] == nil)
      #expect(list.id(at: 2) == nil)
      #expect(list.id(at: 1) != removedID)
      #expect(list.count == 2)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[0,1]}"#)
  }

  @Test("set(_:at:) replaces elements, also with an array")
  func setByIndex() async throws {
    // Mirrors JS integration array_test "can handle array set operation by Proxy"
    let doc = Document(key: "test-doc")
    try await doc.update(message: "init") { root, _ in
      root["list"] = ["a", "b", "c"]
    }
    #expect(await doc.toSortedJSON() == #"{"list":["a","b","c"]}"#)
    try await doc.update(message: "insertAfter #1") { root, _ in
      let list = try #require(root.array("list"))
      try list.insert("newV", after: try elementID(list, 0))
    }
    #expect(await doc.toSortedJSON() == #"{"list":["a","newV","b","c"]}"#)
    try await doc.update(message: "insertAfter #2") { root, _ in
      let list = try #require(root.array("list"))
      try list.insert("newV", after: try elementID(list, 0))
    }
    #expect(await doc.toSortedJSON() == #"{"list":["a","newV","newV","b","c"]}"#)
    try await doc.update(message: "set #1") { root, _ in
      try root.array("list")?.set("setV", at: 0)
    }
    #expect(await doc.toSortedJSON() == #"{"list":["setV","newV","newV","b","c"]}"#)
    try await doc.update(message: "set #2") { root, _ in
      let list = try #require(root.array("list"))
      let index = try #require((0..<list.count).first { list[$0] == .string("setV") })
      try list.set("setV2", at: index)
    }
    #expect(await doc.toSortedJSON() == #"{"list":["setV2","newV","newV","b","c"]}"#)
    try await doc.update(message: "set #3") { root, _ in
      let list = try #require(root.array("list"))
      let index = try #require((0..<list.count).first { list[$0] == .string("setV2") })
      try list.set(["s", "e", "t", "V", "3"], at: index)
    }
    #expect(await doc.toSortedJSON() == #"{"list":[["s","e","t","V","3"],"newV","newV","b","c"]}"#)
  }

  // MARK: - Moves by ID

  @Test("moveBefore moves an element in front of another")
  func moveBefore() async throws {
    // Mirrors JS unit document_test "move elements before a specific node of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      let zero = try elementID(data, 0)
      let two = try elementID(data, 2)
      try data.moveBefore(zero, next: two)
    }
    #expect(await doc.toSortedJSON() == #"{"data":[1,0,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 3)
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      let one = try elementID(data, 1)
      let three = try elementID(data, 3)
      try data.moveBefore(three, next: one)
    }
    #expect(await doc.toSortedJSON() == #"{"data":[1,3,0,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
  }

  @Test("moveBefore an element appended in the same update")
  func simpleMoveBefore() async throws {
    // Mirrors JS unit document_test "simple move elements before a specific node of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveBefore(try elementID(data, 3), next: try elementID(data, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,3,1,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
  }

  @Test("moveAfter moves an element behind another")
  func moveAfter() async throws {
    // Mirrors JS unit document_test "move elements after a specific node of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.moveAfter(try elementID(data, 0), previous: try elementID(data, 2))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[1,2,0]}"#)
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveAfter(try elementID(data, 3), previous: try elementID(data, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[1,2,3,0]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
  }

  @Test("moveAfter an element appended in the same update")
  func simpleMoveAfter() async throws {
    // Mirrors JS unit document_test "simple move elements after a specific node of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveAfter(try elementID(data, 3), previous: try elementID(data, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,1,3,2]}"#)
  }

  @Test("moveToFront moves an element to index 0")
  func moveToFront() async throws {
    // Mirrors JS unit document_test "move elements at the first of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.moveToFront(try elementID(data, 2))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[2,0,1]}"#)
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveToFront(try elementID(data, 3))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[3,2,0,1]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
  }

  @Test("moveToFront of a middle element")
  func simpleMoveToFront() async throws {
    // Mirrors JS unit document_test "simple move elements at the first of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveToFront(try elementID(data, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[1,0,2,3]}"#)
  }

  @Test("moveToEnd moves an element to the last index")
  func moveToEnd() async throws {
    // Mirrors JS unit document_test "move elements at the last of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.moveToEnd(try elementID(data, 2))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,1,2]}"#)
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveToEnd(try elementID(data, 2))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,1,3,2]}"#)
    #expect(try await arrayCount(doc, "$.data") == 4)
  }

  @Test("moveToEnd of a middle element")
  func simpleMoveToEnd() async throws {
    // Mirrors JS unit document_test "simple move elements at the last of array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["data"] = [0, 1, 2] }
    try await doc.update { root, _ in
      let data = try #require(root.array("data"))
      try data.append(3)
      try data.moveToEnd(try elementID(data, 1))
    }
    #expect(await doc.toSortedJSON() == #"{"data":[0,2,3,1]}"#)
  }

  @Test("repeated moveBefore, moveAfter, moveToFront and moveToEnd over updates")
  func repeatedMoves() async throws {
    // Mirrors JS integration array_test "can move an element before the given element in array",
    // "can move an element after the given element in array", "can insert an element at the first
    // of array" and "can move an element at the last of array" (and their Go document-based twins)
    let before = Document(key: "test-doc")
    try await before.update { root, _ in root["list"] = [0, 1, 2] }
    var expected = [#"{"list":[2,0,1]}"#, #"{"list":[1,2,0]}"#]
    for json in expected {
      try await before.update { root, _ in
        let list = try #require(root.array("list"))
        try list.moveBefore(try elementID(list, 2), next: try elementID(list, 0))
      }
      #expect(await before.toJSON() == json)
    }

    let after = Document(key: "test-doc")
    try await after.update { root, _ in root["list"] = [0, 1, 2] }
    expected = [#"{"list":[0,2,1]}"#, #"{"list":[0,1,2]}"#]
    for json in expected {
      try await after.update { root, _ in
        let list = try #require(root.array("list"))
        try list.moveAfter(try elementID(list, 2), previous: try elementID(list, 0))
      }
      #expect(await after.toJSON() == json)
    }

    let front = Document(key: "test-doc")
    try await front.update { root, _ in root["list"] = [0, 1, 2] }
    for (index, json) in [(2, #"{"list":[2,0,1]}"#), (1, #"{"list":[0,2,1]}"#), (0, #"{"list":[0,2,1]}"#)] {
      try await front.update { root, _ in
        let list = try #require(root.array("list"))
        try list.moveToFront(try elementID(list, index))
      }
      #expect(await front.toJSON() == json)
    }

    let end = Document(key: "test-doc")
    try await end.update { root, _ in root["list"] = [0, 1, 2] }
    for (index, json) in [(2, #"{"list":[0,1,2]}"#), (1, #"{"list":[0,2,1]}"#), (0, #"{"list":[2,1,0]}"#)] {
      try await end.update { root, _ in
        let list = try #require(root.array("list"))
        try list.moveToEnd(try elementID(list, index))
      }
      #expect(await end.toJSON() == json)
    }
  }

  // MARK: - Moves by index

  @Test("move(from:to:) leaves the element at index `to`")
  func moveByIndex() async throws {
    // api.md: `move(from:to:)`, "afterwards the element is at index `to`" (Yorkie's JS/Go
    // moveAfterByIndex-style helper expressed with a destination index)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in root["list"] = [0, 1, 2, 3, 4] }
    try await doc.update { root, _ in try root.array("list")?.move(from: 1, to: 3) }
    #expect(await doc.toJSON() == #"{"list":[0,2,3,1,4]}"#)
    try await doc.update { root, _ in try root.array("list")?.move(from: 4, to: 0) }
    #expect(await doc.toJSON() == #"{"list":[4,0,2,3,1]}"#)
    try await doc.update { root, _ in try root.array("list")?.move(from: 0, to: 4) }
    #expect(await doc.toJSON() == #"{"list":[0,2,3,1,4]}"#)
    try await doc.update { root, _ in try root.array("list")?.move(from: 2, to: 2) }
    #expect(await doc.toJSON() == #"{"list":[0,2,3,1,4]}"#)
    #expect(try await arrayCount(doc, "$.list") == 5)
  }

  @Test("index moves chained inside one update")
  func chainedIndexMoves() async throws {
    // Mirrors Go pkg/document/crdt TestArray "can move an element after the given element in
    // array (document-based)": MoveAfterByIndex(0, 2) twice, i.e. move(from: 2, to: 1) twice
    let doc = Document(key: "test-doc")
    try await doc.update(message: "initialize") { root, _ in root["list"] = [0, 1, 2] }
    try await doc.update(message: "move 2 after 0") { root, _ in
      let list = try #require(root.array("list"))
      try list.move(from: 2, to: 1)
    }
    #expect(await doc.toJSON() == #"{"list":[0,2,1]}"#)
    try await doc.update(message: "move 1 after 0") { root, _ in
      let list = try #require(root.array("list"))
      try list.move(from: 2, to: 1)
    }
    #expect(await doc.toJSON() == #"{"list":[0,1,2]}"#)
  }

  // MARK: - Two replicas

  @Test("a nested array created on one replica reaches the other")
  func causalNestedArray() async throws {
    // Mirrors Go test/integration TestArray "causal nested array test"
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "nested update by c1") { root, _ in
      let k1 = root.setNewArray("k1")
      try k1.append("v1")
      let inner = k1.appendNewArray()
      try inner.append("1")
      try inner.append("2")
      try inner.append("3")
    }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":["v1",["1","2","3"]]}"#)
    #expect(await d2.toJSON() == #"{"k1":["v1",["1","2","3"]]}"#)
  }

  @Test("an insert after a concurrently removed element still lands after it")
  func concurrentInsertAfterRemoved() async throws {
    // Mirrors JS integration array_test "Can handle concurrent insertAfter operations"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [1, 2, 3, 4] }
    try await crossSync(d1, d2)
    #expect(await d2.toSortedJSON() == #"{"k1":[1,2,3,4]}"#)

    try await d1.update { root, _ in try root.array("k1")?.remove(at: 1) }
    #expect(await d1.toJSON() == #"{"k1":[1,3,4]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert(2, after: try elementID(k1, 1))
    }
    #expect(await d2.toJSON() == #"{"k1":[1,2,2,3,4]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[1,2,3,4]}"#)
    #expect(await d2.toJSON() == #"{"k1":[1,2,3,4]}"#)

    // Concurrent inserts after one element: the greater ticket (actor 2, same lamport) goes first.
    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert("2.1", after: try elementID(k1, 1))
    }
    #expect(await d1.toJSON() == #"{"k1":[1,2,"2.1",3,4]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert("2.2", after: try elementID(k1, 1))
    }
    #expect(await d2.toJSON() == #"{"k1":[1,2,"2.2",3,4]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toSortedJSON() == #"{"k1":[1,2,"2.2","2.1",3,4]}"#)
    #expect(await d2.toSortedJSON() == #"{"k1":[1,2,"2.2","2.1",3,4]}"#)
  }

  @Test("an insert in front of a concurrently removed element survives")
  func concurrentInsertBeforeRemoved() async throws {
    // Mirrors JS integration array_test "Can handle concurrent insertBefore and delete operations"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [1] }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.remove(at: 0)
      #expect(k1.count == 0)
    }
    #expect(await d1.toJSON() == #"{"k1":[]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert(2, at: 0)  // JS insertBefore(id of 1, 2)
      #expect(k1.count == 2)
    }
    #expect(await d2.toJSON() == #"{"k1":[2,1]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[2]}"#)
    #expect(await d2.toJSON() == #"{"k1":[2]}"#)
    #expect(try await arrayCount(d1, "$.k1") == 1)
  }

  @Test("interleaved concurrent inserts and removes converge to Yorkie's result")
  func complexConcurrentInsertBeforeAndRemove() async throws {
    // Mirrors JS integration array_test "Can handle complex concurrent insertBefore and delete operations"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [1, 2, 3, 4] }
    try await crossSync(d1, d2)

    try await d1.update { root, _ in try root.array("k1")?.remove(at: 1) }
    #expect(await d1.toJSON() == #"{"k1":[1,3,4]}"#)
    try await d2.update { root, _ in try root.array("k1")?.insert(5, at: 1) }  // before "2"
    #expect(await d2.toJSON() == #"{"k1":[1,5,2,3,4]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[1,5,3,4]}"#)
    #expect(await d2.toJSON() == #"{"k1":[1,5,3,4]}"#)

    try await d1.update { root, _ in try root.array("k1")?.insert(6, at: 3) }  // before "4"
    #expect(await d1.toJSON() == #"{"k1":[1,5,3,6,4]}"#)
    try await d2.update { root, _ in try root.array("k1")?.insert(7, at: 0) }  // before "1"
    #expect(await d2.toJSON() == #"{"k1":[7,1,5,3,4]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[7,1,5,3,6,4]}"#)
    #expect(await d2.toJSON() == #"{"k1":[7,1,5,3,6,4]}"#)
    #expect(try await arrayCount(d1, "$.k1") == 6)
  }

  @Test("concurrent appends: the greater ticket ends up first")
  func concurrentAppends() async throws {
    // Mirrors JS integration array_test "Can handle concurrent add operations"; Yorkie checks
    // convergence. The exact order follows RGA: d2 synced d1's first change, so its append has
    // the greater lamport and lands closer to the shared anchor.
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = ["1"] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in try root.array("k1")?.append("2") }
    try await d2.update { root, _ in try root.array("k1")?.append("3") }
    try await crossSync(d1, d2)
    #expect(await d1.toSortedJSON() == #"{"k1":["1","3","2"]}"#)
    #expect(await d2.toSortedJSON() == #"{"k1":["1","3","2"]}"#)
  }

  @Test("both replicas removing the same element remove it once")
  func concurrentRemoveSameElement() async throws {
    // Mirrors JS integration array_test "Can handle concurrent delete operations" and Go
    // TestArray "concurrent array delete test"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [1, 2, 3, 4] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in try root.array("k1")?.remove(at: 2) }
    try await d2.update { root, _ in try root.array("k1")?.remove(at: 2) }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      #expect(root.array("k1")?.count == 3)
    }
    #expect(await d1.toJSON() == #"{"k1":[1,2,4]}"#)
    #expect(await d2.toJSON() == #"{"k1":[1,2,4]}"#)
  }

  @Test("an append after a concurrently removed last element")
  func concurrentAddAndRemoveSimple() async throws {
    // Mirrors Go test/integration TestArray "concurrent array add/delete simple test"
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "add v1, v2 by c1") { root, _ in root["k1"] = ["v1", "v2"] }
    try await crossSync(d1, d2)
    try await d1.update(message: "delete v2 by c1") { root, _ in try root.array("k1")?.remove(at: 1) }
    try await d2.update(message: "add v3 by c2") { root, _ in try root.array("k1")?.append("v3") }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":["v1","v3"]}"#)
    #expect(await d2.toJSON() == #"{"k1":["v1","v3"]}"#)
  }

  @Test("concurrent appends and removes on both sides")
  func concurrentAddAndRemove() async throws {
    // Mirrors Go test/integration TestArray "concurrent array add/delete test"
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "new array and add v1") { root, _ in root["k1"] = ["v1"] }
    try await crossSync(d1, d2)
    try await d1.update(message: "add v2, v3 and delete v2 by c1") { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.append("v2")
      try k1.append("v3")
      try k1.remove(at: 1)
    }
    #expect(await d1.toJSON() == #"{"k1":["v1","v3"]}"#)
    try await d2.update(message: "add v4, v5 by c2") { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.append("v4")
      try k1.append("v5")
    }
    #expect(await d2.toJSON() == #"{"k1":["v1","v4","v5"]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":["v1","v4","v5","v3"]}"#)
    #expect(await d2.toJSON() == #"{"k1":["v1","v4","v5","v3"]}"#)
  }

  @Test("concurrent sets at different indexes both apply")
  func concurrentSetByIndex() async throws {
    // Mirrors Go test/integration TestArraySetByIndex "array set simple test" and JS
    // "Can handle simple array set operations"
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "add -1, -2, -3 by c1") { root, _ in root["k1"] = [-1, -2, -3] }
    #expect(await d1.toJSON() == #"{"k1":[-1,-2,-3]}"#)
    try await crossSync(d1, d2)
    try await d2.update(message: "set k1[1] to -4 by c2") { root, _ in try root.array("k1")?.set(-4, at: 1) }
    #expect(await d2.toJSON() == #"{"k1":[-1,-4,-3]}"#)
    try await d1.update(message: "set k1[0] to -5 by c1") { root, _ in try root.array("k1")?.set(-5, at: 0) }
    #expect(await d1.toJSON() == #"{"k1":[-5,-2,-3]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[-5,-4,-3]}"#)
    #expect(await d2.toJSON() == #"{"k1":[-5,-4,-3]}"#)
  }

  @Test("an array set on one replica then appended to on the other")
  func arraySetThenAppendSync() async throws {
    // Mirrors Go test/integration TestArray "array.set with value sync test"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    #expect(await d1.toJSON() == #"{"k1":[0,1,2]}"#)
    try await crossSync(d1, d2)
    try await d2.update { root, _ in try root.array("k1")?.append(3) }
    #expect(await d2.toJSON() == #"{"k1":[0,1,2,3]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[0,1,2,3]}"#)
  }

  @Test("both replicas moving the same element to the front")
  func concurrentMoveToFrontSameElement() async throws {
    // Mirrors JS integration array_test "Can handle concurrent moveFront operations with the item
    // which has the same index"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    for doc in [d1, d2] {
      try await doc.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.moveToFront(try elementID(k1, 2))
      }
      #expect(await doc.toJSON() == #"{"k1":[2,0,1]}"#)
    }
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[2,0,1]}"#)
    #expect(await d2.toJSON() == #"{"k1":[2,0,1]}"#)
  }

  @Test("concurrent moveBefore from different positions converges")
  func concurrentMoveBeforeDifferentPositions() async throws {
    // Mirrors JS integration array_test "Can handle concurrent moveBefore operations from the
    // different position" (Yorkie checks convergence; the local states are exact)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 1), next: try elementID(k1, 0))
    }
    #expect(await d1.toJSON() == #"{"k1":[1,0,2]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 1))
    }
    #expect(await d2.toJSON() == #"{"k1":[0,2,1]}"#)
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(d1, "$.k1") == 3)
  }

  @Test("concurrent moveBefore, twice on each side, towards the same position converges")
  func concurrentMoveBeforeSamePosition() async throws {
    // Mirrors JS integration array_test "Can handle concurrent moveBefore operations with the same position"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    for json in [#"{"k1":[2,0,1]}"#, #"{"k1":[1,2,0]}"#] {
      try await d1.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 0))
      }
      #expect(await d1.toJSON() == json)
    }
    for json in [#"{"k1":[1,0,2]}"#, #"{"k1":[0,1,2]}"#] {
      try await d2.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.moveBefore(try elementID(k1, 1), next: try elementID(k1, 0))
      }
      #expect(await d2.toJSON() == json)
    }
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(d2, "$.k1") == 3)
  }

  @Test("concurrent moveToFront of different elements converges")
  func concurrentMoveToFrontDifferentElements() async throws {
    // Mirrors JS integration array_test "Can handle concurrent moveFront operations with the item
    // which has the different index"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    for json in [#"{"k1":[2,0,1]}"#, #"{"k1":[1,2,0]}"#] {
      try await d1.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.moveToFront(try elementID(k1, 2))
      }
      #expect(await d1.toJSON() == json)
    }
    for json in [#"{"k1":[1,0,2]}"#, #"{"k1":[0,1,2]}"#] {
      try await d2.update { root, _ in
        let k1 = try #require(root.array("k1"))
        try k1.moveToFront(try elementID(k1, 1))
      }
      #expect(await d2.toJSON() == json)
    }
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(d1, "$.k1") == 3)
  }

  @Test("concurrent moveToEnd and moveAfter converge")
  func concurrentMoveToEndAndMoveAfter() async throws {
    // Mirrors JS integration array_test "Can handle concurrent moveAfter operations" (moveLast on
    // both sides) and "Can handle concurrent moveAfter"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveToEnd(try elementID(k1, 1))
    }
    #expect(await d1.toJSON() == #"{"k1":[0,2,1]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveToEnd(try elementID(k1, 0))
    }
    #expect(await d2.toJSON() == #"{"k1":[1,2,0]}"#)
    try await crossSync(d1, d2)
    var json1 = await d1.toSortedJSON()
    var json2 = await d2.toSortedJSON()
    #expect(json1 == json2)

    let (e1, e2) = await makeReplicas()
    try await e1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(e1, e2)
    try await e1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveAfter(try elementID(k1, 1), previous: try elementID(k1, 0))
    }
    #expect(await e1.toJSON() == #"{"k1":[0,1,2]}"#)
    try await e2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveAfter(try elementID(k1, 2), previous: try elementID(k1, 0))
    }
    #expect(await e2.toJSON() == #"{"k1":[0,2,1]}"#)
    try await crossSync(e1, e2)
    json1 = await e1.toSortedJSON()
    json2 = await e2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(e1, "$.k1") == 3)
  }

  @Test("concurrent inserts after one element, then concurrent moves of them, converge")
  func concurrentInsertThenMove() async throws {
    // Mirrors JS integration array_test "Can handle concurrent insertAfter and moveBefore operations"
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["k1"] = [0] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert(1, after: try elementID(k1, 0))
    }
    #expect(await d1.toJSON() == #"{"k1":[0,1]}"#)
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.insert(2, after: try elementID(k1, 0))
    }
    #expect(await d2.toJSON() == #"{"k1":[0,2]}"#)
    try await crossSync(d1, d2)
    #expect(await d1.toJSON() == #"{"k1":[0,2,1]}"#)
    #expect(await d2.toJSON() == #"{"k1":[0,2,1]}"#)

    try await d1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 1), next: try elementID(k1, 0))
    }
    try await d2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 0))
    }
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(d1, "$.k1") == 3)
  }

  @Test("Go's concurrent move tests converge")
  func goConcurrentMoves() async throws {
    // Mirrors Go test/integration TestArray "concurrent array move test" and
    // "concurrent array move with the same position test"
    let (d1, d2) = await makeReplicas()
    try await d1.update(message: "[0,1,2]") { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(d1, d2)
    try await d1.update(message: "move 2 before 0") { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 0))
    }
    #expect(await d1.toJSON() == #"{"k1":[2,0,1]}"#)
    try await d2.update(message: "move 2 before 1") { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 1))
    }
    #expect(await d2.toJSON() == #"{"k1":[0,2,1]}"#)
    try await crossSync(d1, d2)
    var json1 = await d1.toSortedJSON()
    var json2 = await d2.toSortedJSON()
    #expect(json1 == json2)

    let (e1, e2) = await makeReplicas()
    try await e1.update { root, _ in root["k1"] = [0, 1, 2] }
    try await crossSync(e1, e2)
    try await e1.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 2), next: try elementID(k1, 0))
    }
    #expect(await e1.toJSON() == #"{"k1":[2,0,1]}"#)
    try await e2.update { root, _ in
      let k1 = try #require(root.array("k1"))
      try k1.moveBefore(try elementID(k1, 1), next: try elementID(k1, 0))
    }
    #expect(await e2.toJSON() == #"{"k1":[1,0,2]}"#)
    try await crossSync(e1, e2)
    json1 = await e1.toSortedJSON()
    json2 = await e2.toSortedJSON()
    #expect(json1 == json2)
    #expect(try await arrayCount(e2, "$.k1") == 3)
  }

  @Test(
    "every pair of concurrent insert, move, set and remove on one index converges",
    arguments: ConcurrentArrayOp.allCases, ConcurrentArrayOp.allCases)
  func concurrencyTable(op1: ConcurrentArrayOp, op2: ConcurrentArrayOp) async throws {
    // Mirrors Go test/integration TestArrayConcurrency and JS integration array_test
    // "Array Concurrency Table Tests" (op1 on replica 1, op2 on replica 2, then sync)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["a"] = [1, 2, 3, 4] }
    #expect(await d1.toJSON() == #"{"a":[1,2,3,4]}"#)
    try await crossSync(d1, d2)
    #expect(await d2.toJSON() == #"{"a":[1,2,3,4]}"#)

    try await d1.update { root, _ in try op1.apply(to: try #require(root.array("a")), client: 0) }
    try await d2.update { root, _ in try op2.apply(to: try #require(root.array("a")), client: 1) }
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
  }

  @Test(
    "one operation against two chained moves converges",
    arguments: ComplicatedArrayOp.allCases)
  func complicatedConcurrency(op: ComplicatedArrayOp) async throws {
    // Mirrors JS integration array_test "Can handle complicated concurrent array operations"
    // (insert, set, remove; JS skips the 'move' case as not yet convergent, and so does Go)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in root["a"] = [1, 2, 3, 4] }
    try await crossSync(d1, d2)
    try await d1.update { root, _ in try op.apply(to: try #require(root.array("a"))) }
    try await d2.update { root, _ in
      let a = try #require(root.array("a"))
      try a.moveAfter(try elementID(a, 2), previous: try elementID(a, 1))
      try a.moveAfter(try elementID(a, 3), previous: try elementID(a, 2))
    }
    try await crossSync(d1, d2)
    let json1 = await d1.toSortedJSON()
    let json2 = await d2.toSortedJSON()
    #expect(json1 == json2)
  }
}

/// The operations of Yorkie's array concurrency table. `oneIdx` (1) is the index both replicas
/// reference; `otherIdxs` ([2, 3]) and `newValues` ([5, 6]) differ per replica.
enum ConcurrentArrayOp: String, CaseIterable, Sendable, CustomStringConvertible {
  case insertPrev = "insert.prev"
  case insertPrevNext = "insert.prev.next"
  case movePrev = "move.prev"
  case movePrevNext = "move.prev.next"
  case moveTarget = "move.target"
  case setTarget = "set.target"
  case removeTarget = "remove.target"

  var description: String { rawValue }

  func apply(to array: JSONArray, client: Int) throws {
    let oneIdx = 1
    let otherIdxs = [2, 3]
    let newValues: [JSONValue] = [5, 6]
    switch self {
    case .insertPrev:
      // Go InsertIntegerAfter(oneIdx, v)
      try array.insert(newValues[client], at: oneIdx + 1)
    case .insertPrevNext:
      // Go InsertIntegerAfter(oneIdx-1, v)
      try array.insert(newValues[client], at: oneIdx)
    case .movePrev:
      // Go MoveAfterByIndex(oneIdx, otherIdxs[cid])
      try array.moveAfter(try elementID(array, otherIdxs[client]), previous: try elementID(array, oneIdx))
    case .movePrevNext:
      // Go MoveAfterByIndex(oneIdx-1, otherIdxs[cid])
      try array.moveAfter(try elementID(array, otherIdxs[client]), previous: try elementID(array, oneIdx - 1))
    case .moveTarget:
      // Go MoveAfterByIndex(otherIdxs[cid], oneIdx)
      try array.moveAfter(try elementID(array, oneIdx), previous: try elementID(array, otherIdxs[client]))
    case .setTarget:
      try array.set(newValues[client], at: oneIdx)
    case .removeTarget:
      try array.remove(at: oneIdx)
    }
  }
}

/// Replica 1's operation in JS "Can handle complicated concurrent array operations".
enum ComplicatedArrayOp: String, CaseIterable, Sendable, CustomStringConvertible {
  case insert
  case set
  case remove

  var description: String { rawValue }

  func apply(to array: JSONArray) throws {
    let oneIdx = 1
    let newValue: JSONValue = 5
    switch self {
    case .insert:
      try array.insert(newValue, after: try elementID(array, oneIdx))
    case .set:
      // JS implements this case as a remove followed by an insert after the previous element.
      try array.remove(at: oneIdx)
      try array.insert(newValue, after: try elementID(array, oneIdx - 1))
    case .remove:
      try array.remove(at: oneIdx)
    }
  }
}
