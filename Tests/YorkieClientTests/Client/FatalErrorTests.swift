import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Failures that retrying cannot fix stop retrying and reach the app with what to do.
@Suite("Client: failures that retrying cannot fix")
struct FatalErrorTests {
  @Test("a client the server deactivated (idle) stops, is marked deactivated, and is told why")
  func deactivatedByServer() async throws {
    let time = LockedValue(1000.0)
    var configuration = YorkieDevServer.Configuration()
    configuration.clientDeactivateThreshold = 60
    configuration.housekeepingInterval = 3600
    configuration.clock = { time.withLock { $0 } }
    try await withServer(configuration) { url, server in
      let service = try #require(server.service)
      let client = try await activatedClient(url, key: "idle")
      let events = EventRecorder(client.events())
      let doc = Document(key: "idle-doc")
      try await client.attach(doc)
      time.withLock { $0 += 120 }
      await service.housekeeping()
      try await doc.update { root, _ in root["late"] = true }
      let stopped = await events.waitFor {
        if case .stopped(let notice) = $0 { return notice.error.code == .clientNotActivated } else { return false }
      }
      #expect(stopped, "\(events.recorded)")
      #expect(await eventually { await client.status == .deactivated })
      #expect(await eventually { await doc.status == .detached })
      #expect(await doc.hasLocalChanges, "the edit stays in the document")
      let retries = events.recorded.filter { if case .retrying = $0 { return true } else { return false } }
      #expect(retries.isEmpty, "retried a failure that retrying cannot fix: \(retries)")
      if case .stopped(let notice)? = events.recorded.first(where: { if case .stopped = $0 { return true } else { return false } }) {
        #expect(notice.remedy.contains("activate it again"))
      }
      // The app follows the advice: activate again and attach a new Document.
      try await client.activate()
      let fresh = Document(key: "idle-doc")
      try await client.attach(fresh)
      try await client.deactivate()
    }
  }
}
