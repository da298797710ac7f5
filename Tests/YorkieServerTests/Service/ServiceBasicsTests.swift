import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

/// Starts a server on a free port for one test; stops it when `body` returns.
func withServer<T>(
  _ configuration: YorkieDevServer.Configuration = YorkieDevServer.Configuration(), _ body: (URL, YorkieDevServer) async throws -> T
) async throws -> T {
  let server = YorkieDevServer(configuration: configuration)
  let url = try server.start()
  defer { server.stop() }
  return try await body(url, server)
}

@Suite("YorkieService over HTTP")
struct ServiceBasicsTests {
  @Test("two replicas converge through the server; own changes are never echoed")
  func twoReplicas() async throws {
    try await withServer { url, _ in
      let a = try await HTTPReplica(url: url, key: "doc-basics")
      let b = try await HTTPReplica(url: url, key: "doc-basics")
      try await a.attach(presence: ["name": .string("a")])
      try await a.document.update { root, _ in
        root["title"] = .string("hello")
        _ = root.setNewText("body")
      }
      try await a.sync()
      try await b.attach()
      #expect(await b.document.toJSON() == #"{"title":"hello","body":[]}"#)
      try await b.document.update { root, _ in _ = try root.text("body")!.edit(0, 0, "world") }
      try await a.document.update { root, _ in root["n"] = .integer(1) }
      try await b.sync()
      try await a.sync()
      try await b.sync()
      let (jsonA, jsonB) = (await a.document.toJSON(), await b.document.toJSON())
      #expect(jsonA == jsonB)
      #expect(jsonA == #"{"title":"hello","body":[{"val":"world"}],"n":1}"#)
      // The presence travelled in a's attach pack (b sees it once a is online).
      let peer = try ActorID(hex: a.clientID)
      await b.document.setOnline(peer, true)
      #expect(await b.document.presence(of: peer) == ["name": .string("a")])
    }
  }

  @Test("checkpoints, serverSeqs and the min version vector follow Yorkie's rules")
  func checkpoints() async throws {
    try await withServer { url, _ in
      let client = ConnectTestClient(url)
      let a = try await HTTPReplica(url: url, key: "doc-checkpoints")
      try await a.attach()
      try await a.document.update { root, _ in root["x"] = .integer(1) }
      let pack = WireChangePack(try await a.document.createChangePack())
      let answer = try await client.call(
        "PushPullChanges", PushPullChangesRequest(clientID: a.clientID, documentID: a.documentID, changePack: pack),
        as: PushPullChangesResponse.self)
      let actor = Data(try ActorID(hex: a.clientID).bytes).base64EncodedString()
      #expect(answer.changePack?.checkpoint == WireCheckpoint(serverSeq: 2, clientSeq: 2))
      #expect(answer.changePack?.changes.isEmpty == true)
      #expect(answer.changePack?.versionVector?.vector == [actor: 1])
      // A second client attaching with nothing sees both changes; its empty vector pulls the
      // minimum down to 0 for a's actor.
      let b = try await client.call(
        "ActivateClient", ActivateClientRequest(clientKey: "b"), as: ActivateClientResponse.self)
      let attached = try await client.call(
        "AttachDocument",
        AttachDocumentRequest(clientID: b.clientID, changePack: WireChangePack(documentKey: "doc-checkpoints", checkpoint: WireCheckpoint(), versionVector: WireVersionVector())),
        as: AttachDocumentResponse.self)
      #expect(attached.documentID == a.documentID)
      #expect(attached.changePack?.checkpoint == WireCheckpoint(serverSeq: 2, clientSeq: 0))
      #expect(attached.changePack?.changes.map { $0.id?.serverSeq } == [1, 2])
      #expect(attached.changePack?.versionVector?.vector == [actor: 0])
    }
  }

  @Test("the health endpoint answers as Yorkie v0.7.17 does")
  func health() async throws {
    try await withServer { url, _ in
      let answer: TestResponse = try await offPool {
        let http = try TestHTTPClient(port: url.port!)
        try http.send("GET /yorkie.v1.YorkieService/health HTTP/1.1\r\nHost: x\r\n\r\n")
        return try http.readResponse()
      }
      #expect(answer.status == 200)
      #expect(answer.text == #"{"status":"serving"}"#)
    }
  }
}
