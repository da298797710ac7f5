import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

@Suite("Push-pull: a backlog goes in packs of at most maxChangesPerPush changes")
struct ChunkedPushTests {
  /// 2.5 packs' worth of one-character inserts.
  static let edits = DocumentSession.maxChangesPerPush * 5 / 2

  /// Types `edits` characters into the text `t`, one update each.
  private func type(_ edits: Int, into doc: Document) async throws {
    try await doc.update { root, _ in _ = root.setNewText("t") }
    for index in 0..<edits {
      try await doc.update { root, _ in _ = try root.text("t")!.edit(index, index, "x") }
    }
  }

  @Test("sync() pushes a long backlog in several push-pulls and returns once all of it is acknowledged")
  func manualSync() async throws {
    try await withServer { url, server in
      let client = try await activatedClient(url, key: "typist")
      let doc = Document(key: "backlog")
      try await client.attach(doc, syncMode: .manual)
      try await type(Self.edits, into: doc)
      let events = EventRecorder(client.events())
      try await client.sync(doc)
      #expect(await doc.hasLocalChanges == false)
      #expect(try await doc.text(atPath: "$.t")?.string == String(repeating: "x", count: Self.edits))
      let expected = await doc.toSortedJSON()
      #expect(try await serverJSON(server, "backlog") == expected)
      // 2,501 changes: three push-pulls, each reported.
      #expect(await events.waitFor { _ in events.recorded.count >= 3 })
      let synced = events.recorded.filter { if case .syncStatusChanged(_, .synced) = $0 { return true } else { return false } }
      #expect(synced.count == 3)
      try await client.deactivate()
    }
  }

  @Test("a realtime client's burst of updates reaches the server and another client")
  func realtimeBurst() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "burst")
      let docB = Document(key: "burst")
      try await a.attach(docA)
      try await b.attach(docB)
      try await type(Self.edits, into: docA)
      try await a.waitUntilAcknowledged(docA)
      #expect(await docA.hasLocalChanges == false)
      let expected = await docA.toSortedJSON()
      #expect(await eventually { await docB.toSortedJSON() == expected })
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("detach pushes a long backlog in packs before its own, and nothing is lost")
  func detachBacklog() async throws {
    try await withServer { url, server in
      let client = try await activatedClient(url, key: "typist")
      let doc = Document(key: "backlog-detach")
      try await client.attach(doc, syncMode: .manual)
      try await type(Self.edits, into: doc)
      let expected = await doc.toSortedJSON()
      try await client.detach(doc)
      #expect(await doc.hasLocalChanges == false)
      #expect(try await serverJSON(server, "backlog-detach") == expected)
      try await client.deactivate()
    }
  }

  @Test("a pack of the oldest changes claims only what the first change it leaves out had seen: no peer purges what that change anchors on")
  func backlogVectorHoldsGarbageBack() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "backlog-gc")
      let docB = Document(key: "backlog-gc")
      try await a.attach(docA, syncMode: .manual)
      try await docA.update { root, _ in
        _ = root.setNewCounter("n", .long(0))
        try root.setNewText("t").edit(0, 0, "abc")
      }
      try await a.sync(docA)
      try await b.attach(docB, syncMode: .manual)
      // Offline at A: two packs' worth of edits, then one typed inside "abc" (its position
      // names the piece of "a"), all before A hears of B's deletion of "ab".
      for _ in 0..<(2 * DocumentSession.maxChangesPerPush) {
        try await docA.update { root, _ in root.counter("n")?.increase(by: 1) }
      }
      try await docA.update { root, _ in _ = try root.text("t")!.edit(1, 1, "x") }
      try await docB.update { root, _ in try root.text("t")!.delete(0, 2) }
      try await b.sync(docB)
      // A's first two packs: the first pulls the deletion, the second leaves the typed "x" out.
      let session = try await a.attachedSession(of: docA)
      #expect(try await session.pushPull(pushOnly: false))
      #expect(try await session.pushPull(pushOnly: false))
      // B pulls now: the minimum vector it gets must not let it purge the piece of "a", which
      // the "x" still on its way anchors on.
      try await b.sync(docB)
      #expect(try await session.pushPull(pushOnly: false) == false)
      try await b.sync(docB)
      #expect(try await docB.text(atPath: "$.t")?.string == "xc")
      #expect(try await docA.text(atPath: "$.t")?.string == "xc")
      #expect(try await serverJSON(server, "backlog-gc") == (await docB.toSortedJSON()))
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("a change larger than the server accepts (HTTP 413) stops the sync with a remedy instead of retrying for ever")
  func tooLarge() async throws {
    var configuration = YorkieDevServer.Configuration()
    configuration.httpLimits.parser.maxBodyBytes = 64 * 1024
    try await withServer(configuration) { url, _ in
      let client = try await activatedClient(url, key: "big")
      let events = EventRecorder(client.events())
      let doc = Document(key: "too-large")
      try await client.attach(doc)
      try await doc.update { root, _ in root["blob"] = .string(String(repeating: "x", count: 100_000)) }
      let stopped = await events.waitFor {
        if case .stopped(let notice) = $0 { return notice.error.code == .requestTooLarge } else { return false }
      }
      #expect(stopped, "\(events.recorded)")
      #expect(!events.recorded.contains { if case .retrying = $0 { return true } else { return false } })
      try? await client.deactivate()
    }
  }
}
