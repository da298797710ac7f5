import CRDT
import Foundation

/// How much a ``Client`` writes to its log (``ClientOptions/logLevel``): a level lets through
/// its own lines and every more severe one.
public enum ClientLogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
  /// Every call: method, document (or client) key, duration and outcome.
  case debug
  /// Connection and sync changes, activation, retries with their delay.
  case info
  /// What needs attention: a document's or channel's sync stopped, a stored document was
  /// reset, a store file was damaged, the server refused the credentials.
  case warning
  /// Failures only (none of the client's lines at present: what fails reaches the app as an
  /// error or a warning).
  case error
  /// Nothing is written (the default).
  case off

  /// Orders levels from the most verbose.
  public static func < (lhs: ClientLogLevel, rhs: ClientLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `debug`, `info`, `warning`, `error`, `off`.
  public var description: String {
    switch self {
    case .debug: return "debug"
    case .info: return "info"
    case .warning: return "warning"
    case .error: return "error"
    case .off: return "off"
    }
  }
}

/// One line of a client's log.
public struct ClientLogRecord: Sendable, Hashable, CustomStringConvertible {
  /// How severe it is.
  public var level: ClientLogLevel
  /// What happened, such as `PushPullChanges "todos": ok in 12 ms`. Never holds the auth
  /// token or the API key.
  public var message: String

  /// A record of `message` at `level`.
  public init(level: ClientLogLevel, message: String) {
    self.level = level
    self.message = message
  }

  /// `yorkie-client [debug] PushPullChanges "todos": ok in 12 ms`.
  public var description: String { "yorkie-client [\(level)] \(message)" }
}

/// Where a client's log lines go (``ClientOptions/logSink``). Called on the client's tasks,
/// possibly from several at once: it must not block for long.
public typealias ClientLogSink = @Sendable (ClientLogRecord) -> Void

extension ClientLogRecord {
  /// Writes the record's ``description`` as one line to standard error (the default sink).
  public static let standardError: ClientLogSink = { record in
    FileHandle.standardError.write(Data((record.description + "\n").utf8))
  }
}

/// The client's log: ``ClientOptions/logLevel`` and ``ClientOptions/logSink`` together. The
/// text of a line is built only when its level is written.
///
/// Nothing secret goes in: lines name methods, document and client keys, error codes and
/// messages (which name the method and the code, never a header; see TransportErrors.swift),
/// never the auth token or the API key.
struct ClientLog: Sendable {
  /// The least severe level written.
  let level: ClientLogLevel
  /// Where lines go.
  let sink: ClientLogSink

  /// A log at `level` into `sink`.
  init(level: ClientLogLevel, sink: @escaping ClientLogSink) {
    self.level = level
    self.sink = sink
  }

  /// A log that writes nothing.
  static let off = ClientLog(level: .off, sink: { _ in })

  /// Whether lines of `level` are written.
  func enabled(_ level: ClientLogLevel) -> Bool { level != .off && level >= self.level }

  /// Writes a debug line.
  func debug(_ text: @autoclosure () -> String) { write(.debug, text) }
  /// Writes an info line.
  func info(_ text: @autoclosure () -> String) { write(.info, text) }
  /// Writes a warning.
  func warning(_ text: @autoclosure () -> String) { write(.warning, text) }

  /// Writes `text` at `level` if enabled.
  func write(_ level: ClientLogLevel, _ text: () -> String) {
    guard enabled(level) else { return }
    sink(ClientLogRecord(level: level, message: text()))
  }

  /// Writes the line of a client event, at the level its kind deserves: what the app is told
  /// through ``Client/events()`` is what the log says, so that the two never disagree.
  func record(_ event: ClientEvent) {
    write(Self.level(of: event)) { event.description }
  }

  /// The level of an event's line: sync outcomes are debug (one per push-pull), connection and
  /// activation changes and retries info, what stopped or was lost a warning.
  static func level(of event: ClientEvent) -> ClientLogLevel {
    switch event {
    case .syncStatusChanged(_, .synced): return .debug
    case .syncStatusChanged(_, .syncFailed), .connectionChanged, .statusChanged, .retrying, .channelAttached: return .info
    // A torn tail is the normal trace of a crash: information, the records before it resume.
    case .storeDamaged(let notice) where notice.kind == .tornTail: return .info
    case .stopped, .authError, .storeDamaged, .documentReset: return .warning
    }
  }

  /// Writes the debug line of a call to `method` for `key` that took from `start` to now and
  /// ended with `failure` (nil: it succeeded).
  func call(_ method: String, key: String, since start: ContinuousClock.Instant, failure: (any Error)?) {
    guard enabled(.debug) else { return }
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    let outcome: String
    switch failure {
    case nil: outcome = "ok"
    case let error as YorkieError: outcome = "failed (\(error.code)): \(error.message)"
    case is CancellationError: outcome = "cancelled"
    case let error?: outcome = "failed (\(type(of: error)))"
    }
    write(.debug) { "\(method) \"\(key)\": \(outcome) in \(String(format: "%.0f", milliseconds)) ms" }
  }
}
