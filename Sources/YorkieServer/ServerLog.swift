/// The server's log: lines at a level, written to a sink. Quiet by default (warnings and up).
///
/// Nothing secret goes in: callers log ids, keys and methods, never tokens or API keys.
package struct ServerLog: Sendable {
  /// The least severe level written.
  package var level: LogLevel
  /// Where lines go.
  package var sink: @Sendable (String) -> Void

  /// A log at `level` into `sink` (by default: warnings and errors to standard error).
  package init(level: LogLevel = .warning, sink: @escaping @Sendable (String) -> Void = LogLevel.standardError) {
    self.level = level
    self.sink = sink
  }

  /// Whether lines of `level` are written.
  package func enabled(_ level: LogLevel) -> Bool { level >= self.level }

  /// Writes a debug line (the text is built only when written).
  package func debug(_ text: @autoclosure () -> String) { write(.debug, text) }
  /// Writes an info line.
  package func info(_ text: @autoclosure () -> String) { write(.info, text) }
  /// Writes a warning.
  package func warning(_ text: @autoclosure () -> String) { write(.warning, text) }
  /// Writes an error.
  package func error(_ text: @autoclosure () -> String) { write(.error, text) }

  /// Writes `text` at `level` if enabled.
  private func write(_ level: LogLevel, _ text: () -> String) {
    guard enabled(level) else { return }
    sink("yorkie-server [\(level)] \(text())")
  }
}
