import CRDT
import Foundation
import YorkieClient
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// attach_large: a fresh client attaches a document with a long history.
//
// A writer replays the automerge-paper trace (259,778 edits, one update and one change each;
// or 260,000 single-character inserts with --synthetic or without the trace) in manual sync
// mode, pushing every `batchSize` changes. The server stores a snapshot every 500 changes in
// the background, one build at a time per document, so a build still running when the last
// push lands would leave the newest snapshot a batch behind: the last 500 edits are pushed on
// their own after a pause, which makes the server store a snapshot of the final state. Then
// each run activates a new client (untimed), and times its `attach` (realtime, the default)
// from the call until it returns. The attached document must equal the writer's, its text the
// trace's final text, and it must have been loaded from a snapshot (`.snapshot` event; the
// in-process server's snapshot count too).

func attachLargeCase(_ settings: BenchSettings) async throws -> CaseResult {
  let runs = settings.repeats ?? 3
  let workload = largeWorkload(settings, for: "attach_large")
  let server = try BenchServer.start(settings)
  defer { server.stop() }
  let key = uniqueKey("attach-large")

  let watchdog = Watchdog("attach_large", seconds: 600)
  defer { watchdog.disarm() }
  let (writer, original) = try await buildLargeDocument(on: server, key: key, workload: workload, settings: settings, for: "attach_large")
  let expectedJSON = await original.toSortedJSON()
  let edits = workload.edits

  var times: [Double] = []
  for run in 0..<runs {
    let reader = Client(server.url, options: ClientOptions(key: "bench-reader-\(run)"))
    try await reader.activate()
    let copy = Document(key: key)
    let events = await copy.events()
    let snapshotsBefore = server.snapshotsSent
    let start = benchClock.now
    try await reader.attach(copy, syncMode: .realtime)
    let elapsed = (benchClock.now - start).milliseconds
    times.append(elapsed)
    guard await copy.toSortedJSON() == expectedJSON else { throw BenchFailure("run \(run + 1): the attached document differs from the writer's") }
    guard await copy.textString(at: "$.text") == workload.endContent else { throw BenchFailure("run \(run + 1): wrong text") }
    if let before = snapshotsBefore, let after = server.snapshotsSent, after != before + 1 {
      throw BenchFailure("run \(run + 1): the server answered with \(after - before) snapshots, expected 1")
    }
    // The attach emitted `.snapshot` (when loading it) before `.statusChanged(.attached)`.
    var sawSnapshot = false
    for await event in events {
      if case .snapshot = event { sawSnapshot = true }
      if case .statusChanged(.attached) = event { break }
    }
    guard sawSnapshot else { throw BenchFailure("run \(run + 1): the attach did not load a snapshot") }
    try await reader.deactivate()
    if runs > 1 || settings.verbose { note("client-bench: attach_large run \(run + 1): \(ms(elapsed))") }
  }
  if settings.verbose { try await attachBreakdown(server, key: key, expectedJSON: expectedJSON) }
  try await writer.deactivate()

  let middle = median(times)
  return CaseResult(
    headline: ms(middle),
    details: "median of \(runs) fresh attaches (best \(ms(times.min() ?? .nan))); \(workload.name), "
      + "\(grouped(workload.endContent.utf16.count)) characters, from a snapshot",
    target: "≤ 100 ms", targetMet: middle <= 100,
    fields: [
      ("ms", .double(rounded(middle))), ("best_ms", .double(rounded(times.min() ?? .nan))), ("runs", .int(runs)),
      ("edits", .int(edits.count)), ("characters", .int(workload.endContent.utf16.count)), ("workload", .string(workload.name)),
    ])
}

/// The edits of the large document: automerge-paper, or 260,000 single-character inserts with
/// `--synthetic` or when the trace cannot be read (said on stderr, naming `caseName`).
func largeWorkload(_ settings: BenchSettings, for caseName: String) -> Workload {
  if settings.synthetic { return .typing(260_000) }
  let (trace, problem) = Workload.automergePaper()
  if let problem { note("client-bench: \(caseName): \(problem); using 260,000 single-character inserts") }
  return trace ?? .typing(260_000)
}

/// The large document on `server` under `key` (untimed): a writer in manual mode replays
/// `workload` (one update and one change per edit, a push every `settings.batchSize` changes;
/// the last 500 pushed on their own after a pause, so that the server's newest snapshot is of
/// the final state). Returns the writer, still activated, and its document, still attached.
func buildLargeDocument(
  on server: BenchServer, key: String, workload: Workload, settings: BenchSettings, for caseName: String
) async throws -> (Client, Document) {
  let buildStart = benchClock.now
  let writer = Client(server.url, options: ClientOptions(key: "bench-writer"))
  try await writer.activate()
  let original = Document(key: key)
  try await writer.attach(original, syncMode: .manual)
  try await original.update { root, _ in _ = root.setNewText("text") }
  let tail = 500
  let edits = workload.edits
  for (index, edit) in edits.enumerated() {
    try await original.update { root, _ in
      _ = try root.text("text")!.edit(edit.position, edit.position + edit.deleteCount, edit.insert)
    }
    let done = index + 1
    if done == edits.count - tail {
      try await writer.sync(original)
      try await Task.sleep(nanoseconds: 1_500_000_000)  // the background snapshot builds finish
    } else if done % settings.batchSize == 0 || done == edits.count {
      try await writer.sync(original)
    }
  }
  try await Task.sleep(nanoseconds: 1_500_000_000)  // the snapshot of the final state is stored
  guard await original.textString(at: "$.text") == workload.endContent else {
    throw BenchFailure("the writer's text is not the workload's final text")
  }
  note("client-bench: \(caseName): \(workload.name) → \(grouped(workload.endContent.utf16.count)) characters, "
    + "built and pushed in \(String(format: "%.1f", secondsSince(buildStart))) s (untimed)")
  return (writer, original)
}

/// `--verbose`: the steps of `Client.attach` one by one, each timed, with the transport the
/// client uses (a manual-mode attach: the realtime attach also waits for the Watch stream's
/// first answer, timed separately at the end).
private func attachBreakdown(_ server: BenchServer, key: String, expectedJSON: String) async throws {
  let transport = ConnectTransport(baseURL: server.url)
  defer { transport.invalidate() }
  let activated: ActivateClientResponse = try await transport.unary(
    "ActivateClient", ActivateClientRequest(clientKey: "bench-probe"), shardKey: "bench-probe")
  let doc = Document(key: key)
  var lap = benchClock.now
  func next() -> Double {
    let now = benchClock.now
    defer { lap = now }
    return (now - lap).milliseconds
  }
  try await doc.setActor(ActorID(hex: activated.clientID))
  try await doc.update { _, presence in presence.set([:]) }
  let localMs = next()
  let pack = try await doc.createChangePack()
  let packMs = next()
  let request = AttachDocumentRequest(clientID: activated.clientID, changePack: WireChangePack(pack))
  let requestBytes = request.jsonData.count
  let encodeMs = next()
  _ = server.log?.take()
  let response: AttachDocumentResponse = try await transport.unary("AttachDocument", request, shardKey: key)
  let callMs = next()
  let serverMs = server.log.flatMap { ServerLogLines.lastMilliseconds(of: "AttachDocument", in: $0.take()) }
  // The client decoded the answer inside the call: the same bytes again, timed.
  _ = next()
  let responseData = response.jsonData
  let answerEncodeMs = next()
  let parsed = try WireJSON.parse(responseData)
  let parseMs = next()
  _ = try AttachDocumentResponse(json: parsed)
  let messageMs = next()
  guard let wirePack = response.changePack else { throw BenchFailure("AttachDocument answered without a change pack") }
  let model = try ChangePack(wirePack, role: .response)
  let modelMs = next()
  try await doc.applyChangePack(model)
  let applyMs = next()
  guard await doc.toSortedJSON() == expectedJSON else { throw BenchFailure("the breakdown's attach differs from the writer's document") }
  _ = next()
  let encoded = await doc.snapshot()
  let snapshotEncodeMs = next()
  let snapshotBytes = model.snapshot?.count ?? 0
  let decodeMs = parseMs + messageMs
  let wireMs = callMs - encodeMs - decodeMs - (serverMs ?? 0)
  note("client-bench: attach_large breakdown (one manual-mode attach by hand, ms): "
    + "presence update \(threeDigits(localMs)), createChangePack \(threeDigits(packMs)), "
    + "request to JSON \(threeDigits(encodeMs)) (\(grouped(requestBytes)) B); "
    + "AttachDocument call \(threeDigits(callMs)) = "
    + (serverMs.map { "server \(threeDigits($0)) + " } ?? "")
    + "answer JSON parse \(threeDigits(parseMs)) + message \(threeDigits(messageMs)) (\(grouped(responseData.count)) B, "
    + "snapshot \(grouped(snapshotBytes)) B, \(model.changes.count) changes) + HTTP and the rest \(threeDigits(wireMs)); "
    + "then wire → model \(threeDigits(modelMs)), applyChangePack (snapshot decode) \(threeDigits(applyMs)). "
    + "Steps of the server's answer, timed here: encoding the snapshot \(threeDigits(snapshotEncodeMs)) (\(grouped(encoded.count)) B), "
    + "the answer to JSON \(threeDigits(answerEncodeMs)); the server also decodes its stored snapshot (as applyChangePack does). "
    + "With a directory storage the client also takes its first base (the snapshot encode above) and writes it; "
    + "the default memory storage records nothing")
  let _: DeactivateClientResponse = try await transport.unary(
    "DeactivateClient", DeactivateClientRequest(clientID: activated.clientID), shardKey: "bench-probe")
  try await plainSessionAttach(server, key: key, transport: transport, serverMs: serverMs, transportWireMs: wireMs)

  // Manual against realtime with real clients: the difference is the Watch stream's setup.
  for mode in [SyncMode.manual, .realtime] {
    let client = Client(server.url, options: ClientOptions(key: "bench-probe-\(mode)"))
    try await client.activate()
    let copy = Document(key: key)
    let start = benchClock.now
    try await client.attach(copy, syncMode: mode)
    note("client-bench: attach_large: Client.attach in \(mode) mode: \(ms((benchClock.now - start).milliseconds))")
    try await client.deactivate()
  }
}

/// `--verbose`: the same AttachDocument through a plain `URLSession` completion handler (no
/// delegate, the body gathered by Foundation), to tell the transport's share of "HTTP and the
/// rest" from the loopback's and the server's.
private func plainSessionAttach(
  _ server: BenchServer, key: String, transport: ConnectTransport, serverMs: Double?, transportWireMs: Double
) async throws {
  let activated: ActivateClientResponse = try await transport.unary(
    "ActivateClient", ActivateClientRequest(clientKey: "bench-probe-plain"), shardKey: "bench-probe-plain")
  let doc = Document(key: key)
  try await doc.setActor(ActorID(hex: activated.clientID))
  try await doc.update { _, presence in presence.set([:]) }
  let request = AttachDocumentRequest(clientID: activated.clientID, changePack: WireChangePack(try await doc.createChangePack()))
  var urlRequest = URLRequest(url: server.url.appendingPathComponent("yorkie.v1.YorkieService/AttachDocument"))
  urlRequest.httpMethod = "POST"
  urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
  urlRequest.setValue("1", forHTTPHeaderField: "Connect-Protocol-Version")
  urlRequest.setValue("/\(key)", forHTTPHeaderField: "x-shard-key")
  let body = request.jsonData
  let session = URLSession(configuration: .ephemeral)
  defer { session.invalidateAndCancel() }
  _ = server.log?.take()
  let start = benchClock.now
  let data: Data = try await withCheckedThrowingContinuation { continuation in
    session.uploadTask(with: urlRequest, from: body) { data, _, error in
      if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
    }.resume()
  }
  let callMs = (benchClock.now - start).milliseconds
  let plainServerMs = server.log.flatMap { ServerLogLines.lastMilliseconds(of: "AttachDocument", in: $0.take()) }
  let wireMs = callMs - (plainServerMs ?? 0)
  note("client-bench: attach_large: the same AttachDocument through a plain URLSession completion handler (no decoding): "
    + "\(threeDigits(callMs)) ms = " + (plainServerMs.map { "server \(threeDigits($0)) + " } ?? "")
    + "HTTP and the rest \(threeDigits(wireMs)) (\(grouped(data.count)) B); through ConnectTransport that part was \(threeDigits(transportWireMs))"
    + (serverMs == nil ? " (server times unknown with --server)" : ""))
  let _: DeactivateClientResponse = try await transport.unary(
    "DeactivateClient", DeactivateClientRequest(clientID: activated.clientID), shardKey: "bench-probe-plain")
}
