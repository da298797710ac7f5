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
    do {
      fd = try connectToLoopback(port: port, readTimeout: 0.2)
    } catch {
      fd = -1
      closed = true
      throw ReplayError("\(error)")
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
