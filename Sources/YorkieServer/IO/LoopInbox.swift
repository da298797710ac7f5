import CRDT
/// The mailbox through which other threads reach the event loop: response bytes for a
/// connection's response slot, and the request to stop. Posting wakes the loop.
///
/// Thread safety: every field lives in one ``Locked`` state. The loop thread takes the commands
/// with ``takeAll()``; any thread may ``post(_:)``. Once ``close()`` has run (the loop is
/// exiting), posts are refused and the wake-up pipe is closed, all under the same lock.
package final class LoopInbox: Sendable {
  /// What another thread asks of the loop.
  enum Command: Sendable {
    /// Append `bytes` to response slot `slot` of connection `connection`; `finish` completes the
    /// slot (the response is whole).
    case send(connection: Int, slot: Int, bytes: [UInt8], finish: Bool)
    /// Close every connection and the listener, and end the loop thread.
    case stop
  }

  /// The guarded state.
  private struct State: Sendable {
    /// Commands not yet taken by the loop, in posting order.
    var commands: [Command] = []
    /// Whether the loop has exited; later posts are refused.
    var closed = false
  }

  /// The pipe that wakes the loop; written and closed only under `state`'s lock.
  private let pipe: WakeUpPipe
  /// Commands and the closed flag.
  private let state = Locked(State())

  /// An inbox with a new wake-up pipe.
  init() throws(SocketError) {
    pipe = try WakeUpPipe()
  }

  /// The descriptor the loop polls to learn of new commands.
  var wakeFD: Int32 { pipe.readFD }

  /// Queues `command` and wakes the loop; `false` when the loop has already exited.
  @discardableResult
  func post(_ command: Command) -> Bool {
    state.withLock { state in
      guard !state.closed else { return false }
      state.commands.append(command)
      if state.commands.count == 1 { pipe.wake() }
      return true
    }
  }

  /// Every queued command, oldest first (loop thread only). Also drains the wake-up pipe.
  func takeAll() -> [Command] {
    state.withLock { state in
      pipe.drain()
      defer { state.commands = [] }
      return state.commands
    }
  }

  /// Refuses all later posts and closes the wake-up pipe (loop thread only, once, on exit).
  func close() {
    state.withLock { state in
      guard !state.closed else { return }
      state.closed = true
      state.commands = []
      pipe.close()
    }
  }
}
