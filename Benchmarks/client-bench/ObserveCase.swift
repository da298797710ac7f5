import CRDT
import Foundation
import Observation
import YorkieObservation

// observe_remote_burst (issue 25): 10,000 remote one-character changes arrive in packs of 100,
// one pack every 20 ms (a pull's pace), while a view watches the document. Measured: the
// main actor's time for the view state and its renders, and how many times the view was told
// to render, for a DocumentModel against the glue an app writes without one (re-read
// `doc.value` on every event, assign it, render). A render reads the note's whole text, as a
// view body that shows it does. No server: the packs are a peer replica's, applied by hand.

private let burstChanges = 10_000
private let burstPackSize = 100
private let burstPackGap: UInt64 = 20_000_000

/// The packs of a peer that types `burstChanges` characters, one change each, after a pack
/// that creates the note.
private func peerPacks() async throws -> (setup: ChangePack, packs: [ChangePack]) {
  let peer = Document(key: "burst")
  try await peer.setActor(try ActorID(hex: "0000000000000000000000b2"))
  try await peer.update { root, _ in _ = root.setNewText("note") }
  let setup = try await peer.createChangePack()
  try await peer.acknowledgeChanges(through: await peer.lastLocalClientSeq)
  var packs: [ChangePack] = []
  for start in stride(from: 0, to: burstChanges, by: burstPackSize) {
    for index in start..<(start + burstPackSize) {
      try await peer.update { root, _ in _ = try root.text("note")?.edit(index, index, "x") }
    }
    packs.append(try await peer.createChangePack())
    try await peer.acknowledgeChanges(through: await peer.lastLocalClientSeq)
  }
  return (setup, packs)
}

/// What a view of the note does on each render: reads its whole text.
@MainActor private func render(_ value: JSONValue) -> Int {
  value["note"]?.textValue?.string.utf16.count ?? 0
}

private func fresh(_ setup: ChangePack) async throws -> Document {
  let doc = Document(key: "burst")
  try await doc.setActor(try ActorID(hex: "0000000000000000000000a1"))
  try await doc.applyChangePack(setup)
  return doc
}

private func deliver(_ packs: [ChangePack], to doc: Document) async throws {
  for pack in packs {
    try await doc.applyChangePack(pack)
    try await Task.sleep(nanoseconds: burstPackGap)
  }
}

/// One measured side: main-actor time and renders.
private struct Side {
  var mainActor = Duration.zero
  var renders = 0
}

/// The model: a view re-armed with `withObservationTracking` after each change, as SwiftUI does.
@MainActor
private final class ModelView {
  let model: DocumentModel
  var side = Side()
  var shown = 0

  init(model: DocumentModel) {
    self.model = model
    arm()
  }

  func arm() {
    let start = ContinuousClock.now
    shown = withObservationTracking { render(model.value) } onChange: { [weak self] in
      Task { @MainActor in
        guard let self else { return }
        self.side.renders += 1
        self.arm()
      }
    }
    side.mainActor += ContinuousClock.now - start
  }
}

@MainActor
private func measureModel(_ setup: ChangePack, _ packs: [ChangePack]) async throws -> Side {
  let doc = try await fresh(setup)
  let model = DocumentModel(document: doc)
  await model.refresh()
  let view = ModelView(model: model)
  view.side = Side()
  let before = model.statistics.mainActorTime
  try await deliver(packs, to: doc)
  while view.shown < burstChanges { try await Task.sleep(nanoseconds: 1_000_000) }
  var side = view.side
  side.mainActor += model.statistics.mainActorTime - before
  return side
}

@MainActor
private func measureGlue(_ setup: ChangePack, _ packs: [ChangePack]) async throws -> Side {
  let doc = try await fresh(setup)
  let events = await doc.events()
  let glue = Task { @MainActor () -> Side in
    var side = Side()
    var shown = 0
    var state: JSONValue = .null
    for await event in events {
      guard case .remoteChange = event else { continue }
      let value = await doc.value
      let start = ContinuousClock.now
      state = value
      shown = render(state)
      side.renders += 1
      side.mainActor += ContinuousClock.now - start
      if side.renders == burstChanges { break }
    }
    _ = shown
    return side
  }
  try await deliver(packs, to: doc)
  return await glue.value
}

@MainActor
func observeRemoteBurstCase(_ settings: BenchSettings) async throws -> CaseResult {
  let (setup, packs) = try await peerPacks()
  let runs = settings.repeats ?? 3
  var models: [Side] = []
  var glues: [Side] = []
  for _ in 0..<runs {
    models.append(try await measureModel(setup, packs))
    glues.append(try await measureGlue(setup, packs))
  }
  let modelMS = median(models.map { $0.mainActor.seconds * 1000 })
  let glueMS = median(glues.map { $0.mainActor.seconds * 1000 })
  let notifications = Int(median(models.map { Double($0.renders) }))
  let ratio = glueMS / max(modelMS, 0.000_001)
  let perChange = { (ms: Double) in rounded(ms * 1000 / Double(burstChanges), significant: 3) }
  if settings.verbose {
    note("observe_remote_burst: model \(models.map { ms($0.mainActor.seconds * 1000) }), glue \(glues.map { ms($0.mainActor.seconds * 1000) })")
  }
  return CaseResult(
    headline: "\(threeDigits(ratio))× less",
    details: "model \(ms(modelMS)) main actor (\(perChange(modelMS)) µs/change, \(notifications) notifications for "
      + "\(packs.count) packs), glue \(ms(glueMS)) (\(perChange(glueMS)) µs/change, \(burstChanges) renders); median of \(runs)",
    target: "≥ 10× less main-actor time",
    targetMet: ratio >= 10,
    fields: [
      ("model_main_actor_ms", .double(rounded(modelMS, significant: 4))),
      ("glue_main_actor_ms", .double(rounded(glueMS, significant: 4))),
      ("notifications", .int(notifications)),
      ("packs", .int(packs.count)),
      ("notifications_per_pack", .double(rounded(Double(notifications) / Double(packs.count), significant: 3))),
      ("model_us_per_change", .double(perChange(modelMS))),
      ("glue_us_per_change", .double(perChange(glueMS))),
    ])
}
