import CRDT
import DurableStorage
import Foundation
import Testing
import YorkieProtocol
import YorkieTestSupport
@testable import YorkieServer

@Suite("Documents holding a Yorkie Tree")
struct TreeDocumentTests {
  /// The tree of 08-attach-tree.json after its ten changes, as Yorkie's `toXML` writes it.
  static let recordedXML = #"<root><h1>Title</h1><p align="center">ll</p><p align="center">o!World</p></root>"#

  /// The changes a Yorkie v0.7.17 server answered for a tree document (08-attach-tree.json),
  /// with their serverSeqs 1...10.
  static func recordedTreeChanges() throws -> [WireChange] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("YorkieProtocolTests/Fixtures/wire/08-attach-tree.json")
    let fixture = try WireJSON.parse(Array(try Data(contentsOf: file)))
    guard case .array(let exchanges)? = fixture["exchanges"], let response = exchanges[1]["response"] else {
      throw TestClientError(description: "08-attach-tree.json has no attach response")
    }
    return try AttachDocumentResponse(json: response, path: "response").changePack?.changes ?? []
  }

  /// The XML of the tree `doc` in a binary snapshot.
  static func treeXML(inSnapshot data: Data) throws -> String {
    let snapshot = try DocumentSnapshot(data: data)
    let element = try #require(snapshot.root.get("doc"))
    guard case .tree(let tree) = element.kind else { throw TestClientError(description: "doc is not a tree: \(element.kind)") }
    return tree.toXML()
  }

  /// Pushes the recorded changes as a client "tree-writer" attaching `doc-tree`.
  static func pushRecordedChanges(_ client: ConnectTestClient) async throws {
    var changes = try recordedTreeChanges()
    #expect(changes.count == 10)
    for index in changes.indices { changes[index].id?.serverSeq = 0 }
    let writer = try await client.call("ActivateClient", ActivateClientRequest(clientKey: "tree-writer"), as: ActivateClientResponse.self).clientID
    let attached = try await client.call(
      "AttachDocument",
      AttachDocumentRequest(clientID: writer, changePack: WireChangePack(
        documentKey: "doc-tree", checkpoint: WireCheckpoint(clientSeq: 10), changes: changes, versionVector: changes.last?.id?.versionVector)),
      as: AttachDocumentResponse.self)
    #expect(attached.changePack?.checkpoint == WireCheckpoint(serverSeq: 10, clientSeq: 10))
  }

  /// Attaches `doc-tree` from scratch as a new client; returns the answer's pack.
  static func attachFresh(_ client: ConnectTestClient, key: String) async throws -> WireChangePack {
    let reader = try await client.call("ActivateClient", ActivateClientRequest(clientKey: key), as: ActivateClientResponse.self).clientID
    let pulled = try await client.call(
      "AttachDocument",
      AttachDocumentRequest(clientID: reader, changePack: WireChangePack(documentKey: "doc-tree", checkpoint: WireCheckpoint(), versionVector: WireVersionVector())),
      as: AttachDocumentResponse.self)
    return try #require(pulled.changePack)
  }

  @Test("are materialized like any other: past the snapshot threshold a fresh client gets a snapshot holding the tree")
  func snapshotForFarBehindClient() async throws {
    let lines = LockedBox<[String]>([])
    var configuration = YorkieDevServer.Configuration()
    configuration.snapshotThreshold = 3
    configuration.logLevel = .debug
    configuration.logSink = { line in lines.mutate { $0.append(line) } }
    try await withServer(configuration) { url, server in
      let client = ConnectTestClient(url)
      try await Self.pushRecordedChanges(client)
      let pack = try await Self.attachFresh(client, key: "tree-reader")
      // Ten changes behind a threshold of three: a snapshot, and no changes.
      #expect(pack.changes.isEmpty)
      #expect(pack.checkpoint == WireCheckpoint(serverSeq: 10, clientSeq: 0))
      #expect(try Self.treeXML(inSnapshot: pack.snapshot) == Self.recordedXML)
      #expect(server.service?.snapshotsSent.withLock { $0 } == 1)
      #expect(!lines.value.contains { $0.contains("materialized") }, "\(lines.value)")
    }
  }

  @Test("the snapshot the server stores past the snapshot interval holds the tree, and later snapshots start from it")
  func storedSnapshotLoads() async throws {
    var configuration = YorkieDevServer.Configuration()
    configuration.snapshotThreshold = 3
    configuration.snapshotInterval = 10
    try await withServer(configuration) { url, server in
      let service = try #require(server.service)
      let client = ConnectTestClient(url)
      try await Self.pushRecordedChanges(client)
      while service.isStoringSnapshots { try await Task.sleep(nanoseconds: 200_000) }
      let stored = try #require(service.state.withLock { state in state.documents.values.first?.snapshot })
      #expect(stored.serverSeq == 10)
      #expect(try Self.treeXML(inSnapshot: Data(stored.data)) == Self.recordedXML)
      // A fresh client's snapshot is built from the stored one (no changes after it).
      let pack = try await Self.attachFresh(client, key: "tree-reader")
      #expect(pack.changes.isEmpty)
      #expect(try Self.treeXML(inSnapshot: pack.snapshot) == Self.recordedXML)
    }
  }

  @Test("a journal of an older build that marked the document unmaterializable still replays, and the document gets snapshots")
  func oldJournalReplays() async throws {
    let folder = temporaryFolder("old-unmaterializable")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // One step as an older build wrote it: the document created and its ten tree changes stored,
    // the changes record carrying the reason the document could not be materialized then.
    let document = try #require(ResourceID(hex: "0123456789abcdef01234567"))
    let records: [JournalRecord] = [
      .documentCreated(id: document, key: "doc-tree", project: "", disablePresence: false),
      .changesStored(document: document, changes: try Self.recordedTreeChanges()),
    ]
    var text = try #require(String(bytes: JournalCodec.encode(records), encoding: .utf8))
    #expect(text.hasSuffix("}]}"))
    text.removeLast(3)
    text += #","unmaterializable":"Tree elements are not supported"}]}"#
    let (log, _) = try DurableLog.open(at: folder.appendingPathComponent("journal.log"))
    try log.sync(through: try log.append([Array(text.utf8)]))
    log.close()

    var configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    configuration.snapshotThreshold = 3
    try await withServer(configuration) { url, server in
      #expect(server.service?.state.withLock { $0.documents[document]?.serverSeq } == 10)
      let pack = try await Self.attachFresh(ConnectTestClient(url), key: "tree-reader")
      #expect(pack.changes.isEmpty)
      #expect(try Self.treeXML(inSnapshot: pack.snapshot) == Self.recordedXML)
    }
  }
}
