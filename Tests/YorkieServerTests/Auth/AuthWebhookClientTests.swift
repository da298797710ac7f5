import CRDT
import Foundation
import Testing
import YorkieTestSupport

@testable import YorkieServer

/// `AuthWebhookClient` against a real webhook (our `HTTPServer` on 127.0.0.1): what each answer
/// means for the RPC, what the webhook receives, and that tokens never reach an error.
@Suite("Auth webhook client")
struct AuthWebhookClientTests {
  /// A token that must never show in an error.
  private let token = "Bearer s3cr3t-t0ken"
  /// The attributes of an attach with changes.
  private let attributes = [AccessAttribute(key: "doc-1", verb: .readWrite)]

  /// Asks `webhook` about an attach through a new client and returns the error, if any.
  private func authorize(
    _ webhook: TestWebhook, client: AuthWebhookClient = AuthWebhookClient(), method: AuthMethod = .attachDocument
  ) async -> ServiceError? {
    await serviceError { () async throws(ServiceError) in
      try await client.authorize(project: webhook.project(), method: method, token: token, attributes: attributes)
    }
  }

  /// ``authorize(_:client:method:)`` timed where it runs: on the server's threads, so that a
  /// busy test process (whose concurrency pool the other suites keep full) cannot add its own
  /// waiting to the duration measured.
  private func timedAuthorize(_ webhook: TestWebhook, client: AuthWebhookClient) async -> (error: ServiceError?, elapsed: Duration) {
    let result = LockedBox<(ServiceError?, Duration)>((nil, .zero))
    let (project, token, attributes) = (webhook.project(), self.token, self.attributes)
    await serverTask {
      let started = ContinuousClock.now
      let error = await serviceError { () async throws(ServiceError) in
        try await client.authorize(project: project, method: .attachDocument, token: token, attributes: attributes)
      }
      result.value = (error, ContinuousClock.now - started)
    }.value
    return result.value
  }

  /// Checks that `error` does not mention the token anywhere a log could show it.
  private func expectNoToken(_ error: ServiceError?, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else { return }
    for text in [error.message, error.description, String(describing: error), error.metadataCode ?? ""] {
      #expect(!text.contains("s3cr3t"), sourceLocation: sourceLocation)
    }
    #expect(!error.connectError.message.contains("s3cr3t"), sourceLocation: sourceLocation)
  }

  @Test("200 with allowed: true lets the call through")
  func allowed() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true,"reason":"ok"}"#)
    defer { webhook.stop() }
    #expect(await authorize(webhook) == nil)
    #expect(webhook.requestCount == 1)
  }

  @Test("The webhook receives a POST of the exact JSON body, as application/json")
  func exactBody() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient()
    let project = webhook.project()
    try await client.authorize(
      project: project, method: .pushPull, token: "tok\"en<1>",
      attributes: [AccessAttribute(key: "doc-1", verb: .readWrite), AccessAttribute(key: "doc-2", verb: .read)])
    try await client.authorize(project: project, method: .activateClient, token: nil, attributes: [])
    let requests = webhook.requests
    try #require(requests.count == 2)
    #expect(requests.allSatisfy { $0.method == "POST" && $0.path == "/auth" })
    #expect(requests.allSatisfy { $0.headers["content-type"] == "application/json" })
    #expect(String(decoding: requests[0].body, as: UTF8.self) == #"{"token":"tok\"en\u003c1\u003e","method":"PushPull","attributes":[{"key":"doc-1","verb":"rw"},{"key":"doc-2","verb":"r"}]}"#)
    #expect(String(decoding: requests[1].body, as: UTF8.self) == #"{"token":"","method":"ActivateClient","attributes":null}"#)
    // What a webhook written against Yorkie decodes.
    let decoded = try JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: Any]
    #expect(decoded?["token"] as? String == "tok\"en<1>")
    #expect((decoded?["attributes"] as? [[String: String]])?.first == ["key": "doc-1", "verb": "rw"])
  }

  @Test("The legacy Watch names in a project's list make Watch call the webhook as Watch")
  func legacyWatch() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let project = webhook.project(methods: ["WatchDocument"])
    try await AuthWebhookClient().authorize(project: project, method: .watch, token: "t", attributes: [])
    #expect(webhook.requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"token":"t","method":"Watch","attributes":null}"#])
  }

  @Test("403 with allowed: false is permission_denied with the webhook's reason")
  func denied() async throws {
    let webhook = try TestWebhook(status: 403, body: #"{"allowed":false,"reason":"read-only member"}"#)
    defer { webhook.stop() }
    let error = try #require(await authorize(webhook))
    #expect(error.code == .permissionDenied)
    #expect(error.metadataCode == "ErrPermissionDenied")
    #expect(error.extraMetadata == ["reason": "read-only member"])
    let info = try #require(error.connectError.details.first?.errorInfo)
    #expect(info.reason == "permission_denied")
    #expect(info.metadata == ["code": "ErrPermissionDenied", "reason": "read-only member"])
    expectNoToken(error)
  }

  @Test("401 with allowed: false is unauthenticated with the webhook's reason")
  func unauthenticated() async throws {
    let webhook = try TestWebhook(status: 401, body: #"{"allowed":false,"reason":"token expired"}"#)
    defer { webhook.stop() }
    let error = try #require(await authorize(webhook))
    #expect(error.code == .unauthenticated)
    #expect(error.metadataCode == "ErrUnauthenticated")
    #expect(error.extraMetadata == ["reason": "token expired"])
    expectNoToken(error)
  }

  @Test("A status other than 200, 401 and 403 is internal/ErrUnexpectedStatusCode")
  func unexpectedStatus() async throws {
    for status in [500, 404, 302, 204] {
      let webhook = try TestWebhook(status: status, body: #"{"allowed":true,"echo":"Bearer s3cr3t-t0ken"}"#)
      defer { webhook.stop() }
      let error = try #require(await authorize(webhook))
      #expect(error.code == .internal)
      #expect(error.metadataCode == "ErrUnexpectedStatusCode")
      #expect(error.message.contains("\(status)"))
      expectNoToken(error)
    }
  }

  @Test("A body that is not the JSON object is internal/ErrInvalidJSONResponse, and is not quoted")
  func malformedBody() async throws {
    for body in ["not json Bearer s3cr3t-t0ken", "", "[true]", #"{"allowed":"yes"}"#, #"{"allowed":true"#] {
      let webhook = try TestWebhook(status: 200, body: body)
      defer { webhook.stop() }
      let error = try #require(await authorize(webhook), "body \(body.debugDescription)")
      #expect(error.code == .internal)
      #expect(error.metadataCode == "ErrInvalidJSONResponse")
      expectNoToken(error)
    }
  }

  @Test("A status that contradicts allowed is internal/ErrInvalidJSONResponse, as in Yorkie")
  func contradiction() async throws {
    for (status, body) in [(200, #"{"allowed":false,"reason":"no"}"#), (200, "{}"), (403, #"{"allowed":true}"#), (401, #"{"allowed":true}"#)] {
      let webhook = try TestWebhook(status: status, body: body)
      defer { webhook.stop() }
      let error = try #require(await authorize(webhook))
      #expect(error.code == .internal)
      #expect(error.metadataCode == "ErrInvalidJSONResponse")
    }
  }

  @Test("A webhook that is not listening is internal/ErrWebhookUnreachable, at once")
  func notListening() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    webhook.stop()
    // The code says it was no timeout; the time bound (generous, for loaded sanitizer runs)
    // says the call did not wait anywhere near the minute it was allowed.
    let (answer, elapsed) = await timedAuthorize(webhook, client: AuthWebhookClient(timeout: 60))
    let error = try #require(answer)
    #expect(elapsed < .seconds(20))
    #expect(error.code == .internal)
    #expect(error.metadataCode == "ErrWebhookUnreachable")
    expectNoToken(error)
  }

  @Test(
    "A webhook that does not finish its answer within the timeout is internal/ErrWebhookTimeout, on time",
    arguments: [TestWebhook.Answer.silence, .trickle])
  func timeout(answer: TestWebhook.Answer) async throws {
    let webhook = try TestWebhook { _ in answer }
    defer { webhook.stop() }
    // Half a second: URLSession on Linux would round it down to zero, and a byte every 0.1 s
    // would keep its between-bytes timeout from ever firing. The session's own backstop is 11 s,
    // so an answer well before that is the client's own deadline (the bound is loose for loaded
    // sanitizer runs).
    let (answer, elapsed) = await timedAuthorize(webhook, client: AuthWebhookClient(timeout: 0.5))
    let error = try #require(answer)
    #expect(elapsed >= .milliseconds(450))
    #expect(elapsed < .seconds(9))
    #expect(error.code == .internal)
    #expect(error.metadataCode == "ErrWebhookTimeout")
    expectNoToken(error)
  }

  @Test("A method the project does not guard, or a project without a webhook, calls nothing")
  func notGuarded() async throws {
    let webhook = try TestWebhook(status: 403, body: #"{"allowed":false}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient()
    let project = webhook.project(methods: ["AttachDocument"])
    for method in AuthMethod.allCases where method != .attachDocument {
      try await client.authorize(project: project, method: method, token: token, attributes: attributes)
    }
    var noURL = project
    noURL.authWebhookURL = nil
    try await client.authorize(project: noURL, method: .attachDocument, token: token, attributes: attributes)
    try await client.authorize(project: webhook.project(methods: []), method: .attachDocument, token: token, attributes: attributes)
    #expect(webhook.requestCount == 0)
    #expect(await authorize(webhook, client: client)?.code == .permissionDenied)
    #expect(webhook.requestCount == 1)
  }

  @Test("A cancelled task ends the call as canceled")
  func cancelled() async throws {
    let webhook = try TestWebhook { _ in .silence }
    defer { webhook.stop() }
    let client = AuthWebhookClient(timeout: 10)
    let project = webhook.project()
    let (token, attributes) = (token, attributes)
    let task = Task {
      await serviceError { () async throws(ServiceError) in
        try await client.authorize(project: project, method: .attachDocument, token: token, attributes: attributes)
      }
    }
    for _ in 0..<1000 where webhook.requestCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
    try #require(webhook.requestCount == 1)
    let started = ContinuousClock.now
    task.cancel()
    let error = await task.value
    #expect(ContinuousClock.now - started < .seconds(9))
    #expect(error == .canceled)
  }
}
