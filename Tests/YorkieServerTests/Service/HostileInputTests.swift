import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Malformed and hostile input against the whole server")
struct HostileInputTests {
  /// Sends `bytes` on a fresh connection and reads one response.
  static func raw(_ port: Int, _ bytes: [UInt8], readTimeout: Double = 5) async throws -> TestResponse {
    try await offPool {
      let http = try TestHTTPClient(port: port, readTimeout: readTimeout)
      defer { http.close() }
      try http.send(bytes)
      return try http.readResponse()
    }
  }

  /// A POST of `body` to `method` with `contentType`.
  static func post(_ method: String, _ body: [UInt8], contentType: String = "application/json", length: Int? = nil) -> [UInt8] {
    Array("POST /yorkie.v1.YorkieService/\(method) HTTP/1.1\r\nHost: x\r\nContent-Type: \(contentType)\r\nContent-Length: \(length ?? body.count)\r\n\r\n".utf8) + body
  }

  @Test("each gets its precise answer; the server keeps serving; nothing stored is lost; a watcher is not disturbed")
  func hostile() async throws {
    var configuration = YorkieDevServer.Configuration()
    configuration.httpLimits = HTTPServerLimits(requestTimeout: 0.5)
    try await withServer(configuration) { url, _ in
      let port = url.port!
      let a = try await HTTPReplica(url: url, key: "doc-hostile")
      try await a.attach()
      try await a.document.update { root, _ in root["kept"] = .string("yes") }
      try await a.sync()
      let watcher = try await HTTPReplica(url: url, key: "doc-hostile")
      try await watcher.attach()
      let stream = try await watcher.client.stream(
        "Watch", WatchRequest(clientID: watcher.clientID, resources: [.document(WireDocumentResource(documentID: watcher.documentID))]))
      _ = try await stream.nextJSON()

      let oversized = try await Self.raw(port, Self.post("PushPullChanges", [], length: 13 << 20))
      #expect(oversized.status == 413)
      let wrongType = try await Self.raw(port, Self.post("PushPullChanges", Array("{}".utf8), contentType: "application/xml"))
      #expect(wrongType.status == 415)
      let badJSON = try await Self.raw(port, Self.post("ActivateClient", Array(#"{"clientKey": "#.utf8)))
      #expect(badJSON.status == 400)
      #expect(badJSON.text.contains("invalid_argument"))
      let badUTF8 = try await Self.raw(port, Self.post("ActivateClient", Array(#"{"clientKey": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)))
      #expect(badUTF8.status == 400)
      #expect(badUTF8.text.contains("invalid_argument"))
      let notObject = try await Self.raw(port, Self.post("ActivateClient", Array("[1,2]".utf8)))
      #expect(notObject.status == 400)
      let unknown = try await Self.raw(port, Self.post("DropDatabase", Array("{}".utf8)))
      #expect(unknown.status == 404)
      let flood = "GET /yorkie.v1.YorkieService/health HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Flood: \(String(repeating: "a", count: 200))\r\n", count: 100) + "\r\n"
      let flooded = try await Self.raw(port, Array(flood.utf8))
      #expect(flooded.status == 431)
      // A body that stops halfway: after the slow-request timeout, 408 and the connection closes.
      let slow = try await Self.raw(port, Self.post("ActivateClient", Array(#"{"clie"#.utf8), length: 40))
      #expect(slow.status == 408)
      // A stream request whose envelope lies about its length: 200, then an end-of-stream error.
      var lying = ConnectEnvelope(message: WatchRequest(clientID: a.clientID)).bytes
      lying[4] &+= 9
      let badEnvelope = try await Self.raw(port, Self.post("Watch", lying, contentType: "application/connect+json"))
      #expect(badEnvelope.status == 200)
      let end = try ConnectEnvelopeDecoder().decodeAll(badEnvelope.body).last
      #expect(end?.isEndOfStream == true)
      #expect(try end?.decodeEndOfStream().error?.code == .invalidArgument)
      // A client that vanishes mid-stream: the others hear it left.
      let leaver = try await HTTPReplica(url: url, key: "doc-hostile")
      try await leaver.attach()
      let leaving = try await leaver.client.stream(
        "Watch", WatchRequest(clientID: leaver.clientID, resources: [.document(WireDocumentResource(documentID: leaver.documentID))]))
      _ = try await leaving.nextJSON()
      leaving.close()
      var heard: [WireDocEvent.Kind] = []
      while heard.last != .documentUnwatched, let json = try await stream.nextJSON() {
        if case .documentEvent(let event) = try WatchResponse(json: json, path: "event"), let kind = event.event?.type { heard.append(kind) }
      }
      // Its attach (a presence) changed the document, then it watched, then it vanished.
      #expect(heard == [.documentChanged, .documentWatched, .documentUnwatched])
      // Everyone else is still served, and nothing stored was lost.
      try await a.document.update { root, _ in root["after"] = .integer(1) }
      try await a.sync()
      guard case .documentEvent(let changed) = try WatchResponse(json: try #require(await stream.nextJSON()), path: "event") else {
        Issue.record("the watcher did not hear the push")
        return
      }
      #expect(changed.event?.type == .documentChanged)
      try await watcher.sync()
      #expect(await watcher.document.toSortedJSON() == #"{"after":1,"kept":"yes"}"#)
      stream.close()
    }
  }
}

extension ConnectEnvelopeDecoder {
  /// Every envelope of a whole body.
  func decodeAll(_ body: [UInt8]) throws -> [ConnectEnvelope] {
    var decoder = self
    return try decoder.feed(body)
  }
}
