@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// Bad input from the wire: every case gives a precise error naming where it is, never a
/// crash; and a seeded mutation fuzzer over the recorded traffic.
@Suite("Malformed wire input")
struct MalformedInputTests {
  /// Decodes `text` as `M` and returns the error message, or nil when it decoded.
  func failure<M: WireMessage>(_ type: M.Type, _ text: String) -> String? {
    do {
      _ = try M(jsonText: text)
      return nil
    } catch {
      #expect(error.code == .invalidWireData)
      return error.message
    }
  }

  @Test func malformedJSONNamesTheByte() {
    let cases: [(String, String)] = [
      ("", "unexpected end of input at byte 0"),
      (#"{"clientKey": "a""#, "unterminated object"),
      (#"{"clientKey": "a"} x"#, "unexpected characters after the value"),
      (#"{"clientKey": 'a'}"#, "unexpected character"),
      (#"{"clientKey": "\ud800"}"#, "unpaired surrogate escape"),
      (#"{"clientKey": "\q"}"#, "invalid escape"),
      (#"{"n": 01}"#, "expected '}' at byte 7"),
      (#"{"n": 1.}"#, "no digits after the point"),
      (#"{"n": -}"#, "invalid number"),
      ("{\"clientKey\": \"a\u{01}\"}", "unescaped control character"),
    ]
    for (text, expected) in cases {
      let message = failure(ActivateClientRequest.self, text)
      #expect(message?.contains(expected) == true, "\(text.debugDescription): \(message ?? "decoded")")
    }
    // Invalid UTF-8 inside a string.
    var bytes = Array(#"{"clientKey": "ab"}"#.utf8)
    bytes[15] = 0xC3
    bytes[16] = 0x28
    #expect(throws: YorkieError.self) { try ActivateClientRequest(jsonData: bytes) }
  }

  @Test func deepNestingIsRefusedWithoutRecursingToDeath() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let message = failure(ActivateClientRequest.self, deep)
    #expect(message?.contains("nesting deeper than 512") == true)
    let deepObject = String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)
    #expect(failure(ActivateClientRequest.self, deepObject)?.contains("nesting") == true)
  }

  @Test func wrongTypesNameTheField() {
    let cases: [(String, String)] = [
      (#"{"changePack": {"checkpoint": {"serverSeq": true}}}"#, "PushPullChangesRequest.changePack.checkpoint.serverSeq: expected an integer, found a boolean"),
      (#"{"changePack": {"checkpoint": {"serverSeq": "12a"}}}"#, "PushPullChangesRequest.changePack.checkpoint.serverSeq: expected an integer"),
      (#"{"changePack": {"checkpoint": {"serverSeq": "9223372036854775808"}}}"#, "serverSeq: 9223372036854775808 is out of range for int64"),
      (#"{"changePack": {"checkpoint": {"clientSeq": -1}}}"#, "clientSeq: -1 is out of range for uint32"),
      (#"{"changePack": {"changes": {}}}"#, "PushPullChangesRequest.changePack.changes: expected an array, found an object"),
      (#"{"changePack": {"changes": [{"operations": [{"set": {}, "remove": {}}]}]}}"#, "changes[0].operations[0]: more than one of set, remove is set"),
      (#"{"changePack": {"changes": [{"operations": [{}]}]}}"#, "changes[0].operations[0]: an operation without a body"),
      (#"{"changePack": {"changes": [{"operations": [{"set": {"value": {"type": "VALUE_TYPE_BOGUS"}}}]}]}}"#, "operations[0].set.value.type: unknown PBValueType name \"VALUE_TYPE_BOGUS\""),
      (#"{"changePack": {"changes": [{"operations": [{"set": {"value": {"type": 99}}}]}]}}"#, "value.type: unknown PBValueType value 99"),
      (#"{"changePack": {"snapshot": "!!!"}}"#, "changePack.snapshot: invalid base64"),
      (#"{"changePack": {"isRemoved": "yes"}}"#, "changePack.isRemoved: expected a boolean, found a string"),
      (#"{"clientId": 5}"#, "PushPullChangesRequest.clientId: expected a string, found a number"),
      (#"{"changePack": []}"#, "PushPullChangesRequest.changePack: expected an object, found an array"),
    ]
    for (text, expected) in cases {
      let message = failure(PushPullChangesRequest.self, text)
      #expect(message?.contains(expected) == true, "\(text): \(message ?? "decoded")")
    }
  }

  @Test func modelConversionRefusesWhatTheModelCannotHold() throws {
    func modelFailure(_ text: String) throws -> YorkieError? {
      let pack = try WireChangePack(jsonText: text)
      switch Result(catching: { try pack.model("changePack") }) {
      case .success: return nil
      case .failure(let error): return error as? YorkieError
      }
    }
    let actor = "ZsHworfk2TocLk8Q"
    let id = #""id":{"clientSeq":1,"lamport":"1","actorId":"\#(actor)","versionVector":{"vector":{"\#(actor)":"1"}}}"#
    let ticket = #"{"lamport":"1","delimiter":1,"actorId":"\#(actor)"}"#
    let cases: [(String, YorkieError.Code, String)] = [
      (#"{"changes":[{"operations":[]}]}"#, .invalidWireData, "changePack.changes[0].id: is required"),
      (#"{"changes":[{"id":{"actorId":"AAAAAAAA"}}]}"#, .invalidActorID, "changes[0].id.actorId: an actor id has 6 bytes, not 12"),
      (#"{"changes":[{\#(id),"operations":[{"set":{"key":"k","executedAt":\#(ticket),"value":{"createdAt":\#(ticket),"type":"VALUE_TYPE_INTEGER","value":"AQ=="}}}]}]}"#,
       .invalidWireData, "changes[0].operations[0].set.parentCreatedAt: is required"),
      (#"{"changes":[{\#(id),"operations":[{"set":{"parentCreatedAt":\#(ticket),"key":"k","executedAt":\#(ticket),"value":{"createdAt":\#(ticket),"type":"VALUE_TYPE_INTEGER","value":"AQ=="}}}]}]}"#,
       .invalidValueEncoding, "set.value: a integer value needs 4 bytes, got 1"),
      (#"{"changes":[{\#(id),"operations":[{"treeEdit":{}}]}]}"#, .invalidWireData, "operations[0].treeEdit.parentCreatedAt: is required"),
      (#"{"changes":[{\#(id),"presenceChange":{"type":"CHANGE_TYPE_DELETE"}}]}"#, .invalidWireData, "presenceChange.type: presence change type"),
      (#"{"versionVector":{"vector":{"xyz":"1"}}}"#, .invalidWireData, "changePack.versionVector.vector: key \"xyz\""),
    ]
    for (text, code, expected) in cases {
      let error = try modelFailure(text)
      #expect(error?.code == code, "\(text): \(String(describing: error))")
      #expect(error?.message.contains(expected) == true, "\(text): \(error?.message ?? "converted")")
    }
  }

  @Test func envelopesAreCheckedForTruncationAndSize() throws {
    var decoder = ConnectEnvelopeDecoder(maximumLength: 100)
    #expect(try decoder.feed([0, 0, 0]).isEmpty)
    #expect(throws: YorkieError.self) { try decoder.finish() }
    var large = ConnectEnvelopeDecoder(maximumLength: 100)
    #expect(throws: YorkieError.self) { _ = try large.feed([0, 0, 0, 1, 0]) }  // 256 bytes > limit
    var flags = ConnectEnvelopeDecoder()
    #expect(throws: YorkieError.self) { _ = try flags.feed([0x80, 0, 0, 0, 0]) }
    var partial = ConnectEnvelopeDecoder()
    #expect(try partial.feed([0, 0, 0, 0, 4, 0x7b, 0x7d]).isEmpty)
    #expect(partial.pendingByteCount == 7)
    #expect(throws: YorkieError.self) { try partial.finish() }
  }

  @Test func connectErrorsWithUnknownCodesAreRefused() {
    #expect(throws: YorkieError.self) { try ConnectError(json: try WireJSON.parse(#"{"code":"teapot"}"#)) }
    #expect(ConnectCode.inferred(fromHTTPStatus: 502) == .unavailable)
    #expect(ConnectCode.inferred(fromHTTPStatus: 404) == .unimplemented)
    #expect(ConnectCode.inferred(fromHTTPStatus: 418) == .unknown)
    for code in ConnectCode.allCases { #expect(code.httpStatus >= 400 && code.httpStatus < 600) }
  }

  // MARK: Fuzzing

  /// Mutates every recorded request and response body (flip, insert, delete, truncate,
  /// duplicate a fragment) and decodes the result as its message and, when it decodes, converts
  /// its change pack to the model: each must decode or throw, never crash or hang. CI runs a
  /// bounded number of mutations; `WIRE_FUZZ_ITERATIONS` runs more, `WIRE_FUZZ_SEED` replays one.
  @Test func mutatedTrafficNeverCrashes() throws {
    let environment = ProcessInfo.processInfo.environment
    let iterations = environment["WIRE_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 20_000
    let seed = environment["WIRE_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_124
    var random = SplitMix(seed: seed)
    var corpus: [(codec: (WireJSON) throws -> Void, text: [UInt8], disagreement: ([UInt8]) -> String?)] = []
    for fixture in try Fixture.all() {
      for exchange in fixture.exchanges {
        let rpc = exchange["rpc"]?.stringValue ?? "health"
        guard let codec = RPCCodec.byName[rpc] else { continue }
        if let request = exchange["request"], request != .null {
          corpus.append(({ json in
            let encoded = try codec.request(json)
            if let pack = encoded["changePack"] { _ = try? WireChangePack(json: pack, path: "p").model() }
          }, request.bytes, codec.requestDisagreement))
        }
        if case .object = exchange["response"], exchange["status"]?.intValue == 200, let response = exchange["response"] {
          corpus.append(({ json in
            let encoded = try codec.response(json)
            if let pack = encoded["changePack"], let model = try? WireChangePack(json: pack, path: "p").model(), model.snapshot != nil {
              _ = try? DocumentSnapshot(data: model.snapshot!)
            }
          }, response.bytes, codec.responseDisagreement))
        }
      }
    }
    #expect(corpus.count > 50)
    var decoded = 0
    for iteration in 0..<iterations {
      let (decode, original, disagreement) = corpus[Int(random.next() % UInt64(corpus.count))]
      var bytes = original
      for _ in 0..<(1 + Int(random.next() % 4)) where !bytes.isEmpty {
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 5 {
        case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 1:
          let alphabet = Array("{}[]\",:0-e\\u".utf8)
          bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
        case 2: bytes.remove(at: at)
        case 3: bytes.removeSubrange(at...)
        default:
          let end = min(bytes.count, at + Int(random.next() % 40))
          bytes.insert(contentsOf: bytes[at..<end], at: at)
        }
      }
      // Decoding from the text's index gives what decoding from its tree gives: the same
      // message, or the same error.
      if let difference = disagreement(bytes) {
        Issue.record("seed \(seed), iteration \(iteration): \(difference): \(String(decoding: bytes, as: UTF8.self))")
      }
      do {
        try decode(try WireJSON.parse(bytes))
        decoded += 1
      } catch is YorkieError {
        continue
      } catch {
        Issue.record("seed \(seed), iteration \(iteration): unexpected error \(error)")
      }
    }
    #expect(decoded < iterations, "seed \(seed): no mutation was ever refused")
  }
}
