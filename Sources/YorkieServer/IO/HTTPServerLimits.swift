import Foundation

/// The bounds and timeouts of an ``HTTPServer``. Times are in seconds of the server's clock.
package struct HTTPServerLimits: Sendable, Hashable {
  /// The bounds of each request (header size and count, body size, chunk lines).
  package var parser: HTTPRequestParser.Limits
  /// The most connections served at once. One more is answered `503 Service Unavailable` and
  /// closed. Default 4096.
  package var maxConnections: Int
  /// How long a connection may stay open with no request under way and no response pending
  /// before it is closed without a word. Default 60 s.
  package var idleTimeout: Double
  /// How long a request may take from its first byte to its last (slow headers or body) before
  /// it is answered `408 Request Timeout` and the connection closed. Default 30 s.
  package var requestTimeout: Double
  /// After its last response, a connection that the server closes stops sending and reads (and
  /// drops) what the client still sends, for at most this long, so that the client reads the
  /// response instead of a reset. Default 2 s.
  package var lingerTimeout: Double
  /// The most bytes queued for a connection that its peer is not reading (a stalled stream);
  /// beyond it the connection is closed. Default 16 MiB.
  package var maxPendingOutputBytes: Int

  /// Limits with the given values; every omitted one takes its default.
  package init(
    parser: HTTPRequestParser.Limits = HTTPRequestParser.Limits(), maxConnections: Int = 4096,
    idleTimeout: Double = 60, requestTimeout: Double = 30, lingerTimeout: Double = 2, maxPendingOutputBytes: Int = 16 << 20
  ) {
    self.parser = parser
    self.maxConnections = maxConnections
    self.idleTimeout = idleTimeout
    self.requestTimeout = requestTimeout
    self.lingerTimeout = lingerTimeout
    self.maxPendingOutputBytes = maxPendingOutputBytes
  }
}

/// The clock of an ``HTTPServer``: monotonic seconds from any origin. Tests may inject their own.
package typealias HTTPServerClock = @Sendable () -> Double

/// The default ``HTTPServerClock``: the system's uptime, which never jumps with wall-clock changes.
package let systemUptimeClock: HTTPServerClock = { ProcessInfo.processInfo.systemUptime }
