import CRDT
import Foundation
import YorkieClient
import YorkieProtocol

// sync_latency: how long an edit takes to show on another client.
//
// Clients A and B, both realtime on one document with a counter. Each sample: A increases the
// counter in one update (the clock starts before the update), and the sample ends when B's
// document emits the remoteChange of that change (A's actor, A's client sequence). One edit at
// a time; 50 unmeasured edits warm the connections first.

/// The measured edits of one round: milliseconds each, and the phases with `--verbose`.
private struct LatencyRound {
  var samples: [Double] = []
  /// With `--verbose` and an in-process server, per sample: the update's start → the server
  /// answered A's push; → the server answered B's pull; → B's event.
  var phases: [[Double]] = [[], [], []]
}

func syncLatencyCase(_ settings: BenchSettings) async throws -> CaseResult {
  let rounds = settings.repeats ?? 1
  var all: [Double] = []
  var phases: [[Double]] = [[], [], []]
  for round in 0..<rounds {
    let server = try BenchServer.start(settings)
    defer { server.stop() }
    let result = try await latencyRound(server, edits: settings.latencyEdits)
    all += result.samples
    for phase in 0..<3 { phases[phase] += result.phases[phase] }
    if rounds > 1 || settings.verbose {
      let sorted = result.samples.sorted()
      note("client-bench: sync_latency round \(round + 1): p50 \(ms(quantile(sorted, 0.5))), p90 \(ms(quantile(sorted, 0.9))), "
        + "p99 \(ms(quantile(sorted, 0.99))), max \(ms(sorted.last ?? .nan))")
    }
  }
  if settings.verbose {
    let server = try BenchServer.start(settings)
    defer { server.stop() }
    try await emptyPushPulls(server, count: 500)
  }
  if settings.verbose, !phases[0].isEmpty {
    let names = ["A's update start → server answered A's push", "→ server answered B's pull (DOCUMENT_CHANGED on B's Watch stream, B's request)",
                 "→ B's remoteChange event (answer to B, decode, apply)"]
    for (name, values) in zip(names, phases) {
      let sorted = values.sorted()
      note("client-bench: sync_latency phase \(name): p50 \(ms(quantile(sorted, 0.5))), p90 \(ms(quantile(sorted, 0.9))), "
        + "p99 \(ms(quantile(sorted, 0.99))) (\(sorted.count) samples)")
    }
  }
  let sorted = all.sorted()
  let (p50, p90, p99, worst) = (quantile(sorted, 0.5), quantile(sorted, 0.9), quantile(sorted, 0.99), sorted.last ?? .nan)
  return CaseResult(
    headline: "p50 \(ms(p50))",
    details: "p90 \(ms(p90)), p99 \(ms(p99)), max \(ms(worst)) (\(grouped(all.count)) edits"
      + (rounds > 1 ? " in \(rounds) rounds)" : ")"),
    target: "p50 ≤ 2 ms, p99 ≤ 10 ms", targetMet: p50 <= 2 && p99 <= 10,
    fields: [
      ("edits", .int(all.count)), ("p50_ms", .double(rounded(p50))), ("p90_ms", .double(rounded(p90))),
      ("p99_ms", .double(rounded(p99))), ("max_ms", .double(rounded(worst))),
    ])
}

/// One round on `server`: attach both clients, warm up, measure `edits` edits, check both
/// documents agree.
private func latencyRound(_ server: BenchServer, edits: Int) async throws -> LatencyRound {
  let key = uniqueKey("latency")
  let a = Client(server.url, options: ClientOptions(key: "bench-latency-a"))
  let b = Client(server.url, options: ClientOptions(key: "bench-latency-b"))
  try await a.activate()
  try await b.activate()
  let docA = Document(key: key)
  try await a.attach(docA, syncMode: .realtime)
  try await docA.update { root, _ in _ = root.setNewCounter("n", .long(0)) }
  try await a.waitUntilAcknowledged(docA)
  let docB = Document(key: key)
  try await b.attach(docB, syncMode: .realtime)
  guard await docB.toSortedJSON() == #"{"n":0}"# else {
    throw BenchFailure("B attached without A's counter: \(await docB.toSortedJSON())")
  }

  let watchdog = Watchdog("sync_latency", seconds: 120)
  defer { watchdog.disarm() }
  let actorA = await docA.actorID
  var arrivals = await docB.events().makeAsyncIterator()
  let warmup = 50
  var round = LatencyRound()
  round.samples.reserveCapacity(edits)
  for index in 0..<(warmup + edits) {
    _ = server.log?.takeTimed()
    let start = benchClock.now
    try await docA.update { root, _ in root.counter("n")!.increase(by: 1) }
    let clientSeq = await docA.lastLocalClientSeq
    var arrived: ContinuousClock.Instant?
    while let event = await arrivals.next() {
      if case .remoteChange(let change) = event, change.actorID == actorA, change.clientSeq >= clientSeq {
        arrived = benchClock.now
        break
      }
    }
    guard let arrived else { throw BenchFailure("B's event stream ended") }
    guard index >= warmup else { continue }
    round.samples.append((arrived - start).milliseconds)
    // The server logged A's push, then B's pull, as it answered them (no other PushPull runs
    // in between: both loops are idle otherwise).
    let answered = (server.log?.takeTimed() ?? []).filter { $0.1.contains("PushPullChanges 200") }.map(\.0)
    if answered.count == 2 {
      round.phases[0].append((answered[0] - start).milliseconds)
      round.phases[1].append((answered[1] - answered[0]).milliseconds)
      round.phases[2].append((arrived - answered[1]).milliseconds)
    }
  }
  let (jsonA, jsonB) = (await docA.toSortedJSON(), await docB.toSortedJSON())
  let expected = #"{"n":\#(warmup + edits)}"#
  guard jsonA == expected, jsonB == expected else {
    throw BenchFailure("after \(warmup + edits) edits A has \(jsonA) and B has \(jsonB), expected \(expected)")
  }
  try await b.deactivate()
  try await a.deactivate()
  return round
}

/// `--verbose`: `count` PushPullChanges with nothing to push or pull, one after another,
/// through the transport the client uses: the cost of one round trip with no payload, and the
/// server's share of it.
private func emptyPushPulls(_ server: BenchServer, count: Int) async throws {
  let transport = ConnectTransport(baseURL: server.url)
  defer { transport.invalidate() }
  let activated: ActivateClientResponse = try await transport.unary(
    "ActivateClient", ActivateClientRequest(clientKey: "bench-rtt"), shardKey: "bench-rtt")
  let key = uniqueKey("rtt")
  let doc = Document(key: key)
  try await doc.setActor(ActorID(hex: activated.clientID))
  let attached: AttachDocumentResponse = try await transport.unary(
    "AttachDocument", AttachDocumentRequest(clientID: activated.clientID, changePack: WireChangePack(try await doc.createChangePack())),
    shardKey: key)
  if let pack = attached.changePack { try await doc.applyChangePack(try ChangePack(pack, role: .response)) }
  var calls: [Double] = []
  var local: [Double] = []
  _ = server.log?.take()
  for _ in 0..<count {
    let start = benchClock.now
    let pack = try await doc.createChangePack()
    let request = PushPullChangesRequest(clientID: activated.clientID, documentID: attached.documentID, changePack: WireChangePack(pack))
    let sent = benchClock.now
    let response: PushPullChangesResponse = try await transport.unary("PushPullChanges", request, shardKey: key)
    let answered = benchClock.now
    if let answer = response.changePack { try await doc.applyChangePack(try ChangePack(answer, role: .response)) }
    calls.append((answered - sent).milliseconds)
    local.append((sent - start).milliseconds + (benchClock.now - answered).milliseconds)
  }
  let serverTimes = ServerLogLines.allMilliseconds(of: "PushPullChanges", in: server.log?.take() ?? []).sorted()
  calls.sort()
  local.sort()
  note("client-bench: sync_latency: \(count) empty PushPullChanges through ConnectTransport: call p50 \(ms(quantile(calls, 0.5))), "
    + "p99 \(ms(quantile(calls, 0.99)))" + (serverTimes.isEmpty ? "" : ", of which the server p50 \(ms(quantile(serverTimes, 0.5)))")
    + "; createChangePack + applyChangePack around it p50 \(ms(quantile(local, 0.5)))")

  // The same request over a blocking socket: what the HTTP stack adds.
  guard let host = server.url.host, let port = server.url.port else { return }
  let connection: RawHTTPConnection
  do {
    connection = try RawHTTPConnection(host: host, port: port)
  } catch {
    note("client-bench: sync_latency: no socket comparison (\(error))")
    return
  }
  let body = Array(PushPullChangesRequest(
    clientID: activated.clientID, documentID: attached.documentID, changePack: WireChangePack(try await doc.createChangePack())).jsonData)
  let headers = [("Content-Type", "application/json"), ("Connect-Protocol-Version", "1"), ("x-shard-key", "/" + key)]
  var raw: [Double] = []
  for _ in 0..<count {
    let start = benchClock.now
    let answer = try connection.post("/yorkie.v1.YorkieService/PushPullChanges", headers: headers, body: body)
    raw.append((benchClock.now - start).milliseconds)
    _ = try PushPullChangesResponse(jsonData: answer)
  }
  raw.sort()
  note("client-bench: sync_latency: the same \(count) calls over a blocking socket (HTTP/1.1 keep-alive, no URLSession): "
    + "p50 \(ms(quantile(raw, 0.5))), p99 \(ms(quantile(raw, 0.99)))")
}
