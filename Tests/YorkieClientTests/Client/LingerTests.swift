import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Shared, lingering handles (`document(_:)` and `release(_:)`): one instance and one attach
/// per key, a detach only after the linger delay, and no surprises on underflow or deactivate.
/// The linger waits on a ``ManualClock``; the server's request log counts the calls.
@Suite("Client: shared document handles linger before detaching")
struct LingerTests {
  /// The linger delay the tests ask for (the manual clock only records it).
  static let delay: TimeInterval = 5

  /// Counts the calls the server answered, from its one-line-per-request debug log.
  final class CallCounter: Sendable {
    private let lines = LockedValue<[String]>([])

    /// A server configuration whose log feeds this counter.
    func configuration() -> YorkieDevServer.Configuration {
      let lines = self.lines
      return YorkieDevServer.Configuration(logLevel: .debug, logSink: { line in lines.withLock { $0.append(line) } })
    }

    /// How many `method` calls were answered so far (the line "`method` `status` in `t` ms
    /// (…)" the Connect layer logs once per unary call).
    func count(_ method: String) -> Int {
      lines.withLock { $0.filter { $0.contains("] \(method) ") && $0.contains(" ms (") }.count }
    }
  }

  /// An activated client on `clock` with the test's linger delay.
  static func client(_ url: URL, _ clock: ManualClock) async throws -> Client {
    var options = ClientOptions(key: "lingering", lingerDelay: delay)
    options.environment = ClientEnvironment(clock: clock, random: SharedRandom(SeededRandom(seed: 1)))
    let client = Client(url, options: options)
    try await client.activate()
    return client
  }

  @Test("re-acquiring within the delay keeps the same instance: one AttachDocument, one DetachDocument")
  func reacquireWithinDelay() async throws {
    let calls = CallCounter()
    try await withServer(calls.configuration()) { url, _ in
      let clock = ManualClock()
      let client = try await Self.client(url, clock)
      let first = try await client.document("linger-doc")
      #expect(await first.status == .attached)
      await client.release(first)
      #expect(await eventually { clock.waiting == [Self.delay] })
      #expect(await client.has("linger-doc"))

      let second = try await client.document("linger-doc")
      #expect(second === first)
      // The pending linger was cancelled.
      #expect(await eventually { clock.waiting.isEmpty })
      await client.release(second)
      #expect(await eventually { clock.waiting == [Self.delay] })
      #expect(await client.has("linger-doc"))
      #expect(calls.count("DetachDocument") == 0)

      clock.advance()
      #expect(await eventually { await !client.has("linger-doc") })
      #expect(await eventually { await first.status == .detached })
      #expect(await eventually { calls.count("DetachDocument") == 1 })
      #expect(calls.count("AttachDocument") == 1)
      #expect(clock.requested == [Self.delay, Self.delay])

      // Acquiring after the detach attaches a new instance.
      let third = try await client.document("linger-doc")
      #expect(third !== first)
      #expect(await eventually { calls.count("AttachDocument") == 2 })
      try await client.deactivate()
    }
  }

  @Test("concurrent acquisitions of one key share one attach and one instance")
  func concurrentAcquisitions() async throws {
    let calls = CallCounter()
    try await withServer(calls.configuration()) { url, _ in
      let clock = ManualClock()
      let client = try await Self.client(url, clock)
      async let a = client.document("shared-doc")
      async let b = client.document("shared-doc")
      let (docA, docB) = try await (a, b)
      #expect(docA === docB)
      #expect(await docA.status == .attached)
      #expect(await eventually { calls.count("AttachDocument") == 1 })
      #expect(calls.count("AttachDocument") == 1)

      // Two uses: the first release leaves it held, the second starts the linger.
      await client.release(docA)
      #expect(clock.requested.isEmpty)
      await client.release(docB)
      #expect(await eventually { clock.waiting == [Self.delay] })
      clock.advance()
      #expect(await eventually { await docA.status == .detached })
      #expect(await eventually { calls.count("DetachDocument") == 1 })
      try await client.deactivate()
    }
  }

  @Test("releasing too often does nothing; a plainly attached document ignores release")
  func releaseUnderflow() async throws {
    let calls = CallCounter()
    try await withServer(calls.configuration()) { url, _ in
      let clock = ManualClock()
      let client = try await Self.client(url, clock)
      let doc = try await client.document("under-doc")
      await client.release(doc)
      await client.release(doc)
      await client.release(doc)
      #expect(await eventually { clock.waiting == [Self.delay] })
      #expect(clock.requested == [Self.delay])

      // A document attached with attach() is not the handles' business.
      let plain = Document(key: "plain-doc")
      try await client.attach(plain)
      await client.release(plain)
      await client.release(plain)
      #expect(await client.has("plain-doc"))
      #expect(clock.requested == [Self.delay])
      // document(key) does not take over a plain attachment.
      await #expect(throws: YorkieError.self) { _ = try await client.document("plain-doc") }

      // The underflowed handle still works: re-acquire, release once, linger, detach.
      let again = try await client.document("under-doc")
      #expect(again === doc)
      await client.release(again)
      await client.release(again)
      #expect(await eventually { clock.waiting == [Self.delay] })
      clock.advance()
      #expect(await eventually { await doc.status == .detached })
      #expect(await eventually { calls.count("DetachDocument") == 1 })
      #expect(await client.has("plain-doc"))
      #expect(calls.count("AttachDocument") == 2)
      try await client.deactivate()
    }
  }

  @Test("deactivate with a lingering document ends the linger and detaches it locally")
  func deactivateWhileLingering() async throws {
    let calls = CallCounter()
    try await withServer(calls.configuration()) { url, _ in
      let clock = ManualClock()
      let client = try await Self.client(url, clock)
      let doc = try await client.document("deactivate-doc")
      await client.release(doc)
      #expect(await eventually { clock.waiting == [Self.delay] })
      try await client.deactivate()
      #expect(await doc.status == .detached)
      #expect(await eventually { clock.waiting.isEmpty })
      clock.advance()
      #expect(calls.count("DetachDocument") == 0)
      // Releasing after deactivate is harmless.
      await client.release(doc)

      // Activated again, the key attaches a fresh instance.
      try await client.activate()
      let fresh = try await client.document("deactivate-doc")
      #expect(fresh !== doc)
      #expect(await fresh.status == .attached)
      try await client.deactivate()
    }
  }

  @Test("with the real clock, a released document detaches after the delay")
  func realClockLinger() async throws {
    let calls = CallCounter()
    try await withServer(calls.configuration()) { url, _ in
      let client = Client(url, options: ClientOptions(key: "real-clock", lingerDelay: 0.2))
      try await client.activate()
      let doc = try await client.document("real-doc")
      await client.release(doc)
      #expect(await client.has("real-doc"))
      #expect(await eventually(timeout: 5) { await doc.status == .detached })
      #expect(await eventually { calls.count("DetachDocument") == 1 })
      #expect(calls.count("AttachDocument") == 1)
      try await client.deactivate()
    }
  }
}
