import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One TCP connection of the replay to the server under test: it writes a request exactly as
/// given and collects the response bytes on a background thread, so that a stream can stay open
/// while other calls are made. Callers look at the bytes received so far (``received``) and
/// parse them with ``ReplayHTTPResponse``.
///
/// Reads block for at most 0.2 s at a time, so the reader notices ``close()`` promptly; the
/// descriptor is closed only after the reader has stopped (never while it may still use it).
final class ReplayConnection: @unchecked Sendable {
  /// The socket.
  private let fd: Int32
  /// Guards `buffer`, `endOfFile` and `stopping`.
  private let lock = NSLock()
  private var buffer: [UInt8] = []
  private var endOfFile = false
  private var stopping = false
  /// Signalled when the reader thread has finished.
  private let readerDone = DispatchSemaphore(value: 0)
  private var readerStarted = false
  private var closed = false

  /// Connects to `127.0.0.1:port` and starts reading.
  init(port: Int) throws {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ReplayError("socket: \(String(cString: strerror(errno)))") }
    var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if !canImport(Glibc)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    // The pointer is only used during the call, and `address` outlives it.
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
      let message = String(cString: strerror(errno))
      closed = true
      ReplayConnection.systemClose(fd)
      throw ReplayError("connect to port \(port): \(message)")
    }
    readerStarted = true
    let thread = Thread { [self] in readLoop() }
    thread.name = "replay-reader"
    thread.start()
  }

  deinit { close() }

  /// Writes all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
      #else
        let flags: Int32 = 0
      #endif
      // `bytes` is alive for the whole call; `offset < count` keeps the pointer in bounds.
      let count = bytes.withUnsafeBytes { ReplayConnection.systemSend(fd, $0.baseAddress! + offset, $0.count - offset, flags) }
      guard count > 0 else { throw ReplayError("send: \(String(cString: strerror(errno)))") }
      offset += count
    }
  }

  /// The bytes received so far, and whether the server closed its side.
  var received: (bytes: [UInt8], endOfFile: Bool) {
    lock.lock()
    defer { lock.unlock() }
    return (buffer, endOfFile)
  }

  /// Polls ``received`` every 10 ms until `condition` holds or `timeout` seconds pass; returns
  /// whether it held.
  @discardableResult
  func wait(timeout: Double, until condition: ([UInt8], Bool) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let (bytes, eof) = received
      if condition(bytes, eof) { return true }
      if eof || Date() >= deadline { return condition(bytes, eof) }
      Thread.sleep(forTimeInterval: 0.01)
    }
  }

  /// Stops reading and closes the socket (once); the server sees the connection go away.
  func close() {
    lock.lock()
    let alreadyClosed = closed
    closed = true
    stopping = true
    lock.unlock()
    guard !alreadyClosed else { return }
    _ = shutdown(fd, Int32(SHUT_RDWR))
    if readerStarted { readerDone.wait() }
    ReplayConnection.systemClose(fd)
  }

  /// The reader thread: appends what arrives until end-of-file, an error or ``close()``.
  private func readLoop() {
    defer { readerDone.signal() }
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      lock.lock()
      let stop = stopping
      lock.unlock()
      if stop { return }
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        lock.lock()
        buffer.append(contentsOf: chunk[0..<count])
        lock.unlock()
        continue
      }
      let code = errno
      if count < 0 && (code == EAGAIN || code == EWOULDBLOCK || code == EINTR) { continue }
      lock.lock()
      endOfFile = true
      lock.unlock()
      return
    }
  }

  /// `send(2)`.
  private static func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
      Glibc.send(fd, pointer, count, flags)
    #else
      Darwin.send(fd, pointer, count, flags)
    #endif
  }

  /// `close(2)`.
  private static func systemClose(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }
}
