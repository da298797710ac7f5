import CRDT
import Foundation
import Testing
import YorkieProtocol

@testable import YorkieClient

#if os(Linux)
  /// A process that edits a stored document is killed with SIGKILL at random instants, hundreds
  /// of times, and started again: every time, the store loads a valid state (never a half-applied
  /// update), and under per-update durability it holds every update that had returned.
  ///
  /// The child (this test binary again, see ``TestChild``) restores the document, then edits in
  /// a loop: each update appends "i," to a text, sets `last` to i and increments a counter, and
  /// after it returns the child prints "durable i". Now and then it applies a server's answer
  /// (acknowledging its changes and bringing another replica's) or starts a new base. After each
  /// kill the parent loads the store itself and checks the document.
  @Suite("Crash: SIGKILL while editing and storing", .timeLimit(.minutes(5)))
  struct CrashTests {
    static let childVariable = "YORKIE_CRASH_CHILD"
    static let isChild = ProcessInfo.processInfo.environment[childVariable] != nil
    static let key = "crash-doc"
    static let actor = try! ActorID(hex: "00000000000000000000c0de")

    /// Kills and restarts per run (the issue asks for hundreds), in two independent lanes run at
    /// once (two stores, two children alive at a time): the test's wall time is mostly child
    /// start-ups.
    static let rounds = 200
    static let lanes = 2

    /// What one lane found.
    struct LaneOutcome: Sendable {
      var reached = 0
      var damaged = 0
    }

    @Test("killed at random instants, a restarted editor always finds a valid state holding every durable update")
    func killAndRestart() async throws {
      let seed = UInt64.random(in: 0...UInt64(UInt32.max))
      print("CrashTests seed \(seed)")
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let outcomes = try await withThrowingTaskGroup(of: LaneOutcome.self) { group in
        for lane in 0..<Self.lanes {
          group.addTask {
            try await Self.lane(
              seed: seed, lane: lane, rounds: Self.rounds / Self.lanes, folder: folder.appendingPathComponent("lane-\(lane)"))
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let reached = outcomes.map(\.reached)
      print("CrashTests seed \(seed): \(Self.rounds) kills, \(reached) updates stored per lane, \(outcomes.map(\.damaged).reduce(0, +)) torn tails reported")
      #expect(reached.allSatisfy { $0 > Self.rounds / Self.lanes }, "seed \(seed): the children hardly edited (\(reached) updates)")
    }

    /// `rounds` kills and checks on one store in `folder`, with the random source of `seed`
    /// and `lane`.
    static func lane(seed: UInt64, lane: Int, rounds: Int, folder: URL) async throws -> LaneOutcome {
      var random = SplitMix64(seed: seed &+ UInt64(lane) &* 0x9E37_79B9_7F4A_7C15)
      let storeFolder = folder.appendingPathComponent("store")
      var outcome = LaneOutcome()
      for round in 0..<rounds {
        let batched = round % 4 == 3
        let child = try TestChild(
          filter: "CrashTests/editUntilKilled",
          environment: [
            Self.childVariable: "1", "YORKIE_CRASH_DIR": storeFolder.path,
            "YORKIE_CRASH_SEED": String(random.next()), "YORKIE_CRASH_BATCHED": batched ? "1" : "0",
          ], outputIn: folder)
        let context = "seed \(seed), lane \(lane), round \(round)"
        guard await child.waitForLine("ready") else {
          Issue.record("\(context): the child never got ready:\n\(child.text)")
          return outcome
        }
        try await Task.sleep(nanoseconds: UInt64.random(in: 1_000_000...40_000_000, using: &random))
        await child.killHard()
        let durable = child.lines(after: "durable ").compactMap { Int($0) }.max() ?? outcome.reached

        // What a restarted app finds.
        let store = try FileDocumentStore(directory: storeFolder)
        defer { store.close() }
        let load = try store.load(Self.key)
        outcome.damaged += load.damages.count + (load.tornTail == nil ? 0 : 1)
        let stored = try #require(load.document, "\(context): nothing stored")
        let replica = try StoredEntry.replica(stored)
        let document = Document(key: Self.key)
        try await document.restore(from: replica.base, replaying: replica.records)
        let last = try await Self.check(document, context: context)
        if !batched {
          #expect(last >= durable, "\(context): update \(durable) had returned, the store holds \(last)")
        }
        #expect(last <= durable + 1, "\(context): the store holds \(last), only \(durable) updates returned")
        #expect(last >= outcome.reached || !load.damages.isEmpty || load.tornTail != nil, "\(context): went back from \(outcome.reached) to \(last)")
        outcome.reached = max(outcome.reached, last)
        store.close()
        if last < durable && !batched { return outcome }
      }
      return outcome
    }

    /// Checks that `document` is a whole number of updates (the text lists 1 to `last`, the
    /// counter equals it) and returns `last`.
    static func check(_ document: Document, context: String) async throws -> Int {
      let last = Int(try await document.valueSync("last"))
      let counted = Int(try await document.valueSync("n"))
      let log = try await document.textSync("log")
      let expected = (0..<last).map { "\($0 + 1)," }.joined()
      #expect(counted == last, "\(context): counter \(counted), last \(last)")
      #expect(log == expected, "\(context): the log is not 1…\(last)")
      return last
    }

    /// The child: restores the stored document (or starts one), then edits until killed.
    @Test("(run in the child process only) edit and store until killed", .enabled(if: isChild))
    func editUntilKilled() async throws {
      let environment = ProcessInfo.processInfo.environment
      let folder = URL(fileURLWithPath: try #require(environment["YORKIE_CRASH_DIR"]))
      var random = SplitMix64(seed: UInt64(environment["YORKIE_CRASH_SEED"] ?? "") ?? 1)
      let durability: DocumentStorage.Durability = environment["YORKIE_CRASH_BATCHED"] == "1" ? .batched(window: 0.005) : .perUpdate
      let store = try FileDocumentStore(directory: folder)
      let document = Document(key: Self.key)
      let recorder: StoreRecorder
      if let stored = try store.load(Self.key).document {
        let replica = try StoredEntry.replica(stored)
        try await document.restore(from: replica.base, replaying: replica.records)
        recorder = StoreRecorder(continuing: stored, seal: nil, store: store, key: Self.key, durability: durability)
        await document.continueRecording(with: recorder)
      } else {
        try await document.setActor(Self.actor)
        recorder = StoreRecorder(store: store, key: Self.key, documentID: "000000000000000000000001", durability: durability)
        try await document.startRecording(with: recorder)
        try await document.update { root, _ in
          _ = root.setNewText("log")
          _ = root.setNewCounter("n", .int(0))
          root["last"] = 0
        }
      }
      var next = Int(try await document.valueSync("last")) + 1
      let other = Document(key: Self.key)
      try await other.setActor(ActorID.random())
      var serverSeq = await document.checkpoint.serverSeq
      printUnbuffered("ready")
      while true {
        switch Int.random(in: 0..<40, using: &random) {
        case 0..<3:
          // A server's answer: acknowledges what was pushed and brings another replica's edit.
          try await other.update { root, _ in root["other-\(next)"] = .integer(Int32(next)) }
          let theirs = try await other.createChangePack().changes
          try await other.acknowledgeChanges(through: theirs.last?.id.clientSeq ?? 0)
          let mine = await document.changeID.clientSeq
          serverSeq += Int64(theirs.count) + 1
          try await document.applyChangePack(
            ChangePack(key: Self.key, checkpoint: Checkpoint(serverSeq: serverSeq, clientSeq: mine), changes: theirs))
        case 3:
          try await document.rebaseRecording()
        default:
          let index = next
          try await document.update { root, _ in
            let log = try #require(root.text("log"))
            try log.edit(log.length, log.length, "\(index),")
            root.counter("n")?.increase(by: 1)
            root["last"] = .integer(Int32(index))
          }
          printUnbuffered("durable \(index)")
          next += 1
        }
        // As the client's sync loop does after a push-pull.
        if recorder.wantsRebase { try await document.rebaseRecording() }
      }
    }
  }
#endif

extension Document {
  /// The integer at `key` of the root (tests).
  func valueSync(_ key: String) throws -> Int64 {
    switch try value(atPath: "$.\(key)") {
    case .integer(let value)?: return Int64(value)
    case .long(let value)?: return value
    case let other: throw YorkieError(.typeMismatch, "$.\(key) is \(String(describing: other))")
    }
  }

  /// The text at `key` of the root, as a plain string (tests).
  func textSync(_ key: String) throws -> String {
    guard let text = try text(atPath: "$.\(key)") else { throw YorkieError(.typeMismatch, "$.\(key) is no text") }
    return text.string
  }
}
