import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A non-blocking TCP client socket for tests that need to see exactly what a connection does
/// (a reset, an end-of-file, silence). It never blocks a thread: every wait is a zero-timeout
/// `poll` between short `Task.sleep`s.
final class RawSocket: @unchecked Sendable {
  // Unchecked: `fd` is fixed; `closed` is only used by the one test task that owns the socket.
  /// How a read ended.
  enum End: Equatable {
    /// The peer closed its side (FIN).
    case endOfFile
    /// The connection failed with this `errno` (`ECONNRESET` after an RST).
    case failed(Int32)
    /// The time ran out with the connection still open.
    case timedOut
    /// The stop condition was met.
    case satisfied
  }

  /// The socket.
  let fd: Int32
  /// Whether ``close()`` ran.
  private var closed = false

  /// A socket connected to 127.0.0.1:`port` (the kernel completes the handshake even before the
  /// listener accepts).
  init(port: Int) async throws {
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    fd = socket(AF_INET, type, 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    let flags = fcntl(fd, F_GETFL, 0)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    #if !canImport(Glibc)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let fd = self.fd
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
    }
    if result != 0 {
      guard errno == EINPROGRESS else {
        close()
        throw POSIXError(.ECONNREFUSED)
      }
      guard await wait(for: Int16(POLLOUT), timeout: .seconds(5)) else {
        close()
        throw POSIXError(.ETIMEDOUT)
      }
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
      guard code == 0 else {
        close()
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
      }
    }
  }

  /// Closes the socket if still open.
  deinit { close() }

  /// Closes the socket (once).
  func close() {
    guard !closed else { return }
    closed = true
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  /// Sends all of `text` (small: it fits in the socket buffer); false when the connection failed.
  @discardableResult
  func send(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    let sent = bytes.withUnsafeBytes { buffer in
      #if canImport(Glibc)
        Glibc.send(fd, buffer.baseAddress, buffer.count, flags)
      #else
        Darwin.send(fd, buffer.baseAddress, buffer.count, flags)
      #endif
    }
    return sent == bytes.count
  }

  /// Reads until `stop` holds for what arrived, the connection ends, or `timeout` passes; what
  /// arrived and why the reading ended.
  func read(timeout: Duration, until stop: ([UInt8]) -> Bool = { _ in false }) async -> (bytes: [UInt8], end: End) {
    let deadline = ContinuousClock.now + timeout
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      if stop(received) { return (received, .satisfied) }
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += buffer[0..<count]
        continue
      }
      if count == 0 { return (received, .endOfFile) }
      if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return (received, .failed(errno)) }
      if ContinuousClock.now >= deadline { return (received, .timedOut) }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Waits until `poll` reports `events` (or an error) on the socket; false after `timeout`.
  private func wait(for events: Int16, timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      var entry = pollfd(fd: fd, events: events, revents: 0)
      if poll(&entry, 1, 0) > 0 { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return false
  }
}

/// A GET of the server's health endpoint as raw HTTP/1.1.
let rawHealthRequest = "GET /yorkie.v1.YorkieService/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

/// Whether `bytes` hold the health endpoint's answer body.
func containsServing(_ bytes: [UInt8]) -> Bool {
  String(decoding: bytes, as: UTF8.self).contains(#"{"status":"serving"}"#)
}

/// Polls `condition` every few milliseconds until it holds (true) or `timeout` passes (false).
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while !condition() {
    if ContinuousClock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return true
}
