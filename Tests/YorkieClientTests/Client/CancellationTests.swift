import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import YorkieClient

/// Nothing is left behind: deactivating, releasing the client or cancelling a waiting task
/// ends every stream and task, and the server sees the streams go.
@Suite("Client: cancellation and shutdown leave nothing running")
struct CancellationTests {
  /// The Watch streams open on `server`.
  static func streams(_ server: YorkieDevServer) -> Int { server.service?.hub.streamCount ?? -1 }

  @Test("deactivate closes every document and channel stream")
  func deactivateClosesStreams() async throws {
    try await withServer { url, server in
      let client = try await activatedClient(url, key: "a")
      try await client.attach(Document(key: "shutdown-1"))
      try await client.attach(Document(key: "shutdown-2"), syncMode: .realtimePushOnly)
      try await client.attach(Channel(key: "shutdown-room"))
      #expect(await eventually { Self.streams(server) == 3 })
      try await client.deactivate()
      #expect(await eventually { Self.streams(server) == 0 }, "\(Self.streams(server)) streams left")
    }
  }

  @Test("a client released without deactivating ends its streams, tasks and connections")
  func releaseEndsEverything() async throws {
    try await withServer { url, server in
      // Through the proxy, which counts the client's open connections.
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      weak var released: Client?
      let doc = Document(key: "released-doc")
      let room = Channel(key: "released-room")
      do {
        let client = try await activatedClient(proxyURL, key: "a")
        released = client
        try await client.attach(doc)
        try await client.attach(room)
        #expect(await room.status == .attached)
        try await doc.update { root, _ in root["x"] = 1 }
        try await client.waitUntilAcknowledged(doc)
        #expect(await eventually { Self.streams(server) == 2 })
      }
      #expect(await eventually { released == nil }, "the client is still referenced")
      #expect(await eventually { Self.streams(server) == 0 }, "\(Self.streams(server)) streams left")
      #expect(await eventually { proxy.counters.open == 0 }, "\(proxy.counters.open) connections left open")
      #expect(await eventually { await room.status == .detached }, "the channel still says it is attached")
      // The document stays usable on its own.
      try await doc.update { root, _ in root["y"] = 2 }
      #expect(await doc.toSortedJSON() == #"{"x":1,"y":2}"#)
    }
  }

  @Test("cancelling a task that waits for sync or an acknowledgement ends the wait only")
  func cancelWaits() async throws {
    try await withServer { url, _ in
      let client = try await activatedClient(url, key: "a")
      let doc = Document(key: "cancel-doc")
      try await client.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["pending"] = true }
      // Manual mode: the acknowledgement would wait for a sync() that never comes.
      let waiter = Task { try await client.waitUntilAcknowledged(doc) }
      try await Task.sleep(nanoseconds: 20_000_000)
      waiter.cancel()
      await #expect(throws: CancellationError.self) { try await waiter.value }
      // A cancelled sync() either completed or threw CancellationError; the session goes on.
      let syncing = Task { try await client.sync(doc) }
      syncing.cancel()
      do { try await syncing.value } catch is CancellationError {}
      try await client.sync(doc)
      #expect(await !doc.hasLocalChanges)
      try await client.waitUntilAcknowledged(doc)
      try await client.deactivate()
    }
  }

  @Test("deactivating while a sync waits fails the wait with a clear error")
  func deactivateDuringWait() async throws {
    try await withServer { url, server in
      let client = try await activatedClient(url, key: "a")
      let doc = Document(key: "deactivate-doc")
      try await client.attach(doc, syncMode: .realtimeSyncOff)
      try await doc.update { root, _ in root["unsent"] = true }
      let waiter = Task { try await client.waitUntilAcknowledged(doc) }
      try await Task.sleep(nanoseconds: 20_000_000)
      try await client.deactivate()
      do {
        try await waiter.value
        Issue.record("the wait succeeded although nothing was pushed")
      } catch let error as YorkieError {
        #expect(error.code == .clientNotActivated)
      }
      #expect(await doc.status == .detached)
      #expect(await doc.hasLocalChanges, "the unsent change stays in the document")
      #expect(await eventually { Self.streams(server) == 0 })
    }
  }

  @Test("a sync stuck on a black-holed network ends at once when its task is cancelled; the client goes on")
  func cancelStuckSync() async throws {
    try await withServer { url, server in
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      let client = Client(proxyURL, options: ClientOptions(key: "stuck", timeouts: ClientTimeouts(request: 30)))
      try await client.activate()
      let doc = Document(key: "stuck-doc")
      try await client.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["x"] = 1 }
      proxy.mode = .blackHole
      proxy.resetAll()
      let syncing = Task { try await client.sync(doc) }
      try await Task.sleep(nanoseconds: 200_000_000)
      let started = Date()
      syncing.cancel()
      await #expect(throws: CancellationError.self) { try await syncing.value }
      #expect(Date().timeIntervalSince(started) < 15, "the cancelled call waited for the network (its timeout is 30 s)")
      proxy.mode = .pass
      try await client.sync(doc)
      #expect(try await serverJSON(server, "stuck-doc") == #"{"x":1}"#)
      try await client.deactivate()
    }
  }

  @Test("deactivating while a push hangs on a black-holed network cancels it and stops everything")
  func deactivateDuringStuckPush() async throws {
    try await withServer { url, server in
      let proxy = try FaultProxy(target: url)
      let proxyURL = proxy.start()
      defer { proxy.stop() }
      let client = Client(proxyURL, options: ClientOptions(key: "stuck", timeouts: ClientTimeouts(request: 2)))
      try await client.activate()
      let doc = Document(key: "stuck-push")
      try await client.attach(doc)
      #expect(await eventually { Self.streams(server) == 1 })
      proxy.mode = .blackHole
      try await doc.update { root, _ in root["late"] = true }
      try await Task.sleep(nanoseconds: 200_000_000)
      let started = Date()
      // DeactivateClient itself cannot get through: it fails after the request timeout, and
      // the client is deactivated locally all the same.
      await #expect(throws: YorkieError.self) { try await client.deactivate() }
      #expect(Date().timeIntervalSince(started) < 5)
      #expect(await client.status == .deactivated)
      #expect(await doc.status == .detached)
      proxy.mode = .pass
      proxy.resetAll()
      #expect(await eventually { Self.streams(server) == 0 }, "\(Self.streams(server)) streams left")
    }
  }
}
