import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Errors of the service and of Connect")
struct ServiceErrorTests {
  /// A call expected to fail: its body and the (status, Connect code, metadata code) expected.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var method: String
    var body: String
    var status: Int
    var code: String
    var metadata: String?
    var description: String { name }
  }

  @Test("each situation of the catalogue gets Yorkie's status, code and metadata code")
  func catalogue() async throws {
    try await withServer { url, _ in
      let client = ConnectTestClient(url)
      let a = try await HTTPReplica(url: url, key: "doc-errors")
      try await a.attach()
      let b = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "b"), as: ActivateClientResponse.self).clientID
      let gone = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "gone"), as: ActivateClientResponse.self).clientID
      _ = try await client.call("DeactivateClient", DeactivateClientRequest(clientID: gone, synchronous: true), as: DeactivateClientResponse.self)
      let (c, d) = (a.clientID, a.documentID)
      let actor = Data(try ActorID(hex: c).bytes).base64EncodedString()
      let pack = #""changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":1}}"#
      let ticket = #"{"lamport":"1","delimiter":1,"actorId":"\#(actor)"}"#
      let cases: [Case] = [
        Case(name: "bad key", method: "AttachDocument", body: #"{"clientId":"\#(c)","changePack":{"documentKey":"a b!","checkpoint":{}}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidKey"),
        Case(name: "short key", method: "AttachDocument", body: #"{"clientId":"\#(c)","changePack":{"documentKey":"abc","checkpoint":{}}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidKey"),
        Case(name: "empty client key", method: "ActivateClient", body: #"{"clientKey":""}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidClientKey"),
        Case(name: "unknown client", method: "PushPullChanges", body: #"{"clientId":"0123456789abcdef01234567","documentId":"\#(d)",\#(pack)}"#, status: 404, code: "not_found", metadata: "ErrClientNotFound"),
        Case(name: "non-hex client", method: "PushPullChanges", body: #"{"clientId":"not-a-hex-id","documentId":"\#(d)",\#(pack)}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidHexString"),
        Case(name: "short client", method: "PushPullChanges", body: #"{"clientId":"0123456789abcdef0123","documentId":"\#(d)",\#(pack)}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidHexString"),
        Case(name: "bad document id", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"xyz",\#(pack)}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidID"),
        Case(name: "unknown document", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"0123456789abcdef01234567",\#(pack)}"#, status: 400, code: "failed_precondition", metadata: "ErrDocumentNotAttached"),
        Case(name: "not attached", method: "PushPullChanges", body: #"{"clientId":"\#(b)","documentId":"\#(d)",\#(pack)}"#, status: 400, code: "failed_precondition", metadata: "ErrDocumentNotAttached"),
        Case(name: "malformed JSON", method: "AttachDocument", body: #"{"clientId": "\#(c)", "changePack": {"#, status: 400, code: "invalid_argument", metadata: nil),
        Case(name: "empty body", method: "ActivateClient", body: "", status: 400, code: "invalid_argument", metadata: nil),
        Case(name: "no pack", method: "AttachDocument", body: #"{"clientId":"\#(c)"}"#, status: 400, code: "invalid_argument", metadata: "ErrPackRequired"),
        Case(name: "no checkpoint", method: "AttachDocument", body: #"{"clientId":"\#(c)","changePack":{"documentKey":"doc-errors"}}"#, status: 400, code: "invalid_argument", metadata: "ErrCheckpointRequired"),
        Case(name: "no pack on pushpull", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)"}"#, status: 400, code: "invalid_argument", metadata: "ErrPackRequired"),
        Case(name: "clientSeq gap", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":3},"changes":[{"id":{"clientSeq":3,"actorId":"\#(actor)"},"presenceChange":{"type":"CHANGE_TYPE_CLEAR"}}]}}"#, status: 400, code: "invalid_argument", metadata: nil),
        Case(name: "serverSeq ahead on push", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"9","clientSeq":2},"changes":[{"id":{"clientSeq":2,"actorId":"\#(actor)"},"presenceChange":{"type":"CHANGE_TYPE_CLEAR"}}]}}"#, status: 400, code: "invalid_argument", metadata: nil),
        Case(name: "serverSeq ahead on pull", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"9","clientSeq":1}}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidServerSeq"),
        Case(name: "8-byte actor", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":2},"changes":[{"id":{"clientSeq":2,"lamport":"1","actorId":"AAAAAAAAAAA="},"presenceChange":{"type":"CHANGE_TYPE_CLEAR"}}]}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidActorID"),
        Case(name: "unknown enum name", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":2},"changes":[{"id":{"clientSeq":2,"lamport":"1","actorId":"\#(actor)","versionVector":{"vector":{"\#(actor)":"1"}}},"operations":[{"set":{"parentCreatedAt":{"actorId":"AAAAAAAAAAAAAAAA"},"key":"x","value":{"createdAt":{"lamport":"1","delimiter":1,"actorId":"\#(actor)"},"type":"VALUE_TYPE_BOGUS","value":"eA=="},"executedAt":{"lamport":"1","delimiter":1,"actorId":"\#(actor)"}}}]}]}}"#, status: 400, code: "invalid_argument", metadata: nil),
        Case(name: "short integer payload", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":2},"changes":[{"id":{"clientSeq":2,"lamport":"1","actorId":"\#(actor)","versionVector":{"vector":{"\#(actor)":"1"}}},"operations":[{"set":{"parentCreatedAt":{"actorId":"AAAAAAAAAAAAAAAA"},"key":"x","value":{"createdAt":{"lamport":"1","delimiter":1,"actorId":"\#(actor)"},"type":"VALUE_TYPE_INTEGER","value":"AQ=="},"executedAt":{"lamport":"1","delimiter":1,"actorId":"\#(actor)"}}}]}]}}"#, status: 500, code: "internal", metadata: nil),
        Case(name: "8-byte actor in a ticket", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":2},"changes":[{"id":{"clientSeq":2,"lamport":"1","actorId":"\#(actor)","versionVector":{"vector":{"\#(actor)":"1"}}},"operations":[{"set":{"parentCreatedAt":{"actorId":"AAAAAAAAAAAAAAAA"},"key":"x","value":{"createdAt":{"lamport":"1","delimiter":1,"actorId":"\#(actor)"},"type":"VALUE_TYPE_NULL"},"executedAt":{"lamport":"1","delimiter":1,"actorId":"AAAAAAAAAAA="}}}]}]}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidActorID"),
        Case(name: "negative split level", method: "PushPullChanges", body: #"{"clientId":"\#(c)","documentId":"\#(d)","changePack":{"documentKey":"doc-errors","checkpoint":{"serverSeq":"1","clientSeq":2},"changes":[{"id":{"clientSeq":2,"lamport":"1","actorId":"\#(actor)","versionVector":{"vector":{"\#(actor)":"1"}}},"operations":[{"treeEdit":{"parentCreatedAt":\#(ticket),"from":{"parentId":{"createdAt":\#(ticket)},"leftSiblingId":{"createdAt":\#(ticket)}},"to":{"parentId":{"createdAt":\#(ticket)},"leftSiblingId":{"createdAt":\#(ticket)}},"executedAt":\#(ticket),"splitLevel":-1}}]}]}}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidSplitLevel"),
        Case(name: "bad channel key", method: "AttachChannel", body: #"{"clientId":"\#(c)","channelKey":"bad..key"}"#, status: 400, code: "invalid_argument", metadata: "ErrInvalidChannelKey"),
        Case(name: "unknown session", method: "DetachChannel", body: #"{"clientId":"\#(c)","channelKey":"room","sessionId":"0123456789abcdef01234567"}"#, status: 404, code: "not_found", metadata: "ErrSessionNotFound"),
        Case(name: "deactivated client", method: "AttachDocument", body: #"{"clientId":"\#(gone)","changePack":{"documentKey":"doc-errors","checkpoint":{}}}"#, status: 400, code: "failed_precondition", metadata: "ErrClientNotActivated"),
        Case(name: "attach while attached", method: "AttachDocument", body: #"{"clientId":"\#(c)","changePack":{"documentKey":"doc-errors","checkpoint":{}}}"#, status: 404, code: "not_found", metadata: "ErrClientNotFound"),
        Case(name: "unknown api key", method: "ActivateClient", body: #"{"clientKey":"k"}"#, status: 404, code: "not_found", metadata: "ErrProjectNotFound"),
      ]
      for item in cases {
        let extra = item.name == "unknown api key" ? ["x-api-key": "no-such-key"] : [:]
        let answer = try await client.call(item.method, Array(item.body.utf8), extra: extra)
        #expect(answer.status == item.status, "\(item.name): \(answer.text)")
        #expect(answer.headers["content-type"] == "application/json", "\(item.name)")
        #expect(answer.error?.code.rawValue == item.code, "\(item.name): \(answer.text)")
        #expect(answer.errorCode == item.metadata, "\(item.name): \(answer.text)")
        if let error = answer.error, let detail = error.details.first {
          #expect(detail.errorInfo?.reason == item.code, "\(item.name)")
          #expect(detail.debug?["reason"] == .string(item.code), "\(item.name): debug rendering")
        }
      }
      // Nothing of the refused pushes was stored: a fresh client pulls only a's presence.
      let fresh = try await HTTPReplica(url: url, key: "doc-errors")
      try await fresh.attach()
      #expect(await fresh.document.toJSON() == "{}")
    }
  }

  @Test("a change the model refuses is answered by its error's code, never its message")
  func intakeMapsByCode() {
    // Messages that once picked the answer now pick nothing; codes do.
    let cases: [(YorkieError, ConnectCode, String?)] = [
      (YorkieError(.invalidActorID, "x"), .invalidArgument, "ErrInvalidActorID"),
      (YorkieError(.invalidSplitLevel, "x"), .invalidArgument, "ErrInvalidSplitLevel"),
      (YorkieError(.invalidValueEncoding, "x"), .internal, nil),
      (YorkieError(.unsupported, "x"), .invalidArgument, "ErrUnsupportedOperation"),
      (YorkieError(.invalidWireData, "ticket: an actor id has 8 bytes, not 12"), .invalidArgument, "ErrUnsupportedOperation"),
      (YorkieError(.invalidWireData, "a integer value needs 4 bytes, got 1"), .invalidArgument, "ErrUnsupportedOperation"),
    ]
    for (error, code, metadata) in cases {
      let answer = ChangeIntake.map(error)
      #expect(answer.code == code, "\(error)")
      #expect(answer.metadataCode == metadata, "\(error)")
    }
  }

  @Test("Connect's own answers: 405, 415, 404, protocol version, compression")
  func protocolErrors() async throws {
    try await withServer { url, _ in
      let port = url.port!
      let raw: @Sendable (String) async throws -> TestResponse = { text in
        try await offPool {
          let http = try TestHTTPClient(port: port)
          try http.send(text)
          return try http.readResponse()
        }
      }
      let get = try await raw("GET /yorkie.v1.YorkieService/ActivateClient HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(get.status == 405)
      #expect(get.headers["allow"] == "POST")
      #expect(get.body.isEmpty)
      let text = try await raw("POST /yorkie.v1.YorkieService/ActivateClient HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}")
      #expect(text.status == 415)
      #expect(text.headers["accept-post"]?.contains("application/json") == true)
      let unknown = try await raw("POST /yorkie.v1.YorkieService/NoSuchMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
      #expect(unknown.status == 404)
      #expect(unknown.text == "404 page not found\n")
      let client = ConnectTestClient(url)
      let version = try await client.call("ActivateClient", Array(#"{"clientKey":"k"}"#.utf8), extra: ["Connect-Protocol-Version": "2"])
      #expect(version.status == 400)
      #expect(version.error?.code == .invalidArgument)
      let gzip = try await client.call("ActivateClient", Array(#"{"clientKey":"k"}"#.utf8), extra: ["Content-Encoding": "gzip"])
      #expect(gzip.status == 501)
      #expect(gzip.error?.code == .unimplemented)
      let charset = try await client.call("ActivateClient", Array(#"{"clientKey":"k"}"#.utf8), contentType: "application/json; charset=utf-8")
      #expect(charset.status == 200)
      let unknownField = try await client.call("ActivateClient", Array(#"{"clientKey":"k","someUnknownField":{"x":1}}"#.utf8))
      #expect(unknownField.status == 200)
    }
  }
}
