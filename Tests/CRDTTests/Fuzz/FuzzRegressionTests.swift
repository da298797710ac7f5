@testable import CRDT
import Foundation
import Testing

/// Minimal reproductions of what the fuzzers found (see EditingFuzzTests.swift).
@Suite("Fuzz: regressions")
struct FuzzRegressionTests {
  /// A document keeps dates as whole milliseconds. 315,997,800,514 ms is 1980-01-06T09:10:00.514Z;
  /// `Date(timeIntervalSince1970: 315_997_800.514)` holds a hair less than that millisecond, so
  /// rounding it down gave …513: `toJSON()` printed a millisecond earlier than the stored one,
  /// and a date read from the document and written back lost a millisecond.
  @Test("a stored date prints its own millisecond and survives being read and written back")
  func dateMilliseconds() async throws {
    let doc = Document(key: "d")
    // Half a millisecond past it, so that the document stores exactly 315,997,800,514 ms.
    try await doc.update { root, _ in root["a"] = .date(Date(timeIntervalSince1970: 315_997_800.514_5)) }
    #expect(await doc.toJSON() == #"{"a":"1980-01-06T09:10:00.514Z"}"#)
    let read = try #require(try await doc.value(atPath: "$.a"))
    try await doc.update { root, _ in root["b"] = read }
    #expect(try await doc.value(atPath: "$.b") == read)
    #expect(await doc.toJSON() == #"{"a":"1980-01-06T09:10:00.514Z","b":"1980-01-06T09:10:00.514Z"}"#)
    // Before 1970 too: -502,069,436,532 ms is 1954-02-03T00:16:03.468Z.
    let old = Date(timeIntervalSince1970: -502_069_436.531_5)
    try await doc.update { root, _ in root["c"] = .date(old) }
    let readOld = try #require(try await doc.value(atPath: "$.c"))
    try await doc.update { root, _ in root["d"] = readOld }
    #expect(try await doc.value(atPath: "$.d") == readOld)
    #expect(await doc.toJSON().contains(#""c":"1954-02-03T00:16:03.468Z","d":"1954-02-03T00:16:03.468Z""#))
  }

  /// A date whose milliseconds do not fit in an `Int64` (or NaN) trapped in the conversion;
  /// one past JavaScript's range could not be printed by any replica. Both fail the update
  /// with `invalidNumber`, as NaN does, and change nothing.
  @Test("a date no JavaScript date can hold fails the update with invalidNumber instead of crashing")
  func datesOutOfRange() async throws {
    let doc = Document(key: "d")
    try await doc.update { root, _ in root["kept"] = .date(Date(timeIntervalSince1970: 8.64e12)) }
    let json = await doc.toJSON()
    #expect(json == #"{"kept":"+275760-09-13T00:00:00.000Z"}"#)
    let invalid: [Date] = [Date(timeIntervalSince1970: 1e20), Date(timeIntervalSince1970: -8.64e12 - 1),
                           Date(timeIntervalSinceReferenceDate: .nan), .init(timeIntervalSince1970: .infinity)]
    for date in invalid {
      // Printing such a date trapped too; JSON.stringify prints it as null.
      #expect(JSONValue.array([.date(date)]).jsonString == "[null]")
      let edits: [@Sendable (JSONObject) throws -> Void] = [
        { $0["far"] = .date(date) },
        { $0["far"] = ["nested": .date(date)] },
        { try $0.setNewArray("list").append(.array([.date(date)])) },
        { try $0.setNewText("t").edit(0, 0, "x", attributes: ["at": .date(date)]) },
      ]
      for edit in edits {
        do {
          try await doc.update { root, _ in try edit(root) }
          Issue.record("the date \(date.timeIntervalSince1970) was accepted")
        } catch let error as YorkieError {
          #expect(error.code == .invalidNumber)
        }
        #expect(await doc.toJSON() == json)
      }
    }
  }

  /// Fuzz seed 348980 (three replicas, CRDT_LONG_TESTS=20). An ArraySet whose target a
  /// concurrent removal had already removed moves the target's removedAt to its own, later
  /// ticket (Yorkie keeps the latest removal), but that was not journaled: when a later change
  /// of the same batch was not ready, the batch rolled back except for that removedAt, and the
  /// document (its snapshot, and what GC would purge when) was no longer as before.
  @Test("a refused batch leaves a removed element's removal time as it was, after a concurrent ArraySet")
  func arraySetOnRemovedElementRollsBack() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in try root.setNewArray("list").append("x") }
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    try await a.update { root, _ in try root.array("list")!.remove(at: 0) }
    try await b.update { root, _ in try root.array("list")!.set("y", at: 0) }
    try await b.update { root, _ in root["one"] = 1 }
    try await b.update { root, _ in root["two"] = 2 }
    let fromB = try await b.changes(since: VersionVector())
    let before = await a.snapshot()
    // b's ArraySet, then its fourth change without the third: not ready, nothing applies.
    do {
      try await a.applyChanges([fromB[0], fromB[2]])
      Issue.record("a change after a gap was applied")
    } catch let error as YorkieError {
      #expect(error.code == .changeNotReady)
    }
    let after = await a.snapshot()
    #expect(after == before, "\(snapshotDifference(before, after) ?? "")")
    // Applied for real, both replicas converge.
    try await a.applyChanges(fromB)
    try await b.applyChanges(try await a.changes(since: await b.versionVector))
    #expect(await a.toJSON() == b.toJSON())
    #expect(await a.snapshot() == b.snapshot())
  }
}

@Test("a date from the wire past what JavaScript holds prints as null instead of crashing")
func wireDatesPastJavaScriptRangePrintAsNull() async throws {
  for ms in [Int64.min, Int64.max, -8_640_000_000_000_001, 8_640_000_000_000_001] {
    let object = CRDTObject(createdAt: TimeTicket(lamport: 0, delimiter: 0, actorID: .initial))
    object.insertDecoded("d", CRDTPrimitive(.date(ms), createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: .initial)))
    #expect(object.toJSON() == #"{"d":null}"#)
  }
  let object = CRDTObject(createdAt: TimeTicket(lamport: 0, delimiter: 0, actorID: .initial))
  object.insertDecoded("d", CRDTPrimitive(.date(8_640_000_000_000_000), createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: .initial)))
  #expect(object.toJSON() == #"{"d":"+275760-09-13T00:00:00.000Z"}"#)
}
