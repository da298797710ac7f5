import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP proxy on 127.0.0.1 that injects network faults between a client and a server, for
/// tests that must see a client survive a slow, silent or broken network.
///
/// Hand ``url`` to the client instead of the server's URL; switch ``mode`` at any moment (new and
/// existing connections follow it, see ``Mode``); ``resetAll()`` breaks every open connection.
/// All socket work runs on dedicated threads (one accepts, one per connection polls both of its
/// sockets), never on Swift-concurrency threads.
///
/// ```swift
/// let proxy = try FaultProxy(target: serverURL)
/// let url = proxy.start()
/// defer { proxy.stop() }
/// proxy.mode = .blackHole
/// ```
///
/// HTTP clients keep connections alive: a connection `URLSession` opened under ``Mode/pass``
/// stays in its pool under ``Mode/refuse``. ``resetAll()`` makes every client start afresh.
///
/// A started proxy lives until ``stop()``: its threads hold it.
public final class FaultProxy: @unchecked Sendable {
  // Unchecked: every mutable member is guarded by `condition`; the descriptors each thread owns
  // are touched by that thread alone (see `ProxyConnection`).

  /// What the proxy does to the traffic. ``FaultProxy/mode`` switches it at any moment.
  public enum Mode: Sendable, Equatable {
    /// Forwards both ways as it arrives.
    case pass
    /// Forwards every chunk this many seconds after it arrived, in order in each direction. A
    /// change of the delay applies to the chunks still waiting, too.
    case delay(TimeInterval)
    /// Accepts new connections and closes them at once (the client reads end-of-file or a
    /// reset); open connections go on forwarding.
    case refuse
    /// Forwards nothing either way, on new and open connections: the bytes stay where they are
    /// (in the proxy or in the kernel's buffers) and the connections stay open, so the client
    /// hears nothing until its timeout. Switching back to another mode delivers what was held.
    case blackHole
    /// Forwards as ``pass`` until a connection has carried this many bytes (both directions
    /// together, counted since it opened), then resets it (RST to the client, close to the
    /// server); bytes beyond the limit are dropped.
    case dropAfter(bytes: Int)

    /// How long each chunk waits.
    var delay: Duration {
      if case .delay(let seconds) = self, seconds > 0 { return .seconds(seconds) }
      return .zero
    }
  }

  /// What the proxy has done so far (``FaultProxy/counters``).
  public struct Counters: Sendable, Equatable {
    /// Connections accepted, refused ones included.
    public var accepted = 0
    /// Connections closed at once by ``Mode/refuse``.
    public var refused = 0
    /// Connections open now (client accepted, not yet closed).
    public var open = 0
    /// Bytes forwarded from clients to the target.
    public var bytesToTarget = 0
    /// Bytes forwarded from the target to clients.
    public var bytesToClient = 0
    /// Connections reset by ``FaultProxy/resetAll()`` or ``Mode/dropAfter(bytes:)``.
    public var resets = 0

    /// All zero.
    public init() {}
  }

  /// The lifecycle of the proxy.
  private enum Phase {
    /// Listening; connections wait in the backlog until ``start()``.
    case created
    /// The accept thread runs.
    case running
    /// Stopped for good.
    case stopped
  }

  /// How a connection ends.
  private enum Ending {
    /// Both sides closed normally (end of the conversation, or ``stop()``).
    case close
    /// RST to the client, close to the target, counted in ``Counters/resets``.
    case reset
    /// RST to the client, close to the target, after a failure of one side.
    case abort
  }

  /// The server the proxy forwards to.
  public let target: URL
  /// The proxy's own base URL (`http://127.0.0.1:PORT`), to hand to the client.
  public let url: URL
  /// The proxy's port on 127.0.0.1.
  public let port: Int
  /// The target's address.
  private let targetAddress: SocketAddress
  /// Every descriptor the proxy holds open.
  private let ledger = DescriptorLedger()
  /// The listening socket (owned by the accept thread once started).
  private let listener: Int32
  /// Wakes the accept thread (owned by it once started).
  private let acceptWake: WakeSignal
  /// Guards everything below and signals the end of threads.
  private let condition = NSCondition()
  /// Where the proxy is in its life.
  private var phase = Phase.created
  /// Whether the accept thread has not finished yet.
  private var acceptRunning = false
  /// The fault mode.
  private var currentMode = Mode.pass
  /// The counters.
  private var currentCounters = Counters()
  /// The open connections, by id; a connection leaves when its thread has closed its sockets.
  private var connections: [Int: ProxyConnection] = [:]
  /// The next connection's id.
  private var nextID = 0

  /// A proxy to `target` (its host and port; the scheme and path are ignored), listening on a
  /// free port of 127.0.0.1. Connections wait in the backlog until ``start()``.
  public init(target: URL) throws {
    guard let host = target.host else { throw TestSupportError(description: "the target \(target) has no host") }
    self.target = target
    targetAddress = try SocketAddress(host: host, port: target.port ?? 80)
    let listening = try ProxySocket.listenOnLoopback(ledger: ledger)
    do {
      acceptWake = try WakeSignal(ledger: ledger)
    } catch {
      ledger.close(listening.fd)
      throw error
    }
    listener = listening.fd
    port = listening.port
    url = URL(string: "http://127.0.0.1:\(listening.port)")!
  }

  /// Closes the listener of a proxy that was never started.
  deinit {
    if phase == .created {
      acceptWake.close(ledger: ledger)
      ledger.close(listener)
    }
  }

  /// Starts accepting connections; returns ``url``. Does nothing more when already started (or
  /// stopped: a stopped proxy stays stopped).
  @discardableResult
  public func start() -> URL {
    condition.lock()
    defer { condition.unlock() }
    guard phase == .created else { return url }
    phase = .running
    acceptRunning = true
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "FaultProxy accept :\(port)"
    thread.start()
    return url
  }

  /// Stops for good: closes the listener and every connection (a plain close on both sides) and
  /// waits until the threads have closed all their descriptors (a few milliseconds: every thread
  /// is woken at once). Safe to call any number of times, from any thread, at any moment.
  public func stop() {
    condition.lock()
    defer { condition.unlock() }
    switch phase {
    case .created:
      phase = .stopped
      acceptWake.close(ledger: ledger)
      ledger.close(listener)
      return
    case .running:
      phase = .stopped
      acceptWake.signal()
      for connection in connections.values { connection.wake.signal() }
    case .stopped:
      break
    }
    let deadline = Date().addingTimeInterval(10)
    while acceptRunning || !connections.isEmpty {
      if !condition.wait(until: deadline) { break }
    }
  }

  /// The fault mode, for new and open connections (see ``Mode``). Thread-safe; a change reaches
  /// the connection threads at once.
  public var mode: Mode {
    get { condition.withLock { currentMode } }
    set {
      condition.withLock {
        currentMode = newValue
        for connection in connections.values { connection.wake.signal() }
      }
    }
  }

  /// Resets every open connection: RST to its client (`SO_LINGER` {1, 0}, then close), a close
  /// to the target. Returns once they are closed (a few milliseconds). The mode stays as it is:
  /// new connections are served as usual.
  public func resetAll() {
    condition.lock()
    defer { condition.unlock() }
    let doomed = Array(connections.keys)
    for id in doomed {
      connections[id]?.resetRequested = true
      connections[id]?.wake.signal()
    }
    let deadline = Date().addingTimeInterval(10)
    while doomed.contains(where: { connections[$0] != nil }) {
      if !condition.wait(until: deadline) { break }
    }
  }

  /// What the proxy has done so far.
  public var counters: Counters { condition.withLock { currentCounters } }

  /// The file descriptors the proxy holds open now (listener, wake-up pairs, sockets), for
  /// tests that check that ``stop()`` closed everything: empty once stopped.
  public var descriptors: [Int32] { ledger.descriptors }

  // MARK: Accepting

  /// The accept thread: waits for connections (or the stop signal) and hands each to a thread.
  private func acceptLoop() {
    var fds = [
      pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
      pollfd(fd: acceptWake.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    while condition.withLock({ phase == .running }) {
      fds[0].revents = 0
      fds[1].revents = 0
      if ProxySocket.poll(&fds, timeout: -1) < 0 {
        if errno == EINTR { continue }
        usleep(10_000)
        continue
      }
      if fds[1].revents != 0 { acceptWake.drain() }
      guard fds[0].revents != 0 else { continue }
      var retryLater = false
      while let client = ProxySocket.accept(listener, ledger: ledger, retryLater: &retryLater) {
        admit(client)
      }
      if retryLater { usleep(10_000) }
    }
    condition.withLock {
      acceptWake.close(ledger: ledger)
      ledger.close(listener)
      acceptRunning = false
      condition.broadcast()
    }
  }

  /// Serves, refuses or drops a freshly accepted client socket.
  private func admit(_ client: Int32) {
    condition.lock()
    currentCounters.accepted += 1
    guard phase == .running, currentMode != .refuse, let wake = try? WakeSignal(ledger: ledger) else {
      if currentMode == .refuse { currentCounters.refused += 1 }
      condition.unlock()
      ledger.close(client)
      return
    }
    let connection = ProxyConnection(id: nextID, client: client, wake: wake)
    nextID += 1
    connections[connection.id] = connection
    currentCounters.open = connections.count
    condition.unlock()
    let thread = Thread { [self] in serve(connection) }
    thread.name = "FaultProxy connection \(connection.id)"
    thread.start()
  }

  // MARK: Forwarding

  /// A connection's thread: connects to the target, forwards until the end, closes both sockets.
  private func serve(_ connection: ProxyConnection) {
    let server = connectToTarget(connection)
    let ending = server.map { forward(connection, server: $0) } ?? .close
    if ending != .close { ProxySocket.resetOnClose(connection.client) }
    ledger.close(connection.client)
    if let server { ledger.close(server) }
    condition.withLock {
      connections[connection.id] = nil
      connection.wake.close(ledger: ledger)
      currentCounters.open = connections.count
      if ending == .reset { currentCounters.resets += 1 }
      condition.broadcast()
    }
  }

  /// How `connection` must end now, if it must (read under the lock).
  private func pendingEnding(_ connection: ProxyConnection) -> Ending? {
    if phase != .running { return .close }
    if connection.resetRequested { return .reset }
    return nil
  }

  /// Connects a new socket to the target without blocking (a stop or reset interrupts the
  /// wait); the socket, or nil (the client is then simply closed).
  private func connectToTarget(_ connection: ProxyConnection) -> Int32? {
    guard let fd = ProxySocket.tcpSocket(family: targetAddress.family, ledger: ledger) else { return nil }
    if targetAddress.connect(fd) == 0 { return fd }
    guard errno == EINPROGRESS || errno == EINTR else {
      ledger.close(fd)
      return nil
    }
    let deadline = ContinuousClock.now + .seconds(5)
    var fds = [
      pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
      pollfd(fd: connection.wake.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    while condition.withLock({ pendingEnding(connection) }) == nil {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else { break }
      fds[0].revents = 0
      fds[1].revents = 0
      _ = ProxySocket.poll(&fds, timeout: ProxySocket.milliseconds(remaining))
      if fds[1].revents != 0 { connection.wake.drain() }
      if fds[0].revents != 0 {
        if ProxySocket.pendingError(fd) == 0 { return fd }
        break
      }
    }
    ledger.close(fd)
    return nil
  }

  /// Forwards between the client and `server` under the current mode until the conversation
  /// ends or the connection must end; how it ended.
  private func forward(_ connection: ProxyConnection, server: Int32) -> Ending {
    let client = connection.client
    var toTarget = Flow(source: client, destination: server, towardTarget: true)
    var toClient = Flow(source: server, destination: client, towardTarget: false)
    // Bytes taken in so far, both ways (for `dropAfter`).
    var admitted = 0
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var fds = [pollfd](repeating: pollfd(), count: 3)
    while true {
      let (mode, ending) = condition.withLock { (currentMode, pendingEnding(connection)) }
      if let ending { return ending }
      let flowing = mode != .blackHole
      var timeout: Int32 = -1
      if flowing {
        let now = ContinuousClock.now
        guard flush(&toTarget, delay: mode.delay, now: now, timeout: &timeout),
          flush(&toClient, delay: mode.delay, now: now, timeout: &timeout)
        else { return .abort }
      }
      if case .dropAfter(let limit) = mode, admitted >= limit, toTarget.queue.isEmpty, toClient.queue.isEmpty {
        return .reset
      }
      if toTarget.finished && toClient.finished { return .close }
      fds[0] = pollfd(fd: connection.wake.readEnd, events: Int16(POLLIN), revents: 0)
      fds[1] = Self.pollEntry(client, reading: toTarget, writing: toClient, flowing: flowing)
      fds[2] = Self.pollEntry(server, reading: toClient, writing: toTarget, flowing: flowing)
      if ProxySocket.poll(&fds, timeout: timeout) < 0 {
        if errno == EINTR { continue }
        return .abort
      }
      if fds[0].revents != 0 { connection.wake.drain() }
      guard receive(&toTarget, revents: fds[1].revents, mode: mode, admitted: &admitted, buffer: &buffer),
        receive(&toClient, revents: fds[2].revents, mode: mode, admitted: &admitted, buffer: &buffer)
      else { return .abort }
    }
  }

  /// The poll entry of `fd`: readable while its outgoing flow takes bytes in, writable while the
  /// flow into it is blocked on a full buffer; left out (fd -1) when neither, so that a peer's
  /// hang-up cannot make poll spin.
  private static func pollEntry(_ fd: Int32, reading: Flow, writing: Flow, flowing: Bool) -> pollfd {
    var events: Int32 = 0
    if flowing && !reading.sourceClosed { events |= Int32(POLLIN) }
    if flowing && writing.blocked { events |= Int32(POLLOUT) }
    return pollfd(fd: events == 0 ? -1 : fd, events: Int16(events), revents: 0)
  }

  /// Sends the chunks of `flow` that are due; sets `timeout` to when the next one is due. False
  /// when the destination failed.
  private func flush(_ flow: inout Flow, delay: Duration, now: ContinuousClock.Instant, timeout: inout Int32) -> Bool {
    flow.blocked = false
    while let head = flow.queue.first {
      let due = head.arrival + delay
      if due > now {
        let wait = ProxySocket.milliseconds(due - now)
        timeout = timeout < 0 ? wait : min(timeout, wait)
        break
      }
      switch ProxySocket.send(flow.destination, head.bytes, from: flow.offset) {
      case .bytes(let count):
        flow.offset += count
        condition.withLock {
          if flow.towardTarget {
            currentCounters.bytesToTarget += count
          } else {
            currentCounters.bytesToClient += count
          }
        }
        if flow.offset == head.bytes.count {
          flow.queue.removeFirst()
          flow.offset = 0
        } else {
          flow.blocked = true
        }
      case .wouldBlock:
        flow.blocked = true
      case .failed:
        return false
      }
      if flow.blocked { break }
    }
    if flow.sourceClosed && flow.queue.isEmpty && !flow.shutDown {
      ProxySocket.shutdownWrite(flow.destination)
      flow.shutDown = true
    }
    return true
  }

  /// Takes in what the source of `flow` has, when `revents` says it is readable and the flow
  /// takes bytes in; past a ``Mode/dropAfter(bytes:)`` limit the bytes are dropped. False when
  /// the source failed, or hung up while the flow was not reading (blackHole).
  private func receive(
    _ flow: inout Flow, revents: Int16, mode: Mode, admitted: inout Int, buffer: inout [UInt8]
  ) -> Bool {
    guard revents != 0 else { return true }
    let reading = mode != .blackHole && !flow.sourceClosed
    guard reading else { return Int32(revents) & (Int32(POLLERR) | Int32(POLLHUP)) == 0 }
    switch ProxySocket.receive(flow.source, into: &buffer) {
    case .bytes(0):
      flow.sourceClosed = true
    case .bytes(let count):
      var kept = count
      if case .dropAfter(let limit) = mode { kept = max(0, min(count, limit - admitted)) }
      if kept > 0 { flow.queue.append(Chunk(arrival: .now, bytes: Array(buffer[0..<kept]))) }
      admitted += kept
    case .wouldBlock:
      break
    case .failed:
      return false
    }
    return true
  }
}

/// One connection the proxy serves: the client's socket and the pair that wakes its thread.
///
/// The thread owns `client` (and the target socket it opens): only it reads, writes and
/// closes them. `wake` is signalled only under the proxy's lock while the connection is
/// registered, and closed by the thread under that lock as it unregisters.
private final class ProxyConnection: @unchecked Sendable {
  // Unchecked: `resetRequested` is only touched under the proxy's lock.
  /// Its id in the proxy's registry.
  let id: Int
  /// The accepted client socket.
  let client: Int32
  /// Wakes the connection's thread.
  let wake: WakeSignal
  /// Set by ``FaultProxy/resetAll()``.
  var resetRequested = false

  /// A connection of `client`, woken through `wake`.
  init(id: Int, client: Int32, wake: WakeSignal) {
    self.id = id
    self.client = client
    self.wake = wake
  }
}

/// A chunk read from one side, waiting to be written to the other.
private struct Chunk {
  /// When it was read (a delay counts from here).
  var arrival: ContinuousClock.Instant
  /// Its bytes.
  var bytes: [UInt8]
}

/// One direction of a connection: what was read from `source` and waits for `destination`.
private struct Flow {
  /// The socket read from.
  let source: Int32
  /// The socket written to.
  let destination: Int32
  /// Whether this is the client-to-target direction.
  let towardTarget: Bool
  /// The chunks not yet written, oldest first.
  var queue: [Chunk] = []
  /// How much of the first chunk is already written.
  var offset = 0
  /// Whether the source reached end-of-file.
  var sourceClosed = false
  /// Whether the destination's sending side was shut down (after the source's end).
  var shutDown = false
  /// Whether the last write would have blocked (poll waits for the destination to be writable).
  var blocked = false

  /// Whether this direction is over: the source ended and everything was written.
  var finished: Bool { sourceClosed && queue.isEmpty }
}
