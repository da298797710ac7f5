import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Documents holding a Yorkie Tree")
struct TreeDocumentTests {
  /// The changes a Yorkie v0.7.17 server answered for a tree document (08-attach-tree.json).
  static func recordedTreeChanges() throws -> [WireChange] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("YorkieProtocolTests/Fixtures/wire/08-attach-tree.json")
    let fixture = try WireJSON.parse(Array(try Data(contentsOf: file)))
    guard case .array(let exchanges)? = fixture["exchanges"], let response = exchanges[1]["response"] else {
      throw TestClientError(description: "08-attach-tree.json has no attach response")
    }
    return try AttachDocumentResponse(json: response, path: "response").changePack?.changes ?? []
  }

  @Test("are stored and relayed like any other; past the snapshot threshold the server logs why and sends changes")
  func relayedNotMaterialized() async throws {
    let lines = LockedBox<[String]>([])
    var configuration = YorkieDevServer.Configuration()
    configuration.snapshotThreshold = 3
    configuration.logSink = { line in lines.mutate { $0.append(line) } }
    try await withServer(configuration) { url, _ in
      let client = ConnectTestClient(url)
      var changes = try Self.recordedTreeChanges()
      #expect(changes.count == 10)
      for index in changes.indices { changes[index].id?.serverSeq = 0 }
      let writer = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "tree-writer"), as: ActivateClientResponse.self).clientID
      let attached = try await client.call(
        "AttachDocument",
        AttachDocumentRequest(clientID: writer, changePack: WireChangePack(
          documentKey: "doc-tree", checkpoint: WireCheckpoint(clientSeq: 10), changes: changes, versionVector: changes.last?.id?.versionVector)),
        as: AttachDocumentResponse.self)
      #expect(attached.changePack?.checkpoint == WireCheckpoint(serverSeq: 10, clientSeq: 10))
      let reader = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "tree-reader"), as: ActivateClientResponse.self).clientID
      let pulled = try await client.call(
        "AttachDocument",
        AttachDocumentRequest(clientID: reader, changePack: WireChangePack(documentKey: "doc-tree", checkpoint: WireCheckpoint(), versionVector: WireVersionVector())),
        as: AttachDocumentResponse.self)
      // Ten changes behind a threshold of three: a materializable document would come as a
      // snapshot; this one comes as the same changes, re-encoded as they were stored.
      #expect(pulled.changePack?.snapshot.isEmpty == true)
      #expect(pulled.changePack?.changes.count == 10)
      #expect(pulled.changePack?.changes.map { $0.operations.map(\.json) } == changes.map { $0.operations.map(\.json) })
      #expect(pulled.changePack?.changes.map { $0.id?.serverSeq } == Array(1...10))
      #expect(lines.value.contains { $0.contains("could not be materialized") || $0.contains("cannot be materialized") })
    }
  }
}
