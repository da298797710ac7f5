import Foundation

/// What phase 1 measured.
struct ThroughputResult {
  /// Every push-pull's duration in seconds, from all clients.
  var latencies: [Double] = []
  /// Failed calls (and clients that could not start).
  var errors = 0
  /// The first error's text.
  var firstError: String?
}

/// Phase 1: `clients` threads, each with its own client and keep-alive connection, attached to
/// document `i % docs`, push-pull one Set after another for `seconds`.
///
/// Unlike server-load.py's processes, which each start their clock once set up, every thread
/// here waits until all are attached, so the measured seconds overlap fully.
func measureThroughput(address: ServerAddress, run: String, clients: Int, docs: Int, seconds: Double) -> ThroughputResult {
  let collected = Collector<ThroughputResult>(ThroughputResult())
  let ready = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  let finished = DispatchSemaphore(value: 0)
  let start = Collector<Double>(0)
  for i in 0..<clients {
    let thread = Thread {
      defer { finished.signal() }
      let client: BenchClient?
      do {
        client = try BenchClient(address: address, documentKey: "load-\(run)-\(i % docs)", clientKey: "load-\(run)-\(i)")
      } catch {
        collected.update { $0.errors += 1; $0.firstError = $0.firstError ?? "client setup failed: \(error)" }
        client = nil
      }
      ready.signal()
      go.wait()
      guard let client else { return }
      var latencies: [Double] = []
      var errors = 0
      var firstError: String?
      let end = start.value + seconds
      var n = 0
      while true {
        let before = monotonicSeconds()
        if before >= end { break }
        do {
          try client.push(n)
        } catch {
          errors += 1
          firstError = firstError ?? "\(error)"
        }
        latencies.append(monotonicSeconds() - before)
        n += 1
      }
      collected.update {
        $0.latencies += latencies
        $0.errors += errors
        $0.firstError = $0.firstError ?? firstError
      }
    }
    thread.name = "throughput-\(i)"
    thread.start()
  }
  for _ in 0..<clients { ready.wait() }
  start.update { $0 = monotonicSeconds() }
  for _ in 0..<clients { go.signal() }
  for _ in 0..<clients { finished.wait() }
  return collected.value
}
