import CRDT
import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// The end of a stored generation, against the in-process server over real HTTP: a torn last
/// record (the trace of a crash during an append) resumes from the records before it, and a
/// generation that lost whole records the server has (cut at a record boundary) is caught by
/// its seal before a new edit can reuse their client sequences.
@Suite("Client: a torn tail resumes; records lost at a boundary are caught by the seal")
struct StoreTailTests {
  /// The newest generation file of the one document stored in `folder`.
  static func newestLog(in folder: URL) throws -> URL {
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("d-") })
    let documentFolder = folder.appendingPathComponent(name)
    let logs = try FileManager.default.contentsOfDirectory(atPath: documentFolder.path).filter {
      $0.hasSuffix(".log") && $0 != "seal.log"
    }
    return documentFolder.appendingPathComponent(try #require(logs.sorted().last))
  }

  /// A server keeping its data in `data`, started; its configuration (for a restart on the
  /// same port) and URL.
  static func startServer(_ data: URL) throws -> (YorkieDevServer, YorkieDevServer.Configuration, URL) {
    var configuration = YorkieDevServer.Configuration(dataDirectory: data)
    let server = YorkieDevServer(configuration: configuration)
    let url = try server.start()
    configuration.port = url.port ?? 0
    return (server, configuration, url)
  }

  /// Options of a client storing in `folder` under per-update durability, retrying fast.
  static func options(_ folder: URL) -> ClientOptions {
    var options = ClientOptions(key: "stored", storage: .directory(folder, durability: .perUpdate))
    options.reconnect = ReconnectPolicy(base: 0.05, cap: 0.2)
    return options
  }

  @Test("per-update durability, server unreachable: updates 1…5 return, update 6 is torn; restarted, the client shows the 5 offline, reports the torn tail (no reset), and they reach the server once")
  func tornTailResumes() async throws {
    let data = ResumeTests.folder("torn-server")
    let folder = ResumeTests.folder("torn-store")
    defer { for url in [data, folder] { try? FileManager.default.removeItem(at: url) } }
    let (server, configuration, url) = try Self.startServer(data)
    let first = Client(url, options: Self.options(folder))
    try await first.activate()
    let doc = Document(key: "torn-doc")
    try await first.attach(doc)
    try await doc.update { root, _ in _ = root.setNewCounter("n", .int(0)) }
    try await first.waitUntilAcknowledged(doc)
    server.stop()
    for index in 1...5 {
      try await doc.update { root, _ in
        _ = root.counter("n")?.increase(by: 1)
        root["last"] = .integer(Int32(index))
      }
    }
    await first.close()
    // Update 6 was being appended when the process died: half of its record is on disk.
    let log = try Self.newestLog(in: folder)
    var bytes = try [UInt8](Data(contentsOf: log))
    let boundaries = ResumeTests.recordBoundaries(bytes).sorted()
    let lastRecord = Array(bytes[boundaries[boundaries.count - 2]...])
    bytes += lastRecord.prefix(lastRecord.count / 2)
    try Data(bytes).write(to: log)

    // Restarted, the server still unreachable.
    let second = Client(url, options: Self.options(folder))
    let events = EventRecorder(second.events())
    try await second.activate()
    let resumed = Document(key: "torn-doc")
    try await second.attach(resumed)
    #expect(await resumed.toSortedJSON() == #"{"last":5,"n":5}"#)
    #expect(await resumed.localChanges.count == 5)
    #expect(
      await events.waitFor {
        guard case .storeDamaged(let notice) = $0 else { return false }
        return notice.kind == .tornTail && notice.file == log.path && notice.document == "torn-doc"
      }, "\(events.recorded)")
    try await resumed.update { root, _ in root["after"] = "restart" }

    let restarted = YorkieDevServer(configuration: configuration)
    _ = try restarted.start()
    defer { restarted.stop() }
    #expect(await eventually { (try? await second.sync(resumed)) != nil })
    try await second.waitUntilAcknowledged(resumed)
    let expected = #"{"after":"restart","last":5,"n":5}"#
    #expect(try await serverJSON(restarted, "torn-doc") == expected)
    #expect(await resumed.toSortedJSON() == expected)
    let peer = try await activatedClient(url, key: "peer")
    let peerDoc = Document(key: "torn-doc")
    try await peer.attach(peerDoc)
    #expect(await peerDoc.toSortedJSON() == expected)
    let resets = events.recorded.filter { if case .documentReset = $0 { return true } else { return false } }
    let damage = events.recorded.filter { if case .storeDamaged(let notice) = $0 { return notice.kind == .damaged } else { return false } }
    #expect(resets.isEmpty && damage.isEmpty, "\(events.recorded)")
    try await peer.deactivate()
    try await second.deactivate()
  }

  @Test("a generation cut exactly at a record boundary, losing changes the server has: the app is told, and edits made offline afterwards reach the server and a peer")
  func cutAtRecordBoundary() async throws {
    let data = ResumeTests.folder("cut-server")
    let folder = ResumeTests.folder("cut-store")
    defer { for url in [data, folder] { try? FileManager.default.removeItem(at: url) } }
    let (server, configuration, url) = try Self.startServer(data)
    let first = Client(url, options: Self.options(folder))
    try await first.activate()
    let doc = Document(key: "cut-doc")
    try await first.attach(doc)
    for (index, name) in ["a", "b", "c"].enumerated() {
      try await doc.update { root, _ in root[name] = .integer(Int32(index + 1)) }
      try await first.waitUntilAcknowledged(doc)
    }
    await first.close()
    server.stop()
    // Everything after the base is gone, yet the file reads back whole: the changes a, b and
    // c, which the server has, are lost from the store.
    let log = try Self.newestLog(in: folder)
    let bytes = try [UInt8](Data(contentsOf: log))
    let boundaries = ResumeTests.recordBoundaries(bytes).sorted()
    try Data(bytes.prefix(boundaries[1])).write(to: log)

    let second = Client(url, options: Self.options(folder))
    let events = EventRecorder(second.events())
    try await second.activate()
    let again = Document(key: "cut-doc")
    try await second.attach(again)
    #expect(
      await events.waitFor {
        guard case .documentReset(let notice) = $0 else { return false }
        return notice.document == "cut-doc" && notice.reason.code == .actorConflict
      }, "\(events.recorded)")
    for index in 1...3 {
      try await again.update { root, _ in root["offline\(index)"] = .integer(Int32(index)) }
    }

    let restarted = YorkieDevServer(configuration: configuration)
    _ = try restarted.start()
    defer { restarted.stop() }
    #expect(await eventually { (try? await second.sync(again)) != nil })
    try await second.waitUntilAcknowledged(again)
    let expected = #"{"a":1,"b":2,"c":3,"offline1":1,"offline2":2,"offline3":3}"#
    #expect(try await serverJSON(restarted, "cut-doc") == expected)
    #expect(await eventually { await again.toSortedJSON() == expected })
    let peer = try await activatedClient(url, key: "peer")
    let peerDoc = Document(key: "cut-doc")
    try await peer.attach(peerDoc)
    #expect(await peerDoc.toSortedJSON() == expected)
    try await again.update { root, _ in root["later"] = true }
    try await second.waitUntilAcknowledged(again)
    #expect(await eventually { await peerDoc.toSortedJSON() == again.toSortedJSON() })
    try await peer.deactivate()
    try await second.deactivate()
  }
}
