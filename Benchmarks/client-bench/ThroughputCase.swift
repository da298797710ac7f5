import CRDT
import Foundation
import YorkieClient
import YorkieProtocol

// sync_throughput: one realtime client types as fast as it can.
//
// N single-character inserts at the end of a text, one update each, issued back to back (the
// client pushes while they come: each push carries what piled up during the previous one, at
// most DocumentSession.maxChangesPerPush = 1,000 changes); then `waitUntilAcknowledged`. Rate = N / (first update's start → acknowledgement of the
// last). PushPull round trips are counted from the client's `.synced` events. A fresh client
// attaches afterwards (untimed) and must see the whole text.

func syncThroughputCase(_ settings: BenchSettings) async throws -> CaseResult {
  let runs = settings.repeats ?? 3
  let edits = settings.throughputEdits
  var rates: [Double] = []
  var pushPulls: [Int] = []
  for run in 0..<runs {
    let server = try BenchServer.start(settings)
    defer { server.stop() }
    let (seconds, trips) = try await throughputRun(server, edits: edits, verbose: settings.verbose)
    rates.append(Double(edits) / seconds)
    pushPulls.append(trips)
    if runs > 1 || settings.verbose {
      note("client-bench: sync_throughput run \(run + 1): \(grouped(edits)) edits acknowledged in \(ms(seconds * 1e3)) "
        + "= \(grouped(Int(Double(edits) / seconds))) edits/s, \(trips) PushPull round trips")
    }
    if settings.verbose, let log = server.log {
      let calls = ServerLogLines.allMilliseconds(of: "PushPullChanges", in: log.take())
      note("client-bench: sync_throughput: server time in PushPullChanges: \(ms(calls.reduce(0, +))) over \(calls.count) calls")
    }
  }
  if settings.verbose { try await localUpdateFloor(edits: edits) }
  let rate = median(rates)
  let trips = Int(median(pushPulls.map(Double.init)).rounded())
  return CaseResult(
    headline: "\(grouped(Int(rate))) edits/s",
    details: "\(grouped(edits)) inserts, \(trips) PushPulls (\(grouped(edits / max(trips, 1))) changes each)"
      + (runs > 1 ? ", median of \(runs); best \(grouped(Int(rates.max() ?? 0)))/s" : ""),
    target: "≥ 20,000 edits/s", targetMet: rate >= 20_000,
    fields: [
      ("edits", .int(edits)), ("edits_per_second", .double(rounded(rate))),
      ("best_edits_per_second", .double(rounded(rates.max() ?? .nan))), ("push_pulls", .int(trips)), ("runs", .int(runs)),
    ])
}

/// One run: seconds from the first update to the acknowledgement of the last, and the number
/// of push-pulls in between.
private func throughputRun(_ server: BenchServer, edits: Int, verbose: Bool) async throws -> (Double, Int) {
  let key = uniqueKey("throughput")
  let client = Client(server.url, options: ClientOptions(key: "bench-typist"))
  try await client.activate()
  let doc = Document(key: key)
  try await client.attach(doc, syncMode: .realtime)
  try await doc.update { root, _ in _ = root.setNewText("t") }
  try await client.waitUntilAcknowledged(doc)
  try await client.sync(doc)

  let synced = Counter()
  let events = client.events()
  let counting = Task {
    var reported = 0
    for await event in events {
      switch event {
      case .syncStatusChanged(let document, .synced) where document == key:
        synced.increment()
      case .retrying, .stopped, .authError:
        // A failing push would only show as a timeout: say why (the first few times).
        reported += 1
        if reported <= 3 { note("client-bench: sync_throughput: \(event)") }
      default:
        break
      }
    }
  }
  defer { counting.cancel() }
  try await settle(synced)
  let before = synced.current

  let watchdog = Watchdog("sync_throughput", seconds: 300)
  defer { watchdog.disarm() }
  let letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init)
  let start = benchClock.now
  for index in 0..<edits {
    let letter = letters[index % letters.count]
    try await doc.update { root, _ in _ = try root.text("t")!.edit(index, index, letter) }
  }
  let issued = secondsSince(start)
  try await client.waitUntilAcknowledged(doc)
  let seconds = secondsSince(start)
  try await settle(synced)
  let trips = synced.current - before
  if verbose {
    note("client-bench: sync_throughput: the \(grouped(edits)) updates were issued in \(ms(issued * 1e3)); "
      + "the last acknowledgement came \(ms((seconds - issued) * 1e3)) after")
  }

  // The server must hold every edit: a fresh client sees the whole text.
  let length = await doc.textString(at: "$.t").utf16.count
  let checker = Client(server.url, options: ClientOptions(key: "bench-checker"))
  try await checker.activate()
  let copy = Document(key: key)
  try await checker.attach(copy, syncMode: .manual)
  let (mine, theirs) = (await doc.toSortedJSON(), await copy.toSortedJSON())
  guard length == edits, mine == theirs else {
    throw BenchFailure("the text has \(length) characters (expected \(edits)); a fresh client's copy "
      + (mine == theirs ? "agrees" : "differs"))
  }
  try await checker.deactivate()
  try await client.deactivate()
  return (seconds, trips)
}

/// Waits until `counter` stopped moving for 50 ms (events still on their way are counted).
private func settle(_ counter: Counter) async throws {
  var last = counter.current
  while true {
    try await Task.sleep(nanoseconds: 50_000_000)
    let now = counter.current
    if now == last { return }
    last = now
  }
}

/// `--verbose`: the same updates on a detached document (no client), the floor of the rate.
private func localUpdateFloor(edits: Int) async throws {
  let doc = Document(key: "bench-local")
  try await doc.setActor(ActorID.random())
  try await doc.update { root, _ in _ = root.setNewText("t") }
  let letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init)
  let start = benchClock.now
  for index in 0..<edits {
    let letter = letters[index % letters.count]
    try await doc.update { root, _ in _ = try root.text("t")!.edit(index, index, letter) }
  }
  let seconds = secondsSince(start)
  let packStart = benchClock.now
  let pack = try await doc.createChangePack()
  let packSeconds = secondsSince(packStart)
  let convertStart = benchClock.now
  let wire = WireChangePack(pack)
  let convertSeconds = secondsSince(convertStart)
  let request = PushPullChangesRequest(clientID: "000000000000000000000000", documentID: "000000000000000000000000", changePack: wire)
  let treeStart = benchClock.now
  let tree = request.json
  let treeSeconds = secondsSince(treeStart)
  let textStart = benchClock.now
  let body = tree.data
  let textSeconds = secondsSince(textStart)
  let parseStart = benchClock.now
  let parsed = try PushPullChangesRequest(jsonData: body)
  let parseSeconds = secondsSince(parseStart)
  let backStart = benchClock.now
  _ = try parsed.changePack.map { try ChangePack($0, role: .request) }
  let backSeconds = secondsSince(backStart)
  let perChange = { (seconds: Double) in ms(seconds * 1e3) + " (" + threeDigits(seconds * 1e6 / Double(max(edits, 1))) + " µs/change)" }
  note("client-bench: sync_throughput: all \(grouped(edits)) changes as one PushPullChanges request: \(grouped(body.count)) bytes of JSON "
    + "(\(grouped(body.count / max(edits, 1))) per change). Client side: ChangePack → WireChangePack \(perChange(convertSeconds)), "
    + "→ JSON tree \(perChange(treeSeconds)), → bytes \(perChange(textSeconds)). What the server does with it: bytes → message "
    + "\(perChange(parseSeconds)), → ChangePack \(perChange(backSeconds))")
  note("client-bench: sync_throughput: the same \(grouped(edits)) updates on a detached document take \(ms(seconds * 1e3)) "
    + "(\(grouped(Int(Double(edits) / seconds))) updates/s, the floor without syncing); one change pack of all of them: \(ms(packSeconds * 1e3)) "
    + "(\(pack.changes.count) changes)")
}

extension Document {
  /// The text at `path` as a string ("" when there is none).
  func textString(at path: String) -> String {
    ((try? text(atPath: path)) ?? nil)?.string ?? ""
  }
}
