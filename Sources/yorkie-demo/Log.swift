import Foundation
import YorkieClient

/// The demo's running log: one line per notable event, each with the seconds since the start
/// and who it is about. Lines from concurrent tasks never interleave.
final class DemoLog: Sendable {
  /// When the demo started.
  private let start = ContinuousClock.now
  /// Serializes writes.
  private let lock = Protected(())
  /// Client IDs (hex) by the name of the client that holds them.
  private let names = Protected<[String: String]>([:])

  /// The seconds since the start.
  var elapsed: Double {
    let duration = ContinuousClock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// `  0.412  bob   text`: an event about `who`.
  func event(_ who: String, _ text: String) {
    let stamp = String(format: "%6.3f", elapsed)
    let name = who.padding(toLength: 4, withPad: " ", startingAt: 0)
    write("\(stamp)  \(name) \(text)\n", to: .standardOutput)
  }

  /// A line as it is (headers and the final report).
  func plain(_ text: String) {
    write(text + "\n", to: .standardOutput)
  }

  /// `yorkie-demo: error: …` on standard error.
  func fail(_ message: String) {
    write("yorkie-demo: error: \(message)\n", to: .standardError)
  }

  /// Writes `text` at once (unbuffered, so that it lands in order with standard error).
  private func write(_ text: String, to stream: Stream) {
    lock.withLock { _ in
      let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
      handle.write(Data(text.utf8))
    }
  }

  /// Where a line goes.
  private enum Stream { case standardOutput, standardError }

  // MARK: - Names

  /// Remembers that the client ID `id` belongs to `name`.
  func register(id: String, as name: String) {
    names.withLock { $0[id] = name }
  }

  /// The name of the client with the ID `hex`, or `…` and its last six digits when it is not
  /// one of the demo's clients.
  func name(ofClient hex: String) -> String {
    names.withLock { $0[hex] } ?? "…" + hex.suffix(6)
  }

  /// The name of the client that writes as `actor`.
  func name(of actor: ActorID) -> String { name(ofClient: actor.hex) }
}
