import Foundation

/// What phase 2 measured.
struct FanOutResult {
  /// For each push and watcher, the seconds until the watcher saw a change event sent after it.
  var delays: [Double] = []
  /// Pushes some watcher never saw.
  var missed = 0
  /// What failed, one line each.
  var errors: [String] = []
}

/// What the writer thread reports.
private struct WriterReport {
  /// Whether the writer is attached (or gave up trying).
  var attached = false
  /// Whether the writer has pushed every change (or failed).
  var done = false
  /// Whether the watchers could not be set up, so the writer should push nothing.
  var canceled = false
  /// When each push was sent, in monotonic seconds.
  var sent: [Double] = []
  /// What failed.
  var errors: [String] = []
}

/// Phase 2: `watchers` clients attach document `fan-<run>` and watch it; one writer pushes
/// `events` changes 20 ms apart; for each push, how long until each watcher sees a change event
/// sent after it (servers may coalesce events, as Yorkie does).
///
/// The calling thread sets the watchers up one after another and reads all their streams
/// (``WatchReader``), also between setups, so the DOCUMENT_WATCHED events that each new watcher
/// causes never pile up. The writer pushes only once every watcher has its initialization and
/// the streams have been quiet for 300 ms.
func measureFanOut(address: ServerAddress, run: String, watchers: Int, events: Int) -> FanOutResult {
  let documentKey = "fan-\(run)"
  let report = Collector(WriterReport())
  let go = DispatchSemaphore(value: 0)
  let writer = Thread {
    let client: BenchClient
    do {
      client = try BenchClient(address: address, documentKey: documentKey, clientKey: "fan-writer-\(run)")
    } catch {
      report.update { $0.attached = true; $0.done = true; $0.errors.append("fan-out writer: \(error)") }
      return
    }
    report.update { $0.attached = true }
    go.wait()
    if report.value.canceled { return }
    for n in 0..<events {
      report.update { $0.sent.append(monotonicSeconds()) }
      do {
        try client.push(n)
      } catch {
        report.update { $0.errors.append("fan-out push \(n): \(error)") }
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    report.update { $0.done = true }
  }
  writer.name = "fan-out-writer"
  writer.start()

  let reader = WatchReader()
  defer { reader.closeAll() }
  var result = FanOutResult()
  while !report.value.attached { Thread.sleep(forTimeInterval: 0.001) }
  guard report.value.errors.isEmpty else {
    return FanOutResult(missed: watchers * events, errors: report.value.errors)
  }
  for i in 0..<watchers {
    do {
      let client = try BenchClient(address: address, documentKey: documentKey, clientKey: "fan-watch-\(run)-\(i)")
      let stream = try client.openWatch()
      try reader.add(fd: stream.fd, received: stream.received)
    } catch {
      result.errors.append("watcher \(i) setup: \(error)")
      break
    }
    reader.pump(timeout: 0)
  }
  let setupEnd = monotonicSeconds()
  while result.errors.isEmpty && reader.errors.isEmpty {
    reader.pump(timeout: 0.05)
    let now = monotonicSeconds()
    if reader.initializedCount == watchers && now - reader.lastByteTime >= 0.3 { break }
    if now - setupEnd > 60 {
      result.errors.append("fan-out: after 60 s only \(reader.initializedCount) of \(watchers) watchers were initialized")
    }
  }
  guard result.errors.isEmpty && reader.errors.isEmpty else {
    report.update { $0.canceled = true }
    go.signal()
    result.errors += reader.errors
    result.missed = watchers * events
    return result
  }
  go.signal()

  while !report.value.done { reader.pump(timeout: 0.01) }
  let sent = report.value.sent
  // As server-load.py, which waits 1 s and then up to 5 s for its threads: stop 5 s after the
  // last push, or as soon as every watcher has seen a change after it.
  if let last = sent.last {
    while monotonicSeconds() < last + 5 && !reader.allSawChange(since: last) { reader.pump(timeout: 0.01) }
  }
  result.errors += report.value.errors + reader.errors

  // A push counts as seen by a watcher at the first change event that arrives after it was sent.
  for arrivals in reader.arrivals {
    var j = 0
    for time in sent {
      while j < arrivals.count && arrivals[j] < time { j += 1 }
      if j < arrivals.count {
        result.delays.append(arrivals[j] - time)
      } else {
        result.missed += 1
      }
    }
  }
  return result
}
