import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Each sync mode with Yorkie's meaning, and the switches between them. Where a mode must NOT
/// move a change, the test first proves that the other side has synced since the change was
/// made (an acknowledged push, a completed pull), so the absence is a fact, not a timing guess.
@Suite("Client: the five sync modes and switching")
struct SyncModeTests {
  @Test("manual: nothing moves until sync(), which pushes and pulls")
  func manual() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "mode-manual")
      let docB = Document(key: "mode-manual")
      try await a.attach(docA, syncMode: .manual)
      try await b.attach(docB, syncMode: .manual)
      try await docA.update { root, _ in root["a"] = 1 }
      try await docB.update { root, _ in root["b"] = 2 }
      // B's sync pushes b and pulls; A has not pushed: the server has only b.
      try await b.sync(docB)
      #expect(try await serverJSON(server, "mode-manual") == #"{"b":2}"#)
      #expect(await docB.toSortedJSON() == #"{"b":2}"#)
      #expect(await docA.hasLocalChanges)
      try await a.sync(docA)
      #expect(await docA.toSortedJSON() == #"{"a":1,"b":2}"#)
      try await b.sync(docB)
      #expect(await docB.toSortedJSON() == #"{"a":1,"b":2}"#)
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("realtime push-only pushes at once but pulls only after switching back to realtime")
  func pushOnly() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "mode-push-only")
      let docB = Document(key: "mode-push-only")
      try await a.attach(docA, syncMode: .realtimePushOnly)
      try await b.attach(docB)
      try await docA.update { root, _ in root["fromA"] = true }
      #expect(await eventually { await docB.toSortedJSON() == #"{"fromA":true}"# })
      try await docB.update { root, _ in root["fromB"] = true }
      try await b.waitUntilAcknowledged(docB)
      // A pushes again after B's change reached the server: still no pull.
      try await docA.update { root, _ in root["again"] = 1 }
      try await a.waitUntilAcknowledged(docA)
      #expect(await docA.toSortedJSON() == #"{"again":1,"fromA":true}"#)
      #expect(await a.syncMode(of: docA) == .realtimePushOnly)
      try await a.changeSyncMode(docA, to: .realtime)
      let expected = #"{"again":1,"fromA":true,"fromB":true}"#
      #expect(await eventually { await docA.toSortedJSON() == expected })
      #expect(await eventually { await docB.toSortedJSON() == expected })
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("realtime sync-off keeps the stream (peers) but exchanges nothing until switched back")
  func syncOff() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "mode-sync-off")
      let docB = Document(key: "mode-sync-off")
      try await a.attach(docA, initialPresence: ["name": "ann"], syncMode: .realtimeSyncOff)
      try await b.attach(docB, initialPresence: ["name": "bob"])
      let bobID = try #require(await b.id)
      // The stream is there: A learns that B came online.
      #expect(await eventually { await docA.onlineClients.contains(bobID) })
      try await docA.update { root, _ in root["offline"] = true }
      try await docB.update { root, _ in root["online"] = true }
      try await b.waitUntilAcknowledged(docB)
      try await b.sync(docB)
      // B synced after A's edit, and the server does not have it: A pushed nothing.
      #expect(try await serverJSON(server, "mode-sync-off") == #"{"online":true}"#)
      #expect(await docA.toSortedJSON() == #"{"offline":true}"#)
      try await a.changeSyncMode(docA, to: .realtime)
      let expected = #"{"offline":true,"online":true}"#
      #expect(await eventually { await docA.toSortedJSON() == expected })
      #expect(await eventually { await docB.toSortedJSON() == expected })
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("polling exchanges changes on its interval without a stream")
  func polling() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let aEvents = EventRecorder(a.events())
      let docA = Document(key: "mode-polling")
      let docB = Document(key: "mode-polling")
      try await a.attach(docA, syncMode: .polling(interval: 0.05))
      try await b.attach(docB)
      try await docB.update { root, _ in root["fromB"] = 1 }
      #expect(await eventually { await docA.toSortedJSON() == #"{"fromB":1}"# })
      try await docA.update { root, _ in root["fromA"] = 2 }
      #expect(await eventually { await docB.toSortedJSON() == #"{"fromA":2,"fromB":1}"# })
      // No Watch stream in polling mode: A never reports a connection.
      #expect(!aEvents.recorded.contains { if case .connectionChanged = $0 { return true } else { return false } })
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("switching through every mode and back to realtime converges, with nothing lost")
  func switching() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "mode-switching")
      let docB = Document(key: "mode-switching")
      try await a.attach(docA, initialRoot: ["log": []])
      try await b.attach(docB)
      let modes: [SyncMode] = [.manual, .realtimePushOnly, .polling(interval: 0.02), .realtimeSyncOff, .realtime, .manual, .realtime]
      for (step, mode) in modes.enumerated() {
        try await a.changeSyncMode(docA, to: mode)
        try await b.changeSyncMode(docB, to: modes[(step + 3) % modes.count])
        try await docA.update { root, _ in try root.array("log")?.append(.string("a\(step)")) }
        try await docB.update { root, _ in try root.array("log")?.append(.string("b\(step)")) }
      }
      try await a.changeSyncMode(docA, to: .realtime)
      try await b.changeSyncMode(docB, to: .realtime)
      try await a.sync(docA)
      try await b.sync(docB)
      try await a.sync(docA)
      let json = await docA.toSortedJSON()
      #expect(await docB.toSortedJSON() == json)
      #expect(try await serverJSON(server, "mode-switching") == json)
      let entries = try #require(await docA.value(atPath: "$.log")).array?.count
      #expect(entries == 2 * modes.count)
      try await a.deactivate()
      try await b.deactivate()
    }
  }
}
