import CRDT
import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Replicas that applied their own changes before the others' (editors, in mixed order) end
/// equal to a passive replica, one that applies every change in the server's order: several
/// clients in manual mode edit one document through the in-process server at random (seeded),
/// syncing at random moments, so that array moves and sets, removals, object sets, styled
/// text edits and counter increments meet concurrently; the server stores snapshots often and
/// collects garbage with them. After quiescence every editor equals a fresh replica attached at
/// checkpoint 0 and the server's own materialization.
///
/// `CRDT_SEED=N` replays one seed; `CRDT_LONG_TESTS=<factor>` runs that many times the seeds.
@Suite("Client: editors converge on the passive replica (mixed order)")
struct MixedOrderConvergenceTests {
  /// The seeds to run (see the type's description).
  static func seeds() -> [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["CRDT_SEED"], let seed = UInt64(text) { return [seed] }
    let factor = environment["CRDT_LONG_TESTS"].flatMap(Int.init) ?? 1
    return (0..<UInt64(3 * max(factor, 1))).map { 0x0C0F_FEE0 &+ $0 &* 7919 }
  }

  static let clientCount = 4
  static let steps = 240

  @Test("every editor equals a fresh replay of the server's log", arguments: seeds())
  func editorsEqualPassiveReplica(seed: UInt64) async throws {
    print("MixedOrderConvergenceTests seed \(seed) (CRDT_SEED=\(seed) to replay)")
    var configuration = YorkieDevServer.Configuration()
    configuration.snapshotThreshold = 20
    configuration.snapshotInterval = 15
    try await withServer(configuration) { url, server in
      let key = "mixed-\(seed)"
      var clients: [Client] = []
      var documents: [Document] = []
      for index in 0..<Self.clientCount {
        let client = try await activatedClient(url, key: "e\(index)")
        let document = Document(key: key)
        try await client.attach(
          document, syncMode: .manual,
          initialRoot: ["list": .array([]), "text": .text(""), "count": .counter(.long(0)), "map": .object([:])])
        try await client.sync(document)
        clients.append(client)
        documents.append(document)
      }
      var random = SeededRandom(seed: seed)
      for step in 0..<Self.steps {
        let index = Int(random.next() % UInt64(Self.clientCount))
        if random.next() % 6 == 0 {
          try await clients[index].sync(documents[index])
        } else {
          try await Self.randomEdit(documents[index], &random, tag: "\(index).\(step)", seed: seed)
        }
      }
      // Quiescence: everything pushed, then everyone pulls what the others pushed.
      for _ in 0..<2 {
        for (client, document) in zip(clients, documents) { try await client.sync(document) }
      }
      let passive = try await activatedClient(url, key: "passive")
      let replay = Document(key: key)
      try await passive.attach(replay, syncMode: .manual)
      let expected = await replay.toSortedJSON()
      #expect(try await serverJSON(server, key) == expected, "seed \(seed): the server's materialization differs from the fresh replica")
      for (index, document) in documents.enumerated() {
        #expect(await document.toSortedJSON() == expected, "seed \(seed): editor \(index) differs from the passive replica")
        #expect(await document.hasLocalChanges == false, "seed \(seed): editor \(index) has changes pending")
      }
      try await passive.deactivate()
      for client in clients { try await client.deactivate() }
    }
  }

  /// One random edit of `document` (a no-op when the element it picks is empty).
  static func randomEdit(_ document: Document, _ random: inout SeededRandom, tag: String, seed: UInt64) async throws {
    let kind = random.next() % 10
    let a = Int(random.next() % 1000)
    let b = Int(random.next() % 1000)
    let flag = random.next() % 2 == 0
    do {
      try await document.update { root, _ in
        switch kind {
        case 0:
          root.object("map")?["k\(a % 3)"] = .string(tag)
        case 1:
          root.object("map")?.remove("k\(a % 3)")
        case 2:
          guard let list = root.array("list") else { return }
          try list.insert(.string(tag), at: a % (list.count + 1))
        case 3:
          guard let list = root.array("list"), list.count > 0 else { return }
          try list.set(.string("set " + tag), at: a % list.count)
        case 4:
          guard let list = root.array("list"), list.count > 0 else { return }
          try list.remove(at: a % list.count)
        case 5:
          guard let list = root.array("list"), list.count > 1 else { return }
          try list.move(from: a % list.count, to: b % list.count)
        case 6, 7:
          guard let text = root.text("text") else { return }
          let from = a % (text.length + 1)
          let to = from + b % (text.length - from + 1) / 2
          try text.edit(from, to, flag ? "<\(tag)>" : "", attributes: flag && kind == 7 ? ["bold": .bool(true)] : nil)
        case 8:
          guard let text = root.text("text"), text.length > 0 else { return }
          let from = a % text.length
          let to = from + 1 + b % (text.length - from)
          try text.setStyle(from, to, ["color": .string(tag)])
        default:
          root.counter("count")?.increase(by: Int64(a % 7) - 3)
        }
      }
    } catch {
      Issue.record("seed \(seed): edit \(kind) at \(tag) failed: \(error)")
    }
  }
}
