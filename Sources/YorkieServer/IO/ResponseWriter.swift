import CRDT
/// The handle through which an ``HTTPHandler`` answers one request: either ``send(status:headers:body:)``
/// once, or ``startStream(status:headers:)``, any number of ``sendChunk(_:)`` and ``endStream()``.
///
/// Any thread may call it: each call serializes its bytes and posts them to the event loop
/// (``LoopInbox``), which writes them when every earlier response on the connection is complete.
/// Calls out of order (a chunk before the head, anything after the end) are refused and return
/// `false`, as are calls after the server has stopped. Bytes for a connection that has closed
/// meanwhile are accepted here and dropped by the loop (the writer cannot tell yet).
/// When the request did not keep the connection alive, the response carries `Connection: close`
/// and the connection closes once it is written.
package final class ResponseWriter: Sendable {
  /// Where the writer is in its response.
  private enum Phase: Sendable {
    /// Nothing sent yet.
    case idle
    /// A chunked head was sent; chunks may follow.
    case streaming
    /// The response is complete.
    case finished
  }

  /// The loop's mailbox.
  private let inbox: LoopInbox
  /// The connection's id in the loop.
  private let connectionID: Int
  /// The response slot of this request on its connection.
  private let slotID: Int
  /// Whether the response must say `Connection: close`.
  private let closesConnection: Bool
  /// The phase, guarded so that concurrent callers cannot interleave a response.
  private let phase = Locked(Phase.idle)
  /// Whether the connection has closed, and the actions waiting for it to.
  private let closeState = Locked<(closed: Bool, actions: [@Sendable () -> Void])>((false, []))

  /// A writer for slot `slotID` of connection `connectionID`.
  init(inbox: LoopInbox, connectionID: Int, slotID: Int, closesConnection: Bool) {
    self.inbox = inbox
    self.connectionID = connectionID
    self.slotID = slotID
    self.closesConnection = closesConnection
  }

  /// Sends a whole response with a `Content-Length` body.
  @discardableResult
  package func send(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) -> Bool {
    advance(from: .idle, to: .finished) {
      HTTPResponseHead.fullResponse(status: status, headers: headers, body: body, close: closesConnection)
    }
  }

  /// Sends the head of a chunked (`Transfer-Encoding: chunked`) response.
  @discardableResult
  package func startStream(status: HTTPStatus, headers: HTTPHeaders = [:]) -> Bool {
    advance(from: .idle, to: .streaming) {
      var headers = headers
      if closesConnection { headers.replaceOrAppend(name: "Connection", value: "close") }
      return HTTPChunkedResponse.head(status: status, headers: headers)
    }
  }

  /// Sends one chunk of a streamed response (nothing for empty data).
  @discardableResult
  package func sendChunk(_ data: [UInt8]) -> Bool {
    advance(from: .streaming, to: .streaming) { HTTPChunkedResponse.chunk(data) }
  }

  /// Ends a streamed response.
  @discardableResult
  package func endStream() -> Bool {
    advance(from: .streaming, to: .finished) { HTTPChunkedResponse.end }
  }

  /// Whether the connection closed (peer gone, error, timeout or server stopped) before this
  /// response was wholly handed to the socket; later bytes are dropped.
  package var isConnectionClosed: Bool { closeState.withLock { $0.closed } }

  /// Runs `action` once when the connection closes before this response was wholly handed to the
  /// socket — the signal for a long stream (Watch) to end. It runs on the loop thread and must be
  /// quick; if the connection has already closed, it runs at once on the calling thread. It never
  /// runs for a response that completed normally.
  package func onConnectionClose(_ action: @escaping @Sendable () -> Void) {
    let runNow = closeState.withLock { state -> Bool in
      if state.closed { return true }
      state.actions.append(action)
      return false
    }
    if runNow { action() }
  }

  /// Called by the loop thread when the connection closes while this response is still queued.
  func connectionDidClose() {
    let actions = closeState.withLock { state -> [@Sendable () -> Void] in
      guard !state.closed else { return [] }
      state.closed = true
      defer { state.actions = [] }
      return state.actions
    }
    for action in actions { action() }
  }

  /// Moves from `expected` to `next` and posts the bytes of that step, atomically with respect
  /// to other calls on this writer (the post happens under the phase lock, so steps reach the
  /// loop in phase order).
  private func advance(from expected: Phase, to next: Phase, bytes: () -> [UInt8]) -> Bool {
    let posted = phase.withLock { phase in
      guard phase == expected else { return false }
      phase = next
      let command = LoopInbox.Command.send(
        connection: connectionID, slot: slotID, bytes: bytes(), finish: next == .finished)
      return inbox.post(command)
    }
    if next == .finished {
      // A complete response never runs its close actions: drop them now, since they often
      // hold the object that holds this writer (a stream call), and would otherwise keep
      // each other alive forever.
      closeState.withLock { $0.actions = [] }
    }
    return posted
  }
}
