import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import YorkieClient

/// The client's log: quiet by default; at debug a line per call and per connection change,
/// none of which holds the auth token or the API key.
@Suite("Client: log level and sink")
struct ClientLogTests {
  /// The API key of the project.
  static let apiKey = "api-key-ABC"
  /// The token's prefix; the provider hands out `secret-token-XYZ-1`, then `-2`.
  static let token = "secret-token-XYZ"

  /// Collects records.
  final class Collector: Sendable {
    let records = LockedValue<[ClientLogRecord]>([])
    var sink: ClientLogSink { { record in self.records.withLock { $0.append(record) } } }
    var lines: [String] { records.withLock { $0.map(\.description) } }
  }

  /// Activates, attaches, updates, syncs (the first token expires on the way, so the provider
  /// is asked again), switches to realtime (a Watch stream), detaches and deactivates a client
  /// logging at `logLevel` (nil: the default) into `collector`.
  static func session(logLevel: ClientLogLevel?, into collector: Collector) async throws {
    let valid = LockedValue<Set<String>>(["\(token)-1"])
    let webhook = try TestWebhook { request in
      let body = String(decoding: request.body, as: UTF8.self)
      let allowed = valid.withLock { tokens in tokens.contains { body.contains(#""token":"\#($0)""#) } }
      if allowed { return .respond(status: 200, body: #"{"allowed":true}"#) }
      return .respond(status: 401, body: #"{"allowed":false,"reason":"token expired"}"#)
    }
    defer { webhook.stop() }
    try await withServer(YorkieDevServer.Configuration(projects: [webhook.project(publicKey: apiKey)])) { url, _ in
      let asked = LockedValue(0)
      var options = ClientOptions(apiKey: apiKey, key: "logging-client", logSink: collector.sink)
      options.authTokenProvider = { _ in
        let count = asked.withLock { count in
          count += 1
          return count
        }
        return "\(token)-\(count)"
      }
      if let logLevel { options.logLevel = logLevel }
      let client = Client(url, options: options)
      try await client.activate()
      let doc = Document(key: "logged-doc")
      // Manual first, so that the token expires before the first push-pull: the server caches
      // the webhook's answers per token and method.
      try await client.attach(doc, syncMode: .manual)
      valid.withLock { $0 = ["\(token)-2"] }
      try await doc.update { root, _ in root["logged"] = true }
      try await client.sync(doc)
      try await client.changeSyncMode(doc, to: .realtime)
      try await doc.update { root, _ in root["again"] = true }
      try await client.waitUntilAcknowledged(doc, timeout: 30)
      #expect(await eventually { await client.syncState(of: doc)?.stream == .connected })
      try await client.detach(doc)
      try await client.deactivate()
      #expect(asked.withLock { $0 } == 2)
    }
  }

  @Test("at debug: a line per call and per connection change, none with the token or the API key")
  func debugLines() async throws {
    let collector = Collector()
    try await Self.session(logLevel: .debug, into: collector)
    let lines = collector.lines
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(!line.contains(Self.token), "\(line)")
      #expect(!line.contains(Self.apiKey), "\(line)")
      #expect(line.hasPrefix("yorkie-client ["), "\(line)")
    }
    // A debug line for each call, with its key, outcome and duration.
    for method in ["AttachDocument", "PushPullChanges", "DetachDocument"] {
      #expect(lines.contains { $0.hasPrefix(#"yorkie-client [debug] \#(method) "logged-doc": ok in "#) && $0.hasSuffix(" ms") }, "\(method): \(lines)")
    }
    #expect(lines.contains { $0.hasPrefix(#"yorkie-client [debug] ActivateClient "logging-client": ok in "#) })
    #expect(lines.contains { $0.hasPrefix(#"yorkie-client [debug] DeactivateClient "logging-client": ok in "#) })
    // The refused token, at info (its reason is the webhook's, never the token).
    #expect(
      lines.contains("yorkie-client [info] PushPullChanges: the server refused the auth token (token expired); asking the token provider for a new one"),
      "\(lines)")
    // Connection and activation changes at info.
    #expect(lines.contains(#"yorkie-client [info] connectionChanged("logged-doc", connected)"#), "\(lines)")
    #expect(lines.contains(#"yorkie-client [info] statusChanged(activated)"#), "\(lines)")
    #expect(lines.contains(#"yorkie-client [debug] syncStatusChanged("logged-doc", synced)"#), "\(lines)")
    #expect(collector.records.withLock { $0.allSatisfy { $0.level >= .debug && $0.level < .off } })
  }

  @Test("at info: no call lines; by default: nothing at all")
  func quieter() async throws {
    let info = Collector()
    try await Self.session(logLevel: .info, into: info)
    #expect(!info.lines.isEmpty)
    #expect(info.records.withLock { $0.allSatisfy { $0.level >= .info } }, "\(info.lines)")
    let quiet = Collector()
    try await Self.session(logLevel: nil, into: quiet)
    #expect(quiet.lines == [])
    #expect(ClientOptions().logLevel == .off)
  }
}
