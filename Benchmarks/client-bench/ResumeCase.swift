import CRDT
import Foundation
import YorkieClient

// resume_large: a client that kept a large document on disk comes back.
//
// The writer builds attach_large's document on the server (automerge-paper, manual mode, a
// push every 5,000 changes). Client B, storing in a fresh folder (per-update durability),
// attaches it afresh in manual mode (the bytes it receives are counted) and `close()`s (no
// goodbye to the server, as a crash or an app sent away). Each run: the writer (the peer) makes
// 10 small edits and syncs; a new client on B's folder activates (from the stored identity: no
// ActivateClient) and its `attach` (manual mode) is timed: it returns once the document shows the
// stored state, restored locally. Then its `sync` pulls what happened since the stored
// checkpoint; the bytes received during it are counted. The client closes; the next run resumes
// from what this one stored. Checks: the same client ID as B's, nothing received before the
// sync, the restored document equals what was stored, after the sync it equals the peer's,
// and the sync received at most 1/20 of the fresh attach's bytes.

/// The peer's edits before each resumption.
private let peerEdits = 10

func resumeLargeCase(_ settings: BenchSettings) async throws -> CaseResult {
  let runs = settings.repeats ?? 3
  let workload = largeWorkload(settings, for: "resume_large")
  let server = try BenchServer.start(settings)
  defer { server.stop() }
  let key = uniqueKey("resume-large")
  let folder = try temporaryStoreFolder("resume-large")
  defer { removeStoreFolder(folder) }

  let watchdog = Watchdog("resume_large", seconds: 600)
  defer { watchdog.disarm() }
  let (writer, original) = try await buildLargeDocument(on: server, key: key, workload: workload, settings: settings, for: "resume_large")
  let options = ClientOptions(key: "bench-resumer", storage: .directory(folder))

  // B's fresh attach, stored.
  let first = Client(server.url, options: options)
  try await first.activate()
  guard let firstID = await first.id else { throw BenchFailure("B has no client ID") }
  let fresh = Document(key: key)
  let freshBefore = first.receivedBodyBytes
  let freshStart = benchClock.now
  try await first.attach(fresh, syncMode: .manual)
  let freshMs = (benchClock.now - freshStart).milliseconds
  let freshBytes = first.receivedBodyBytes - freshBefore
  var storedJSON = await fresh.toSortedJSON()
  guard storedJSON == (await original.toSortedJSON()) else { throw BenchFailure("B's fresh attach differs from the writer's document") }
  await first.close()
  let storedBytes = documentFolder(in: folder).map(folderBytes) ?? 0
  if settings.verbose {
    note("client-bench: resume_large: B's fresh attach (manual, stored per update) took \(ms(freshMs)), "
      + "received \(grouped(freshBytes)) B; the store holds \(grouped(storedBytes)) B")
  }

  var times: [Double] = []
  var syncTimes: [Double] = []
  var resumeBytes: [Int] = []
  var letter = 0
  for run in 0..<runs {
    // The peer edits while B is away.
    for _ in 0..<peerEdits {
      let insert = String(Array("abcdefghijklmnopqrstuvwxyz")[letter % 26])
      letter += 1
      let at = (letter * 7_919) % workload.endContent.utf16.count
      try await original.update { root, _ in _ = try root.text("text")!.edit(at, at, insert) }
    }
    try await writer.sync(original)
    let expected = await original.toSortedJSON()

    let client = Client(server.url, options: options)
    try await client.activate()
    guard await client.id == firstID else { throw BenchFailure("run \(run + 1): the client activated anew instead of adopting B's identity") }
    let copy = Document(key: key)
    let start = benchClock.now
    try await client.attach(copy, syncMode: .manual)
    let elapsed = (benchClock.now - start).milliseconds
    times.append(elapsed)
    guard client.receivedBodyBytes == 0 else { throw BenchFailure("run \(run + 1): the activation or the attach called the server") }
    guard await copy.status == .attached, await copy.toSortedJSON() == storedJSON else {
      throw BenchFailure("run \(run + 1): the attach did not show the stored document")
    }
    let syncStart = benchClock.now
    try await client.sync(copy)
    syncTimes.append((benchClock.now - syncStart).milliseconds)
    let received = client.receivedBodyBytes
    resumeBytes.append(received)
    guard await copy.toSortedJSON() == expected else { throw BenchFailure("run \(run + 1): after the sync the document differs from the peer's") }
    guard received * 20 <= freshBytes else {
      throw BenchFailure("run \(run + 1): the sync received \(grouped(received)) B, more than 1/20 of the fresh attach's \(grouped(freshBytes)) B")
    }
    storedJSON = expected
    await client.close()
    if runs > 1 || settings.verbose {
      note("client-bench: resume_large run \(run + 1): attach \(ms(elapsed)), then sync \(ms(syncTimes.last ?? .nan)) "
        + "receiving \(grouped(received)) B")
    }
  }
  if settings.verbose {
    try await storedDocumentBreakdown(folder: folder, key: key, expected: storedJSON, attachMs: median(times), caseName: "resume_large")
    // The fresh attach without a directory (the memory store records the same), to tell the
    // disk's share of B's fresh attach.
    let probe = Client(server.url, options: ClientOptions(key: "bench-resume-probe"))
    try await probe.activate()
    let start = benchClock.now
    try await probe.attach(Document(key: key), syncMode: .manual)
    note("client-bench: resume_large: a fresh attach in manual mode with the memory store takes \(ms((benchClock.now - start).milliseconds)) "
      + "(B's, in a directory: \(ms(freshMs)))")
    try await probe.deactivate()
  }
  try await writer.deactivate()
  if settings.verbose && server.local != nil {
    // The same resumption with the in-process server stopped (its threads idle, its memory
    // still held): how much of the attach is this process's server rather than the client.
    server.stop()
    var alone: [Double] = []
    for _ in 0..<3 {
      let client = Client(server.url, options: options)
      try await client.activate()
      let copy = Document(key: key)
      let start = benchClock.now
      try await client.attach(copy, syncMode: .manual)
      alone.append((benchClock.now - start).milliseconds)
      guard await copy.toSortedJSON() == storedJSON else { throw BenchFailure("the resumption after the server stopped differs") }
      await client.close()
    }
    note("client-bench: resume_large: the same resumed attach with the in-process server stopped: "
      + alone.map(ms).joined(separator: ", ") + " (median \(ms(median(alone))))")
  }

  let middle = median(times)
  let bytes = Int(median(resumeBytes.map(Double.init)))
  return CaseResult(
    headline: ms(middle),
    details: "median of \(runs) resumed attaches (best \(ms(times.min() ?? .nan))), local restore; the sync after "
      + "(\(peerEdits) peer edits) received \(grouped(bytes)) B in \(ms(median(syncTimes))) against \(grouped(freshBytes)) B "
      + "for the fresh attach (\(ms(freshMs))); \(workload.name)",
    target: "≤ 50 ms", targetMet: middle <= 50,
    fields: [
      ("ms", .double(rounded(middle))), ("best_ms", .double(rounded(times.min() ?? .nan))), ("runs", .int(runs)),
      ("sync_ms", .double(rounded(median(syncTimes)))), ("resume_bytes", .int(bytes)), ("fresh_bytes", .int(freshBytes)),
      ("fresh_attach_ms", .double(rounded(freshMs))), ("stored_bytes", .int(storedBytes)), ("edits", .int(workload.edits.count)),
      ("workload", .string(workload.name)),
    ])
}
