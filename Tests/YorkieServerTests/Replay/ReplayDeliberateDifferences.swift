import Foundation
import YorkieProtocol

/// The documented, deliberate differences between the dev server and Yorkie v0.7.17, keyed by
/// recording and exchange: the only places where the replay does not expect the recorded
/// answer. Each entry is listed, with its reason, in the fixture README ("Deliberate
/// differences of the Swift dev server"). Nothing is ignored by pattern: an entry names one
/// exchange of one file.
///
/// Two differences are not exchange-specific and live in the matching rules instead: extra
/// DOCUMENT_CHANGED repeats (``ReplayFrameMatcher``, no 100 ms batching) and the absent
/// `Accept-Encoding`/`Connect-Accept-Encoding` response headers (``ReplayRunner``, no
/// compression). (The order of a watch initialization's `clientIds` is not a difference: it is
/// a set on both servers, compared as one by ``ReplayComparator``.)
enum ReplayDeliberateDifferences {
  /// What the replay does instead of the plain comparison.
  enum Rule: Sendable {
    /// The dev server refuses the recorded request with `status` and Connect `code` where Yorkie
    /// accepted it. The replay checks that refusal, then sends `substitute(request)` — the
    /// request as Yorkie understood it — and compares that answer with the recording, so that
    /// the rest of the scenario stays comparable.
    case refusedThenSubstitute(status: Int, code: String, substitute: @Sendable (WireJSON) -> WireJSON)
    /// The snapshot of a reconstructed document (``ReplaySnapshotSeed``) is compared by its live
    /// content (``ReplaySnapshotContent``): tombstones and their removal tickets are Yorkie's
    /// history, which the reconstruction does not repeat. `ignoring` lists further paths of the
    /// response that are not compared, each explained in the README.
    case snapshotLiveContent(ignoring: [String])
    /// Recorded frames (indexes into the stream's `response`) that the dev server does not
    /// send, because Yorkie delivered them only thanks to its 100 ms batching.
    case framesNotSent([Int])
    /// Response header `name` has `value` instead of the recorded one.
    case header(name: String, value: String)
    /// Elements nested in a pushed Set/Add value come back as pushed: without the `movedAt`
    /// equal to their `createdAt` that Yorkie's re-encoding adds. Compared after dropping such
    /// a `movedAt` from both sides (a `movedAt` that differs from `createdAt` still counts).
    case nestedMovedAtEqualToCreatedAt
  }

  /// An entry: one exchange of one recording.
  struct Entry: Sendable {
    let file: String
    let exchange: Int
    /// One line; the README has the full reason.
    let reason: String
    let rule: Rule
  }

  /// Every entry.
  static let entries: [Entry] = [
    Entry(
      file: "16-errors.json", exchange: 25,
      reason: "an unknown enum name (VALUE_TYPE_BOGUS) is refused with invalid_argument; Yorkie read it as 0 and stored a Set of null",
      rule: .refusedThenSubstitute(status: 400, code: "invalid_argument", substitute: { request in
        // What Yorkie stored: the same Set with the value type 0 (null) and no payload.
        request.replayMappingObjects { members in
          guard members.contains(where: { $0.key == "type" && $0.value == .string("VALUE_TYPE_BOGUS") }) else { return members }
          return members.filter { $0.key != "type" && $0.key != "value" }
        }
      })),
    Entry(
      file: "11-snapshot.json", exchange: 1,
      reason: "the document is a reconstruction of the recorded snapshot's live content, not the Go writer's 523 changes; its version vector names the writer besides the zero actor (Yorkie's names only the zero actor)",
      rule: .snapshotLiveContent(ignoring: ["changePack.versionVector"])),
    Entry(
      file: "12-pushpull-handmade.json", exchange: 5,
      reason: "nested elements of a pushed Set/Add value come back without Yorkie's movedAt = createdAt (same meaning: a position ticket defaults to createdAt)",
      rule: .nestedMovedAtEqualToCreatedAt),
    Entry(
      file: "13-watch.json", exchange: 5,
      reason: "B's stream got A's DOCUMENT_WATCHED only because Yorkie's 100 ms batch holding it was flushed after B subscribed; A watched before B, and the dev server delivers at once",
      rule: .framesNotSent([1])),
    Entry(
      file: "16-errors.json", exchange: 19,
      reason: "415 lists the content types the dev server accepts (Connect with JSON only), not Yorkie's gRPC, gRPC-Web and protobuf ones",
      rule: .header(name: "accept-post", value: "application/json, application/json; charset=utf-8")),
  ]

  /// The entry for exchange `exchange` of `file`, if any.
  static func entry(file: String, exchange: Int) -> Entry? {
    entries.first { $0.file == file && $0.exchange == exchange }
  }
}
