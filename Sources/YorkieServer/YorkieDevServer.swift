import Foundation

/// A Yorkie-compatible development server: Yorkie's YorkieService over Connect + JSON on
/// HTTP/1.1, for tests, demos and development machines.
///
/// ```swift
/// let server = YorkieDevServer(configuration: .init())   // 127.0.0.1, a free port
/// let url = try server.start()                            // http://127.0.0.1:54321
/// defer { server.stop() }
/// ```
///
/// It keeps everything in memory unless ``Configuration/dataDirectory`` names a folder; then every
/// acknowledged change and client record survives a restart. For more than one machine, point
/// clients at a real Yorkie cluster instead: the protocol is the same.
public final class YorkieDevServer: Sendable {
  /// How a ``YorkieDevServer`` runs.
  public struct Configuration: Sendable {
    /// The address to bind; `127.0.0.1` unless told otherwise.
    public var host: String
    /// The port; 0 picks a free one (what tests want).
    public var port: Int
    /// Where documents and clients are stored; `nil` keeps them in memory only.
    public var dataDirectory: URL?
    /// How much the server logs.
    public var logLevel: LogLevel
    /// Where log lines go; standard error by default.
    public var logSink: @Sendable (String) -> Void
    /// The projects selected by `x-api-key`, besides the default one.
    public var projects: [Project]
    /// The project for requests without an API key; `nil` refuses them (`unauthenticated`).
    public var defaultProject: Project?
    /// A client this many changes behind receives a snapshot instead of changes (Yorkie: 500).
    public var snapshotThreshold: Int
    /// A snapshot is stored every this many changes of a document (Yorkie: 500).
    public var snapshotInterval: Int
    /// Clients not heard from for this many seconds are deactivated (Yorkie: 24 hours).
    public var clientDeactivateThreshold: Double
    /// A channel session not refreshed for this many seconds expires (Yorkie: 15 s).
    public var channelSessionTTL: Double

    /// A configuration with the given values; each omitted one takes its default.
    public init(
      host: String = "127.0.0.1", port: Int = 0, dataDirectory: URL? = nil, logLevel: LogLevel = .warning,
      logSink: @escaping @Sendable (String) -> Void = LogLevel.standardError, projects: [Project] = [],
      defaultProject: Project? = .default, snapshotThreshold: Int = 500, snapshotInterval: Int = 500,
      clientDeactivateThreshold: Double = 24 * 3600, channelSessionTTL: Double = 15
    ) {
      self.host = host
      self.port = port
      self.dataDirectory = dataDirectory
      self.logLevel = logLevel
      self.logSink = logSink
      self.projects = projects
      self.defaultProject = defaultProject
      self.snapshotThreshold = snapshotThreshold
      self.snapshotInterval = snapshotInterval
      self.clientDeactivateThreshold = clientDeactivateThreshold
      self.channelSessionTTL = channelSessionTTL
    }
  }

  /// The configuration the server was made with.
  public let configuration: Configuration

  /// A server that will run with `configuration`; ``start()`` starts it.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }
}

/// How much a ``YorkieDevServer`` logs, from most to least.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
  /// One line per request.
  case debug
  /// One line per connection event and per start or stop.
  case info
  /// Only what needs attention (the default, quiet in tests).
  case warning
  /// Only failures.
  case error

  /// Orders levels from the most verbose.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Writes a line to standard error.
  public static let standardError: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
