import Foundation
import Testing
import YorkieProtocol
import YorkieServer

/// The recordings replay (issue 12): every file of `Tests/YorkieProtocolTests/Fixtures/wire`
/// is replayed against a fresh ``YorkieDevServer`` and every answer, stream frame and status
/// must be the recorded one, up to ids and the deliberate differences listed in the fixture
/// README. A recording dropped into the folder is replayed without any other change.
///
/// Serialized: the replay waits for stream frames with time limits, which a machine busy with
/// seventeen servers at once would make flaky.
@Suite("Replay: recordings against YorkieDevServer", .serialized)
struct ReplayTests {
  @Test("the server answers as Yorkie v0.7.17 did", arguments: ReplayRecording.names)
  func replay(name: String) throws {
    let recording = try ReplayRecording.load(name)
    let outcome = try ReplayTests.replay(recording)
    let mismatches = outcome.mismatches
    #expect(outcome.answeredExchanges == recording.exchanges.count, "only \(outcome.answeredExchanges) of \(recording.exchanges.count) exchanges were answered")
    if mismatches.isEmpty { #expect(outcome.matchedFrames == outcome.expectedFrames) }
    // One issue per mismatch, so that each reads as `file, exchange, path: expected X got Y`.
    for mismatch in mismatches {
      if let known = ReplayKnownIssues.entry(for: mismatch) {
        withKnownIssue(Comment(rawValue: known.reason)) { Issue.record(Comment(rawValue: mismatch.description)) }
      } else {
        Issue.record(Comment(rawValue: mismatch.description))
      }
    }
    for known in ReplayKnownIssues.entries where known.file == name && !known.intermittent {
      if !mismatches.contains(where: { ReplayKnownIssues.entry(for: $0)?.details == known.details && $0.exchange == known.exchange }) {
        Issue.record("known issue no longer occurs, remove it from ReplayKnownIssues: \(known.file) exchange \(known.exchange): \(known.reason)")
      }
    }
  }

  @Test("a recording perturbed by one serverSeq is reported at that exchange and path")
  func perturbedUnary() throws {
    let recording = try ReplayRecording.load("02-attach-primitives.json")
    let perturbed = try WireJSON.parse(recording.root.text.replacingOccurrences(of: #""checkpoint":{"serverSeq":"5","clientSeq":1}"#,
                                                                                with: #""checkpoint":{"serverSeq":"6","clientSeq":1}"#))
    let mismatches = try ReplayTests.replay(try ReplayRecording(name: recording.name, root: perturbed)).mismatches
    #expect(mismatches.map(\.description) == [#"02-attach-primitives.json, exchange 2 (DetachDocument), changePack.checkpoint.serverSeq: expected "6" got "5""#])
  }

  @Test("a recorded stream frame the server does not send, and one it sends unrecorded, are reported")
  func perturbedStream() throws {
    let recording = try ReplayRecording.load("14-channel-broadcast.json")
    // Exchange 8 (B's channel stream): the recorded BROADCAST of A at exchange 9 moves to
    // another topic, so the server's frame is unrecorded and the recorded one never comes.
    let perturbed = try WireJSON.parse(recording.root.text.replacingOccurrences(of: #""publisher":"6b02634e7eb70a36f4ac40aa","topic":"cursor""#,
                                                                                with: #""publisher":"6b02634e7eb70a36f4ac40aa","topic":"cursors""#))
    #expect(perturbed != recording.root)
    let mismatches = try ReplayTests.replay(try ReplayRecording(name: recording.name, root: perturbed)).mismatches
    #expect(mismatches.map(\.description).contains { $0.hasPrefix("14-channel-broadcast.json, exchange 8 (Watch), frames[1]") && $0.contains("topic") })
  }

  /// Replays `recording` against a fresh server on a free port.
  static func replay(_ recording: ReplayRecording) throws -> ReplayRunner.Outcome {
    let server = YorkieDevServer(configuration: .init())
    let url = try server.start()
    defer { server.stop() }
    let port = try #require(url.port)
    return try ReplayRunner(recording: recording, port: port, stopServer: { server.stop() }).run()
  }
}
