import CRDT
import Foundation
import YorkieClient
import YorkieProtocol

// The client's offline store (issue 14), without the network in what is timed:
//
// store_update: what keeping a document costs each update. N one-character inserts at the end
// of a text (typing; one update and one change each) on a document kept (a) nowhere (a detached
// document with an actor: the floor), (b) nowhere but attached to a client with the default
// `ClientOptions.storage = .memory` (which records nothing: what being attached costs, such as
// the sync loop's wake-up on each update), (c) in a directory with batched durability (0.2 s
// window) and (d) in a directory with per-update durability (each update waits for
// fdatasync). (b)–(d) are real clients' documents: attached (in manual sync mode, so nothing is
// pushed while the updates are timed) to the in-process server, (c) and (d) recorded by the
// client's StoreRecorder. Each run times the N updates of each kind in turn; the median of the
// runs is reported per kind. Check: the client closed, a client on the same directory activates
// as the same client and attaches the document, which is restored from the store alone and
// must equal the original.
//
// store_load_large: a stored automerge-paper document shown again. The document is built on a
// detached document (one update per edit, as attach_large's writer does), its garbage collected
// (as the server's answers let a client do once every replica saw the deletions), and its base
// (snapshot and clocks, as Document.startRecording hands it over) is written with a client
// identity into a FileDocumentStore, as if the server had acknowledged every change; a client
// then resumes it and makes 1,000 more local edits (stored by its StoreRecorder, per-update
// durability: the "tail" of entries after the base), and closes. Each run: a new client on the
// folder activates (untimed: it reads the identity, no network) and its `attach` is timed; it
// returns after FileDocumentStore.load, decoding the entries (StoredEntry.replica) and
// Document.restore (the snapshot, then the 1,000 changes replayed), with no call to the server
// (manual sync mode; no server is involved at all). Median of the runs. Check: equal to the
// document that was stored, its 1,000 changes pending again, nothing received.
//
// store_bytes: what the store writes. The automerge-paper trace, one update per edit, on a
// client's document in a directory (batched durability: the bytes are the same as per update,
// and 259,778 fdatasyncs would take 1–10 minutes here), `sync` every 100 updates against the
// in-process server: the sync loop rebases the store after a push-pull when its policy
// (StoreRecorder.wantsRebase) says so. Bytes appended: for every generation file, its last size
// seen minus its first (sampled right after each generation appears and before and after each
// sync; the store keeps the previous generation until the next rebase, so none is missed).
// Check: a client on the folder restores the document, equal to the original.

/// What a store_update run keeps the document in.
private enum UpdateStore: CaseIterable {
  case none, unrecorded, batched, perUpdate

  var label: String {
    switch self {
    case .none: "no store"
    case .unrecorded: "attached, memory (unrecorded)"
    case .batched: "batched 0.2 s"
    case .perUpdate: "per-update"
    }
  }

  /// The JSON member's prefix.
  var field: String {
    switch self {
    case .none: "none"
    case .unrecorded: "attached_unrecorded"
    case .batched: "batched"
    case .perUpdate: "per_update"
    }
  }

  /// The client's storage, for a folder when in a directory.
  func storage(_ folder: URL?) -> DocumentStorage? {
    switch self {
    case .none: nil
    case .unrecorded: .memory
    case .batched: folder.map { .directory($0, durability: .batched(window: 0.2)) }
    case .perUpdate: folder.map { .directory($0, durability: .perUpdate) }
    }
  }

  var inDirectory: Bool { self == .batched || self == .perUpdate }
}

/// What a store_update run found: microseconds per update, and the bytes on disk afterwards.
private struct UpdateRun {
  var microseconds: Double
  var folderBytes: Int?
}

func storeUpdateCase(_ settings: BenchSettings) async throws -> CaseResult {
  let runs = settings.repeats ?? 3
  let workload = Workload.typing(settings.storeUpdates)
  let count = workload.edits.count
  let server = try BenchServer.start(settings)
  defer { server.stop() }
  let watchdog = Watchdog("store_update", seconds: 900)
  defer { watchdog.disarm() }

  var times: [UpdateStore: [Double]] = [:]
  var bytes: [UpdateStore: Int] = [:]
  for run in 0..<runs {
    var line: [String] = []
    for kind in UpdateStore.allCases {
      let result = try await storeUpdateRun(kind, workload: workload, server: server)
      times[kind, default: []].append(result.microseconds)
      if let folderBytes = result.folderBytes { bytes[kind] = folderBytes }
      line.append("\(kind.label) \(threeDigits(result.microseconds)) µs")
    }
    if runs > 1 || settings.verbose {
      note("client-bench: store_update run \(run + 1) (µs per update): " + line.joined(separator: ", "))
    }
  }
  if settings.verbose { try await entryEncodingCost(workload) }
  let medians = Dictionary(uniqueKeysWithValues: UpdateStore.allCases.map { ($0, median(times[$0] ?? [])) })
  let stored = bytes[.perUpdate] ?? bytes[.batched] ?? 0
  return CaseResult(
    headline: "\(threeDigits(medians[.perUpdate] ?? .nan)) µs/update",
    details: "per-update durability (fdatasync each); "
      + UpdateStore.allCases.filter { $0 != .perUpdate }.map { "\($0.label) \(threeDigits(medians[$0] ?? .nan)) µs" }.joined(separator: ", ")
      + "; \(grouped(count)) one-character inserts, median of \(runs); \(grouped(stored / max(count, 1))) B on disk per update",
    target: "", targetMet: true,
    fields: UpdateStore.allCases.map { ("\($0.field)_us", FieldValue.double(rounded(medians[$0] ?? .nan))) } + [
      ("updates", .int(count)), ("runs", .int(runs)), ("disk_bytes_per_update", .double(rounded(Double(stored) / Double(max(count, 1))))),
    ])
}

/// Types `workload` into the text at `$.text` of `document`, one update per edit: seconds taken.
private func type(_ workload: Workload, into document: Document) async throws -> Double {
  let start = benchClock.now
  for edit in workload.edits {
    try await document.update { root, _ in
      _ = try root.text("text")!.edit(edit.position, edit.position + edit.deleteCount, edit.insert)
    }
  }
  return secondsSince(start)
}

/// `--verbose`: what encoding the entries costs alone (the client's StoredEntry: a kind byte,
/// then the change as a `Change` message in JSON), over the changes of `workload` typed on a
/// detached document.
private func entryEncodingCost(_ workload: Workload) async throws {
  let document = Document(key: "bench-encoding")
  try await document.setActor(ActorID.random())
  try await document.update { root, _ in _ = root.setNewText("text") }
  _ = try await type(workload, into: document)
  let changes = await document.localChanges
  let start = benchClock.now
  var bytes = 0
  for change in changes {
    var entry: [UInt8] = [1]
    entry.append(contentsOf: WireChange(change).jsonBytes)
    bytes += Data(entry).count
  }
  let seconds = secondsSince(start)
  note("client-bench: store_update: encoding the \(grouped(changes.count)) changes as stored entries alone takes "
    + "\(threeDigits(seconds * 1e6 / Double(max(changes.count, 1)))) µs each (\(grouped(bytes / max(changes.count, 1))) B per entry)")
}

/// One store_update run of one kind (see the notes at the top).
private func storeUpdateRun(_ kind: UpdateStore, workload: Workload, server: BenchServer) async throws -> UpdateRun {
  let count = Double(max(workload.edits.count, 1))
  let key = uniqueKey("store-update")
  let folder = kind.inDirectory ? try temporaryStoreFolder("update") : nil
  defer { if let folder { removeStoreFolder(folder) } }
  guard let storage = kind.storage(folder) else {
    let document = Document(key: key)
    try await document.setActor(ActorID.random())
    try await document.update { root, _ in _ = root.setNewText("text") }
    let seconds = try await type(workload, into: document)
    guard await document.textString(at: "$.text") == workload.endContent else { throw BenchFailure("\(kind.label): wrong text") }
    return UpdateRun(microseconds: seconds * 1e6 / count, folderBytes: nil)
  }
  let options = ClientOptions(key: "bench-store-update", storage: storage)
  let client = Client(server.url, options: options)
  try await client.activate()
  let clientID = await client.id
  let document = Document(key: key)
  try await client.attach(document, syncMode: .manual)
  try await document.update { root, _ in _ = root.setNewText("text") }
  let seconds = try await type(workload, into: document)
  guard await document.textString(at: "$.text") == workload.endContent else { throw BenchFailure("\(kind.label): wrong text") }
  if kind == .unrecorded {
    // Not stored: nothing to restore.
    try await client.deactivate()
    return UpdateRun(microseconds: seconds * 1e6 / count, folderBytes: nil)
  }
  let expected = await document.toSortedJSON()
  await client.close()
  let onDisk = folder.flatMap(documentFolder(in:)).map(folderBytes)
  if kind.inDirectory && onDisk == nil { throw BenchFailure("\(kind.label): the store holds no document folder") }

  // The store alone restores the document: a new client on the folder.
  let reader = Client(server.url, options: options)
  try await reader.activate()
  guard await reader.id == clientID else { throw BenchFailure("\(kind.label): the store's identity was not adopted") }
  let bytesBefore = reader.receivedBodyBytes
  let copy = Document(key: key)
  try await reader.attach(copy, syncMode: .manual)
  guard reader.receivedBodyBytes == bytesBefore else { throw BenchFailure("\(kind.label): the resumed attach called the server") }
  guard await copy.toSortedJSON() == expected else { throw BenchFailure("\(kind.label): the document restored from the store differs") }
  try await reader.deactivate()
  return UpdateRun(microseconds: seconds * 1e6 / count, folderBytes: onDisk)
}

// MARK: - store_load_large

/// The local edits store_load_large makes after the base.
private let storeTailEdits = 1_000

func storeLoadLargeCase(_ settings: BenchSettings) async throws -> CaseResult {
  let runs = settings.repeats ?? 3
  let workload = largeWorkload(settings, for: "store_load_large")
  let watchdog = Watchdog("store_load_large", seconds: 600)
  defer { watchdog.disarm() }
  let folder = try temporaryStoreFolder("load-large")
  defer { removeStoreFolder(folder) }
  let key = uniqueKey("store-load-large")
  let identity = StoredIdentity(clientKey: "bench-store-load", clientID: randomClientID())
  // No server: every call would fail (nothing listens on the discard port), and none is made.
  let options = ClientOptions(key: identity.clientKey, storage: .directory(folder))
  let nowhere = URL(string: "http://127.0.0.1:9")!

  // Built in a function of its own, so that the 259,778 pending changes of the built document
  // are freed before anything is timed.
  let (snapshotBytes, expected, collected, buildSeconds, tailSeconds) = try await storeLargeDocument(
    workload, identity: identity, folder: folder, key: key, options: options, nowhere: nowhere)
  guard let documentFolder = documentFolder(in: folder) else { throw BenchFailure("the store holds no document folder") }
  let storedBytes = folderBytes(documentFolder)
  note("client-bench: store_load_large: \(workload.name) → \(grouped(workload.endContent.utf16.count)) characters, built locally "
    + "in \(String(format: "%.1f", buildSeconds)) s (\(grouped(collected)) tombstones collected), "
    + "\(grouped(storeTailEdits)) edits stored after the base in "
    + "\(String(format: "%.1f", tailSeconds)) s (untimed)")

  var times: [Double] = []
  for run in 0..<runs {
    let client = Client(nowhere, options: options)
    try await client.activate()
    guard await client.id?.hex == identity.clientID else { throw BenchFailure("run \(run + 1): the stored identity was not adopted") }
    let copy = Document(key: key)
    let start = benchClock.now
    try await client.attach(copy, syncMode: .manual)
    let elapsed = (benchClock.now - start).milliseconds
    times.append(elapsed)
    guard await copy.status == .attached else { throw BenchFailure("run \(run + 1): the document is not attached") }
    guard await copy.toSortedJSON() == expected else { throw BenchFailure("run \(run + 1): the restored document differs from the stored one") }
    guard await copy.localChanges.count == storeTailEdits else { throw BenchFailure("run \(run + 1): the pending changes were not restored") }
    guard client.receivedBodyBytes == 0 else { throw BenchFailure("run \(run + 1): the client called the server") }
    await client.close()
    if runs > 1 || settings.verbose { note("client-bench: store_load_large run \(run + 1): \(ms(elapsed))") }
  }
  if settings.verbose {
    try await storedDocumentBreakdown(folder: folder, key: key, expected: expected, attachMs: median(times), caseName: "store_load_large")
  }

  let middle = median(times)
  return CaseResult(
    headline: ms(middle),
    details: "median of \(runs) attaches from the store (best \(ms(times.min() ?? .nan))); \(workload.name), "
      + "\(grouped(workload.endContent.utf16.count)) characters; snapshot \(grouped(snapshotBytes)) B + \(grouped(storeTailEdits)) "
      + "local changes, \(grouped(storedBytes)) B stored",
    target: "≤ 50 ms", targetMet: middle <= 50,
    fields: [
      ("ms", .double(rounded(middle))), ("best_ms", .double(rounded(times.min() ?? .nan))), ("runs", .int(runs)),
      ("edits", .int(workload.edits.count)), ("tail_changes", .int(storeTailEdits)), ("snapshot_bytes", .int(snapshotBytes)),
      ("stored_bytes", .int(storedBytes)), ("workload", .string(workload.name)),
    ])
}

/// store_load_large's document in `folder` (see the notes at the top): the snapshot's bytes,
/// the stored document's sorted JSON, the tombstones collected, and the seconds the build and
/// the tail took.
private func storeLargeDocument(
  _ workload: Workload, identity: StoredIdentity, folder: URL, key: String, options: ClientOptions, nowhere: URL
) async throws -> (Int, String, Int, Double, Double) {
  // The document, as its own client would have made it, and its base.
  let buildStart = benchClock.now
  let original = Document(key: key)
  try await original.setActor(ActorID(hex: identity.clientID))
  try await original.update { root, _ in _ = root.setNewText("text") }
  _ = try await type(workload, into: original)
  guard await original.textString(at: "$.text") == workload.endContent else { throw BenchFailure("the built text is not the trace's") }
  // Every change acknowledged by the server, whose answers would have let the client collect
  // its garbage (the tombstones of the trace's deletions), as the server's snapshot has.
  let versionVector = await original.changeID.versionVector
  let collected = await original.garbageCollect(minSyncedVersionVector: versionVector)
  let built = await original.toSortedJSON()
  let captured = try await currentBase(of: original)
  let serverSeq = Int64(workload.edits.count + 1)  // the text, then one change per edit
  var replica = captured
  replica.checkpoint = Checkpoint(serverSeq: serverSeq, clientSeq: captured.localClientSeq)
  let base = StoredDocument.Base(replica, documentID: String(repeating: "0", count: 23) + "1")
  let store = try FileDocumentStore(directory: folder)
  try store.saveIdentity(identity)
  try store.replaceBase(key, with: base, entries: [])
  store.close()
  let buildSeconds = secondsSince(buildStart)

  // The tail: the client resumes it and edits on (a sentence typed in the middle, every tenth
  // keystroke a backspace), each change stored before its update returns.
  let tailStart = benchClock.now
  let editor = Client(nowhere, options: options)
  try await editor.activate()
  let resumed = Document(key: key)
  try await editor.attach(resumed, syncMode: .manual)
  guard await resumed.toSortedJSON() == built else { throw BenchFailure("the stored base does not restore the built document") }
  var position = workload.endContent.utf16.count / 2
  let letters = Array("the quick brown fox jumps over the lazy dog ").map(String.init)
  for index in 0..<storeTailEdits {
    let at = position
    if index % 10 == 9 {
      try await resumed.update { root, _ in _ = try root.text("text")!.edit(at - 1, at, "") }
      position -= 1
    } else {
      let letter = letters[index % letters.count]
      try await resumed.update { root, _ in _ = try root.text("text")!.edit(at, at, letter) }
      position += 1
    }
  }
  let expected = await resumed.toSortedJSON()
  let pending = await resumed.localChanges.count
  guard pending == storeTailEdits else {
    throw BenchFailure("\(pending) pending changes after the tail, expected \(storeTailEdits)")
  }
  await editor.close()
  return (captured.snapshot.count, expected, collected, buildSeconds, secondsSince(tailStart))
}

/// `--verbose`: the steps of a resumed attach one by one, each timed: reading the store,
/// decoding the entries, loading the snapshot, replaying the records. `expected`: the document
/// stored; `caseName` and `attachMs` (the attach's median) for the note.
func storedDocumentBreakdown(folder: URL, key: String, expected: String, attachMs: Double, caseName: String) async throws {
  var lap = benchClock.now
  func next() -> Double {
    let now = benchClock.now
    defer { lap = now }
    return (now - lap).milliseconds
  }
  let store = try FileDocumentStore(directory: folder)
  defer { store.close() }
  _ = next()
  let load = try store.load(key)
  let loadMs = next()
  guard let stored = load.document, load.damages.isEmpty else {
    throw BenchFailure("the breakdown's load found no document, or damage")
  }
  let entryBytes = stored.entries.reduce(0) { $0 + $1.count }
  // What StoredEntry.decode does: a kind byte (1 a local change, 2 a server's answer), then
  // the message in JSON.
  _ = next()
  var records: [ReplicaRecord] = []
  for (index, entry) in stored.entries.enumerated() {
    switch entry.first {
    case 1: records.append(.localChange(try WireChange(jsonData: entry.dropFirst()).model("entries[\(index)]")))
    case 2: records.append(.serverPack(try WireChangePack(jsonData: entry.dropFirst()).model("entries[\(index)]", role: .response)))
    default: throw BenchFailure("stored entry \(index) is of an unknown kind")
    }
  }
  let decodeMs = next()
  let base = stored.base.replica
  let bare = Document(key: key)
  _ = next()
  try await bare.restore(from: base, replaying: [])
  let snapshotMs = next()
  let full = Document(key: key)
  _ = next()
  try await full.restore(from: base, replaying: records)
  let restoreMs = next()
  guard await full.toSortedJSON() == expected else { throw BenchFailure("the breakdown's restore differs from the stored document") }
  note("client-bench: \(caseName) breakdown (ms, one of each, by hand): FileDocumentStore.load \(threeDigits(loadMs)) "
    + "(\(grouped(stored.base.replica.snapshot.count)) B of snapshot, \(grouped(stored.entries.count)) entries of \(grouped(entryBytes)) B, "
    + "checksums checked); decoding the entries (JSON → model) \(threeDigits(decodeMs)); Document.restore of the base alone "
    + "(snapshot decode) \(threeDigits(snapshotMs)); of the base and the \(grouped(records.count)) records \(threeDigits(restoreMs)) "
    + "(so replaying them ≈ \(threeDigits(restoreMs - snapshotMs))); sum \(threeDigits(loadMs + decodeMs + restoreMs)) against the "
    + "attach's median \(threeDigits(attachMs))")
}

// MARK: - store_bytes

/// store_bytes syncs after this many updates (the client's sync loop rebases after a push-pull).
private let storeBytesSyncEvery = 100

/// The first and last size seen of each generation file of a document.
private struct GenerationWatch {
  var first: [Int: Int] = [:]
  var last: [Int: Int] = [:]

  mutating func sample(_ folder: URL) {
    for (number, size) in generationSizes(in: folder) {
      if first[number] == nil { first[number] = size }
      last[number] = size
    }
  }

  /// Bytes appended to generation files after they were first seen.
  var appended: Int { last.reduce(0) { $0 + $1.value - (first[$1.key] ?? $1.value) } }

  /// Bytes of the generations written after `generation` as first seen (a new generation is a
  /// base and the pending changes: what a rebase writes).
  func rewritten(after generation: Int) -> Int { first.filter { $0.key > generation }.reduce(0) { $0 + $1.value } }
}

func storeBytesCase(_ settings: BenchSettings) async throws -> CaseResult {
  let workload = largeWorkload(settings, for: "store_bytes")
  let server = try BenchServer.start(settings)
  defer { server.stop() }
  let watchdog = Watchdog("store_bytes", seconds: 900)
  defer { watchdog.disarm() }
  let folder = try temporaryStoreFolder("bytes")
  defer { removeStoreFolder(folder) }
  let key = uniqueKey("store-bytes")
  let options = ClientOptions(key: "bench-store-bytes", storage: .directory(folder, durability: .batched(window: 0.2)))

  let start = benchClock.now
  let client = Client(server.url, options: options)
  try await client.activate()
  let clientID = await client.id
  let document = Document(key: key)
  try await client.attach(document, syncMode: .manual)
  guard let documentFolder = documentFolder(in: folder) else { throw BenchFailure("the store holds no document folder") }
  var watch = GenerationWatch()
  watch.sample(documentFolder)
  let firstGeneration = generationSizes(in: documentFolder).keys.max() ?? 0
  try await document.update { root, _ in _ = root.setNewText("text") }
  var syncs = 0
  let edits = workload.edits
  for (index, edit) in edits.enumerated() {
    try await document.update { root, _ in
      _ = try root.text("text")!.edit(edit.position, edit.position + edit.deleteCount, edit.insert)
    }
    if (index + 1) % storeBytesSyncEvery == 0 || index + 1 == edits.count {
      watch.sample(documentFolder)
      try await client.sync(document)
      syncs += 1
      watch.sample(documentFolder)
    }
  }
  guard await document.textString(at: "$.text") == workload.endContent else { throw BenchFailure("wrong text") }
  let expected = await document.toSortedJSON()
  let snapshotBytes = await document.snapshot().count
  await client.close()
  watch.sample(documentFolder)
  let lastGeneration = generationSizes(in: documentFolder).keys.max() ?? 0
  let rebases = lastGeneration - firstGeneration
  let onDisk = folderBytes(documentFolder)
  let appended = watch.appended
  let rewritten = watch.rewritten(after: firstGeneration)
  let seconds = secondsSince(start)

  // What the last generation holds, by kind of entry (the kind byte: 1 a local change, 2 a
  // server's answer), and the check: a client on the folder restores the document.
  let store = try FileDocumentStore(directory: folder)
  let load = try store.load(key)
  store.close()
  guard let stored = load.document, load.damages.isEmpty else { throw BenchFailure("the store holds no document, or damage") }
  let locals = stored.entries.filter { $0.first == 1 }
  let packs = stored.entries.filter { $0.first == 2 }
  let reader = Client(server.url, options: options)
  try await reader.activate()
  guard await reader.id == clientID else { throw BenchFailure("the store's identity was not adopted") }
  let copy = Document(key: key)
  try await reader.attach(copy, syncMode: .manual)
  guard await copy.toSortedJSON() == expected else { throw BenchFailure("the document restored from the store differs") }
  try await reader.deactivate()

  let perEdit = Double(appended) / Double(max(edits.count, 1))
  let meanSize = { (entries: [Data]) in entries.isEmpty ? 0 : entries.reduce(0) { $0 + $1.count } / entries.count }
  note("client-bench: store_bytes: \(workload.name), \(grouped(syncs)) syncs and \(rebases) rebases in \(String(format: "%.1f", seconds)) s; "
    + "the last generation: base \(grouped(stored.base.replica.snapshot.count)) B of snapshot, \(stored.entries.count) entries "
    + "(\(locals.count) local changes of \(grouped(meanSize(locals))) B on average, \(packs.count) server answers of "
    + "\(grouped(meanSize(packs))) B)")
  return CaseResult(
    headline: "\(threeDigits(perEdit)) B/edit",
    details: "appended per edit (\(grouped(appended)) B for \(grouped(edits.count)) edits); \(grouped(onDisk)) B on disk at the end, "
      + "snapshot \(grouped(snapshotBytes)) B; \(rebases) rebases over \(grouped(syncs)) syncs (one per \(storeBytesSyncEvery) updates) "
      + "writing \(grouped(rewritten)) B; "
      + workload.name,
    target: "", targetMet: true,
    fields: [
      ("bytes_per_edit", .double(rounded(perEdit))), ("appended_bytes", .int(appended)), ("disk_bytes", .int(onDisk)), ("rebase_bytes", .int(rewritten)),
      ("snapshot_bytes", .int(snapshotBytes)), ("rebases", .int(rebases)), ("syncs", .int(syncs)), ("edits", .int(edits.count)),
      ("workload", .string(workload.name)),
    ])
}
