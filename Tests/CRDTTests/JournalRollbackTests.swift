import Testing
import CRDT

// Rollback through the journal's compact records: one record per counter run, one record per
// object Set (whichever element it tombstoned), inline GC-pair records.

@Suite("Journal rollback")
struct JournalRollbackTests {
  @Test("interleaved increases of two counters roll back to the values before the update, also across a wrap")
  func counterRuns() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      root.setNewCounter("a", .int(10))
      root.setNewCounter("b", .long(100))
    }
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        let a = try #require(root.counter("a"))
        let b = try #require(root.counter("b"))
        a.increase(by: 1)
        a.increase(by: 2)
        b.increase(by: 5)
        a.increase(by: 3)
        b.increase(by: -7)
        b.increase(by: 1)
        #expect(root.counter("a")?.value == .int(16))
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"a":10,"b":100}"#)

    try await doc.update { root, _ in root.counter("a")?.increase(by: Int64(Int32.max)) }
    #expect(await doc.toJSON() == #"{"a":-2147483639,"b":100}"#)
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        let a = try #require(root.counter("a"))
        a.increase(by: -20)
        a.increase(by: 1)
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"a":-2147483639,"b":100}"#)

    // The next update journals afresh: a run that starts after a commit is undone too.
    try await doc.update { root, _ in root.counter("b")?.increase(by: 1) }
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        root.counter("b")?.increase(by: 1000)
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"a":-2147483639,"b":101}"#)
  }

  @Test("a remote change whose last operation fails leaves every counter it increased as it was")
  func counterRunInFailingChange() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in _ = root.setNewCounter("c", .int(1)) }
    let counterID = try #require(await doc.pendingChanges.first?.operations.first?.executedAt)
    let writer = actor(9)
    func t(_ delimiter: UInt32) -> TimeTicket { TimeTicket(lamport: 5, delimiter: delimiter, actorID: writer) }
    let change = Change(id: ChangeID(clientSeq: 1, lamport: 5, actorID: writer, versionVector: VersionVector()), operations: [
      .increase(parentCreatedAt: counterID, value: .integer(1), executedAt: t(1)),
      .increase(parentCreatedAt: counterID, value: .integer(2), executedAt: t(2)),
      .increase(parentCreatedAt: TimeTicket(lamport: 99, delimiter: 1, actorID: writer), value: .integer(3), executedAt: t(3)),
    ])
    await #expect(throws: YorkieError.self) {
      try await doc.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: [change]))
    }
    #expect(await doc.toJSON() == #"{"c":1}"#)
  }

  @Test("Sets that lose to a newer Set are tombstoned at once, and a failing change takes them back")
  func losingSetsRollBack() async throws {
    let doc = Document(key: "d")
    let newer = actor(9)
    let older = actor(8)
    func pack(_ changes: [Change]) -> ChangePack { ChangePack(key: "", checkpoint: .initial, changes: changes) }
    func t(_ lamport: Int64, _ delimiter: UInt32, _ actor: ActorID) -> TimeTicket {
      TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor)
    }
    try await doc.applyChangePack(pack([
      Change(id: ChangeID(clientSeq: 1, lamport: 5, actorID: newer, versionVector: VersionVector()), operations: [
        .set(parentCreatedAt: .initial, key: "k", value: .primitive(.string("new"), ElementSnapshot.Meta(createdAt: t(5, 1, newer))),
             executedAt: t(5, 1, newer)),
      ]),
    ]))
    #expect(await doc.toJSON() == #"{"k":"new"}"#)
    #expect(await doc.garbageLength == 0)

    let losing: [CRDT.Operation] = [
      .set(parentCreatedAt: .initial, key: "k", value: .primitive(.string("old"), ElementSnapshot.Meta(createdAt: t(3, 1, older))),
           executedAt: t(3, 1, older)),
      .set(parentCreatedAt: .initial, key: "k", value: .object([], ElementSnapshot.Meta(createdAt: t(3, 2, older))),
           executedAt: t(3, 2, older)),
      .set(parentCreatedAt: .initial, key: "fresh", value: .counter(.int(0), ElementSnapshot.Meta(createdAt: t(3, 3, older))),
           executedAt: t(3, 3, older)),
    ]
    let failing = CRDT.Operation.increase(parentCreatedAt: t(77, 1, older), value: .integer(1), executedAt: t(3, 4, older))
    await #expect(throws: YorkieError.self) {
      try await doc.applyChangePack(pack([
        Change(id: ChangeID(clientSeq: 1, lamport: 3, actorID: older, versionVector: VersionVector()), operations: losing + [failing]),
      ]))
    }
    #expect(await doc.toJSON() == #"{"k":"new"}"#)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.checkInvariants() == nil)

    // Without the failing operation the same Sets apply: both losers become garbage at once.
    try await doc.applyChangePack(pack([
      Change(id: ChangeID(clientSeq: 1, lamport: 3, actorID: older, versionVector: VersionVector()), operations: losing),
    ]))
    #expect(await doc.toSortedJSON() == #"{"fresh":0,"k":"new"}"#)
    #expect(await doc.garbageLength == 2)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("a local Set that evicts a winner rolls back to that winner, live again and not garbage")
  func evictingSetRollsBack() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      root["k"] = "first"
      let nested = root.setNewObject("o")
      nested["x"] = 1
    }
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        root["k"] = "second"
        root["k"] = ["a": 1]
        root.setNewObject("o")
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == #"{"k":"first","o":{"x":1}}"#)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.checkInvariants() == nil)
    try await doc.update { root, _ in root["k"] = "third" }
    // Re-setting a key prints it last, as in the JS SDK.
    #expect(await doc.toJSON() == #"{"o":{"x":1},"k":"third"}"#)
    #expect(await doc.garbageLength == 1)
  }

  @Test("a text the rolled-back transaction brought, with removed characters, leaves no garbage behind",
        arguments: [false, true])
  func rolledBackTextLeavesNoGarbage(remote: Bool) async throws {
    // Fuzz seed 1378450 (three replicas): a batch whose undo Set a copy of a text holding
    // removed characters, and whose later change was not ready, counted those characters as
    // garbage after the rollback.
    let doc = Document(key: "d")
    try await doc.setActor(actor(1))
    try await doc.update { root, _ in try root.setNewText("t").edit(0, 0, "abc") }
    if remote {
      let peer = Document(key: "d")
      try await peer.setActor(actor(2))
      try await peer.applyChanges(await doc.pendingChanges)
      try await peer.update { root, _ in
        try root.text("t")?.delete(1, 2)
        root.remove("t")
      }
      try await peer.undo()  // puts back a copy of "ac" with "b" removed
      let changes = await peer.pendingChanges
      #expect(changes.count == 2)
      let unready = Change(id: ChangeID(clientSeq: 9, lamport: 50, actorID: actor(3), versionVector: VersionVector()), operations: [])
      await #expect(throws: YorkieError.self) { try await doc.applyChanges(changes + [unready]) }
    } else {
      await #expect(throws: DummyError.self) {
        try await doc.update { root, _ in
          try root.setNewText("u").edit(0, 0, "xyz")
          try root.text("u")?.delete(0, 2)
          throw DummyError()
        }
      }
    }
    #expect(await doc.toJSON() == #"{"t":[{"val":"abc"}]}"#)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("an update with more records than one journal chunk rolls back completely, and the next one commits")
  func rollbackAcrossChunks() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in
      root.setNewArray("list")
      try root.setNewText("text").edit(0, 0, "base")
      root["k"] = 0
    }
    let before = await doc.toJSON()
    await #expect(throws: DummyError.self) {
      try await doc.update { root, _ in
        let list = try #require(root.array("list"))
        let text = try #require(root.text("text"))
        for i in 0..<5_000 {
          try list.append(.integer(Int32(i)))
          root["k"] = .integer(Int32(i))
          try text.edit(2 + i, 2 + i, "x")
          if i % 3 == 0 { try text.delete(1, 2) ; try text.edit(1, 1, "a") }
        }
        try list.move(from: 0, to: 4_000)
        try list.remove(at: 17)
        throw DummyError()
      }
    }
    #expect(await doc.toJSON() == before)
    #expect(await doc.garbageLength == 0)
    #expect(await doc.checkInvariants() == nil)
    try await doc.update { root, _ in
      let list = try #require(root.array("list"))
      for i in 0..<5_000 { try list.append(.integer(Int32(i))) }
      try root.text("text")?.edit(4, 4, "!")
    }
    #expect(try await arrayCount(doc, "$.list") == 5_000)
    let content = Captured<String>()
    try await doc.update { root, _ in content.value = root.text("text")?.string }
    #expect(content.value == "base!")
    #expect(await doc.checkInvariants() == nil)
  }
}
