import CRDT
import Foundation

/// An HTTP/1.1 server on the operating system's sockets: a listener and an ``EventLoop`` on one
/// dedicated thread, answering each request with an ``HTTPHandler``.
///
/// ``start()`` binds (port 0 picks a free port) and returns the server's URL; ``stop()`` closes
/// every connection and the listener and waits for the loop thread to end. Both may be called
/// from any thread except the loop thread itself (that is, not from a handler).
package final class HTTPServer: Sendable {
  /// Where the server is in its life.
  private enum Phase: Sendable {
    /// Not started yet.
    case idle
    /// Serving: the loop's inbox, and the semaphore its thread signals on exit.
    case running(LoopInbox, DispatchSemaphore)
    /// Stopped (or failed to start); it cannot start again.
    case stopped
  }

  /// The host to bind (`127.0.0.1` by default).
  package let host: String
  /// The port asked for (0: any free port).
  package let requestedPort: Int
  /// Bounds and timeouts.
  package let limits: HTTPServerLimits
  /// Answers each request.
  private let handler: any HTTPHandler
  /// The clock for timeouts.
  private let clock: HTTPServerClock
  /// The phase, and the port actually bound once started.
  private let state = Locked<(phase: Phase, port: Int?)>((.idle, nil))

  /// A server that will listen on `host:port` and answer with `handler`.
  package init(
    host: String = "127.0.0.1", port: Int = 0, limits: HTTPServerLimits = HTTPServerLimits(),
    clock: @escaping HTTPServerClock = systemUptimeClock, handler: any HTTPHandler
  ) {
    self.host = host
    self.requestedPort = port
    self.limits = limits
    self.clock = clock
    self.handler = handler
  }

  /// The port the server listens on, once started.
  package var port: Int? { state.withLock { $0.port } }

  /// The base URL of the server, once started (`http://127.0.0.1:54321`).
  package var url: URL? {
    guard let port else { return nil }
    let hostPart = host.contains(":") ? "[\(host)]" : host
    return URL(string: "http://\(hostPart):\(port)")
  }

  /// Binds and starts the loop thread; returns the server's URL.
  ///
  /// - Throws: ``SocketError`` when binding fails, or when the server was already started.
  @discardableResult
  package func start() throws(SocketError) -> URL {
    try state.withLock { (state) throws(SocketError) in
      guard case .idle = state.phase else { throw SocketError(call: "start (already started)", code: EINVAL) }
      let (listener, port) = try Socket.listen(host: host, port: requestedPort)
      let inbox: LoopInbox
      do throws(SocketError) {
        inbox = try LoopInbox()
      } catch {
        Socket.close(listener)
        state.phase = .stopped
        throw error
      }
      let done = DispatchSemaphore(value: 0)
      let (handler, limits, clock) = (self.handler, self.limits, self.clock)
      let thread = Thread {
        EventLoop(listener: listener, inbox: inbox, handler: handler, limits: limits, clock: clock).run()
        done.signal()
      }
      thread.name = "YorkieServer.EventLoop"
      thread.start()
      state.phase = .running(inbox, done)
      state.port = port
    }
    return url!
  }

  /// Closes every connection and the listener, and waits until the loop thread has ended. After
  /// it returns, connecting fails. Does nothing when the server is not running.
  package func stop() {
    let running = state.withLock { state -> (LoopInbox, DispatchSemaphore)? in
      guard case .running(let inbox, let done) = state.phase else { return nil }
      state.phase = .stopped
      return (inbox, done)
    }
    guard let (inbox, done) = running else { return }
    inbox.post(.stop)
    done.wait()
  }

  /// Stops the server if it is still running.
  deinit {
    stop()
  }
}
