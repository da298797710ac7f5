import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import YorkieClient

/// Several clients edit one document at random (seeded) through a TCP proxy that delays,
/// drops, resets and black-holes their connections, while the server — a child `yorkie-server`
/// with a data directory — is killed with SIGKILL and restarted. At the end every replica and
/// the server hold the same document, and every edit is in it exactly once.
@Suite("Client: convergence under network faults and server crashes")
struct FaultConvergenceTests {
  /// The seed (`CRDT_SEED` overrides the random one; it is printed).
  static let seed: UInt64 = ProcessInfo.processInfo.environment["CRDT_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...999_999)

  /// Runs blocking `work` on a thread of its own (never on the concurrency pool).
  static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try work() }) }.start()
    }
  }

  /// Options for a client on a faulty network: short timeouts, quick retries.
  static func options(_ key: String) -> ClientOptions {
    ClientOptions(
      key: key, timeouts: ClientTimeouts(request: 2, streamIdle: 4),
      reconnect: ReconnectPolicy(base: 0.02, multiplier: 2, cap: 0.3, minimumDelay: 0.01))
  }

  /// What one client did, to check that each edit is in the result exactly once.
  struct Ledger: Sendable {
    var logTokens: [String] = []
    var textTokens: [String] = []
    var increments: Int64 = 0
  }

  @Test("replicas converge through delays, drops, resets, black holes and server kills; no edit lost or doubled")
  func convergeUnderFaults() async throws {
    let seed = Self.seed
    print("FaultConvergenceTests seed \(seed) (CRDT_SEED=\(seed) to replay)")
    let folder = temporaryFolder("fault-convergence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let port = try freePort()
    let server = LockedValue<ServerProcess?>(try await Self.offPool { try ServerProcess(port: port, dataDirectory: folder) })
    let proxy = try FaultProxy(target: URL(string: "http://127.0.0.1:\(port)")!)
    let proxyURL = proxy.start()
    defer {
      proxy.stop()
      server.withLock { $0?.terminate() }
    }

    let key = "fault-doc"
    let clientCount = 4
    var clients: [Client] = []
    var documents: [Document] = []
    for index in 0..<clientCount {
      let client = Client(proxyURL, options: Self.options("c\(index)"))
      try await client.activate()
      let doc = Document(key: key)
      if index == 0 {
        try await client.attach(doc)
        try await doc.update { root, _ in
          _ = root.setNewArray("log")
          _ = root.setNewText("text")
          _ = root.setNewCounter("count", .long(0))
        }
        try await client.waitUntilAcknowledged(doc)
      } else {
        try await client.attach(doc)
      }
      clients.append(client)
      documents.append(doc)
    }

    // The editors.
    let editing = (0..<clientCount).map { index in
      let doc = documents[index]
      return Task { () -> Ledger in
        var random = SeededRandom(seed: seed &+ UInt64(index) &* 7919)
        var ledger = Ledger()
        for step in 0..<40 {
          let token = "c\(index)-\(step)"
          switch random.next() % 4 {
          case 0:
            try? await doc.update { root, _ in try root.array("log")?.append(.string(token)) }
            ledger.logTokens.append(token)
          case 1:
            try? await doc.update { root, _ in root.counter("count")?.increase(by: 1) }
            ledger.increments += 1
          case 2:
            let draw = random.next()
            try? await doc.update { root, _ in
              guard let text = root.text("text") else { return }
              // Between tokens only, so that each stays whole and can be counted.
              var boundaries = [0]
              for (offset, unit) in text.string.utf16.enumerated() where unit == UInt16(UInt8(ascii: ">")) {
                boundaries.append(offset + 1)
              }
              let at = boundaries[Int(draw % UInt64(boundaries.count))]
              try text.edit(at, at, "<\(token)>")
            }
            ledger.textTokens.append("<\(token)>")
          default:
            try? await doc.update { root, _ in root["last-\(index)"] = .integer(Int32(step)) }
          }
          // Edits spread over the whole fault schedule (about 3 s).
          try? await Task.sleep(nanoseconds: (random.next() % 150) * 1_000_000)
        }
        return ledger
      }
    }

    // The faults.
    var faults = SeededRandom(seed: seed ^ 0xFA17)
    var kills = 0
    for round in 0..<14 {
      // Two kills at fixed rounds, other faults at random.
      let fault = round == 4 || round == 9 ? 5 : faults.next() % 7
      switch fault {
      case 0: proxy.mode = .delay(Double(faults.next() % 80) / 1000)
      case 1: proxy.mode = .refuse
      case 2: proxy.mode = .blackHole
      case 3: proxy.resetAll()
      case 4: proxy.mode = .dropAfter(bytes: 200 + Int(faults.next() % 4000))
      case 5:
        kills += 1
        server.withLock { $0?.kill() }
        try await Task.sleep(nanoseconds: (100 + faults.next() % 300) * 1_000_000)
        let restarted = try await Self.offPool { try ServerProcess(port: port, dataDirectory: folder) }
        server.withLock { $0 = restarted }
      default: proxy.mode = .pass
      }
      try await Task.sleep(nanoseconds: (100 + faults.next() % 250) * 1_000_000)
    }
    proxy.mode = .pass
    var ledgers: [Ledger] = []
    for task in editing { ledgers.append(await task.value) }

    // Settle: everything acknowledged, then everyone pulls.
    for (client, doc) in zip(clients, documents) {
      try await client.waitUntilAcknowledged(doc)
    }
    for _ in 0..<2 {
      for (client, doc) in zip(clients, documents) { try await client.sync(doc) }
    }

    let expected = await documents[0].toSortedJSON()
    for (index, doc) in documents.enumerated() {
      #expect(await doc.toSortedJSON() == expected, "seed \(seed): replica \(index) differs")
    }
    let serverURL = try #require(server.withLock { $0?.url })
    let fresh = Client(serverURL, options: ClientOptions(key: "fresh"))
    try await fresh.activate()
    let check = Document(key: key)
    try await fresh.attach(check, syncMode: .manual)
    #expect(await check.toSortedJSON() == expected, "seed \(seed): the server differs")

    // Each edit exactly once.
    let log = try #require(await check.value(atPath: "$.log")?.array).compactMap(\.string)
    let logTokens = ledgers.flatMap(\.logTokens)
    #expect(log.sorted() == logTokens.sorted(), "seed \(seed): log \(log.count) entries, \(logTokens.count) appended")
    let text = try #require(await check.text(atPath: "$.text")).string
    for token in ledgers.flatMap(\.textTokens) {
      #expect(text.components(separatedBy: token).count == 2, "seed \(seed): \(token) is not in the text exactly once")
    }
    let count = try await check.value(atPath: "$.count")?.int64
    #expect(count == ledgers.reduce(0) { $0 + $1.increments }, "seed \(seed)")
    #expect(proxy.counters.accepted > clientCount, "the proxy saw the traffic")
    print("FaultConvergenceTests seed \(seed): \(kills) server kills, \(proxy.counters.accepted) connections, \(proxy.counters.resets) resets, \(log.count) log entries, \(count ?? 0) increments")
    try await fresh.deactivate()
    for client in clients { try? await client.deactivate() }
  }
}
