#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's event loop: one thread, one `poll(2)` over the listener, the wake-up pipe and
/// every connection.
///
/// Threads and ownership:
/// - An `EventLoop` is created and run on the loop thread only (``HTTPServer`` creates it inside
///   the thread's body), so its state needs no lock and it is not `Sendable`.
/// - It owns the listening descriptor it is given, every accepted descriptor (through its
///   ``Connection``s) and, through ``LoopInbox/close()``, the wake-up pipe; it closes all of them
///   when ``run()`` returns, and nothing else ever closes them.
/// - Other threads reach it only through the ``LoopInbox`` (response bytes, stop).
/// - Handlers are called on the loop thread; they answer through ``ResponseWriter``s, which post
///   to the inbox even when called on this thread, so there is a single path for output.
final class EventLoop {
  /// The listening socket (owned).
  private let listener: Int32
  /// The mailbox from other threads (its wake-up pipe is owned).
  private let inbox: LoopInbox
  /// Answers each request.
  private let handler: any HTTPHandler
  /// Bounds and timeouts.
  private let limits: HTTPServerLimits
  /// The clock for timeouts.
  private let clock: HTTPServerClock
  /// Open connections by id.
  private var connections: [Int: Connection] = [:]
  /// The id of the next accepted connection.
  private var nextConnectionID = 0
  /// The read buffer, reused for every connection.
  private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

  /// A loop that will serve `listener`.
  init(listener: Int32, inbox: LoopInbox, handler: any HTTPHandler, limits: HTTPServerLimits, clock: @escaping HTTPServerClock) {
    self.listener = listener
    self.inbox = inbox
    self.handler = handler
    self.limits = limits
    self.clock = clock
  }

  /// Serves until a ``LoopInbox/Command/stop`` arrives, then closes every connection, the
  /// listener and the inbox.
  func run() {
    defer {
      for connection in Array(connections.values) { close(connection) }
      Socket.close(listener)
      inbox.close()
    }
    while true {
      var fds = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inbox.wakeFD, events: Int16(POLLIN), revents: 0),
      ]
      let polled = Array(connections.values)
      for connection in polled {
        var events = Int16(POLLIN)
        if connection.hasPendingOutput { events |= Int16(POLLOUT) }
        fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
      }
      let result = poll(&fds, nfds_t(fds.count), pollTimeoutMilliseconds())
      if result < 0 && errno != EINTR { break }

      if result > 0 {
        for (index, connection) in polled.enumerated() {
          let revents = fds[index + 2].revents
          if revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 { readAvailable(connection) }
        }
        if fds[0].revents & Int16(POLLIN) != 0 { acceptAll() }
      }
      // Always drained, whatever poll said: handlers called above post on this thread too.
      for command in inbox.takeAll() {
        switch command {
        case .stop:
          // Last words (a stream's end-of-stream message, posted just before the stop) go out
          // as far as each socket takes them without waiting; then everything closes.
          let now = clock()
          for connection in Array(connections.values) { flush(connection, now: now) }
          return
        case .send(let connectionID, let slotID, let bytes, let finish):
          connections[connectionID]?.append(bytes, toSlot: slotID, finish: finish)
        }
      }
      let now = clock()
      for connection in Array(connections.values) {
        flush(connection, now: now)
        if connections[connection.id] != nil { enforceTimeouts(connection, now: now) }
      }
    }
  }

  // MARK: - Accepting

  /// Accepts every pending connection; beyond ``HTTPServerLimits/maxConnections`` a connection
  /// gets `503` and is closed.
  private func acceptAll() {
    while let fd = Socket.accept(listener) {
      let now = clock()
      let connection = Connection(id: nextConnectionID, fd: fd, limits: limits.parser, now: now)
      nextConnectionID += 1
      let served = connections.values.count { $0.lingerDeadline == nil && !$0.closesAfterOutbox }
      connections[connection.id] = connection
      handler.connectionEvent(.opened(connection: connection.id, open: connections.count))
      if served >= limits.maxConnections {
        connection.acceptsNoMoreRequests = true
        connection.queueFinished(
          HTTPResponseHead.fullResponse(
            status: .serviceUnavailable, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array("too many connections\n".utf8), close: true),
          closesConnection: true)
      }
    }
  }

  // MARK: - Reading

  /// Reads what the socket has (at most ``maxReadsPerEvent`` buffers, for fairness), feeds the
  /// parser and hands complete requests to the handler. Input after the last request the
  /// connection will answer is read and dropped.
  ///
  /// The peer's end-of-file closes the connection at once, dropping any response still queued
  /// (its writers are told): HTTP/1.1 clients do not half-close, and a client gone from a
  /// long stream must free it without waiting for the stream's next write.
  private func readAvailable(_ connection: Connection) {
    let now = clock()
    var received = false
    readLoop: for _ in 0..<Self.maxReadsPerEvent {
      switch Socket.read(connection.fd, into: &readBuffer) {
      case .bytes(let count):
        connection.lastActivity = now
        if connection.lingerDeadline == nil && !connection.acceptsNoMoreRequests {
          received = true
          connection.parser.append(readBuffer[0..<count])
        }
        if count < readBuffer.count { break readLoop }
      case .wouldBlock:
        break readLoop
      case .endOfFile, .failed:
        close(connection)
        return
      }
    }
    if received { handleRequests(connection, now: now) }
  }

  /// The most buffers ``readAvailable(_:)`` reads from one connection per readiness event.
  private static let maxReadsPerEvent = 4

  /// Takes every complete request from the parser, opening a slot and calling the handler for each.
  private func handleRequests(_ connection: Connection, now: Double) {
    var completed = false
    do {
      while !connection.acceptsNoMoreRequests, let request = try connection.parser.next() {
        completed = true
        let closes = !request.keepAlive
        if closes { connection.acceptsNoMoreRequests = true }
        let slotID = connection.openSlot(closesConnection: closes)
        let writer = ResponseWriter(inbox: inbox, connectionID: connection.id, slotID: slotID, closesConnection: closes)
        connection.slots[connection.slots.count - 1].writer = writer
        connection.requestCount += 1
        handler.handle(request, writer: writer)
      }
      if connection.parser.takeContinueRequest() {
        connection.queueFinished(HTTPResponseHead.continueResponse, closesConnection: false)
      }
    } catch {
      connection.acceptsNoMoreRequests = true
      connection.queueFinished(error.response, closesConnection: true)
    }
    if connection.acceptsNoMoreRequests || !connection.parser.hasPartialRequest {
      connection.requestStart = nil
    } else if connection.requestStart == nil || completed {
      // A request after one that just completed starts its own clock.
      connection.requestStart = now
    }
  }

  // MARK: - Writing

  /// Moves finished responses to the outbox, writes what the socket takes, and after a closing
  /// response starts the lingering close.
  private func flush(_ connection: Connection, now: Double) {
    connection.fillOutbox()
    while connection.hasPendingOutput {
      switch Socket.write(connection.fd, connection.outbox, from: connection.outboxOffset) {
      case .bytes(let count):
        connection.outboxOffset += count
        connection.lastActivity = now
      case .wouldBlock, .endOfFile:
        // A peer that reads slower than it is sent to (a stalled Watch client) is cut off once
        // its backlog passes the limit, rather than growing without bound.
        if connection.pendingOutputCount > limits.maxPendingOutputBytes { close(connection) }
        return
      case .failed:
        close(connection)
        return
      }
    }
    connection.outbox = []
    connection.outboxOffset = 0
    if connection.closesAfterOutbox && connection.lingerDeadline == nil {
      Socket.shutdownWrite(connection.fd)
      connection.lingerDeadline = now + limits.lingerTimeout
    }
  }

  // MARK: - Timeouts

  /// Closes a connection idle too long or lingering too long, and answers a request that takes
  /// too long with `408`.
  private func enforceTimeouts(_ connection: Connection, now: Double) {
    if let deadline = connection.lingerDeadline {
      if now >= deadline { close(connection) }
    } else if let start = connection.requestStart {
      if now - start >= limits.requestTimeout {
        connection.acceptsNoMoreRequests = true
        connection.requestStart = nil
        connection.queueFinished(
          HTTPResponseHead.fullResponse(
            status: .requestTimeout, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array("request timeout\n".utf8), close: true),
          closesConnection: true)
        flush(connection, now: now)
      }
    } else if connection.isIdle && now - connection.lastActivity >= limits.idleTimeout {
      close(connection)
    }
  }

  /// How long `poll` may wait: until the nearest deadline, at most one second, at least 1 ms.
  private func pollTimeoutMilliseconds() -> Int32 {
    let now = clock()
    var nearest = now + 1
    for connection in connections.values {
      if let deadline = connection.lingerDeadline {
        nearest = min(nearest, deadline)
      } else if let start = connection.requestStart {
        nearest = min(nearest, start + limits.requestTimeout)
      } else if connection.isIdle {
        nearest = min(nearest, connection.lastActivity + limits.idleTimeout)
      }
    }
    return Int32(max(1, min(1000, ((nearest - now) * 1000).rounded(.up))))
  }

  /// Closes a connection's socket and forgets it (later posts for it are dropped), then tells
  /// the writers of its queued responses.
  private func close(_ connection: Connection) {
    guard connections.removeValue(forKey: connection.id) != nil else { return }
    Socket.close(connection.fd)
    handler.connectionEvent(.closed(connection: connection.id, requests: connection.requestCount, open: connections.count))
    let writers = connection.slots.compactMap(\.writer)
    connection.slots = []
    for writer in writers { writer.connectionDidClose() }
  }
}
