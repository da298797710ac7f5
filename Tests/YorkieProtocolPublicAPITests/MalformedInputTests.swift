import CRDT
import Foundation
import Testing
import YorkieProtocol

/// Bad input at the public boundary: every error is a ``YorkieError`` whose `field` names the
/// offending member (or whose message names the byte, for JSON that does not parse).
@Suite("Public API: malformed input")
struct MalformedInputTests {
  /// The error decoding `text` as `M` throws, or nil when it decodes.
  func decodingError<M: WireMessage>(_ type: M.Type, _ text: String) -> YorkieError? {
    do {
      _ = try M(jsonText: text)
      return nil
    } catch {
      return error
    }
  }

  @Test("a member of the wrong type is named by its path", arguments: [
    (#"{"changePack":{"checkpoint":{"serverSeq":true}}}"#, "PushPullChangesRequest.changePack.checkpoint.serverSeq"),
    (#"{"changePack":{"checkpoint":{"clientSeq":"-1"}}}"#, "PushPullChangesRequest.changePack.checkpoint.clientSeq"),
    (#"{"clientId":5}"#, "PushPullChangesRequest.clientId"),
    (#"{"changePack":[]}"#, "PushPullChangesRequest.changePack"),
    (#"{"changePack":{"changes":[{},{"id":{"actorId":"***"}}]}}"#, "PushPullChangesRequest.changePack.changes[1].id.actorId"),
    (#"{"changePack":{"changes":[{"presenceChange":{"type":"CHANGE_TYPE_BOGUS"}}]}}"#,
     "PushPullChangesRequest.changePack.changes[0].presenceChange.type"),
    (#"{"pushOnly":"yes"}"#, "PushPullChangesRequest.pushOnly"),
  ])
  func namedFields(text: String, field: String) {
    let error = decodingError(PushPullChangesRequest.self, text)
    #expect(error?.code == .invalidWireData, "\(text)")
    #expect(error?.field == field, "\(text): \(String(describing: error))")
    #expect(error?.message.hasPrefix(field + ": ") == true, "\(text): \(error?.message ?? "decoded")")
  }

  @Test("a oneof with no member, or two, is refused")
  func oneofs() {
    #expect(decodingError(WatchResponse.self, "{}")?.field == "WatchResponse")
    let both = decodingError(WatchResponse.self, #"{"initialization":{},"event":{}}"#)
    #expect(both?.field == "WatchResponse")
    let resource = decodingError(WatchRequest.self, #"{"resources":[{"document":{},"channel":{}}]}"#)
    #expect(resource?.field == "WatchRequest.resources[0]", "\(String(describing: resource))")
  }

  @Test("JSON that does not parse names the byte")
  func syntax() {
    for text in ["", "{", #"{"clientKey":}"#, #"{"a":1} x"#, "[\"\\ud800\"]"] {
      let error = decodingError(ActivateClientRequest.self, text)
      #expect(error?.code == .invalidWireData, "\(text)")
      #expect(error?.field == nil)
      #expect(error?.message.contains("at byte") == true, "\(text): \(error?.message ?? "decoded")")
    }
    #expect(decodingError(ActivateClientRequest.self, "[]")?.field == "ActivateClientRequest")
  }

  /// The pack of a request recorded in `16-errors.json` (see the fixtures' README).
  func recordedPack(_ index: Int) throws -> WireChangePack {
    let exchange = try RecordedScenario.named("16-errors.json").exchanges[index]
    let request = try PushPullChangesRequest(json: try #require(exchange.request))
    return try #require(request.changePack)
  }

  @Test("what the model cannot hold is refused at conversion, naming the field")
  func conversion() throws {
    // An actor of 8 bytes decodes as bytes but is no actor.
    let shortActor = try recordedPack(24)
    do {
      _ = try ChangePack(shortActor)
      Issue.record("an 8-byte actor converted")
    } catch {
      #expect(error.code == .invalidActorID)
      #expect(error.field == "WireChangePack.changes[0].id.actorId", "\(error)")
    }
    // An INTEGER of 1 byte: the model's primitive decoder does not know the path; the
    // conversion gives its error the path of the value.
    let shortInteger = try recordedPack(26)
    do {
      _ = try ChangePack(shortInteger)
      Issue.record("a 1-byte INTEGER converted")
    } catch {
      #expect(error.code == .invalidValueEncoding)
      #expect(error.field == "WireChangePack.changes[0].operations[0].set.value", "\(error)")
      #expect(error.underlying is YorkieError)
    }
    // A value type name this SDK does not know is refused when decoding (the server reads 0).
    let bogusType = try #require(try RecordedScenario.named("16-errors.json").exchanges[25].request)
    do {
      _ = try PushPullChangesRequest(json: bogusType)
      Issue.record("an unknown enum name decoded")
    } catch {
      #expect(error.field == "PushPullChangesRequest.changePack.changes[0].operations[0].set.value.type", "\(error)")
    }
  }

  @Test("malformed clocks are refused, naming the field")
  func clocks() {
    #expect(throws: YorkieError.self) { try TimeTicket(WireTimeTicket(lamport: 1, actorID: Data([1, 2, 3]))) }
    do {
      _ = try VersionVector(WireVersionVector(vector: ["short": 1]))
      Issue.record("a short key converted")
    } catch {
      #expect(error.field == "WireVersionVector.vector")
    }
    do {
      _ = try Change(WireChange(jsonText: "{}"))
      Issue.record("a change without an ID converted")
    } catch {
      #expect(error.field == "WireChange.id")
    }
  }
}
