import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// `waitUntilAcknowledged(_:timeout:)`: a bounded wait ends with `timedOut` while the server is
/// down, without losing the change (it is pushed once the server is back); cancellation still
/// ends a wait; a timeout that is no duration is refused.
@Suite("Client: bounded waits for acknowledgement")
struct AcknowledgementTimeoutTests {
  /// Fast retries, so that the restarted server is found soon.
  static let policy = ReconnectPolicy(base: 0.05, multiplier: 2, cap: 0.2, minimumDelay: 0.01)

  @Test("with the server down a bounded wait throws timedOut; the change stays pending and reaches the peer later")
  func timesOutWhileDown() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ack-timeout-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    let first = YorkieDevServer(configuration: configuration)
    let url = try first.start()
    configuration.port = url.port ?? 0
    let options = ClientOptions(reconnect: Self.policy)
    let writer = try await activatedClient(url, key: "writer", options: options)
    let reader = try await activatedClient(url, key: "reader", options: options)
    let doc = Document(key: "ack-timeout")
    try await writer.attach(doc)
    let peerDoc = Document(key: "ack-timeout")
    try await reader.attach(peerDoc)

    first.stop()
    try await doc.update { root, _ in root["saved"] = "later" }
    // The wait would last as long as the server is down; the bound ends it (the limit here is
    // only a generous guard against a wait that never ends).
    let waited = Task { () -> YorkieError.Code? in
      do {
        try await writer.waitUntilAcknowledged(doc, timeout: 0.3)
        return nil
      } catch let error as YorkieError {
        return error.code
      } catch {
        return .cancelled
      }
    }
    let guardTimer = Task {
      try await Task.sleep(nanoseconds: 20_000_000_000)
      waited.cancel()
    }
    let code = await waited.value
    guardTimer.cancel()
    #expect(code == .timedOut)
    // Nothing was lost: the change is still pending, and the document still syncing.
    #expect(await doc.pendingChanges.count == 1)
    #expect(await writer.has("ack-timeout"))

    let second = YorkieDevServer(configuration: configuration)
    _ = try second.start()
    defer { second.stop() }
    try await writer.waitUntilAcknowledged(doc, timeout: 30)
    #expect(await doc.pendingChanges.isEmpty)
    #expect(await eventually { await peerDoc.toSortedJSON() == #"{"saved":"later"}"# })
    #expect(try await serverJSON(second, "ack-timeout") == #"{"saved":"later"}"#)
    try? await writer.deactivate()
    try? await reader.deactivate()
  }

  @Test("the bound runs on the client's clock; a cancelled bounded wait throws CancellationError and ends its timer")
  func injectedClockAndCancellation() async throws {
    let server = YorkieDevServer(configuration: .init())
    let url = try server.start()
    let clock = ManualClock()
    var options = ClientOptions(key: "ack-clock", reconnect: Self.policy)
    options.environment = ClientEnvironment(clock: clock, random: SharedRandom(SeededRandom(seed: 1)))
    let client = Client(url, options: options)
    try await client.activate()
    let doc = Document(key: "ack-clock")
    // Manual: nothing is pushed until sync(), so the waits below cannot be answered.
    try await client.attach(doc, syncMode: .manual)
    try await doc.update { root, _ in root["n"] = 1 }

    let cancelled = Task { () -> String in
      do {
        try await client.waitUntilAcknowledged(doc, timeout: 600)
        return "returned"
      } catch is CancellationError {
        return "cancelled"
      } catch {
        return "\(error)"
      }
    }
    #expect(await eventually { clock.waiting == [600] })
    cancelled.cancel()
    #expect(await cancelled.value == "cancelled")
    #expect(await eventually { clock.waiting.isEmpty })

    let expired = Task { () -> YorkieError.Code? in
      do {
        try await client.waitUntilAcknowledged(doc, timeout: 7)
        return nil
      } catch let error as YorkieError {
        return error.code
      } catch {
        return .cancelled
      }
    }
    #expect(await eventually { clock.waiting == [7] })
    clock.advance()
    #expect(await expired.value == .timedOut)

    // Acknowledged: a bounded wait returns, and leaves no timer behind.
    try await client.sync(doc)
    try await client.waitUntilAcknowledged(doc, timeout: 5)
    #expect(clock.waiting.isEmpty)
    try? await client.deactivate()
    server.stop()
  }

  @Test("a negative or NaN timeout is invalidArgument; zero with nothing pending returns")
  func invalidTimeouts() async throws {
    try await withServer { url, _ in
      let client = try await activatedClient(url, key: "ack-invalid")
      let doc = Document(key: "ack-invalid")
      try await client.attach(doc, syncMode: .manual)
      for timeout in [-1, -0.001, Double.nan, -Double.infinity] {
        await #expect(throws: YorkieError.self, "timeout \(timeout)") {
          do {
            try await client.waitUntilAcknowledged(doc, timeout: timeout)
          } catch let error as YorkieError {
            #expect(error.code == .invalidArgument, "timeout \(timeout)")
            throw error
          }
        }
      }
      try await client.waitUntilAcknowledged(doc, timeout: 0)
      try await client.waitUntilAcknowledged(doc, timeout: .infinity)
      try await client.deactivate()
    }
  }
}
