import DurableStorage
import CRDT
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
/// acknowledged change and client record survives a restart. In memory, a restart forgets every
/// client: clients then stop (`ErrClientNotFound`) or reset their stored documents
/// (``startupMessage`` says so). For more than one machine, point
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
    /// How often housekeeping runs (expired sessions, idle clients), in seconds.
    public var housekeepingInterval: Double
    /// The HTTP layer's bounds and timeouts (header and body sizes, idle and slow-request
    /// timeouts, connection count); tests shorten them.
    package var httpLimits = HTTPServerLimits()
    /// The service's clock (monotonic seconds) for client idleness and session TTLs; tests
    /// move it by hand.
    package var clock: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    /// A configuration with the given values; each omitted one takes its default.
    public init(
      host: String = "127.0.0.1", port: Int = 0, dataDirectory: URL? = nil, logLevel: LogLevel = .warning,
      logSink: @escaping @Sendable (String) -> Void = LogLevel.standardError, projects: [Project] = [],
      defaultProject: Project? = .default, snapshotThreshold: Int = 500, snapshotInterval: Int = 500,
      clientDeactivateThreshold: Double = 24 * 3600, channelSessionTTL: Double = 15, housekeepingInterval: Double = 5
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
      self.housekeepingInterval = housekeepingInterval
    }
  }

  /// The configuration the server was made with.
  public let configuration: Configuration
  /// The running parts, once started.
  private let running = Locked<Running?>(nil)

  /// What a started server is made of.
  private struct Running: Sendable {
    /// The HTTP server.
    var http: HTTPServer
    /// The Connect layer (to end its streams on stop).
    var handler: ConnectHandler
    /// The service.
    var service: YorkieService
    /// The housekeeping loop (every 5 s: expired channel sessions, idle clients).
    var housekeeping: Task<Void, Never>
    /// The durable journal, with a data directory.
    var journal: DurableJournal?
  }

  /// A server that will run with `configuration`; ``start()`` starts it.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// The service while the server runs (tests and tools read its state).
  package var service: YorkieService? { running.withLock { $0?.service } }

  /// The server's base URL while it runs (`http://127.0.0.1:54321`).
  public var url: URL? { running.withLock { $0?.http.url } }

  /// What `yorkie-server` prints once it listens (nil while the server does not run): the
  /// URL and its health check on the first line, where the data lives on the second. A server
  /// in memory says that a restart forgets every client and document, what clients then do,
  /// and that `--data-dir` keeps them.
  ///
  /// ```text
  /// yorkie-server listening on http://127.0.0.1:8080 (health: http://127.0.0.1:8080/yorkie.v1.YorkieService/health)
  /// yorkie-server keeps its data in memory only: a restart forgets every client and document …
  /// ```
  public var startupMessage: String? {
    guard let url else { return nil }
    let base = url.absoluteString
    let storage: String
    if let directory = configuration.dataDirectory {
      storage = "yorkie-server keeps its data in \(directory.path): clients and documents survive a restart"
    } else {
      storage = "yorkie-server keeps its data in memory only: a restart forgets every client and document, and clients then stop (ErrClientNotFound) or reset their stored documents; start it with --data-dir DIR to keep them"
    }
    return "yorkie-server listening on \(base) (health: \(base)/yorkie.v1.YorkieService/health)\n\(storage)"
  }

  /// Starts serving: binds the address (port 0 picks a free port) and returns the base URL.
  ///
  /// - Throws: ``YorkieDevServerError`` when the address cannot be bound or the server was
  ///   already started.
  @discardableResult
  public func start() throws(YorkieDevServerError) -> URL {
    try running.withLock { (running) throws(YorkieDevServerError) -> URL in
      guard running == nil else { throw YorkieDevServerError("the server is already running") }
      let log = ServerLog(level: configuration.logLevel, sink: configuration.logSink)
      var settings = ServiceSettings()
      settings.snapshotThreshold = Int64(configuration.snapshotThreshold)
      settings.snapshotInterval = Int64(configuration.snapshotInterval)
      settings.clientDeactivateThreshold = configuration.clientDeactivateThreshold
      settings.channelSessionTTL = configuration.channelSessionTTL
      var seed = SystemRandomNumberGenerator()
      let ids = ResourceIDGenerator(random: SplitMix64(seed: seed.next()), now: { Date().timeIntervalSince1970 })
      var state = ServiceState(settings: settings, ids: ids)
      var journal: DurableJournal?
      if let directory = configuration.dataDirectory {
        journal = try Self.openJournal(in: directory, into: &state, log: log, now: configuration.clock())
      }
      let webhook = AuthWebhookClient()
      let service = YorkieService(
        state: state, journal: journal ?? MemoryJournal(), log: log, now: configuration.clock,
        authorize: { (project, method, token, attributes) async throws(ServiceError) in
          try await webhook.authorize(project: project, method: method, token: token, attributes: attributes)
        })
      let registry = ProjectRegistry(defaultProject: configuration.defaultProject, projects: configuration.projects)
      let handler = ConnectHandler(service: service, log: log) { (key) throws(ServiceError) -> Project in
        try registry.project(forAPIKey: key)
      }
      let http = HTTPServer(host: configuration.host, port: configuration.port, limits: configuration.httpLimits, handler: handler)
      let url: URL
      do {
        url = try http.start()
      } catch {
        journal?.close()
        throw YorkieDevServerError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
      }
      let interval = UInt64(max(configuration.housekeepingInterval, 0.01) * 1e9)
      let housekeeping = serverTask {
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: interval)
          if !Task.isCancelled { await service.housekeeping() }
        }
      }
      if !["127.0.0.1", "::1", "localhost"].contains(configuration.host) {
        log.warning("listening on \(configuration.host), reachable from other machines: this development server has no TLS")
      }
      log.info("listening on \(url.absoluteString)")
      running = Running(http: http, handler: handler, service: service, housekeeping: housekeeping, journal: journal)
      return url
    }
  }

  /// Stops serving: ends every open stream with `canceled`, closes every connection and the
  /// listener. Does nothing when the server is not running.
  public func stop() {
    guard let parts = running.withLock({ running -> Running? in
      defer { running = nil }
      return running
    }) else { return }
    parts.housekeeping.cancel()
    parts.handler.cancelAllStreams()
    parts.http.stop()
    parts.journal?.close()
    parts.service.log.info("stopped")
  }

  /// Opens (or creates) `directory/journal.log` and replays it into `state`. A torn tail (a
  /// write a crash cut short, never acknowledged) is cut off and reported; anything else that
  /// does not read back stops the start with the file and offset.
  private static func openJournal(in directory: URL, into state: inout ServiceState, log: ServerLog, now: Double) throws(YorkieDevServerError) -> DurableJournal {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw YorkieDevServerError("cannot create the data directory \(directory.path): \(error.localizedDescription)")
    }
    let file = directory.appendingPathComponent("journal.log")
    let opened: (DurableLog, DurableLog.Recovery)
    do throws(StorageError) {
      opened = try DurableLog.open(at: file)
    } catch {
      throw YorkieDevServerError("cannot open the journal: \(error)")
    }
    let (durable, recovery) = opened
    if let torn = recovery.tornTail {
      log.warning("\(file.path): cut a torn tail of \(torn.droppedBytes) bytes at offset \(torn.offset) (a write the last run did not finish; it was never acknowledged)")
    }
    for (index, payload) in recovery.records.enumerated() {
      do {
        for record in try JournalCodec.decode(payload) { try state.replay(record, now: now) }
      } catch {
        durable.close()
        throw YorkieDevServerError("\(file.path): journal entry \(index + 1) cannot be replayed: \(error)")
      }
    }
    log.info("\(file.path): replayed \(recovery.records.count) steps: \(state.clients.count) clients, \(state.documents.count) documents")
    return DurableJournal(log: durable)
  }

  /// Stops the server if it still runs.
  deinit {
    stop()
  }
}

/// Why a ``YorkieDevServer`` could not start.
public struct YorkieDevServerError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// An error saying `description`.
  public init(_ description: String) {
    self.description = description
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
