/// One accepted TCP connection, as the event loop sees it.
///
/// Thread confinement: a `Connection` is created, used and closed only on the event loop thread
/// (it is deliberately not `Sendable`). It owns `fd` and closes it in ``EventLoop``'s `close`.
///
/// Responses go through *slots*, one per request in arrival order (plus interim `100 Continue`
/// and error answers). Bytes posted for a slot are buffered there; only the first slot's bytes
/// move to ``outbox``, and when the first slot is finished the next becomes first. So pipelined
/// requests are answered in order whichever the handler completes first.
final class Connection {
  /// One response in the connection's queue.
  struct Slot {
    /// The id the request's ``ResponseWriter`` posts to.
    var id: Int
    /// Bytes received for this slot that have not moved to the outbox.
    var bytes: [UInt8] = []
    /// Whether the response is complete.
    var finished = false
    /// Whether the connection closes once this response is written.
    var closesConnection = false
    /// The handler's writer for this slot (none for the loop's own answers), told if the
    /// connection closes while the slot is queued.
    var writer: ResponseWriter?
  }

  /// The loop's id for this connection (never reused while the loop runs).
  let id: Int
  /// The socket, owned by this connection.
  let fd: Int32
  /// The request parser fed with what the socket reads.
  var parser: HTTPRequestParser
  /// Responses not yet wholly moved to the outbox, in request order.
  var slots: [Slot] = []
  /// The id the next slot gets.
  var nextSlotID = 0
  /// Bytes being written to the socket; `outbox[outboxOffset...]` is still to go.
  var outbox: [UInt8] = []
  /// How much of ``outbox`` has been written.
  var outboxOffset = 0
  /// Set once no further request will be read (a request without keep-alive, a parse error, a
  /// timeout, or the connection limit): later input is dropped, and the
  /// connection closes when its last slot is written.
  var acceptsNoMoreRequests = false
  /// Set when a slot that closes the connection has moved to the outbox.
  var closesAfterOutbox = false
  /// When set, the server has sent everything and shut down its sending side; it drops input
  /// until the peer's end-of-file or this deadline, then closes.
  var lingerDeadline: Double?
  /// When the connection last read or wrote bytes, or became idle.
  var lastActivity: Double
  /// How many requests the connection has carried (for the log).
  var requestCount = 0
  /// When the request now under way began (its first byte), if one is.
  var requestStart: Double?

  /// A connection on `fd` whose requests are bounded by `limits`.
  init(id: Int, fd: Int32, limits: HTTPRequestParser.Limits, now: Double) {
    self.id = id
    self.fd = fd
    parser = HTTPRequestParser(limits: limits)
    lastActivity = now
  }

  /// Whether bytes wait to be written.
  var hasPendingOutput: Bool { outboxOffset < outbox.count }

  /// The bytes queued for the peer and not yet written (outbox and slots).
  var pendingOutputCount: Int {
    slots.reduce(outbox.count - outboxOffset) { $0 + $1.bytes.count }
  }

  /// Whether the connection has nothing to do: no request under way, no response pending.
  var isIdle: Bool { slots.isEmpty && !hasPendingOutput && requestStart == nil && lingerDeadline == nil }

  /// Opens a new slot at the end of the queue and returns its id.
  func openSlot(closesConnection: Bool = false) -> Int {
    let slotID = nextSlotID
    nextSlotID += 1
    slots.append(Slot(id: slotID, closesConnection: closesConnection))
    return slotID
  }

  /// Queues a complete response that no handler writes (errors, `100 Continue`, `503`).
  func queueFinished(_ bytes: [UInt8], closesConnection: Bool) {
    let slotID = openSlot(closesConnection: closesConnection)
    append(bytes, toSlot: slotID, finish: true)
  }

  /// Adds bytes posted for slot `slotID` (ignored when that slot is gone or already finished).
  func append(_ bytes: [UInt8], toSlot slotID: Int, finish: Bool) {
    guard let index = slots.firstIndex(where: { $0.id == slotID }), !slots[index].finished else { return }
    slots[index].bytes.append(contentsOf: bytes)
    if finish { slots[index].finished = true }
  }

  /// Moves the first slots' bytes to the outbox, in order, stopping at the first unfinished slot.
  func fillOutbox() {
    while !slots.isEmpty, !closesAfterOutbox {
      if outboxOffset == outbox.count {
        outbox = []
        outboxOffset = 0
      }
      outbox.append(contentsOf: slots[0].bytes)
      slots[0].bytes = []
      guard slots[0].finished else { return }
      if slots[0].closesConnection {
        closesAfterOutbox = true
        slots = []
      } else {
        slots.removeFirst()
      }
    }
  }
}
