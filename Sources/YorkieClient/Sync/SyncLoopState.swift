import Foundation

/// The decisions of one document's sync loop, as a pure value: what to push and pull next,
/// given the sync mode and what happened (local edits, DOCUMENT_CHANGED, the app's `sync()`,
/// poll ticks, failures). ``DocumentSession`` performs what it returns.
///
/// Invariants:
/// 1. At most one push-pull is in flight (``inFlight``); the next is planned only after the
///    previous finished, so packs reach the server in order.
/// 2. Everything asked for while a push-pull is in flight waits and goes together in the next
///    one (edits coalesce: the next pack carries every pending change).
/// 3. A failed automatic push-pull is planned again only after the retry delay
///    (``retryPending``), never in a tight loop; the app's own `sync()` calls are not held back.
/// 4. Nothing is planned once the loop stopped.
struct SyncLoopState: Equatable {
  /// A push-pull to perform.
  struct Plan: Equatable {
    /// PushPullChanges' `pushOnly`: push local changes without pulling.
    var pushOnly: Bool
    /// The app's `sync()` calls this push-pull answers.
    var requests: [Int]
  }

  /// The sync mode.
  var mode: SyncMode
  /// The server has changes for us (DOCUMENT_CHANGED, a (re)connected stream, a poll tick, a
  /// switch back to realtime).
  var pullWanted = false
  /// There are local changes to push.
  var pushWanted = false
  /// The app's `sync()` calls waiting for a push-pull.
  var requests: [Int] = []
  /// A push-pull is in flight.
  private(set) var inFlight = false
  /// A failed automatic push-pull waits for its retry delay.
  var retryPending = false
  /// The loop stopped (detached, removed, deactivated, or a failure retrying cannot fix).
  private(set) var stopped = false

  /// A loop in `mode` with nothing to do yet.
  init(mode: SyncMode) {
    self.mode = mode
  }

  /// The next push-pull to perform, or nil to wait. Marks it in flight.
  mutating func nextPlan() -> Plan? {
    guard !stopped, !inFlight else { return nil }
    if !requests.isEmpty {
      defer { requests = [] }
      inFlight = true
      pushWanted = false
      pullWanted = false
      return Plan(pushOnly: false, requests: requests)
    }
    guard !retryPending else { return nil }
    switch mode {
    case .realtime:
      guard pushWanted || pullWanted else { return nil }
      pushWanted = false
      pullWanted = false
      inFlight = true
      return Plan(pushOnly: false, requests: [])
    case .realtimePushOnly:
      // Pulls wait for the switch back to realtime.
      guard pushWanted else { return nil }
      pushWanted = false
      inFlight = true
      return Plan(pushOnly: true, requests: [])
    case .polling:
      // Local edits wait for the next tick, which sets pullWanted.
      guard pullWanted else { return nil }
      pushWanted = false
      pullWanted = false
      inFlight = true
      return Plan(pushOnly: false, requests: [])
    case .realtimeSyncOff, .manual:
      return nil
    }
  }

  /// Records that `plan` succeeded.
  mutating func succeeded(_ plan: Plan) {
    inFlight = false
    retryPending = false
  }

  /// Records that `plan` failed with something retrying can fix; returns whether the loop
  /// retries on its own (then it waits for the delay: call ``retryDue()`` after it).
  mutating func failed(_ plan: Plan) -> Bool {
    inFlight = false
    // What was taken is still to do: local changes stay pending until acknowledged.
    pushWanted = true
    if !plan.pushOnly { pullWanted = true }
    switch mode {
    case .realtime, .realtimePushOnly, .polling:
      retryPending = true
      return true
    case .realtimeSyncOff, .manual:
      return false
    }
  }

  /// The retry delay passed.
  mutating func retryDue() {
    retryPending = false
  }

  /// Switches the mode. Switching to realtime pulls what the other modes left waiting.
  mutating func changeMode(to newMode: SyncMode) {
    if newMode == .realtime && mode != .realtime { pullWanted = true; pushWanted = true }
    if case .polling = newMode { pullWanted = true }
    mode = newMode
  }

  /// Stops the loop; returns the `sync()` calls still waiting (to be failed).
  mutating func stop() -> [Int] {
    stopped = true
    defer { requests = [] }
    return requests
  }
}
