import Foundation

/// One way the server's traffic differed from a recording: which file, which exchange, which
/// JSON path, and both values.
struct ReplayMismatch: Sendable, CustomStringConvertible {
  /// The recording.
  let file: String
  /// The exchange (nil for seeding before the first exchange).
  let exchange: Int?
  /// The exchange's method, or what the harness was doing (`seed`, `note`).
  let rpc: String
  /// `path: expected X got Y`, or a sentence.
  let detail: String

  var description: String {
    let place = exchange.map { "exchange \($0)" } ?? "before the first exchange"
    return "\(file), \(place) (\(rpc)), \(detail)"
  }
}
