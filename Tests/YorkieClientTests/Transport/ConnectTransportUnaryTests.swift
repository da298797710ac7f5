import Foundation
import Testing
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Unary calls of ``ConnectTransport`` against the in-process server over real HTTP.
@Suite("Connect transport: unary calls", .timeLimit(.minutes(1)))
struct ConnectTransportUnaryTests {
  /// The error a call threw, as a `YorkieError` (recording an issue when it is not one).
  static func yorkieError(_ body: () async throws -> Void) async -> YorkieError? {
    do {
      try await body()
      Issue.record("the call succeeded")
    } catch let error as YorkieError {
      return error
    } catch {
      Issue.record("not a YorkieError: \(error)")
    }
    return nil
  }

  @Test("activate, attach and push-pull round-trip; a second replica pulls the first one's edit")
  func roundTrip() async throws {
    try await withServer { url, _ in
      let a = try await TransportReplica(url: url, key: "doc-round-trip", clientKey: "a")
      let b = try await TransportReplica(url: url, key: "doc-round-trip", clientKey: "b")
      #expect(a.clientID.count == 24)
      #expect(a.clientID != b.clientID)
      try await a.attach()
      try await b.attach()
      #expect(a.documentID == b.documentID)
      try await a.document.update { root, _ in root["title"] = "hello" }
      let pushed = try #require(try await a.sync())
      #expect(pushed.checkpoint?.clientSeq ?? 0 >= 1)
      try await b.sync()
      #expect(await b.document.toJSON() == #"{"title":"hello"}"#)
      let _: DeactivateClientResponse = try await a.transport.unary(
        "DeactivateClient", DeactivateClientRequest(clientID: a.clientID), shardKey: "a")
    }
  }

  @Test("an error answer carries the Connect code, the message and ErrorInfo's code")
  func errorAnswer() async throws {
    try await withServer { url, _ in
      let transport = ConnectTransport(baseURL: url)
      defer { transport.invalidate() }
      let error = await Self.yorkieError {
        let pack = try WireChangePack(jsonText: #"{"documentKey":"doc-k","checkpoint":{"serverSeq":"1","clientSeq":1}}"#)
        let _: PushPullChangesResponse = try await transport.unary(
          "PushPullChanges",
          PushPullChangesRequest(clientID: "0123456789abcdef01234567", documentID: "0123456789abcdef01234568", changePack: pack),
          shardKey: "doc-k")
      }
      #expect(error?.code == .clientNotFound)
      #expect(error?.connectCode == .notFound)
      #expect(error?.serverCode == "ErrClientNotFound")
      #expect(error?.connectError?.message.isEmpty == false)
      #expect(error?.message.contains("ErrClientNotFound") == true)
    }
  }

  @Test("an answer without a Connect error body takes its code from the HTTP status")
  func unknownMethod() async throws {
    try await withServer { url, _ in
      let transport = ConnectTransport(baseURL: url)
      defer { transport.invalidate() }
      let error = await Self.yorkieError {
        let _: ActivateClientResponse = try await transport.unary("NoSuchMethod", ActivateClientRequest(clientKey: "x"), shardKey: "x")
      }
      #expect(error?.code == YorkieError.Code("unimplemented"))
      #expect(error?.connectCode == .unimplemented)
      #expect(error?.serverCode == nil)
    }
  }

  @Test("a base URL with a path answers 404 without a Connect body: the message names the URL and asks if it is the base URL")
  func wrongBaseURL() async throws {
    try await withServer { url, _ in
      let wrong = url.appendingPathComponent("api")
      let client = Client(wrong)
      let error = await Self.yorkieError { try await client.activate() }
      #expect(error?.code == YorkieError.Code("unimplemented"))
      #expect(error?.connectCode == .unimplemented)
      #expect(
        error?.message
          == "ActivateClient: the server answered unimplemented: HTTP status 404 without a Connect error body: is \(wrong.absoluteString) the server's base URL? (A 404 comes from a wrong path, such as http://host:8080/api for http://host:8080, or from a server that is not Yorkie.)"
      )
      // The Connect error keeps what the answer said, without the hint.
      #expect(error?.connectError?.message == "HTTP status 404 without a Connect error body")
    }
  }

  @Test("a port with no server fails fast with a transport error carrying the URLError code")
  func refused() async throws {
    let server = YorkieDevServer()
    let url = try server.start()
    server.stop()  // The port is free again: nothing listens there.
    let transport = ConnectTransport(baseURL: url)
    defer { transport.invalidate() }
    let started = ContinuousClock.now
    let error = await Self.yorkieError {
      let _: ActivateClientResponse = try await transport.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
    }
    #expect(error?.code == .unavailable)
    #expect(error?.urlErrorCode == .cannotConnectToHost)
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("x-api-key selects the project; a wrong key is ErrProjectNotFound; no key is unauthenticated")
  func apiKey() async throws {
    let project = Project(name: "test", publicKey: "test-public-key")
    try await withServer(.init(projects: [project], defaultProject: nil)) { url, _ in
      let good = try await TransportReplica(url: url, key: "doc-key", apiKey: "test-public-key")
      try await good.attach()
      try await good.document.update { root, _ in root["n"] = 1 }
      try await good.sync()

      let wrong = ConnectTransport(baseURL: url, apiKey: "no-such-key", tokenProvider: { "secret-token-value" })
      defer { wrong.invalidate() }
      let error = await Self.yorkieError {
        let _: ActivateClientResponse = try await wrong.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
      }
      #expect(error?.connectCode == .notFound)
      #expect(error?.serverCode == "ErrProjectNotFound")
      #expect(!String(describing: error as Any).contains("secret-token-value"))

      let none = ConnectTransport(baseURL: url)
      defer { none.invalidate() }
      let unauthenticated = await Self.yorkieError {
        let _: ActivateClientResponse = try await none.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
      }
      #expect(unauthenticated?.connectCode == .unauthenticated)
    }
  }

  @Test("the request carries the Connect and Yorkie headers, the token from the provider")
  func headers() async throws {
    let transport = ConnectTransport(
      baseURL: URL(string: "http://127.0.0.1:1/base")!, apiKey: "pk", tokenProvider: { "token-1" }, userAgent: "yorkie-swift-sdk/test")
    defer { transport.invalidate() }
    let request = try await transport.makeRequest("PushPullChanges", shardKey: "doc-1", contentType: "application/json")
    #expect(request.url?.absoluteString == "http://127.0.0.1:1/base/yorkie.v1.YorkieService/PushPullChanges")
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(request.value(forHTTPHeaderField: "Connect-Protocol-Version") == "1")
    #expect(request.value(forHTTPHeaderField: "x-api-key") == "pk")
    #expect(request.value(forHTTPHeaderField: "x-shard-key") == "pk/doc-1")
    #expect(request.value(forHTTPHeaderField: "x-yorkie-user-agent") == "yorkie-swift-sdk/test")
    #expect(request.value(forHTTPHeaderField: "authorization") == "token-1")

    let bare = ConnectTransport(baseURL: URL(string: "http://127.0.0.1:1")!, tokenProvider: { nil })
    defer { bare.invalidate() }
    let plain = try await bare.makeRequest("ActivateClient", shardKey: "alice", contentType: "application/json")
    #expect(plain.value(forHTTPHeaderField: "x-api-key") == nil)
    #expect(plain.value(forHTTPHeaderField: "authorization") == nil)
    #expect(plain.value(forHTTPHeaderField: "x-shard-key") == "/alice")
    #expect(plain.value(forHTTPHeaderField: "x-yorkie-user-agent") == YorkieClientInfo.userAgent)
  }

  @Test("a token provider that throws stops the call before it is sent")
  func failingTokenProvider() async throws {
    struct NoToken: Error {}
    let transport = ConnectTransport(baseURL: URL(string: "http://127.0.0.1:1")!, tokenProvider: { throw NoToken() })
    defer { transport.invalidate() }
    let error = await Self.yorkieError {
      let _: ActivateClientResponse = try await transport.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
    }
    #expect(error?.code == .authTokenUnavailable)
    #expect(error?.underlying is NoToken)
  }
}

/// Timeouts and cancellation of unary calls, against a port that never answers.
@Suite("Connect transport: silence", .timeLimit(.minutes(1)))
struct ConnectTransportSilenceTests {
  @Test("a silent server times out with a transport error after the request timeout (whole seconds, at least 1)")
  func timeout() async throws {
    let listener = try SilentListener()
    let transport = ConnectTransport(baseURL: listener.url, timeouts: .init(request: 0.2))
    defer { transport.invalidate() }
    let started = ContinuousClock.now
    let error = await ConnectTransportUnaryTests.yorkieError {
      let _: ActivateClientResponse = try await transport.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
    }
    #expect(error?.code == .timedOut)
    #expect(error?.urlErrorCode == .timedOut)
    #expect(transport.timeouts.request == 1)
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5))
  }

  @Test("cancelling the calling task ends the call at once with CancellationError")
  func cancellation() async throws {
    let listener = try SilentListener()
    let transport = ConnectTransport(baseURL: listener.url)
    defer { transport.invalidate() }
    let call = Task {
      let _: ActivateClientResponse = try await transport.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
    }
    try await Task.sleep(for: .milliseconds(200))
    let started = ContinuousClock.now
    call.cancel()
    let result = await call.result
    // The silent server would hold the call for the request timeout (30 s): ending well before
    // it is the point. (2 s was too tight on a loaded host: 2.3 s was seen.)
    #expect(ContinuousClock.now - started < .seconds(15))
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test("a task cancelled before the call starts never sends it")
  func cancelledBeforehand() async throws {
    let listener = try SilentListener()
    let transport = ConnectTransport(baseURL: listener.url)
    defer { transport.invalidate() }
    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      let _: ActivateClientResponse = try await transport.unary("ActivateClient", ActivateClientRequest(clientKey: "x"), shardKey: "x")
    }
    await #expect(throws: CancellationError.self) { try await call.value }
  }
}
