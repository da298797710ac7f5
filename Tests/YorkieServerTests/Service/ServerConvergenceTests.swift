import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Many replicas through the server")
struct ServerConvergenceTests {
  /// One random step of a replica.
  enum Action: CaseIterable {
    case edit, sync, pushOnly, watch, reattach
  }

  @Test("dozens of clients on several documents edit, sync, watch and re-attach at random; all converge on the server's document", arguments: [UInt64(1), 2])
  func converge(seedIndex: UInt64) async throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["SERVER_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_0000) &+ seedIndex
    print("ServerConvergenceTests seed \(seed) (set SERVER_FUZZ_SEED to vary)")
    var configuration = YorkieDevServer.Configuration()
    configuration.snapshotThreshold = 30
    configuration.snapshotInterval = 40
    try await withServer(configuration) { url, server in
      let keys = ["conv-a-\(seed)", "conv-b-\(seed)", "conv-c-\(seed)"]
      // The first replica of each document lays out its structure.
      for key in keys {
        let founder = try await HTTPReplica(url: url, key: key)
        try await founder.attach()
        try await founder.document.update { root, _ in
          _ = root.setNewText("text")
          _ = root.setNewArray("list")
          _ = root.setNewCounter("count", .int(0))
        }
        try await founder.detach()
      }
      let clientCount = 24
      let stepsPerClient = 30
      let finals = LockedBox<[String: [HTTPReplica]]>([:])
      // The attached replicas of each document, by client id (registered once attached,
      // removed before detaching), against which every answer's min vector is checked.
      let live = LockedBox<[String: [String: HTTPReplica]]>([:])
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<clientCount {
          group.addTask {
            var random = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(index))
            let key = keys[Int(random.next() % UInt64(keys.count))]
            var replica = try await HTTPReplica(url: url, key: key, clientKey: "c\(index)")
            try await replica.attach(presence: ["i": .integer(Int32(index))])
            live.mutate { $0[key, default: [:]][replica.clientID] = replica }
            for step in 0..<stepsPerClient {
              let action = Action.allCases[Int(random.next() % UInt64(Action.allCases.count))]
              do {
              switch action {
              case .edit:
                try await Self.randomEdit(replica.document, &random, tag: "\(index).\(step)")
              case .sync:
                // Only replicas attached before the request have rows the answer's minimum covers,
                // and only those still attached after it: one that detached meanwhile may have
                // left the minimum before the answer (a replica leaves `live` before it sends
                // its detach, so one still there had not).
                let attachedBefore = Array((live.value[key] ?? [:]).values)
                let answer = try await replica.sync()
                let attachedAfter = live.value[key] ?? [:]
                let attachedThroughout = attachedBefore.filter { attachedAfter[$0.clientID] === $0 }
                // A snapshot answer carries the snapshot's own vector, not the minimum.
                if answer?.snapshot.isEmpty ?? true {
                  try await Self.checkMinimumVector(answer?.versionVector?.vector ?? [:], replicas: attachedThroughout, seed: seed,
                                                    server: server)
                }
              case .pushOnly:
                try await replica.sync(pushOnly: true)
              case .watch:
                let stream = try await replica.client.stream(
                  "Watch", WatchRequest(clientID: replica.clientID, resources: [.document(WireDocumentResource(documentID: replica.documentID))]))
                let first = try WatchResponse(json: try #require(await stream.nextJSON()), path: "init")
                guard case .initialization(let inits) = first, case .document(let docInit) = inits.first else {
                  Issue.record("seed \(seed): a watch began with \(first)")
                  return
                }
                #expect(docInit.clientIDs.contains(replica.clientID), "seed \(seed)")
                stream.close()
              case .reattach:
                try await replica.sync()
                live.mutate { $0[key]?[replica.clientID] = nil }
                try await replica.detach()
                replica = try await HTTPReplica(url: url, key: key, clientKey: "c\(index)")
                try await replica.attach(presence: ["i": .integer(Int32(index))])
                live.mutate { $0[key, default: [:]][replica.clientID] = replica }
              }
              } catch {
                let dump = await Self.dump(server: server, key: key, replica: replica)
                Issue.record("seed \(seed): client \(index) (\(replica.clientID)) step \(step) \(action) failed: \(error); state written to \(dump)")
                throw error
              }
              if let broken = await replica.document.checkInvariants() {
                Issue.record("seed \(seed): replica \(index) broke an invariant at step \(step): \(broken)")
              }
            }
            let final = replica
            finals.mutate { $0[key, default: []].append(final) }
          }
        }
        try await group.waitForAll()
      }
      // Quiesce: everyone pushes, then everyone pulls.
      let all = finals.value
      for replicas in all.values { for replica in replicas { try await replica.sync() } }
      for replicas in all.values { for replica in replicas { try await replica.sync() } }
      #expect((server.service?.snapshotsSent.withLock { $0 } ?? 0) > 0, "seed \(seed): no pull took the snapshot path")
      for key in keys {
        let replicas = all[key] ?? []
        let fresh = try await HTTPReplica(url: url, key: key, clientKey: "fresh")
        try await fresh.attach()
        let expected = await fresh.document.toSortedJSON()
        let snapshot = try #require(try await server.service?.materialize(documentKey: key))
        let materialized = Document(key: key)
        try await materialized.applyChangePack(ChangePack(key: key, checkpoint: .initial, changes: [], snapshot: Data(snapshot)))
        #expect(await materialized.toSortedJSON() == expected, "seed \(seed): \(key) the server's materialization")
        for replica in replicas {
          let json = await replica.document.toSortedJSON()
          #expect(json == expected, "seed \(seed): \(key) replica \(replica.clientID)")
        }
      }
    }
  }

  /// Writes the server's history of `key` and the replica's state to a temporary file, for a
  /// failure's post-mortem; returns the file's path.
  static func dump(server: YorkieDevServer, key: String, replica: HTTPReplica) async -> String {
    var text = "replica \(replica.clientID)\n"
    text += "versionVector \(WireVersionVector(await replica.document.versionVector).json.text)\n"
    for change in await replica.document.pendingChanges { text += "pending \(WireChange(change).json.text)\n" }
    let history: [String] = server.service?.state.withLock { state in
      guard let id = state.documentByKey[DocumentKeyPath(project: "", key: key)], let document = state.documents[id] else { return [] }
      var lines = document.changes.map { "stored \($0.wire.json.text)" }
      for (client, row) in document.versionVectors { lines.append("row \(client.hex) \(row)") }
      if let snapshot = document.snapshot { lines.append("snapshot at \(snapshot.serverSeq) vv \(snapshot.versionVector)") }
      return lines
    } ?? []
    text += history.joined(separator: "\n")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("server-convergence-\(replica.clientID).txt")
    try? Data(text.utf8).write(to: file)
    return file.path
  }

  /// The min version vector of a sync answer is never ahead of an attached replica (each
  /// replica's vector only grows, and the server's rows are vectors the replicas reported).
  static func checkMinimumVector(_ minimum: [String: Int64], replicas: [HTTPReplica], seed: UInt64, server: YorkieDevServer) async throws {
    for replica in replicas {
      let own = WireVersionVector(await replica.document.versionVector).vector
      for (actor, lamport) in minimum where lamport > own[actor] ?? 0 {
        let row = server.service?.state.withLock { state in
          state.documents[ResourceID(hex: replica.documentID)!]?.versionVectors[ResourceID(hex: replica.clientID)!]
        }
        let info = server.service?.state.withLock { state in state.clients[ResourceID(hex: replica.clientID)!]?.documents[ResourceID(hex: replica.documentID)!] }
        Issue.record("seed \(seed): min vector \(minimum) ahead of replica \(replica.clientID) at \(own); its row \(String(describing: row)) info \(String(describing: info))")
        return
      }
    }
  }

  /// One random edit: a text edit, an array insert or removal, a counter increase or a key set.
  static func randomEdit(_ document: Document, _ random: inout SplitMix64, tag: String) async throws {
    let choice = random.next() % 4
    let a = Int(random.next() % 1000)
    let b = Int(random.next() % 1000)
    try await document.update { root, _ in
      switch choice {
      case 0:
        guard let text = root.text("text") else { return }
        // Offsets are UTF-16; an emoji goes only at the end and is never cut, so a random
        // offset can only fall inside one when it is the emoji's second half: step back.
        let units = Array(text.string.utf16)
        func boundary(_ offset: Int) -> Int {
          offset > 0 && offset < units.count && UTF16.isTrailSurrogate(units[offset]) ? offset - 1 : offset
        }
        if b % 4 == 0 {
          _ = try text.edit(units.count, units.count, "😀")
        } else {
          let from = boundary(units.isEmpty ? 0 : a % (units.count + 1))
          let to = boundary(min(units.count, from + b % 3))
          _ = try text.edit(from, max(from, to), "é\(tag)")
        }
      case 1:
        guard let list = root.array("list") else { return }
        if list.count > 0 && a % 3 == 0 {
          try list.remove(at: b % list.count)
        } else {
          try list.insert(.string(tag), at: list.count == 0 ? 0 : b % (list.count + 1))
        }
      case 2:
        root.counter("count")?.increase(by: Int64(a % 7) - 3)
      default:
        root["k\(a % 5)"] = .string(tag)
      }
    }
  }
}
