import Foundation

/// Why the client asks the app for an auth token.
public enum AuthTokenReason: Sendable, Equatable {
  /// Before the first call that needs one.
  case initial
  /// The server answered `unauthenticated` (the token expired or was revoked); its message.
  case tokenExpired(String)
}

/// Gives the token the client sends in the `authorization` header. Asked before the first
/// call, and again when the server refuses the token; a throw fails the call (and reports an
/// auth error event), it never crashes the client.
public typealias AuthTokenProvider = @Sendable (AuthTokenReason) async throws -> String

/// How long the client's calls may stay silent.
public struct ClientTimeouts: Sendable, Hashable {
  /// A call (ActivateClient, PushPullChanges, …) fails with `timedOut` when no byte of its
  /// answer arrives for this many seconds. Rounded up to whole seconds (Linux's
  /// FoundationNetworking has no finer resolution).
  public var request: TimeInterval
  /// A Watch stream is reopened when no byte arrives for this many seconds. Yorkie sends no
  /// heartbeats on a quiet document, so this is long by default (a week); a network that cuts
  /// quiet connections is better served by the polling sync mode.
  public var streamIdle: TimeInterval

  /// Timeouts with the given values (30 s per call, a week of stream silence by default).
  public init(request: TimeInterval = 30, streamIdle: TimeInterval = 7 * 24 * 3600) {
    self.request = request
    self.streamIdle = streamIdle
  }
}

/// How a ``Client`` connects: credentials, identity, timeouts, the retry policy and the log.
///
/// ```swift
/// var options = ClientOptions(apiKey: "my-project-public-key")
/// options.authTokenProvider = { reason in try await session.freshToken() }
/// options.reconnect = ReconnectPolicy(base: 1, cap: 60)
/// options.logLevel = .info                        // connection changes, retries, warnings
/// let client = Client(URL(string: "https://yorkie.example.com")!, options: options)
/// ```
public struct ClientOptions: Sendable {
  /// The project's public key, sent as `x-api-key` and in `x-shard-key`; nil for the
  /// server's default project.
  public var apiKey: String?
  /// Gives the `authorization` token; nil sends none.
  public var authTokenProvider: AuthTokenProvider?
  /// The client's key, a name for this client in the server's records (a random UUID by
  /// default).
  public var key: String
  /// Metadata sent with ActivateClient (a user name, a device, …).
  public var metadata: [String: String]
  /// How long calls and streams may stay silent.
  public var timeouts: ClientTimeouts
  /// How failed calls and streams are retried.
  public var reconnect: ReconnectPolicy
  /// How often an attached channel's session is refreshed, in seconds (Yorkie's servers drop a
  /// session after 15 s without one; the JS SDK refreshes every 5 s).
  public var channelHeartbeatInterval: TimeInterval
  /// Sent as `x-yorkie-user-agent`.
  public var userAgent: String
  /// How long, in seconds, a document released by its last user of
  /// ``Client/release(_:)`` stays attached before it is detached (3 s by default). Acquiring it
  /// again with ``Client/document(_:initialPresence:syncMode:initialRoot:)`` meanwhile keeps it attached,
  /// so that a screen closed and reopened quickly does not detach and reattach.
  public var lingerDelay: TimeInterval
  /// Where documents are kept between launches: in memory by default, or in a directory
  /// (see ``DocumentStorage``).
  public var storage: DocumentStorage
  /// How much the client writes to ``logSink``: ``ClientLogLevel/off`` (nothing, the
  /// default), or a level and every more severe one (``ClientLogLevel/debug`` writes a line per
  /// call). Lines never hold the auth token or the API key.
  public var logLevel: ClientLogLevel
  /// Where log lines go: standard error by default.
  public var logSink: ClientLogSink
  /// The clock and random source of the retry loops: tests put their own here.
  package var environment: ClientEnvironment

  /// Options with the given values; each omitted one takes its default.
  public init(
    apiKey: String? = nil, authTokenProvider: AuthTokenProvider? = nil, key: String = UUID().uuidString,
    metadata: [String: String] = [:], timeouts: ClientTimeouts = ClientTimeouts(),
    reconnect: ReconnectPolicy = ReconnectPolicy(), channelHeartbeatInterval: TimeInterval = 5,
    userAgent: String = YorkieClientInfo.userAgent, lingerDelay: TimeInterval = 3,
    storage: DocumentStorage = .memory, logLevel: ClientLogLevel = .off,
    logSink: @escaping ClientLogSink = ClientLogRecord.standardError
  ) {
    self.storage = storage
    self.logLevel = logLevel
    self.logSink = logSink
    self.apiKey = apiKey
    self.authTokenProvider = authTokenProvider
    self.key = key
    self.metadata = metadata
    self.timeouts = timeouts
    self.reconnect = reconnect
    self.channelHeartbeatInterval = channelHeartbeatInterval
    self.userAgent = userAgent
    self.lingerDelay = lingerDelay
    self.environment = .live
  }
}
