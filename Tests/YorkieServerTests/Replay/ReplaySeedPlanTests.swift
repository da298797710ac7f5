import CRDT
import Foundation
import Testing
import YorkieProtocol

/// The seeding plans and the replay schedule, derived from the recordings without a server.
@Suite("Replay: seeding and schedule")
struct ReplaySeedPlanTests {
  @Test("every recording has a plan, and each seeded document's serverSeqs run 1, 2, 3, … up to the recorded ones", arguments: ReplayRecording.names)
  func plans(name: String) throws {
    let recording = try ReplayRecording.load(name)
    let plan = try ReplaySeedPlan(recording)
    for episode in plan.episodes {
      for step in episode.steps {
        #expect(step.change["id"]?["serverSeq"] == nil, "\(name): a seeded change keeps its serverSeq")
      }
    }
    // Before the first exchange, a document's seeded changes are its whole history so far.
    for episode in plan.episodes(after: nil) {
      #expect(episode.steps.map(\.recordedServerSeq) == Array(1...Int64(episode.steps.count)), "\(name): \(episode.documentKey)")
    }
    for note in recording.notes {
      #expect(note.event != .unknown, "\(name): unhandled note \(note.text)")
    }
  }

  @Test("a single Go writer: attach with its PUT, push its edits, detach with its CLEAR")
  func singleWriter() throws {
    let plan = try ReplaySeedPlan(try ReplayRecording.load("02-attach-primitives.json"))
    #expect(plan.episodes.count == 1)
    let steps = try #require(plan.episodes.first?.steps)
    #expect(steps.map(\.call) == [.attach, .pushPull, .pushPull, .detach])
    #expect(steps.map(\.clientSeq) == [1, 2, 3, 4])
    #expect(steps.allSatisfy { $0.actorHex == "6b0263497eb70a36f4ac3b8c" })
  }

  @Test("two Go writers interleave; one stays attached; a Go client after exchange 2 attaches and detaches")
  func presenceWriters() throws {
    let recording = try ReplayRecording.load("09-presence.json")
    let plan = try ReplaySeedPlan(recording)
    let alice = try #require(recording.id(role: "goWriter.alice")), bob = try #require(recording.id(role: "goWriter.bob"))
    let initial = try #require(plan.episodes(after: nil).first)
    #expect(initial.steps.map(\.actorHex) == [alice.hex, alice.hex, bob.hex, alice.hex, bob.hex, alice.hex])
    #expect(initial.steps.map(\.call) == [.attach, .pushPull, .attach, .pushPull, .pushPull, .detach])
    // Bob's last push reports alice's lamport 1 and his own 0: the server's minimum version
    // vector then reads {alice: 1, bob: 0, carol: 0} for carol, as recorded.
    let bobLast = initial.steps[4]
    #expect(bobLast.versionVector.map(\.actor) == [alice.base64, bob.base64].sorted())
    #expect(Dictionary(uniqueKeysWithValues: bobLast.versionVector.map { ($0.actor, $0.lamport) }) == [alice.base64: 1, bob.base64: 0])
    let dump = try #require(recording.id(role: "goDump"))
    let later = plan.episodes(after: 2)
    #expect(later.count == 1)
    #expect(later.first?.steps.map(\.actorHex) == [dump.hex, dump.hex])
    #expect(later.first?.steps.map(\.call) == [.attach, .detach])
    #expect(later.first?.steps.map(\.recordedServerSeq) == [9, 10])
  }

  @Test("the notes of 13-watch.json and its stream closings")
  func watchSchedule() throws {
    let recording = try ReplayRecording.load("13-watch.json")
    #expect(recording.notes.map(\.event) == [.foreignClient(role: "goPoke"), .streamClosed(clientRole: "clientB"), .serverStopped])
    #expect(recording.notes.map(\.afterExchange) == [7, 7, 20])
    let closings = recording.exchanges.filter(\.isStream).map { ($0.index, ReplayStreamSchedule.closeAfter($0, in: recording)) }
    #expect(closings.map(\.0) == [4, 5, 9, 10, 11, 12, 13, 20])
    #expect(closings.map(\.1) == [13, 7, 9, nil, nil, nil, nil, nil])
    let goPoke = try #require(ReplaySeedPlan(recording).episodes(after: 7).first)
    #expect(goPoke.steps.map(\.call) == [.attach, .pushPull, .detach])
    #expect(goPoke.steps.map(\.recordedServerSeq) == [4, 5, 6])
  }

  @Test("11-snapshot.json: the rebuilt history has the recorded checkpoint and, applied by this SDK, the recorded live content")
  func snapshotReconstruction() async throws {
    let recording = try ReplayRecording.load("11-snapshot.json")
    let plan = try ReplaySeedPlan(recording)
    let steps = try #require(plan.episodes(after: nil).first?.steps)
    #expect(steps.count == 523)
    #expect(steps.first?.call == .attach && steps.last?.call == .detach)
    // Apply every rebuilt change to a fresh replica and compare its snapshot's live content.
    let changes = steps.enumerated().map { index, step in
      step.change.replaySetting("id", step.change["id"]!.replaySetting("serverSeq", .string(String(index + 1))))
    }
    let packJSON = WireJSON.object([
      .init("documentKey", .string("fx1795318601-snapshot")), .init("checkpoint", .object([.init("serverSeq", .string("523"))])),
      .init("changes", .array(changes)),
    ])
    let document = Document(key: "fx1795318601-snapshot")
    try await document.applyChangePack(try WireChangePack(json: packJSON).model())
    let ours = try ReplayProtoDecoder.decode(Array(await document.snapshot()), as: "Snapshot")
    guard case .json(let body) = recording.exchanges[1].response,
          let text = body["changePack"]?["snapshot"]?.replayString, let bytes = ReplayBytes.fromBase64(text) else {
      Issue.record("no recorded snapshot")
      return
    }
    let recorded = try ReplayProtoDecoder.decode(bytes, as: "Snapshot")
    let differences = ReplayComparator.differences(expected: ReplaySnapshotContent.live(recorded), actual: ReplaySnapshotContent.live(ours))
    #expect(differences.isEmpty, "\(differences.prefix(5))")
  }
}
