import CRDT
import Foundation
import Testing
import YorkieProtocol
import YorkieTestSupport
@testable import YorkieServer

@Suite("A server with a data directory")
struct PersistenceTests {
  @Test("documents, clients and checkpoints survive a restart; clients continue where they were")
  func restart() async throws {
    let folder = temporaryFolder("restart")
    defer { try? FileManager.default.removeItem(at: folder) }
    let port = try freePort()
    var configuration = YorkieDevServer.Configuration(port: port, dataDirectory: folder)
    configuration.snapshotInterval = 5
    let first = YorkieDevServer(configuration: configuration)
    let url = try first.start()
    let a = try await HTTPReplica(url: url, key: "doc-durable")
    try await a.attach(presence: ["p": .string("a")])
    for round in 0..<12 {
      try await a.document.update { root, _ in root["k\(round % 3)"] = .integer(Int32(round)) }
      try await a.sync()
    }
    let before = await a.document.toSortedJSON()
    first.stop()

    let second = YorkieDevServer(configuration: configuration)
    _ = try second.start()
    defer { second.stop() }
    // The old client is still known and attached: it goes on pushing.
    try await a.document.update { root, _ in root["after"] = .bool(true) }
    try await a.sync()
    let fresh = try await HTTPReplica(url: url, key: "doc-durable")
    try await fresh.attach()
    #expect(await fresh.document.toSortedJSON() == (await a.document.toSortedJSON()))
    #expect(before != (await a.document.toSortedJSON()))
    // The snapshots stored before the restart came back too.
    let snapshot = second.service?.state.withLock { state in state.documents.values.first?.snapshot?.serverSeq }
    #expect((snapshot ?? 0) >= 5)
  }

  @Test("a damaged byte stops the start with the file and its offset; a torn tail is cut and reported")
  func damage() async throws {
    let folder = temporaryFolder("damage")
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = YorkieDevServer.Configuration(dataDirectory: folder)
    let server = YorkieDevServer(configuration: configuration)
    let url = try server.start()
    let a = try await HTTPReplica(url: url, key: "doc-damage")
    try await a.attach()
    for round in 0..<4 {
      try await a.document.update { root, _ in root["k"] = .integer(Int32(round)) }
      try await a.sync()
    }
    server.stop()
    let file = folder.appendingPathComponent("journal.log")
    let original = try Data(contentsOf: file)

    // A torn tail: half of a record appended after the last complete one.
    var torn = original
    torn.append(contentsOf: [0x40, 0, 0, 0, 1, 2, 3, 4, 5, 6])
    try torn.write(to: file)
    let lines = LockedBox<[String]>([])
    var logged = configuration
    logged.logSink = { line in lines.mutate { $0.append(line) } }
    let afterTear = YorkieDevServer(configuration: logged)
    _ = try afterTear.start()
    afterTear.stop()
    #expect(lines.value.contains { $0.contains("torn tail") && $0.contains("offset \(original.count)") })
    #expect(try Data(contentsOf: file) == original)

    // A flipped byte inside the second record: the start refuses and names file and offset.
    var damaged = original
    let offset = 8 + 8 + Int(original[8]) + Int(original[9]) << 8 + Int(original[10]) << 16
    damaged[offset + 12] ^= 0x20
    try damaged.write(to: file)
    let refused = YorkieDevServer(configuration: configuration)
    do {
      _ = try refused.start()
      refused.stop()
      Issue.record("a damaged journal was accepted")
    } catch {
      #expect(error.description.contains(file.path))
      #expect(error.description.contains("\(offset)"))
    }
  }

  @Test("SIGKILL in the middle of heavy writes, many times: every acknowledged change survives, nothing else appears, clients continue")
  func killed() async throws {
    let folder = temporaryFolder("killed")
    defer { try? FileManager.default.removeItem(at: folder) }
    let port = try freePort()
    let seed = UInt64(ProcessInfo.processInfo.environment["SERVER_FUZZ_SEED"].flatMap(UInt64.init) ?? 0xC0FFEE)
    print("PersistenceTests.killed seed \(seed)")
    var random = SplitMix64(seed: seed)
    var server = try ServerProcess(port: port, dataDirectory: folder)
    let url = server.url
    let writerCount = 4
    var writers: [HTTPReplica] = []
    for index in 0..<writerCount {
      let writer = try await HTTPReplica(url: url, key: "doc-killed", clientKey: "w\(index)")
      try await writer.attach()
      writers.append(writer)
    }
    /// Keys each writer saw acknowledged, and every key ever written.
    let acknowledged = LockedBox<Set<String>>([])
    let written = LockedBox<Set<String>>([])
    for round in 0..<6 {
      let killAfter = 0.05 + Double(random.next() % 250) / 1000
      let stop = LockedBox(false)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, writer) in writers.enumerated() {
          group.addTask {
            var n = 0
            while !stop.value {
              let key = "r\(round)-w\(index)-\(n)"
              n += 1
              written.mutate { _ = $0.insert(key) }
              try await writer.document.update { root, _ in root[key] = .integer(Int32(n)) }
              // A push the kill interrupts fails: its change stays pending in the replica
              // and goes again after the restart.
              do {
                try await writer.sync()
                let seen = Self.keys(of: await writer.document.value)
                acknowledged.mutate { $0.formUnion(seen) }
              } catch {
                return
              }
            }
          }
        }
        try await Task.sleep(nanoseconds: UInt64(killAfter * 1e9))
        server.kill()
        stop.value = true
        try await group.waitForAll()
      }
      server = try ServerProcess(port: port, dataDirectory: folder)
      // Everyone continues: their pending changes go again and are taken once.
      for writer in writers { try await writer.sync() }
      for writer in writers { try await writer.sync() }
      let fresh = try await HTTPReplica(url: url, key: "doc-killed", clientKey: "check\(round)")
      try await fresh.attach()
      let keys = Self.keys(of: await fresh.document.value)
      print("PersistenceTests.killed round \(round): killed after \(Int(killAfter * 1000)) ms; \(acknowledged.value.count) keys acknowledged, \(keys.count) stored, \(written.value.count) written")
      let missing = acknowledged.value.subtracting(keys)
      #expect(missing.isEmpty, "round \(round): acknowledged and lost: \(missing.sorted().prefix(5)); server said:\n\(server.output)")
      let unknown = keys.subtracting(written.value)
      #expect(unknown.isEmpty, "round \(round): never written: \(unknown.sorted().prefix(5))")
      for writer in writers {
        #expect(await writer.document.toSortedJSON() == (await fresh.document.toSortedJSON()), "round \(round)")
      }
      try await fresh.detach()
    }
    server.terminate()
    // No change was stored twice: serverSeqs are dense and each (actor, clientSeq) appears once.
    let audit = YorkieDevServer(configuration: YorkieDevServer.Configuration(dataDirectory: folder))
    _ = try audit.start()
    defer { audit.stop() }
    let changes = audit.service?.state.withLock { state in state.documents.values.first { $0.key == "doc-killed" }?.changes } ?? []
    #expect(!changes.isEmpty)
    #expect(changes.enumerated().allSatisfy { $0.element.serverSeq == Int64($0.offset + 1) })
    #expect(Set(changes.map { "\($0.actor.hex)/\($0.clientSeq)" }).count == changes.count)
  }

  /// The keys of a document's root object.
  static func keys(of value: JSONValue) -> Set<String> {
    guard case .object(let members) = value else { return [] }
    return Set(members.map(\.key))
  }
}
