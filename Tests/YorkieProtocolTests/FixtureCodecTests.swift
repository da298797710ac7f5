import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// Every recorded request and response decodes into this SDK's message types and re-encodes to
/// semantically equal JSON; error bodies decode as Connect errors with the recorded code;
/// stream bodies split into exactly the recorded envelopes.
@Suite("Wire fixtures: codec")
struct FixtureCodecTests {
  /// Requests that this SDK's decoder refuses on purpose, with the reason.
  static let refusedRequests: [String: String] = [
    "16-errors.json#12": "malformed JSON",
    "16-errors.json#13": "an empty body is not a JSON object",
    // Go's protojson reads an unknown enum name as 0 (the change became a Set of null); this
    // SDK refuses it (yorkie-protocol.md, appendix C).
    "16-errors.json#25": "unknown enum name",
  ]

  /// Files whose requests are deliberately not canonical (README): decoded, not compared.
  static let nonCanonical: Set<String> = ["16-errors.json", "17-json-input-variants.json"]

  @Test("every exchange decodes and re-encodes", arguments: Fixture.names)
  func exchanges(name: String) throws {
    let fixture = try Fixture.named(name)
    #expect(!fixture.exchanges.isEmpty)
    for (index, exchange) in fixture.exchanges.enumerated() {
      let id = "\(name)#\(index)"
      let rpc = exchange["rpc"]?.stringValue ?? (exchange["path"]?.stringValue?.hasSuffix("/health") == true ? "health" : "?")
      guard let codec = RPCCodec.byName[rpc] else {
        Issue.record("\(id): no codec for \(rpc)")
        continue
      }
      try checkRequest(exchange, codec, id: id, canonical: !FixtureCodecTests.nonCanonical.contains(name))
      try checkResponse(exchange, codec, id: id)
      // Decoding the recorded bodies from their index gives what decoding their tree gives.
      if let raw = exchange["requestRaw"]?.stringValue {
        #expect(codec.requestDisagreement(Array(raw.utf8)) == nil, "\(id)")
      } else if let request = exchange["request"], request != .null {
        #expect(codec.requestDisagreement(request.bytes) == nil, "\(id)")
      }
      if case .object = exchange["response"], let response = exchange["response"] {
        #expect(codec.responseDisagreement(response.bytes) == nil, "\(id)")
      }
    }
  }

  private func checkRequest(_ exchange: WireJSON, _ codec: RPCCodec, id: String, canonical: Bool) throws {
    if let raw = exchange["requestRaw"]?.stringValue {
      #expect(throws: YorkieError.self, "\(id): a malformed body must not decode") {
        _ = try codec.request(try WireJSON.parse(raw))
      }
      #expect(FixtureCodecTests.refusedRequests[id] != nil, "\(id): unexpected raw request")
      return
    }
    guard let request = exchange["request"], request != .null else { return }
    do {
      let encoded = try codec.request(request)
      #expect(FixtureCodecTests.refusedRequests[id] == nil, "\(id): expected the decoder to refuse this request")
      if canonical {
        let same = semanticallyEqual(encoded, request)
        #expect(same, "\(id): request re-encodes differently:\n\(encoded.text)\nvs\n\(request.text)")
      }
      // Canonical output decodes to the same message again.
      let again = try codec.request(encoded) == encoded
      #expect(again, "\(id): canonical output decodes differently")
    } catch let error as YorkieError {
      #expect(FixtureCodecTests.refusedRequests[id] != nil, "\(id): request refused: \(error)")
      #expect(error.code == .invalidWireData)
    }
  }

  private func checkResponse(_ exchange: WireJSON, _ codec: RPCCodec, id: String) throws {
    let status = exchange["status"]?.intValue ?? 0
    switch exchange["response"] {
    case .object(let members)? where status == 200:
      let response = WireJSON.object(members)
      let encoded = try codec.response(response)
      let same = semanticallyEqual(encoded, response)
      #expect(same, "\(id): response re-encodes differently:\n\(encoded.text)\nvs\n\(response.text)")
    case .object(let members)?:
      let error = try ConnectError(json: .object(members))
      #expect(error.code.httpStatus == status, "\(id): \(error.code) travels as HTTP \(error.code.httpStatus), recorded \(status)")
      let same = semanticallyEqual(error.json, .object(members))
      #expect(same, "\(id): error body re-encodes differently")
      if case .array(let details)? = WireJSON.object(members)["details"], let first = details.first,
         let recorded = first["debug"]?["metadata"]?["code"]?.stringValue {
        #expect(error.yorkieCode == recorded, "\(id): ErrorInfo code \(String(describing: error.yorkieCode)) vs debug \(recorded)")
        #expect(error.details.first?.errorInfo?.reason == first["debug"]?["reason"]?.stringValue, "\(id)")
      }
    case .array(let envelopes)?:
      for (number, envelope) in envelopes.enumerated() {
        let flags = envelope["flags"]?.intValue ?? -1
        guard let payload = envelope["json"] else {
          Issue.record("\(id): envelope \(number) has no json")
          continue
        }
        if flags & 2 != 0 {
          let end = try ConnectEndOfStream(json: payload)
          let same = semanticallyEqual(end.json, payload)
          #expect(same, "\(id): end-of-stream \(number) re-encodes differently")
        } else {
          let encoded = try codec.response(payload)
          let same = semanticallyEqual(encoded, payload)
          #expect(same, "\(id): envelope \(number) re-encodes differently:\n\(encoded.text)\nvs\n\(payload.text)")
        }
      }
      try checkFraming(exchange, envelopes, id: id)
    default:
      break  // no body (405, 415) or a non-JSON page (404)
    }
  }

  /// The recorded body splits into the recorded envelopes, however it is chunked.
  private func checkFraming(_ exchange: WireJSON, _ envelopes: [WireJSON], id: String) throws {
    guard let base64 = exchange["responseBodyBase64"]?.stringValue, let body = Data(base64Encoded: base64) else { return }
    let seed = UInt64(abs(id.hashValue % 1_000_000))
    var random = SplitMix(seed: seed)
    for round in 0..<4 {
      var decoder = ConnectEnvelopeDecoder()
      var received: [ConnectEnvelope] = []
      var offset = 0
      while offset < body.count {
        let size = round == 0 ? body.count : 1 + Int(random.next() % 17)
        let end = min(offset + size, body.count)
        received += try decoder.feed(body[offset..<end])
        offset = end
      }
      try decoder.finish()
      #expect(received.count == envelopes.count, "\(id) round \(round) seed \(seed)")
      for (envelope, recorded) in zip(received, envelopes) {
        #expect(Int(envelope.flags.rawValue) == recorded["flags"]?.intValue, "\(id) seed \(seed)")
        #expect(envelope.payload.count == recorded["length"]?.intValue, "\(id) seed \(seed)")
        if let json = recorded["json"] {
          let same = semanticallyEqual(try WireJSON.parse(envelope.payload), json)
          #expect(same, "\(id) seed \(seed)")
        }
      }
    }
  }
}

/// SplitMix64, for repeatable chunking and fuzzing.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
