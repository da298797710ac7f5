import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import YorkieClient

/// Auth through the server's webhook: the token provider is asked before the first call and
/// again when a token expires (the refused call is retried once); a refusal that a fresh token
/// does not fix is reported as an auth error; a denied action is not retried.
@Suite("Client: auth tokens through the server's webhook")
struct AuthTests {
  /// A webhook that allows the tokens in `valid`, answers 401 "token expired" for others, and
  /// 403 for the token "forbidden".
  static func webhook(_ valid: LockedValue<Set<String>>) throws -> TestWebhook {
    try TestWebhook { request in
      let body = String(decoding: request.body, as: UTF8.self)
      if body.contains(#""token":"forbidden""#) { return .respond(status: 403, body: #"{"allowed":false,"reason":"not yours"}"#) }
      let allowed = valid.withLock { tokens in tokens.contains { body.contains(#""token":"\#($0)""#) } }
      if allowed { return .respond(status: 200, body: #"{"allowed":true}"#) }
      return .respond(status: 401, body: #"{"allowed":false,"reason":"token expired"}"#)
    }
  }

  /// Records the reasons the provider was asked with and hands out `t1`, `t2`, ….
  final class Provider: Sendable {
    let reasons = LockedValue<[AuthTokenReason]>([])
    let tokens: @Sendable (Int) -> String
    init(_ tokens: @escaping @Sendable (Int) -> String = { "t\($0)" }) { self.tokens = tokens }
    var provide: AuthTokenProvider {
      { reason in
        let count = self.reasons.withLock { reasons in
          reasons.append(reason)
          return reasons.count
        }
        return self.tokens(count)
      }
    }
  }

  @Test("an expired token is replaced once, the call retried, and the edit gets through")
  func refreshOnExpiry() async throws {
    let valid = LockedValue<Set<String>>(["t1"])
    let webhook = try Self.webhook(valid)
    defer { webhook.stop() }
    try await withServer(YorkieDevServer.Configuration(projects: [webhook.project(publicKey: "auth-key")])) { url, server in
      let provider = Provider()
      let client = Client(url, options: ClientOptions(apiKey: "auth-key", authTokenProvider: provider.provide, key: "auth"))
      let events = EventRecorder(client.events())
      try await client.activate()
      let doc = Document(key: "auth-doc")
      try await client.attach(doc, syncMode: .manual)
      #expect(provider.reasons.withLock { $0 } == [.initial])
      // t1 expires; the next call (the first PushPull, which the webhook has not cached) is refused.
      valid.withLock { $0 = ["t2"] }
      try await doc.update { root, _ in root["signed"] = true }
      try await client.sync(doc)
      #expect(provider.reasons.withLock { $0 } == [.initial, .tokenExpired("token expired")])
      #expect(try await serverJSON(server, "auth-doc", project: "auth-key") == #"{"signed":true}"#)
      #expect(!events.recorded.contains { if case .authError = $0 { return true } else { return false } })
      let authorizations = webhook.requests.map { String(decoding: $0.body, as: UTF8.self) }
      #expect(authorizations.contains { $0.contains(#""token":"t2""#) && $0.contains("PushPull") })
      try await client.deactivate()
    }
  }

  @Test("a token the server keeps refusing is reported as an auth error and the sync fails")
  func refusedAgain() async throws {
    let valid = LockedValue<Set<String>>(["t1"])
    let webhook = try Self.webhook(valid)
    defer { webhook.stop() }
    try await withServer(YorkieDevServer.Configuration(projects: [webhook.project(publicKey: "auth-key")])) { url, _ in
      let provider = Provider()
      let client = Client(url, options: ClientOptions(apiKey: "auth-key", authTokenProvider: provider.provide, key: "auth"))
      let events = EventRecorder(client.events())
      try await client.activate()
      let doc = Document(key: "auth-doc-2")
      try await client.attach(doc, syncMode: .manual)
      valid.withLock { $0 = [] }
      do {
        try await client.sync(doc)
        Issue.record("a refused sync succeeded")
      } catch let error as YorkieError {
        #expect(error.code == .unauthenticated)
      }
      #expect(provider.reasons.withLock { $0.count } == 2, "one refresh, then the call is retried once only")
      #expect(await events.waitFor {
        if case .authError(let reason, let method) = $0 { return reason.contains("token expired") && method == "PushPullChanges" }
        return false
      })
      try? await client.deactivate()
    }
  }

  @Test("a provider that throws fails the call with authTokenUnavailable and reports it")
  func providerFails() async throws {
    let valid = LockedValue<Set<String>>(["t1"])
    let webhook = try Self.webhook(valid)
    defer { webhook.stop() }
    try await withServer(YorkieDevServer.Configuration(projects: [webhook.project(publicKey: "auth-key")])) { url, _ in
      struct Offline: Error {}
      let client = Client(url, options: ClientOptions(apiKey: "auth-key", authTokenProvider: { _ in throw Offline() }, key: "auth"))
      let events = EventRecorder(client.events())
      do {
        try await client.activate()
        Issue.record("activated without a token")
      } catch let error as YorkieError {
        #expect(error.code == .authTokenUnavailable)
      }
      #expect(await client.status == .deactivated)
      #expect(await events.waitFor { if case .authError(_, "ActivateClient") = $0 { return true } else { return false } })
    }
  }

  @Test("an action the webhook denies (403) is not retried")
  func permissionDenied() async throws {
    let valid = LockedValue<Set<String>>(["t1"])
    let webhook = try Self.webhook(valid)
    defer { webhook.stop() }
    try await withServer(YorkieDevServer.Configuration(projects: [webhook.project(publicKey: "auth-key")])) { url, _ in
      let provider = Provider { $0 == 1 ? "t1" : "forbidden" }
      let client = Client(url, options: ClientOptions(apiKey: "auth-key", authTokenProvider: provider.provide, key: "auth"))
      let events = EventRecorder(client.events())
      try await client.activate()
      let doc = Document(key: "auth-doc-3")
      // Push-only: no PushPull before the edit, so the webhook has no cached answer for it.
      try await client.attach(doc, syncMode: .realtimePushOnly)
      valid.withLock { $0 = [] }
      try await doc.update { root, _ in root["x"] = 1 }
      let stopped = await events.waitFor {
        if case .stopped(let notice) = $0 { return notice.error.code == .permissionDenied } else { return false }
      }
      #expect(stopped, "\(events.recorded)")
      #expect(!events.recorded.contains {
        if case .retrying(let notice) = $0 { return notice.resource == .documentSync("auth-doc-3") } else { return false }
      })
      try? await client.deactivate()
    }
  }
}
