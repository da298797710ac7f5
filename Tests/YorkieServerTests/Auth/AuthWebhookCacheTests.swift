import CRDT
import Foundation
import Testing
import YorkieTestSupport

@testable import YorkieServer

/// How `AuthWebhookClient` reuses answers: for 10 s per project and request body, except 401.
@Suite("Auth webhook answer cache")
struct AuthWebhookCacheTests {
  /// Asks `client` about `method` with `token` for `project`; returns the error, if any.
  private func ask(
    _ client: AuthWebhookClient, _ project: Project, token: String = "t", method: AuthMethod = .attachDocument,
    key: String = "doc-1"
  ) async -> ServiceError? {
    await serviceError { () async throws(ServiceError) in
      try await client.authorize(project: project, method: method, token: token, attributes: [AccessAttribute(key: key, verb: .read)])
    }
  }

  @Test("Two identical requests within 10 s make one webhook call")
  func reuseWithinTTL() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let clock = ManualClock()
    let client = AuthWebhookClient(clock: clock.read)
    let project = webhook.project()
    #expect(await ask(client, project) == nil)
    clock.advance(9.9)
    #expect(await ask(client, project) == nil)
    #expect(webhook.requestCount == 1)
  }

  @Test("After 10 s the webhook is asked again")
  func expiry() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let clock = ManualClock()
    let client = AuthWebhookClient(clock: clock.read)
    let project = webhook.project()
    #expect(await ask(client, project) == nil)
    clock.advance(10)
    #expect(await ask(client, project) == nil)
    #expect(webhook.requestCount == 2)
    #expect(await ask(client, project) == nil)
    #expect(webhook.requestCount == 2)
  }

  @Test("A denial (403) is reused too, with its reason")
  func deniedIsCached() async throws {
    let webhook = try TestWebhook(status: 403, body: #"{"allowed":false,"reason":"nope"}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient(clock: ManualClock().read)
    let project = webhook.project()
    let first = await ask(client, project)
    let second = await ask(client, project)
    #expect(first == .permissionDenied(reason: "nope"))
    #expect(second == first)
    #expect(webhook.requestCount == 1)
  }

  @Test("401 is never reused: a client retrying with a fresh token, or the same one, is asked about again")
  func unauthenticatedNotCached() async throws {
    let webhook = try TestWebhook(status: 401, body: #"{"allowed":false,"reason":"expired"}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient(clock: ManualClock().read)
    let project = webhook.project()
    #expect(await ask(client, project)?.code == .unauthenticated)
    #expect(await ask(client, project)?.code == .unauthenticated)
    #expect(webhook.requestCount == 2)
    #expect(client.cachedAnswerCount == 0)
  }

  @Test("An answer that contradicts its status is reused too (Yorkie caches the parsed answer)")
  func contradictionIsCached() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":false}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient(clock: ManualClock().read)
    let project = webhook.project()
    #expect(await ask(client, project)?.metadataCode == "ErrInvalidJSONResponse")
    #expect(await ask(client, project)?.metadataCode == "ErrInvalidJSONResponse")
    #expect(webhook.requestCount == 1)
  }

  @Test("Failures are not reused: a webhook that recovers is asked again")
  func failuresNotCached() async throws {
    let calls = Locked(0)
    let webhook = try TestWebhook { _ in
      calls.withLock { $0 += 1; return $0 } == 1 ? .respond(status: 503, body: "") : .respond(status: 200, body: #"{"allowed":true}"#)
    }
    defer { webhook.stop() }
    let client = AuthWebhookClient(clock: ManualClock().read)
    let project = webhook.project()
    #expect(await ask(client, project)?.metadataCode == "ErrUnexpectedStatusCode")
    #expect(await ask(client, project) == nil)
    #expect(webhook.requestCount == 2)
    let malformed = try TestWebhook(status: 200, body: "{")
    defer { malformed.stop() }
    #expect(await ask(client, malformed.project(publicKey: "other-key"))?.metadataCode == "ErrInvalidJSONResponse")
    #expect(await ask(client, malformed.project(publicKey: "other-key"))?.metadataCode == "ErrInvalidJSONResponse")
    #expect(malformed.requestCount == 2)
  }

  @Test("Answers are per request body and per project: another token, method, key or project asks again")
  func keyedByBodyAndProject() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient(clock: ManualClock().read)
    let project = webhook.project(publicKey: "p1")
    #expect(await ask(client, project) == nil)
    #expect(await ask(client, project, token: "other") == nil)
    #expect(await ask(client, project, method: .pushPull) == nil)
    #expect(await ask(client, project, key: "doc-2") == nil)
    #expect(await ask(client, webhook.project(publicKey: "p2")) == nil)
    #expect(webhook.requestCount == 5)
    #expect(await ask(client, project, token: "other") == nil)
    #expect(webhook.requestCount == 5)
  }

  @Test("The cache keeps at most its capacity")
  func bounded() async throws {
    let webhook = try TestWebhook(status: 200, body: #"{"allowed":true}"#)
    defer { webhook.stop() }
    let client = AuthWebhookClient(cacheCapacity: 4, clock: ManualClock().read)
    let project = webhook.project()
    for index in 0..<10 { #expect(await ask(client, project, key: "doc-\(index)") == nil) }
    #expect(client.cachedAnswerCount == 4)
    #expect(await ask(client, project, key: "doc-9") == nil)
    #expect(webhook.requestCount == 10)
    #expect(await ask(client, project, key: "doc-0") == nil)
    #expect(webhook.requestCount == 11)
  }
}
