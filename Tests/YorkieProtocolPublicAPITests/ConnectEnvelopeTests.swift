import CRDT
import Foundation
import Testing
import YorkieProtocol

/// Connect's streaming envelopes and errors through the public API: a Watch stream written and
/// read back, ending with an error that carries Yorkie's ErrorInfo.
@Suite("Public API: Connect envelopes and errors")
struct ConnectEnvelopeTests {
  let notAttached = ConnectError(
    code: .failedPrecondition, message: "document not attached",
    details: [ConnectErrorDetail(ErrorInfo(reason: "failed_precondition", metadata: ["code": "ErrDocumentNotAttached"]))])

  @Test("a stream of messages and an end-of-stream error survives any chunking")
  func streamRoundTrip() throws {
    let initialization = WatchResponse.initialization([.document(WireDocumentInit(documentID: "66c1f0a2b7e4d93a1c2e4f11",
                                                                                  clientIDs: ["66c1f0a2b7e4d93a1c2e4f10"]))])
    let event = WatchResponse.documentEvent(WireWatchDocumentEvent(
      documentID: "66c1f0a2b7e4d93a1c2e4f11",
      event: WireDocEvent(type: .documentBroadcast, publisher: "66c1f0a2b7e4d93a1c2e4f10",
                          body: WireDocEventBody(topic: "cursor", payload: Data(#"{"x":1}"#.utf8)))))
    let end = ConnectEndOfStream(error: notAttached, metadata: ["x-trace": ["a", "b"]])
    let envelopes = [ConnectEnvelope(message: initialization), ConnectEnvelope(message: event), ConnectEnvelope(endOfStream: end)]
    let body = envelopes.flatMap(\.bytes)
    #expect(Array(body.prefix(5)) == [0, 0, 0, 0, UInt8(envelopes[0].payload.count)])
    #expect(envelopes[2].flags == .endStream)

    for chunkSize in [1, 2, 5, 6, 64, body.count] {
      var decoder = ConnectEnvelopeDecoder()
      var received: [ConnectEnvelope] = []
      var offset = 0
      while offset < body.count {
        received += try decoder.feed(body[offset..<min(body.count, offset + chunkSize)])
        offset += chunkSize
      }
      try decoder.finish()
      #expect(received == envelopes, "chunks of \(chunkSize)")
    }

    #expect(try envelopes[0].decode(WatchResponse.self) == initialization)
    #expect(try envelopes[1].decode(WatchResponse.self) == event)
    #expect(!envelopes[1].isEndOfStream)
    let decodedEnd = try envelopes[2].decodeEndOfStream()
    #expect(decodedEnd == end)
    let error = try #require(decodedEnd.error)
    #expect(error.code == .failedPrecondition)
    #expect(error.yorkieCode == "ErrDocumentNotAttached")
    #expect(error.details.first?.errorInfo?.reason == "failed_precondition")
    #expect(error.code.httpStatus == 400)
    #expect("\(error)" == "failed_precondition: document not attached")
  }

  @Test("envelopes refuse to be read as what they are not")
  func wrongReads() throws {
    let message = ConnectEnvelope(message: WatchRequest(clientID: "66c1f0a2b7e4d93a1c2e4f10"))
    #expect(throws: YorkieError.self) { try message.decodeEndOfStream() }
    let end = ConnectEnvelope(endOfStream: ConnectEndOfStream())
    #expect(end.payload == Array("{}".utf8))
    #expect(throws: YorkieError.self) { try end.decode(WatchResponse.self) }
    let compressed = ConnectEnvelope(flags: .compressed, payload: [1, 2, 3])
    do {
      _ = try compressed.decode(WatchResponse.self)
      Issue.record("a compressed payload decoded")
    } catch {
      #expect(error.code == .unsupported)
    }
  }

  @Test("truncated, oversized and unknown envelopes are errors")
  func malformedStreams() throws {
    var truncated = ConnectEnvelopeDecoder()
    #expect(try truncated.feed([0, 0, 0, 0, 4, 0x7b]).isEmpty)
    #expect(truncated.pendingByteCount == 6)
    #expect(throws: YorkieError.self) { try truncated.finish() }

    var small = ConnectEnvelopeDecoder(maximumLength: 16)
    #expect(throws: YorkieError.self) { _ = try small.feed([0, 0, 0, 1, 0]) }

    var flags = ConnectEnvelopeDecoder()
    #expect(throws: YorkieError.self) { _ = try flags.feed([0x40, 0, 0, 0, 0]) }
  }

  @Test("a unary error body round trips, ErrorInfo as unpadded base64")
  func unaryError() throws {
    let text = notAttached.jsonText
    #expect(!text.contains("="), "Connect writes unpadded base64: \(text)")
    let decoded = try ConnectError(jsonText: text)
    #expect(decoded == notAttached)
    #expect(try ErrorInfo(binary: notAttached.details[0].value).metadata == ["code": "ErrDocumentNotAttached"])
    #expect(ConnectCode.inferred(fromHTTPStatus: 503) == .unavailable)
    #expect(ConnectCode(rawValue: "invalid_argument") == .invalidArgument)
  }
}
