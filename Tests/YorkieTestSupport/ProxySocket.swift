import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every descriptor ``FaultProxy`` holds open, so that a test can check that `stop()` closed
/// them all. Descriptors enter when they are created and leave just before they are closed.
final class DescriptorLedger: @unchecked Sendable {
  // Unchecked: `open` is only touched under `lock`.
  /// Guards `open`.
  private let lock = NSLock()
  /// The descriptors open now.
  private var open: Set<Int32> = []

  /// Records a descriptor that was just created.
  func adopt(_ fd: Int32) {
    lock.withLock { _ = open.insert(fd) }
  }

  /// Forgets `fd` and closes it (once: the caller owns it).
  func close(_ fd: Int32) {
    lock.withLock { _ = open.remove(fd) }
    ProxySocket.systemClose(fd)
  }

  /// The descriptors open now, in ascending order.
  var descriptors: [Int32] { lock.withLock { open.sorted() } }
}

/// A socket pair that wakes a thread blocked in `poll(2)`: other threads ``signal()``, the
/// sleeping thread polls ``readEnd`` and ``drain()``s it. Both ends are non-blocking, so a
/// signal never blocks (a full buffer already means "wake up").
final class WakeSignal: Sendable {
  /// The end the woken thread polls.
  let readEnd: Int32
  /// The end ``signal()`` writes to.
  private let writeEnd: Int32

  /// A new pair, recorded in `ledger`.
  init(ledger: DescriptorLedger) throws {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, ProxySocket.streamType, 0, &ends) == 0 else {
      throw TestSupportError(description: "socketpair: \(String(cString: strerror(errno)))")
    }
    for fd in ends {
      ledger.adopt(fd)
      ProxySocket.prepare(fd)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  /// Wakes the thread polling ``readEnd``. Its owner makes sure the pair is still open.
  func signal() {
    var byte: UInt8 = 1
    _ = send(writeEnd, &byte, 1, ProxySocket.sendFlags)
  }

  /// Reads every pending wake-up byte.
  func drain() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ recv(readEnd, $0.baseAddress, $0.count, 0) }) > 0 {}
  }

  /// Closes both ends (once, by the owner, when nobody signals any more).
  func close(ledger: DescriptorLedger) {
    ledger.close(readEnd)
    ledger.close(writeEnd)
  }
}

/// A resolved socket address (IPv4 or IPv6) to connect to.
struct SocketAddress: @unchecked Sendable {
  // Unchecked: a plain C value, never mutated after `init`.
  /// The address, in storage large enough for every family.
  private let storage: sockaddr_storage
  /// Its length.
  private let length: socklen_t

  /// The first address `getaddrinfo` gives for `host:port`.
  init(host: String, port: Int) throws {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = ProxySocket.plainStreamType
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw TestSupportError(description: "cannot resolve \(host):\(port): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    var storage = sockaddr_storage()
    let length = first.pointee.ai_addrlen
    // ai_addr points at `length` bytes; sockaddr_storage is large enough for any of them.
    withUnsafeMutableBytes(of: &storage) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(length)))
    }
    self.storage = storage
    self.length = length
  }

  /// The address family (`AF_INET` or `AF_INET6`).
  var family: Int32 { Int32(storage.ss_family) }

  /// Starts a connection of `fd` to this address: `connect(2)`'s result.
  func connect(_ fd: Int32) -> Int32 {
    var copy = storage
    return withUnsafePointer(to: &copy) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        #if canImport(Glibc)
          Glibc.connect(fd, address, length)
        #else
          Darwin.connect(fd, address, length)
        #endif
      }
    }
  }
}

/// The POSIX calls of ``FaultProxy``, the same on Glibc and Darwin.
enum ProxySocket {
  /// `SOCK_STREAM` as `socket(2)` takes it.
  static var plainStreamType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// `SOCK_STREAM`, with `SOCK_CLOEXEC` where it exists (a child process started by another
  /// test at the same moment must not inherit the socket and keep it alive).
  static var streamType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// `send(2)` flags: `MSG_NOSIGNAL` on Linux (Darwin sockets get `SO_NOSIGPIPE` instead).
  static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }

  /// The outcome of one `send` or `recv`.
  enum Transfer {
    /// This many bytes moved (0 from `recv` is end-of-file).
    case bytes(Int)
    /// The call would block.
    case wouldBlock
    /// The connection failed with this `errno`.
    case failed(Int32)
  }

  /// Makes `fd` non-blocking and close-on-exec; on Darwin also `SO_NOSIGPIPE`.
  static func prepare(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL, 0)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    let descriptorFlags = fcntl(fd, F_GETFD, 0)
    if descriptorFlags >= 0 { _ = fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) }
    #if !canImport(Glibc)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Turns Nagle's algorithm off on a TCP socket (small chunks go at once).
  static func noDelay(_ fd: Int32) {
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// A non-blocking listener on 127.0.0.1 with a port the kernel picks; its descriptor and port.
  static func listenOnLoopback(ledger: DescriptorLedger) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, streamType, 0)
    guard fd >= 0 else { throw failure("socket") }
    ledger.adopt(fd)
    prepare(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
    guard bound == 0 else {
      let error = failure("bind")
      ledger.close(fd)
      throw error
    }
    #if canImport(Glibc)
      let listening = Glibc.listen(fd, 128)
    #else
      let listening = Darwin.listen(fd, 128)
    #endif
    guard listening == 0 else {
      let error = failure("listen")
      ledger.close(fd)
      throw error
    }
    var actual = sockaddr_in()
    var length = size
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let error = failure("getsockname")
      ledger.close(fd)
      throw error
    }
    return (fd, Int(UInt16(bigEndian: actual.sin_port)))
  }

  /// Accepts one pending connection of a non-blocking listener (prepared and recorded), or nil
  /// when none is pending. `retryLater` is set when accept failed for a reason other than "none
  /// pending" (out of descriptors, say): the caller should pause instead of spinning.
  static func accept(_ listener: Int32, ledger: DescriptorLedger, retryLater: inout Bool) -> Int32? {
    while true {
      #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
      #else
        let fd = Darwin.accept(listener, nil, nil)
      #endif
      if fd >= 0 {
        ledger.adopt(fd)
        prepare(fd)
        noDelay(fd)
        return fd
      }
      if errno == EINTR || errno == ECONNABORTED { continue }
      retryLater = !(errno == EAGAIN || errno == EWOULDBLOCK)
      return nil
    }
  }

  /// A new non-blocking TCP socket of `family` (prepared and recorded), or nil.
  static func tcpSocket(family: Int32, ledger: DescriptorLedger) -> Int32? {
    let fd = socket(family, streamType, 0)
    guard fd >= 0 else { return nil }
    ledger.adopt(fd)
    prepare(fd)
    noDelay(fd)
    return fd
  }

  /// The pending error of a socket (`SO_ERROR`), 0 when none: how a non-blocking connect ended.
  static func pendingError(_ fd: Int32) -> Int32 {
    var code: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
    return code
  }

  /// Reads at most `buffer.count` bytes (recv gets `buffer`'s own storage and count).
  static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Transfer {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count >= 0 { return .bytes(count) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      return .failed(errno)
    }
  }

  /// Writes what it can of `bytes[offset...]` without raising `SIGPIPE` (the guard keeps
  /// `offset` inside the array, so the pointer handed to send stays in its storage).
  static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Transfer {
    guard offset >= 0 && offset < bytes.count else { return .bytes(0) }
    while true {
      let count = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, sendFlags)
        #else
          Darwin.send(fd, buffer.baseAddress! + offset, buffer.count - offset, sendFlags)
        #endif
      }
      if count >= 0 { return .bytes(count) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      return .failed(errno)
    }
  }

  /// Stops sending on `fd`: the peer reads end-of-file after what was already sent.
  static func shutdownWrite(_ fd: Int32) {
    #if canImport(Glibc)
      _ = shutdown(fd, Int32(SHUT_WR))
    #else
      _ = shutdown(fd, SHUT_WR)
    #endif
  }

  /// Makes the next close of `fd` send RST instead of FIN (`SO_LINGER` on, timeout 0).
  static func resetOnClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  /// `poll(2)` over `fds`; the number of ready descriptors, or -1 (`errno` says why).
  static func poll(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.poll(&fds, nfds_t(fds.count), timeout)
    #else
      Darwin.poll(&fds, nfds_t(fds.count), timeout)
    #endif
  }

  /// `close(2)`; only ``DescriptorLedger/close(_:)`` calls it.
  static func systemClose(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  /// The error of a failed `call`, with `errno`.
  static func failure(_ call: String) -> TestSupportError {
    TestSupportError(description: "\(call): \(String(cString: strerror(errno)))")
  }

  /// Milliseconds for a `poll` timeout, rounded up so that a deadline is never polled early.
  static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let total = seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond
    return Int32(clamping: max(0, total))
  }
}
