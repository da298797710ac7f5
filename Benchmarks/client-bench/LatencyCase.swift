import CRDT
import Foundation
import YorkieClient

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
