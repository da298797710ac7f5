import CRDT
import Foundation
import YorkieProtocol

/// One server-streaming call in progress: sends its envelopes while it is open, ends it exactly
/// once (with the end-of-stream message, unless the peer is gone), and then runs its cleanup.
final class StreamCall: Sendable {
  /// Where the call is.
  private struct State: Sendable {
    /// Whether the call has ended.
    var ended = false
    /// What to run once it has (unregister the Watch stream).
    var cleanup: (@Sendable () -> Void)?
  }

  /// The HTTP response.
  let writer: ResponseWriter
  /// The state.
  private let state = Locked(State())

  /// A call answering through `writer` (whose streamed head is already sent).
  init(writer: ResponseWriter) {
    self.writer = writer
  }

  /// Sends one envelope; `false` once the call has ended.
  func send(_ envelope: [UInt8]) -> Bool {
    state.withLock { state in
      guard !state.ended else { return false }
      return writer.sendChunk(envelope)
    }
  }

  /// Ends the call with `error` (or cleanly) and runs the cleanup. Does nothing the second time.
  func finish(_ error: ConnectError?) {
    let cleanup: (@Sendable () -> Void)? = state.withLock { state in
      guard !state.ended else { return nil }
      state.ended = true
      writer.sendChunk(ConnectResponses.endOfStream(error))
      writer.endStream()
      defer { state.cleanup = nil }
      return state.cleanup ?? {}
    }
    cleanup?()
  }

  /// The peer went away: ends the call without a word and runs the cleanup.
  func connectionClosed() {
    let cleanup: (@Sendable () -> Void)? = state.withLock { state in
      guard !state.ended else { return nil }
      state.ended = true
      defer { state.cleanup = nil }
      return state.cleanup ?? {}
    }
    cleanup?()
  }

  /// Sets what runs when the call ends; runs it at once if it already has.
  func setCleanup(_ cleanup: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      if state.ended { return true }
      state.cleanup = cleanup
      return false
    }
    if runNow { cleanup() }
  }
}

/// The open stream calls, so that a stopping server can end each with `canceled`.
final class StreamRegistry: Sendable {
  /// The calls by id, and the next id.
  private let calls = Locked<(open: [Int: StreamCall], next: Int)>(([:], 1))

  /// Registers `call`; returns its id.
  func add(_ call: StreamCall) -> Int {
    calls.withLock { calls in
      defer { calls.next += 1 }
      calls.open[calls.next] = call
      return calls.next
    }
  }

  /// Forgets call `id`.
  func remove(_ id: Int) {
    calls.withLock { _ = $0.open.removeValue(forKey: id) }
  }

  /// Removes and returns every open call.
  func removeAll() -> [StreamCall] {
    calls.withLock { calls in
      defer { calls.open = [:] }
      return calls.open.keys.sorted().compactMap { calls.open[$0] }
    }
  }
}
