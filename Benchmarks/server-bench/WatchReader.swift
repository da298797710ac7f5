#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import CRDT
import Foundation
import YorkieProtocol

/// Reads every watcher's Watch stream on one thread: non-blocking sockets, one `poll(2)` over
/// all of them, chunked encoding and Connect envelopes cut incrementally, and the arrival time
/// of each DOCUMENT_CHANGED event noted as its bytes are read.
final class WatchReader {
  /// One watcher's stream and what it has seen.
  private struct Stream {
    /// The socket (owned).
    var fd: Int32
    /// Cuts the HTTP body out of its chunked framing.
    var chunks = ChunkedDecoder()
    /// Cuts the body into Connect envelopes.
    var envelopes = ConnectEnvelopeDecoder()
    /// Whether the first message (the initialization) has arrived.
    var initialized = false
    /// Whether the stream has ended (end-of-stream envelope, close or error).
    var ended = false
    /// When each DOCUMENT_CHANGED event arrived, in monotonic seconds.
    var changes: [Double] = []
  }

  /// The streams, in the order added.
  private var streams: [Stream] = []
  /// One entry per stream (fd -1 once it ended, which `poll` skips).
  private var pollSet: [pollfd] = []
  /// The buffer each `read` fills.
  private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
  /// When the last byte of any stream was read (monotonic seconds).
  private(set) var lastByteTime = monotonicSeconds()
  /// How many streams have received their initialization.
  private(set) var initializedCount = 0
  /// What went wrong with streams, one line each.
  private(set) var errors: [String] = []

  /// Takes over a Watch stream's socket, with the body bytes already received.
  ///
  /// - Throws: ``BenchError`` when the socket cannot be made non-blocking (it is closed then).
  func add(fd: Int32, received: [UInt8]) throws(BenchError) {
    let flags = fcntl(fd, F_GETFL, 0)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
      let error = BenchError.system("fcntl(O_NONBLOCK)")
      close(fd)
      throw error
    }
    streams.append(Stream(fd: fd))
    pollSet.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
    if !received.isEmpty { take(received[...], stream: streams.count - 1, at: monotonicSeconds()) }
  }

  /// Waits at most `timeout` seconds for bytes, then reads every stream that has some, until
  /// each would block.
  func pump(timeout: Double) {
    let ready = poll(&pollSet, nfds_t(pollSet.count), Int32(timeout * 1000))
    guard ready > 0 else { return }
    for index in pollSet.indices where pollSet[index].revents != 0 && pollSet[index].fd >= 0 {
      pollSet[index].revents = 0
      drain(index)
    }
  }

  /// The arrival times of DOCUMENT_CHANGED events, per stream.
  var arrivals: [[Double]] { streams.map(\.changes) }

  /// Whether every stream saw a DOCUMENT_CHANGED event at or after `time`.
  func allSawChange(since time: Double) -> Bool {
    streams.allSatisfy { ($0.changes.last ?? -.infinity) >= time }
  }

  /// Closes every stream's socket.
  func closeAll() {
    for index in streams.indices { end(index) }
  }

  /// Reads stream `index` until its socket would block or it ends.
  private func drain(_ index: Int) {
    while !streams[index].ended {
      let n = readBuffer.withUnsafeMutableBytes { read(streams[index].fd, $0.baseAddress, $0.count) }
      if n > 0 {
        let now = monotonicSeconds()
        lastByteTime = now
        take(readBuffer[..<n], stream: index, at: now)
      } else if n == 0 {
        fail(index, "the server closed the stream")
      } else if errno == EINTR {
        continue
      } else if errno == EAGAIN || errno == EWOULDBLOCK {
        return
      } else {
        fail(index, "read: \(String(cString: strerror(errno)))")
      }
    }
  }

  /// Handles bytes of stream `index` read at `time`.
  private func take(_ bytes: ArraySlice<UInt8>, stream index: Int, at time: Double) {
    var body: [UInt8] = []
    let envelopes: [ConnectEnvelope]
    do {
      _ = try streams[index].chunks.feed(bytes, into: &body)
      envelopes = try streams[index].envelopes.feed(body)
    } catch {
      fail(index, "\(error)")
      return
    }
    for envelope in envelopes where !streams[index].ended {
      if envelope.isEndOfStream {
        fail(index, "the stream ended: \(String(decoding: envelope.payload.prefix(300), as: UTF8.self))")
      } else if !streams[index].initialized {
        // server-load.py takes the first message as the initialization without reading it.
        streams[index].initialized = true
        initializedCount += 1
      } else if Self.isDocumentChanged(envelope.payload) {
        streams[index].changes.append(time)
      }
    }
  }

  /// Whether a `WatchResponse` is a DOCUMENT_CHANGED document event. That type is the enum's
  /// zero value, which protobuf JSON leaves out: an event with no `type` is one.
  private static func isDocumentChanged(_ payload: [UInt8]) -> Bool {
    guard let event = try? WireJSON.parse(payload)["event"]?["docEvent"]?["event"],
      case .object(let members) = event, !members.isEmpty
    else { return false }
    switch event["type"] {
    case nil, .string("DOC_EVENT_TYPE_DOCUMENT_CHANGED"), .number("0"): return true
    default: return false
    }
  }

  /// Records that stream `index` failed, and ends it.
  private func fail(_ index: Int, _ message: String) {
    errors.append("watcher \(index): \(message)")
    end(index)
  }

  /// Closes stream `index`'s socket, if still open.
  private func end(_ index: Int) {
    guard !streams[index].ended else { return }
    streams[index].ended = true
    close(streams[index].fd)
    pollSet[index].fd = -1
  }
}
