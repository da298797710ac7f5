import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// `Client.syncState(of:)`: the readable state of an attached document says what its last
/// connection and sync events said, through an outage and the recovery.
@Suite("Client: readable sync state")
struct SyncStateTests {
  /// One check made on receiving an event: what the event said and what the state read then.
  struct Check: Sendable, CustomStringConvertible {
    var event: String
    var agrees: Bool
    var description: String { "\(event): \(agrees ? "agrees" : "DISAGREES")" }
  }

  /// Reads the state of `doc` on each connection or sync event of it, and records whether the
  /// field the event names equals what the event said.
  static func checkEachEvent(_ client: Client, _ doc: Document, into checks: LockedValue<[Check]>) -> Task<Void, Never> {
    let stream = client.events()
    return Task {
      for await event in stream {
        switch event {
        case .connectionChanged(let key, let status) where key == doc.key:
          let state = await client.syncState(of: doc)
          checks.withLock { $0.append(Check(event: event.description, agrees: state?.stream == status)) }
        case .syncStatusChanged(let key, let status) where key == doc.key:
          let state = await client.syncState(of: doc)
          checks.withLock { $0.append(Check(event: event.description, agrees: state?.lastSync == status)) }
        default:
          break
        }
      }
    }
  }

  @Test("attached: connected and synced; offline with an edit: disconnected, failing, 1 pending; recovered: connected and saved")
  func followsTheEvents() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-state-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    let first = YorkieDevServer(configuration: configuration)
    let url = try first.start()
    configuration.port = url.port ?? 0
    // Retries no sooner than 50 ms: an event is checked before the next attempt can change the state.
    let options = ClientOptions(reconnect: ReconnectPolicy(base: 0.1, multiplier: 2, cap: 0.3, minimumDelay: 0.05))
    let client = try await activatedClient(url, key: "sync-state", options: options)
    let doc = Document(key: "sync-state-doc")
    #expect(await client.syncState(of: doc) == nil)
    let checks = LockedValue<[Check]>([])
    let checker = Self.checkEachEvent(client, doc, into: checks)
    defer { checker.cancel() }

    try await client.attach(doc)
    #expect(await client.syncState(of: doc) == DocumentSyncState(mode: .realtime, stream: .connected, lastSync: .synced, unacknowledgedChanges: 0))
    #expect(await client.syncState(of: doc)?.isSaved == true)

    first.stop()
    try await doc.update { root, _ in root["offline"] = true }
    let offline = DocumentSyncState(mode: .realtime, stream: .disconnected, lastSync: .syncFailed, unacknowledgedChanges: 1)
    _ = await eventually { await client.syncState(of: doc) == offline }
    #expect(await client.syncState(of: doc) == offline)
    #expect(await client.syncState(of: doc)?.isSaved == false)

    let second = YorkieDevServer(configuration: configuration)
    _ = try second.start()
    defer { second.stop() }
    let recovered = DocumentSyncState(mode: .realtime, stream: .connected, lastSync: .synced, unacknowledgedChanges: 0)
    _ = await eventually { await client.syncState(of: doc) == recovered }
    #expect(await client.syncState(of: doc) == recovered)
    #expect(try await serverJSON(second, "sync-state-doc") == #"{"offline":true}"#)

    // Every event was checked: connected and synced, failed and disconnected, then again
    // connected and synced, each agreeing with the state read on its arrival.
    let events = { checks.withLock { $0.map(\.event) } }
    #expect(await eventually { events().last == #"syncStatusChanged("sync-state-doc", synced)"# })
    let seen = Set(events())
    #expect(seen.isSuperset(of: [
      #"connectionChanged("sync-state-doc", connected)"#, #"connectionChanged("sync-state-doc", disconnected)"#,
      #"syncStatusChanged("sync-state-doc", synced)"#, #"syncStatusChanged("sync-state-doc", syncFailed)"#,
    ]), "\(events())")
    #expect(checks.withLock { $0.allSatisfy(\.agrees) }, "\(checks.withLock { $0 })")

    // Detached: no state.
    try await client.detach(doc)
    #expect(await client.syncState(of: doc) == nil)
    try? await client.deactivate()
  }

  @Test("a mode without a stream has none; switching to realtime connects it")
  func modesWithoutStream() async throws {
    try await withServer { url, _ in
      let client = try await activatedClient(url, key: "sync-state-modes")
      let doc = Document(key: "sync-state-modes")
      try await client.attach(doc, syncMode: .manual)
      #expect(await client.syncState(of: doc) == DocumentSyncState(mode: .manual, stream: nil, lastSync: .synced, unacknowledgedChanges: 0))
      try await doc.update { root, _ in root["n"] = 1 }
      // Manual: the edit waits for sync().
      #expect(await client.syncState(of: doc)?.unacknowledgedChanges == 1)
      #expect(await client.syncState(of: doc)?.isSaved == false)
      try await client.sync(doc)
      #expect(await client.syncState(of: doc)?.isSaved == true)
      try await client.changeSyncMode(doc, to: .realtime)
      #expect(await eventually { await client.syncState(of: doc)?.stream == .connected })
      try await client.changeSyncMode(doc, to: .polling(interval: 60))
      #expect(await client.syncState(of: doc)?.stream == nil)
      #expect(await client.syncState(of: doc)?.mode == .polling(interval: 60))
      try await client.deactivate()
    }
  }
}
