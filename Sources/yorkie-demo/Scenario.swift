import Foundation
import YorkieClient
import YorkieServer

/// A failure of the demo, with a message for the user.
struct DemoError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String

  /// An error saying `description`.
  init(_ description: String) {
    self.description = description
  }
}

/// The whole demo: a server, three clients editing one document at once, a broadcast, one
/// client's undo and redo, and the check that they converged. Every wait is bounded.
struct Scenario {
  /// The command line.
  var arguments: DemoArguments
  /// Where lines go.
  var log: DemoLog
  /// Rounds of edits per client.
  var rounds = 3

  /// Runs the demo; throws on divergence, on a timeout, or when a call fails.
  func run() async throws {
    var generator = SystemRandomNumberGenerator()
    let runID = String(generator.next() & 0xFF_FFFF, radix: 16)
    let documentKey = "demo-doc-\(runID)"
    let roomKey = "demo-room-\(runID)"
    log.plain("yorkie-demo · seed \(arguments.seed) (replay with --seed \(arguments.seed)) · document \"\(documentKey)\" · channel \"\(roomKey)\"")

    let server: YorkieDevServer?
    let url: URL
    if let given = arguments.server {
      server = nil
      url = given
      log.event("srv", "using the server at \(url.absoluteString)")
    } else {
      let local = YorkieDevServer(configuration: .init())
      url = try local.start()
      server = local
      log.event("srv", "started in-process at \(url.absoluteString)")
    }
    defer { server?.stop() }

    let cast = Role.cast.enumerated().map { index, role in
      Participant(role: role, index: index, url: url, documentKey: documentKey, roomKey: roomKey, seed: arguments.seed, log: log)
    }
    try await join(cast)
    try await edit(cast)
    try await settle(cast)
    try await undoAndRedo(cast)
    var expectedLikes: Int64 = 0
    for participant in cast { expectedLikes += await participant.likesAdded }
    try await Report.check(cast, expectedLikes: expectedLikes, log: log)
    try await leave(cast)
    server?.stop()
    log.event("srv", server == nil ? "done (the server keeps running)" : "stopped")
  }

  /// Activates the clients and attaches the document, then the channel.
  private func join(_ cast: [Participant]) async throws {
    // One after another: the first creates the shape, the next ones find it and their peers.
    for participant in cast {
      try await step(10, "\(participant.name) activating and attaching the document") { try await participant.join() }
    }
    for participant in cast {
      try await step(10, "\(participant.name) attaching the channel") { try await participant.enterRoom() }
    }
    // Counts past a client's own attach arrive on its channel stream: once a client has seen
    // all the sessions, it listens for broadcasts.
    do {
      try await waitUntil(5, "every client to see \(cast.count) sessions on the channel") {
        for participant in cast where await participant.observer.mostSessionsSeen < cast.count { return false }
        return true
      }
    } catch let timeout as TimeoutError {
      var seen: [String] = []
      for participant in cast { seen.append("\(participant.name) \(await participant.observer.mostSessionsSeen)") }
      throw DemoError("\(timeout) (most sessions seen: \(seen.joined(separator: ", ")))")
    }
    log.event("all", "attached the channel · every client has seen \(cast.count) sessions")
  }

  /// Runs every client's script at the same time; the last client broadcasts after its second
  /// round. Returns once the others received the broadcast.
  private func edit(_ cast: [Participant]) async throws {
    let rounds = self.rounds
    try await step(15, "the concurrent edits") {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for participant in cast {
          let broadcastAfter = participant === cast.last ? 2 : nil
          group.addTask { try await participant.play(rounds: rounds, broadcastAfter: broadcastAfter) }
        }
        try await group.waitForAll()
      }
    }
    let listeners = cast.dropLast()
    try await waitUntil(5, "\(listeners.map(\.name).joined(separator: " and ")) to receive the broadcast") {
      for participant in listeners where await participant.observer.broadcasts.isEmpty { return false }
      return true
    }
  }

  /// Detaches and deactivates the clients one by one.
  private func leave(_ cast: [Participant]) async throws {
    for (index, participant) in cast.enumerated() {
      try await step(10, "\(participant.name) detaching and deactivating") { try await participant.leave() }
      // The others see it leave; a late notice is not an error.
      let others = cast[(index + 1)...]
      try? await waitUntil(2, "the others to see \(participant.name) leave") {
        for other in others where await other.observer.peersOnline.contains(participant.name) { return false }
        return true
      }
    }
    for participant in cast { await participant.observer.stop() }
  }

  /// Waits until the server acknowledged every client's changes, then has each client push and
  /// pull once more; returns when the logs of what they received have gone quiet.
  private func settle(_ cast: [Participant]) async throws {
    let started = log.elapsed
    try await step(10, "the server acknowledging every client's changes") {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for participant in cast { group.addTask { try await participant.settle() } }
        try await group.waitForAll()
      }
    }
    for participant in cast {
      try await step(10, "\(participant.name) syncing") { try await participant.pull() }
    }
    // Events of the last pulls may still be on their way to the log.
    let log = self.log
    try? await waitUntil(1, "the logs to go quiet") {
      for participant in cast where await participant.observer.lastEventAt > log.elapsed - 0.05 { return false }
      return true
    }
    for participant in cast { await participant.observer.flush() }
    log.event("all", "acknowledged and synced (\(Int((log.elapsed - started) * 1000)) ms)")
  }
}
