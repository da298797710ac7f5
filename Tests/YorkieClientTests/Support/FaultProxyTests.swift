import Foundation
import Testing
import YorkieProtocol
import YorkieServer
import YorkieTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@testable import YorkieClient

/// The fault-injection proxy of YorkieTestSupport, between real clients (URLSession through
/// ``ConnectTransport``, or raw sockets) and a real in-process server.
@Suite("FaultProxy", .timeLimit(.minutes(1)))
struct FaultProxyTests {
  @Test("pass forwards both ways: a health GET and an ActivateClient through the transport; the counters move")
  func pass() async throws {
    try await withProxy { proxy, _ in
      #expect(try await Self.health(proxy.url) == #"{"status":"serving"}"#)
      let clientID = try await Self.activate(proxy.url)
      #expect(clientID.count == 24)
      let counters = proxy.counters
      #expect(counters.accepted >= 2)
      #expect(counters.refused == 0)
      #expect(counters.bytesToTarget > 100)
      #expect(counters.bytesToClient > 100)
    }
  }

  @Test("delay(0.2) holds every chunk: a request takes at least 0.2 s; back to pass, it answers")
  func delay() async throws {
    try await withProxy { proxy, _ in
      proxy.mode = .delay(0.2)
      let started = ContinuousClock.now
      let body = try await Self.health(proxy.url)
      let elapsed = ContinuousClock.now - started
      #expect(body == #"{"status":"serving"}"#)
      // The request and the answer wait 0.2 s each.
      #expect(elapsed >= .milliseconds(400), "took \(elapsed)")
      proxy.mode = .pass
      let clientID = try await Self.activate(proxy.url)
      #expect(clientID.count == 24)
    }
  }

  @Test("refuse closes new connections at once (the call fails) while an open connection goes on; back to pass, calls work")
  func refuse() async throws {
    try await withProxy { proxy, _ in
      let open = try await RawSocket(port: proxy.port)
      #expect(await eventually { proxy.counters.open == 1 })
      proxy.mode = .refuse
      let started = ContinuousClock.now
      await #expect(throws: (any Error).self) { try await Self.health(proxy.url) }
      await #expect(throws: YorkieError.self) { try await Self.activate(proxy.url) }
      // Refused, not timed out (30 s): well before. (3 s was too tight on a loaded host.)
      #expect(ContinuousClock.now - started < .seconds(15))
      #expect(proxy.counters.refused >= 2)
      // The connection opened before goes on forwarding.
      #expect(open.send(rawHealthRequest))
      let answer = await open.read(timeout: .seconds(5), until: containsServing)
      #expect(answer.end == .satisfied)
      proxy.mode = .pass
      #expect(try await Self.health(proxy.url) == #"{"status":"serving"}"#)
    }
  }

  @Test("blackHole: a call with a 1 s timeout times out; an open connection hears nothing, then gets its held answer after pass")
  func blackHole() async throws {
    try await withProxy { proxy, _ in
      let open = try await RawSocket(port: proxy.port)
      #expect(await eventually { proxy.counters.open == 1 })
      proxy.mode = .blackHole
      let before = proxy.counters
      let started = ContinuousClock.now
      do {
        _ = try await Self.activate(proxy.url, timeout: 1)
        Issue.record("a call through a black hole was answered")
      } catch let error as YorkieError {
        #expect(error.code == .timedOut)
        #expect(error.urlErrorCode == .timedOut)
      }
      let elapsed = ContinuousClock.now - started
      #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5), "took \(elapsed)")
      #expect(open.send(rawHealthRequest))
      let silence = await open.read(timeout: .milliseconds(300))
      #expect(silence.end == .timedOut)
      #expect(silence.bytes.isEmpty)
      #expect(proxy.counters.bytesToTarget == before.bytesToTarget)
      #expect(proxy.counters.bytesToClient == before.bytesToClient)
      // The held request goes through once the hole closes.
      proxy.mode = .pass
      let answer = await open.read(timeout: .seconds(5), until: containsServing)
      #expect(answer.end == .satisfied)
      #expect(try await Self.activate(proxy.url).count == 24)
    }
  }

  @Test("resetAll ends an open Watch stream with a transport error and a half-sent request with ECONNRESET; new calls work")
  func resetAll() async throws {
    try await withProxy { proxy, _ in
      let replica = try await TransportReplica(url: proxy.url, key: "doc-proxy-reset", clientKey: "reset")
      try await replica.attach()
      var watch = replica.watch().makeAsyncIterator()
      guard case .initialization? = try await watch.next() else {
        Issue.record("the first message is not the initialization")
        return
      }
      // A request whose body never completes: the server waits for the rest.
      let partial = try await RawSocket(port: proxy.port)
      let before = proxy.counters
      #expect(partial.send("POST /yorkie.v1.YorkieService/ActivateClient HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"clientKey\""))
      #expect(await eventually { proxy.counters.bytesToTarget > before.bytesToTarget })
      #expect(proxy.counters.open >= 2)
      proxy.resetAll()
      #expect(proxy.counters.open == 0)
      #expect(proxy.counters.resets >= 2)
      let end = await partial.read(timeout: .seconds(5))
      #expect(end.end == .failed(ECONNRESET))
      do {
        let message = try await watch.next()
        Issue.record("the stream went on after the reset: \(String(describing: message))")
      } catch let error as YorkieError {
        #expect(error.code == .unavailable)
      }
      #expect(try await Self.health(proxy.url) == #"{"status":"serving"}"#)
    }
  }

  @Test("dropAfter(bytes:) forwards that many bytes of a connection, then resets it")
  func dropAfter() async throws {
    try await withProxy { proxy, _ in
      proxy.mode = .dropAfter(bytes: 10)
      let socket = try await RawSocket(port: proxy.port)
      #expect(socket.send(rawHealthRequest))
      let end = await socket.read(timeout: .seconds(5))
      #expect(end.end == .failed(ECONNRESET))
      #expect(end.bytes.isEmpty)
      let counters = proxy.counters
      #expect(counters.bytesToTarget == 10)
      #expect(counters.bytesToClient == 0)
      #expect(counters.resets == 1)
      proxy.mode = .pass
      #expect(try await Self.health(proxy.url) == #"{"status":"serving"}"#)
    }
  }

  @Test("stop closes every descriptor of the proxy, connections in every state included; clients read the end; stop again is harmless")
  func stopClosesEverything() async throws {
    try await withServer { serverURL, _ in
      let proxy = try FaultProxy(target: serverURL)
      proxy.start()
      let idle = try await RawSocket(port: proxy.port)
      #expect(await eventually { proxy.counters.open == 1 })
      proxy.mode = .delay(30)
      let delayed = try await RawSocket(port: proxy.port)
      #expect(delayed.send(rawHealthRequest))
      #expect(await eventually { proxy.counters.open == 2 })
      proxy.mode = .blackHole
      let held = try await RawSocket(port: proxy.port)
      #expect(held.send(rawHealthRequest))
      // Listener and its wake-up pair, and per connection: client, target and wake-up pair.
      #expect(await eventually { proxy.descriptors.count == 3 + 3 * 4 }, "\(proxy.descriptors)")
      #if os(Linux)
        // Other suites open and close descriptors in this process at the same time, so the
        // check follows the proxy's own sockets by inode ("socket:[12345]"), which the kernel
        // does not reuse, rather than comparing counts.
        let proxyFiles = Set(proxy.descriptors.compactMap(Self.openFile))
        #expect(proxyFiles.count == 3 + 3 * 4)
        #expect(proxyFiles.isSubset(of: Self.openFiles()))
      #endif
      proxy.stop()
      #expect(proxy.descriptors.isEmpty)
      #expect(proxy.counters.open == 0)
      #if os(Linux)
        #expect(proxyFiles.isDisjoint(with: Self.openFiles()))
      #endif
      // A plain close: end-of-file, or a reset where the kernel still held unread bytes of the
      // client (the black-holed request).
      for socket in [idle, delayed, held] {
        let end = await socket.read(timeout: .seconds(5))
        #expect(end.end == .endOfFile || end.end == .failed(ECONNRESET))
        #expect(end.bytes.isEmpty)
      }
      proxy.stop()
      proxy.resetAll()
      proxy.mode = .pass
      #expect(proxy.descriptors.isEmpty)
    }
  }

  @Test("a proxy that was never started closes its listener on stop")
  func stopUnstarted() throws {
    let proxy = try FaultProxy(target: URL(string: "http://127.0.0.1:1")!)
    #expect(proxy.descriptors.count == 3)
    proxy.stop()
    #expect(proxy.descriptors.isEmpty)
  }

  @Test("mode switches, resets and clients in every interleaving, then concurrent stops: no crash, nothing left open")
  func interleavings() async throws {
    try await withServer { serverURL, _ in
      let proxy = try FaultProxy(target: serverURL)
      proxy.start()
      let modes: [FaultProxy.Mode] = [.pass, .delay(0.01), .refuse, .blackHole, .dropAfter(bytes: 30), .pass]
      let running = LockedValue(true)
      let connects = LockedValue(0)
      // The blocking calls (resetAll waits for the connections to close) run on their own
      // threads, never on the concurrency pool.
      let switcher = Self.onThread {
        var index = 0
        while running.withLock({ $0 }) {
          proxy.mode = modes[index % modes.count]
          if index % 3 == 0 { proxy.resetAll() }
          index += 1
          usleep(3_000)
        }
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            // At least ten connections each, and more for 0.6 s (fewer fit on a loaded machine).
            let end = ContinuousClock.now + .milliseconds(600)
            var round = 0
            while round < 10 || ContinuousClock.now < end {
              round += 1
              // Counted before connecting: a connection the proxy accepts and resets at once
              // can fail the client's connect check, and is still one the proxy accepted.
              connects.withLock { $0 += 1 }
              guard let socket = try? await RawSocket(port: proxy.port) else { continue }
              socket.send(rawHealthRequest)
              _ = await socket.read(timeout: .milliseconds(40), until: containsServing)
            }
          }
        }
        try await group.waitForAll()
      }
      // Connections left mid-way (black-holed, delayed) stay open for the stops to close.
      connects.withLock { $0 += 1 }
      let leftOpen = try await RawSocket(port: proxy.port)
      leftOpen.send(rawHealthRequest)
      // The accept thread took every connection, whatever the mode at the time.
      let made = connects.withLock { $0 }
      #expect(await eventually { proxy.counters.accepted == made }, "\(proxy.counters.accepted) of \(made)")
      running.withLock { $0 = false }
      await switcher.value
      proxy.mode = .blackHole
      let stops = (0..<3).map { _ in Self.onThread { proxy.stop() } }
      let lateReset = Self.onThread { proxy.resetAll() }
      for stop in stops { await stop.value }
      await lateReset.value
      #expect(proxy.descriptors.isEmpty)
      #expect(proxy.counters.open == 0)
      let counters = proxy.counters
      print("FaultProxyTests.interleavings: \(made) connections, \(counters)")
      #expect(counters.accepted == made)
      let end = await leftOpen.read(timeout: .seconds(5))
      #expect(end.end != .timedOut)
    }
  }

  // MARK: Helpers

  /// Runs `body` with a started proxy in front of a fresh in-process server.
  func withProxy(_ body: (FaultProxy, URL) async throws -> Void) async throws {
    try await withServer { serverURL, _ in
      let proxy = try FaultProxy(target: serverURL)
      proxy.start()
      defer { proxy.stop() }
      try await body(proxy, serverURL)
      proxy.stop()
      #expect(proxy.descriptors.isEmpty)
    }
  }

  /// GETs the health endpoint through a fresh `URLSession` (no pooled connection) and returns
  /// the body; throws the session's error or on a non-200 answer.
  static func health(_ url: URL, timeout: TimeInterval = 5) async throws -> String {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    let session = URLSession(configuration: configuration)
    defer { session.invalidateAndCancel() }
    var request = URLRequest(url: url.appendingPathComponent("yorkie.v1.YorkieService").appendingPathComponent("health"))
    request.timeoutInterval = timeout
    let (data, response) = try await session.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    return String(decoding: data, as: UTF8.self)
  }

  /// Activates a client through a fresh ``ConnectTransport`` (its own session, so its own
  /// connection) with a request timeout of `timeout` whole seconds; the client id.
  static func activate(_ url: URL, timeout: TimeInterval = 5) async throws -> String {
    let transport = ConnectTransport(baseURL: url, timeouts: .init(request: timeout))
    defer { transport.invalidate() }
    let response: ActivateClientResponse = try await transport.unary(
      "ActivateClient", ActivateClientRequest(clientKey: "proxy"), shardKey: "proxy")
    return response.clientID
  }

  /// Runs `body` on a new thread; the task ends when it returns.
  static func onThread(_ body: @escaping @Sendable () -> Void) -> Task<Void, Never> {
    let done = AsyncStream<Void>.makeStream()
    Thread {
      body()
      done.continuation.finish()
    }.start()
    return Task {
      for await _ in done.stream {}
    }
  }

  #if os(Linux)
    /// What descriptor `fd` of this process refers to ("socket:[12345]"), or nil when closed.
    static func openFile(_ fd: Int32) -> String? {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }

    /// What every open descriptor of this process refers to, from /proc/self/fd.
    static func openFiles() -> Set<String> {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return Set(names.compactMap { Int32($0).flatMap(openFile) })
    }
  #endif
}
