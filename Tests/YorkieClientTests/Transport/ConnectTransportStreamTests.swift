import Foundation
import Testing
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

/// Server-streaming calls (Watch) of ``ConnectTransport`` against the in-process server.
@Suite("Connect transport: Watch streams", .timeLimit(.minutes(1)))
struct ConnectTransportStreamTests {
  @Test("Watch starts with the initialization, then a DOCUMENT_CHANGED after another client pushes")
  func initializationThenChanged() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-watch", clientKey: "a")
      let b = try await TransportReplica(url: url, key: "doc-watch", clientKey: "b")
      try await a.attach()
      try await b.attach()
      var watchA = a.watch().makeAsyncIterator()
      guard case .initialization(let inits)? = try await watchA.next(), case .document(let docInit)? = inits.first else {
        Issue.record("the first message is not the initialization")
        return
      }
      #expect(docInit.documentID == a.documentID)
      #expect(docInit.clientIDs == [a.clientID])

      try await b.document.update { root, _ in root["k"] = "v" }
      try await b.sync()
      let changed = documentEvent(try await watchA.next())
      #expect(changed?.0 == .documentChanged)
      #expect(changed?.1 == b.clientID)
    }
  }

  @Test("streams opened at once on a transport without connections all start, one after another, without waiting for timeouts")
  func openedAtOnce() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-at-once", clientKey: "a")
      try await a.attach()
      // Openings take turns; a turn that ended only by its fallback would hold the next for
      // 60 s, so six of them would take minutes (the bound below leaves room for a loaded host).
      let transport = ConnectTransport(baseURL: url, timeouts: .init(request: 60))
      defer { transport.invalidate() }
      let request = WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))])
      let started = ContinuousClock.now
      try await withThrowingTaskGroup(of: Bool.self) { group in
        for _ in 0..<6 {
          group.addTask {
            var watch = transport.stream("Watch", request, shardKey: "doc-at-once", as: WatchResponse.self).makeAsyncIterator()
            guard case .initialization? = try await watch.next() else { return false }
            return true
          }
        }
        for try await initialized in group { #expect(initialized) }
      }
      #expect(ContinuousClock.now - started < .seconds(50))
    }
  }

  @Test("calls after invalidate fail with cancelled; streams opening meanwhile end (a session traps on a task after it)")
  func afterInvalidate() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-invalidate", clientKey: "a")
      try await a.attach()
      let request = WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))])
      // Invalidated while the stream waits for its turn, sends its health check, or starts.
      for delay in [0, 100, 500, 1_000, 3_000] {
        let transport = ConnectTransport(baseURL: url)
        let streams = (0..<3).map { _ in transport.stream("Watch", request, shardKey: "doc-invalidate", as: WatchResponse.self) }
        try await Task.sleep(nanoseconds: UInt64(delay) * 1_000)
        transport.invalidate()
        for stream in streams {
          do {
            for try await _ in stream {}
          } catch let error as YorkieError {
            #expect(error.code == .cancelled)
          }
        }
      }
      let transport = ConnectTransport(baseURL: url)
      transport.invalidate()
      transport.invalidate()
      do {
        let _: ActivateClientResponse = try await transport.unary(
          "ActivateClient", ActivateClientRequest(clientKey: "late"), shardKey: "late")
        Issue.record("the call succeeded")
      } catch let error as YorkieError {
        #expect(error.code == .cancelled)
      }
      do {
        for try await message in transport.stream("Watch", request, shardKey: "doc-invalidate", as: WatchResponse.self) {
          Issue.record("unexpected message \(message)")
        }
        Issue.record("the stream ended cleanly")
      } catch let error as YorkieError {
        #expect(error.code == .cancelled)
      }
    }
  }

  @Test("a stopping server ends the stream with canceled")
  func serverStops() async throws {
    let server = YorkieDevServer()
    let url = try server.start()
    defer { server.stop() }
    let a = try await TransportReplica(url: url, key: "doc-stop")
    try await a.attach()
    var watch = a.watch().makeAsyncIterator()
    guard case .initialization? = try await watch.next() else {
      Issue.record("the first message is not the initialization")
      return
    }
    server.stop()
    do {
      _ = try await watch.next()
      Issue.record("the stream did not end with an error")
    } catch let error as YorkieError {
      #expect(error.code == YorkieError.Code("canceled"))
      #expect(error.connectCode == .canceled)
    }
  }

  @Test("an error before the first message (unknown document) ends the stream with its code")
  func setupError() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-setup")
      try await a.attach()
      let stream = a.transport.stream(
        "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: "0123456789abcdef01234567"))]),
        shardKey: "doc-setup", as: WatchResponse.self)
      do {
        for try await message in stream { Issue.record("unexpected message \(message)") }
        Issue.record("the stream ended cleanly")
      } catch let error as YorkieError {
        #expect(error.code == .documentNotFound)
        #expect(error.serverCode == "ErrDocumentNotFound")
      }
    }
  }

  @Test("a non-200 head ends the stream with the error of its status")
  func non200() async throws {
    try await withServer { url, _ in
      let transport = ConnectTransport(baseURL: url)
      defer { transport.invalidate() }
      let stream = transport.stream("NoSuchStream", WatchRequest(), shardKey: "x", as: WatchResponse.self)
      do {
        for try await message in stream { Issue.record("unexpected message \(message)") }
        Issue.record("the stream ended cleanly")
      } catch let error as YorkieError {
        #expect(error.code == YorkieError.Code("unimplemented"))
        #expect(error.connectCode == .unimplemented)
      }
    }
  }

  @Test("a refused connection ends the stream with a transport error")
  func refused() async throws {
    let server = YorkieDevServer()
    let url = try server.start()
    server.stop()
    let transport = ConnectTransport(baseURL: url)
    defer { transport.invalidate() }
    do {
      for try await message in transport.stream("Watch", WatchRequest(), shardKey: "x", as: WatchResponse.self) {
        Issue.record("unexpected message \(message)")
      }
      Issue.record("the stream ended cleanly")
    } catch let error as YorkieError {
      #expect(error.code == .unavailable)
      #expect(error.urlErrorCode == .cannotConnectToHost)
    }
  }

  @Test("cancelling the consuming task ends the stream, and the other watcher hears UNWATCHED")
  func consumerCancels() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-cancel", clientKey: "a")
      let b = try await TransportReplica(url: url, key: "doc-cancel", clientKey: "b")
      try await a.attach()
      try await b.attach()
      var watchA = a.watch().makeAsyncIterator()
      guard case .initialization? = try await watchA.next() else {
        Issue.record("the first message is not the initialization")
        return
      }
      let received = LockedValue(0)
      let consumer = Task {
        for try await _ in b.watch() { received.withLock { $0 += 1 } }
      }
      let watched = documentEvent(try await watchA.next())
      #expect(watched?.0 == .documentWatched)
      #expect(watched?.1 == b.clientID)
      // The server tells a of b before b's consumer necessarily read its initialization.
      let deadline = ContinuousClock.now + .seconds(10)
      while received.withLock({ $0 }) == 0 && ContinuousClock.now < deadline {
        try await Task.sleep(nanoseconds: 1_000_000)
      }

      consumer.cancel()
      // The consumer ends (without hanging) however the cancellation reached the sequence.
      _ = await consumer.result
      #expect(received.withLock { $0 } >= 1)  // b's own initialization
      let unwatched = documentEvent(try await watchA.next())
      #expect(unwatched?.0 == .documentUnwatched)
      #expect(unwatched?.1 == b.clientID)
    }
  }
}
