import Foundation
import YorkieProtocol

/// A stream frame in comparable form (see ``ReplayNormalizer/frame(_:)``).
struct ReplayFrame: Sendable {
  /// 0 = message, 2 = end of stream.
  let flags: Int
  /// The normalized payload.
  let json: WireJSON
  /// The channel event's `seq`, taken out of `json`.
  let seq: Int64?
  /// Recorded frames: the exchange after which it arrived.
  let receivedAfterExchange: Int?

  /// Whether this is a DOCUMENT_CHANGED event (Watch: `event.docEvent.event`; WatchDocument:
  /// `event`), whose type is the enum's zero value and therefore absent.
  var isDocumentChanged: Bool {
    guard flags == 0, let event = json["event"]?["docEvent"]?["event"] ?? json["event"] else { return false }
    guard event["publisher"] != nil else { return false }
    let type = event["type"] ?? .null
    return type == .null || type == .string("DOC_EVENT_TYPE_DOCUMENT_CHANGED") || type == .number("0")
  }
}

/// Matches the frames a stream delivered against the recorded ones, in order.
///
/// The one tolerance (a deliberate difference, see the fixture README): Yorkie batches events
/// per document for 100 ms and keeps at most two DOCUMENT_CHANGED events per publisher in a
/// batch, while the dev server delivers every event at once. A delivered DOCUMENT_CHANGED
/// event that repeats the delivered frame right before it (same document, same publisher) is
/// therefore allowed even when the recording has no frame for it. Nothing else may be extra,
/// missing or out of order.
enum ReplayFrameMatcher {
  /// The outcome of a match.
  enum Outcome {
    /// Every expected frame was matched; `extra` delivered repeats were tolerated.
    case complete(extra: Int)
    /// The delivered frames match a prefix of the expected ones; `next` is still missing.
    case incomplete(next: Int)
    /// Delivered frame `actual` is neither expected frame `expected` nor a tolerated repeat.
    case failed(actual: Int, expected: Int?, differences: [ReplayDifference])
  }

  /// Matches `actual` against `expected`.
  static func match(expected: [ReplayFrame], actual: [ReplayFrame]) -> Outcome {
    var next = 0
    var extra = 0
    for (index, frame) in actual.enumerated() {
      if next < expected.count, equal(expected[next], frame) {
        next += 1
        continue
      }
      if index > 0, frame.isDocumentChanged, equal(actual[index - 1], frame) {
        extra += 1
        continue
      }
      let differences = next < expected.count
        ? frameDifferences(expected[next], frame)
        : [ReplayDifference(path: "frame", expected: "no further frame", actual: "flags \(frame.flags) \(frame.json.replayShort)")]
      return .failed(actual: index, expected: next < expected.count ? next : nil, differences: differences)
    }
    return next == expected.count ? .complete(extra: extra) : .incomplete(next: next)
  }

  /// Whether two frames are the same message.
  static func equal(_ a: ReplayFrame, _ b: ReplayFrame) -> Bool { frameDifferences(a, b).isEmpty }

  /// The differences between expected frame `a` and delivered frame `b`.
  static func frameDifferences(_ a: ReplayFrame, _ b: ReplayFrame) -> [ReplayDifference] {
    var result: [ReplayDifference] = []
    if a.flags != b.flags { result.append(ReplayDifference(path: "flags", expected: String(a.flags), actual: String(b.flags))) }
    if (a.seq == nil) != (b.seq == nil) {
      result.append(ReplayDifference(path: "event.channelEvent.event.seq", expected: a.seq.map { "a seq (\($0))" } ?? "(absent)",
                                     actual: b.seq.map { "\($0)" } ?? "(absent)"))
    }
    return result + ReplayComparator.differences(expected: a.json, actual: b.json)
  }
}
