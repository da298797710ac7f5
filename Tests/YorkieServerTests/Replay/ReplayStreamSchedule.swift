import Foundation

/// When the replay closes a stream that the recorder closed itself (`streamEnd`: `client
/// closed the connection`). A recording shows such a close only indirectly, so the rule is:
///
/// 1. where a note says so (`after exchange 7: client B closed its Watch connection …`);
/// 2. otherwise where ``overrides`` says, for the few streams whose close the frames do not
///    pin down;
/// 3. otherwise right after the last exchange that caused one of its frames (or its own
///    exchange, when it received none).
///
/// Closing too early loses recorded frames, too late yields frames the recording lacks, so a
/// wrong rule shows up as a mismatch rather than passing silently.
enum ReplayStreamSchedule {
  /// File → (stream's exchange → the exchange after which it is closed).
  static let overrides: [String: [Int: Int]] = [
    // A's Watch stays open through exchange 10, whose initialization lists A twice (this
    // stream and the new one); it was closed before the detaches of 14, which it did not see.
    "13-watch.json": [4: 13]
  ]

  /// The exchange after which stream `exchange` of `recording` is closed by the client; nil
  /// when the server ends it (end-of-stream envelope).
  static func closeAfter(_ exchange: RecordedExchange, in recording: ReplayRecording) -> Int? {
    guard exchange.streamEnd == "client closed the connection" else { return nil }
    if let requestClient = clientID(of: exchange) {
      for note in recording.notes {
        guard case .streamClosed(let role) = note.event, let after = note.afterExchange,
              recording.id(role: role)?.hex == requestClient else { continue }
        // The note names the client; its stream is the one open at that point.
        let laterStream = recording.exchanges.contains { $0.isStream && $0.index > exchange.index && $0.index <= after && clientID(of: $0) == requestClient }
        if exchange.index <= after && !laterStream { return after }
      }
    }
    if let override = overrides[recording.name]?[exchange.index] { return override }
    return exchange.frames.map(\.receivedAfterExchange).max() ?? exchange.index
  }

  /// The `clientId` of a recorded request.
  private static func clientID(of exchange: RecordedExchange) -> String? {
    if case .json(let body) = exchange.request { return body["clientId"]?.replayString }
    return nil
  }
}
