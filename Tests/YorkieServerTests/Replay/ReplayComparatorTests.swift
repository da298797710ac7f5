import Foundation
import Testing
import YorkieProtocol

/// The replay's comparison, checked against the recordings themselves before any server is
/// involved: a recording compared with itself (also after its ids went through a made-up
/// server's ids and back) passes, and targeted perturbations fail at the right path.
@Suite("Replay: comparator")
struct ReplayComparatorTests {
  // MARK: A recording against itself

  @Test("every response and stream of a recording matches itself", arguments: ReplayRecording.names)
  func selfComparison(name: String) throws {
    let recording = try ReplayRecording.load(name)
    for exchange in recording.exchanges {
      if exchange.isStream {
        let frames = ReplayComparatorTests.frames(exchange)
        guard case .complete(extra: 0) = ReplayFrameMatcher.match(expected: frames, actual: frames) else {
          Issue.record("\(name) exchange \(exchange.index): the frames do not match themselves")
          continue
        }
      } else if case .json(let body) = exchange.response {
        let normalized = ReplayNormalizer.unaryBody(body, status: exchange.status)
        let differences = ReplayComparator.differences(expected: normalized, actual: normalized)
        #expect(differences.isEmpty, "\(name) exchange \(exchange.index): \(differences)")
        #expect(!normalized.text.contains("(undecodable"), "\(name) exchange \(exchange.index): a binary value does not decode")
      }
    }
  }

  @Test("ids mapped to another server's and back compare equal", arguments: ReplayRecording.names)
  func idRoundTrip(name: String) throws {
    let recording = try ReplayRecording.load(name)
    var ids = ReplayIDMap()
    for (index, id) in recording.ids.enumerated() {
      // A made-up server id per recorded id: same length, different bytes.
      let fake = String(format: "%024x", 0xABCDEF + index)
      #expect(ids.bind(recordedHex: id.hex, ourHex: fake) == nil)
    }
    var changed = 0
    for exchange in recording.exchanges {
      guard case .json(let body) = exchange.response else { continue }
      // "Our" answer: the recorded one spoken with the made-up ids (mapRequest maps recorded → ours).
      let ours = ids.mapRequest(body)
      if ours != body { changed += 1 }
      let back = ids.mapResponse(ReplayNormalizer.unaryBody(ours, status: exchange.status))
      let differences = ReplayComparator.differences(expected: ReplayNormalizer.unaryBody(body, status: exchange.status), actual: back)
      #expect(differences.isEmpty, "\(name) exchange \(exchange.index): \(differences)")
    }
    #expect(changed > 0, "\(name): no response carried a mapped id")
  }

  // MARK: Perturbations

  @Test("a changed serverSeq is reported at its path")
  func changedServerSeq() throws {
    let (recorded, _) = try ReplayComparatorTests.unary("02-attach-primitives.json", 1)
    let changes = try #require(recorded["changePack"]?["changes"]?.replayArray)
    var perturbed = changes
    perturbed[2] = perturbed[2].replaySetting("id", perturbed[2]["id"]!.replaySetting("serverSeq", .string("7")))
    let differences = ReplayComparatorTests.compare(recorded, recorded.replaySetting("changePack", recorded["changePack"]!.replaySetting("changes", .array(perturbed))))
    #expect(differences.map(\.path) == ["changePack.changes[2].id.serverSeq"])
    #expect(differences.first?.expected == "\"3\"" && differences.first?.actual == "\"7\"")
  }

  @Test("a missing change is reported as a count difference")
  func missingChange() throws {
    let (recorded, _) = try ReplayComparatorTests.unary("02-attach-primitives.json", 1)
    let changes = try #require(recorded["changePack"]?["changes"]?.replayArray)
    let perturbed = recorded.replaySetting("changePack", recorded["changePack"]!.replaySetting("changes", .array(Array(changes.dropLast()))))
    let differences = ReplayComparatorTests.compare(recorded, perturbed)
    #expect(differences.map(\.path) == ["changePack.changes.count"])
  }

  @Test("a different checkpoint, version vector entry or operation is reported")
  func changedPackFields() throws {
    let (recorded, _) = try ReplayComparatorTests.unary("09-presence.json", 1)
    let pack = try #require(recorded["changePack"])
    let checkpoint = pack.replaySetting("checkpoint", .object([.init("serverSeq", .string("8")), .init("clientSeq", .number("1"))]))
    #expect(ReplayComparatorTests.compare(recorded, recorded.replaySetting("changePack", checkpoint)).map(\.path) == ["changePack.checkpoint.serverSeq"])
    // A version-vector entry is meaningful even when it is 0: dropping it is a difference.
    let vector = pack.replaySetting("versionVector", .object([.init("vector", .object([.init("awJjSX63Cjb0rDuq", .string("0"))]))]))
    #expect(!ReplayComparatorTests.compare(recorded, recorded.replaySetting("changePack", vector)).isEmpty)
    // One operation of a change: a different key.
    let (nested, _) = try ReplayComparatorTests.unary("03-attach-nested.json", 1)
    let text = nested.text.replacingOccurrences(of: "\"key\":\"profile\"", with: "\"key\":\"profyle\"")
    #expect(text != nested.text)
    #expect(ReplayComparatorTests.compare(nested, try WireJSON.parse(text)).map(\.path) == ["changePack.changes[1].operations[0].set.key"])
  }

  @Test("a different error code, metadata code or status text is reported; the message is not")
  func errors() throws {
    let (recorded, status) = try ReplayComparatorTests.unary("01-client-lifecycle.json", 7)
    #expect(status == 404)
    func compare(_ text: String) throws -> [ReplayDifference] {
      ReplayComparator.differences(expected: ReplayNormalizer.unaryBody(recorded, status: status),
                                   actual: ReplayNormalizer.unaryBody(try WireJSON.parse(text), status: status))
    }
    // Another message, same code and details: equal.
    let otherMessage = recorded.replaySetting("message", .string("some other text")).text
    #expect(try compare(otherMessage).isEmpty)
    // Another code.
    #expect(try compare(recorded.replaySetting("code", .string("failed_precondition")).text).map(\.path) == ["code"])
    // Another ErrorInfo: both the decoded value and the debug rendering differ.
    let other = recorded.text
      .replacingOccurrences(of: "Cglub3RfZm91bmQaGQoEY29kZRIRRXJyQ2xpZW50Tm90Rm91bmQ", with: "Cglub3RfZm91bmQaGwoEY29kZRITRXJyRG9jdW1lbnROb3RGb3VuZA")
      .replacingOccurrences(of: "\"ErrClientNotFound\"", with: "\"ErrDocumentNotFound\"")
    let paths = try compare(other).map(\.path).sorted()
    #expect(paths == ["details[0].debug.metadata.code", "details[0].value.(binary ErrorInfo).metadata.code"])
    // No details at all where the recording has them.
    #expect(try compare(recorded.replaySetting("details", nil).text).map(\.path) == ["details"])
  }

  @Test("int64 as number or string, unpadded base64, missing defaults and member order are equal")
  func semanticEquality() throws {
    let a = try WireJSON.parse(#"{"checkpoint":{"serverSeq":"9223372036854775807","clientSeq":0},"value":"+/8=","type":"VALUE_TYPE_NULL","list":[]}"#)
    let b = try WireJSON.parse(#"{"value":"-_8","checkpoint":{"serverSeq":9223372036854775807}}"#)
    #expect(ReplayComparator.differences(expected: a, actual: b).isEmpty)
    // Beyond 2^53 the comparison is exact.
    let c = try WireJSON.parse(a.text.replacingOccurrences(of: "9223372036854775807", with: "9223372036854775806"))
    #expect(ReplayComparator.differences(expected: a, actual: c).map(\.path) == ["checkpoint.serverSeq"])
  }

  @Test("clientIds and the nodes of a binary object are sets; array and text nodes are ordered")
  func unorderedArrays() throws {
    let initA = try WireJSON.parse(#"{"clientIds":["aa","bb","bb"]}"#)
    let initB = try WireJSON.parse(#"{"clientIds":["bb","aa","bb"]}"#)
    let initC = try WireJSON.parse(#"{"clientIds":["bb","aa","aa"]}"#)
    #expect(ReplayComparator.differences(expected: initA, actual: initB).isEmpty)
    #expect(!ReplayComparator.differences(expected: initA, actual: initC).isEmpty)
    let objectA = try WireJSON.parse(#"{"jsonObject":{"nodes":[{"key":"x"},{"key":"y"}]}}"#)
    let objectB = try WireJSON.parse(#"{"jsonObject":{"nodes":[{"key":"y"},{"key":"x"}]}}"#)
    #expect(ReplayComparator.differences(expected: objectA, actual: objectB).isEmpty)
    let arrayA = try WireJSON.parse(#"{"jsonArray":{"nodes":[{"key":"x"},{"key":"y"}]}}"#)
    let arrayB = try WireJSON.parse(#"{"jsonArray":{"nodes":[{"key":"y"},{"key":"x"}]}}"#)
    #expect(!ReplayComparator.differences(expected: arrayA, actual: arrayB).isEmpty)
  }

  @Test("a binary JSONElement is compared decoded, to the ticket")
  func binaryValues() throws {
    // 03-attach-nested.json: an empty object created at 1:1 by the writer; the same at 1:2.
    let original = ReplayProtoDecoder.valueTypeNames[8]
    let a = WireJSON.object([.init("type", .string(original)), .init("value", .string("ChQSEggBEAEaDGsCY0l+two29Kw7mg=="))])
    let b = WireJSON.object([.init("type", .string(original)), .init("value", .string("ChQSEggBEAIaDGsCY0l+two29Kw7mg=="))])
    let differences = ReplayComparator.differences(expected: ReplayNormalizer.decodingBinaryValues(a), actual: ReplayNormalizer.decodingBinaryValues(b))
    #expect(differences.map(\.path) == ["value.(binary JSONElement).jsonObject.createdAt.delimiter"])
  }

  // MARK: Streams

  @Test("an extra, a missing or a reordered frame fails; a repeated DOCUMENT_CHANGED is tolerated")
  func streamFrames() throws {
    let recording = try ReplayRecording.load("13-watch.json")
    let frames = ReplayComparatorTests.frames(recording.exchanges[4])
    #expect(frames.count == 8)
    // Extra UNWATCHED at the end.
    guard case .failed(actual: 8, expected: nil, _) = ReplayFrameMatcher.match(expected: frames, actual: frames + [frames[5]]) else {
      Issue.record("an extra frame passed")
      return
    }
    // Missing last frame.
    guard case .incomplete(next: 7) = ReplayFrameMatcher.match(expected: frames, actual: Array(frames.dropLast())) else {
      Issue.record("a missing frame passed")
      return
    }
    // Two frames swapped.
    var swapped = frames
    swapped.swapAt(1, 2)
    guard case .failed(actual: 1, expected: 1, _) = ReplayFrameMatcher.match(expected: frames, actual: swapped) else {
      Issue.record("swapped frames passed")
      return
    }
    // A third DOCUMENT_CHANGED of goPoke right after the two recorded ones: tolerated.
    let repeated = Array(frames[0...4]) + [frames[4]] + Array(frames[5...])
    guard case .complete(extra: 1) = ReplayFrameMatcher.match(expected: frames, actual: repeated) else {
      Issue.record("a repeated DOCUMENT_CHANGED was not tolerated")
      return
    }
    // A DOCUMENT_CHANGED of B (frame 2) repeated after goPoke's: not a repeat of the frame before it.
    let foreign = Array(frames[0...4]) + [frames[2]] + Array(frames[5...])
    guard case .failed(actual: 5, expected: 5, _) = ReplayFrameMatcher.match(expected: frames, actual: foreign) else {
      Issue.record("an unrelated DOCUMENT_CHANGED passed")
      return
    }
    // A repeated UNWATCHED is not tolerated either.
    let unwatched = Array(frames[0...5]) + [frames[5]] + Array(frames[6...])
    guard case .failed = ReplayFrameMatcher.match(expected: frames, actual: unwatched) else {
      Issue.record("a repeated UNWATCHED passed")
      return
    }
  }

  @Test("an end-of-stream error differs by code, not by message")
  func endOfStream() throws {
    let recording = try ReplayRecording.load("13-watch.json")
    let expected = ReplayComparatorTests.frames(recording.exchanges[11])
    let reworded = ReplayNormalizer.frame(recording.exchanges[11].frames[0].json.replaySetting(
      "error", recording.exchanges[11].frames[0].json["error"]!.replaySetting("message", .string("another text"))))
    let actual = [ReplayFrame(flags: 2, json: reworded.json, seq: nil, receivedAfterExchange: nil)]
    guard case .complete = ReplayFrameMatcher.match(expected: expected, actual: actual) else {
      Issue.record("a reworded message failed")
      return
    }
    let recoded = ReplayNormalizer.frame(recording.exchanges[11].frames[0].json.replaySetting(
      "error", recording.exchanges[11].frames[0].json["error"]!.replaySetting("code", .string("canceled"))))
    guard case .failed = ReplayFrameMatcher.match(expected: expected, actual: [ReplayFrame(flags: 2, json: recoded.json, seq: nil, receivedAfterExchange: nil)]) else {
      Issue.record("another code passed")
      return
    }
  }

  // MARK: Helpers

  /// The recorded unary response of exchange `index` of `file`, and its status.
  static func unary(_ file: String, _ index: Int) throws -> (WireJSON, Int) {
    let exchange = try ReplayRecording.load(file).exchanges[index]
    guard case .json(let body) = exchange.response else { throw ReplayError("\(file) exchange \(index) has no JSON body") }
    return (body, exchange.status)
  }

  /// The differences of two unary success bodies after normalization.
  static func compare(_ expected: WireJSON, _ actual: WireJSON) -> [ReplayDifference] {
    ReplayComparator.differences(expected: ReplayNormalizer.unaryBody(expected, status: 200), actual: ReplayNormalizer.unaryBody(actual, status: 200))
  }

  /// The recorded frames of a stream exchange, normalized.
  static func frames(_ exchange: RecordedExchange) -> [ReplayFrame] {
    exchange.frames.map { frame in
      let normalized = ReplayNormalizer.frame(frame.json)
      return ReplayFrame(flags: frame.flags, json: normalized.json, seq: normalized.seq, receivedAfterExchange: frame.receivedAfterExchange)
    }
  }
}
