#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call of the socket layer: which call, and `errno`.
package struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The system call that failed (`"bind"`, `"getaddrinfo"`, …).
  package var call: String
  /// `errno` after the failure (for `getaddrinfo`, its own error code).
  package var code: Int32

  /// The error of `call` with the current `errno`.
  static func current(_ call: String) -> SocketError { SocketError(call: call, code: errno) }

  /// `"bind: Address already in use"`.
  package var description: String {
    if call == "getaddrinfo" { return "\(call): \(String(cString: gai_strerror(code)))" }
    return "\(call): \(String(cString: strerror(code)))"
  }
}

/// The few POSIX socket calls the server makes, the same on Glibc and Darwin.
///
/// File descriptors are plain `Int32`s; whoever receives one from these functions owns it and must
/// ``close(_:)`` it exactly once (see ``EventLoop`` for who owns what).
package enum Socket {
  /// The outcome of a non-blocking read or write.
  package enum IOResult: Equatable, Sendable {
    /// This many bytes were transferred (for a read, more than zero).
    case bytes(Int)
    /// The call would block: wait for `poll` to report the descriptor ready.
    case wouldBlock
    /// The peer closed its side (a read returned 0).
    case endOfFile
    /// The connection failed (reset, broken pipe, …) with this `errno`.
    case failed(Int32)
  }

  /// `SOCK_STREAM` as the `Int32` that `socket(2)` takes on this platform.
  private static var streamType: Int32 {
    #if canImport(Glibc)
      Int32(SOCK_STREAM.rawValue)
    #else
      SOCK_STREAM
    #endif
  }

  /// The flags for `send(2)`: `MSG_NOSIGNAL` on Linux, so a dead peer gives `EPIPE` instead of
  /// `SIGPIPE`. Darwin has no such flag; its sockets get `SO_NOSIGPIPE` instead.
  private static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_NOSIGNAL)
    #else
      0
    #endif
  }

  /// A non-blocking listening TCP socket bound to `host:port` (`port` 0 picks a free port) with
  /// `SO_REUSEADDR`; returns its descriptor and the port it is bound to. `host` is resolved with
  /// `getaddrinfo` (numeric addresses and names such as `localhost`); the first address is used.
  package static func listen(host: String, port: Int, backlog: Int32 = 512) throws(SocketError) -> (fd: Int32, port: Int) {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    hints.ai_flags = AI_PASSIVE
    // The C interface has no safe form. `list` is owned by getaddrinfo's allocation: read only
    // through `first` before the deferred freeaddrinfo, and never stored.
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else { throw SocketError(call: "getaddrinfo", code: status) }
    defer { freeaddrinfo(list) }
    let fd = socket(first.pointee.ai_family, streamType, 0)
    guard fd >= 0 else { throw SocketError.current("socket") }
    do throws(SocketError) {
      var one: Int32 = 1
      guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
        throw SocketError.current("setsockopt(SO_REUSEADDR)")
      }
      guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { throw SocketError.current("bind") }
      guard systemListen(fd, backlog) == 0 else { throw SocketError.current("listen") }
      try setNonBlocking(fd)
      return (fd, try boundPort(fd))
    } catch {
      close(fd)
      throw error
    }
  }

  /// `listen(2)`, named apart from ``listen(host:port:backlog:)``.
  private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.listen(fd, backlog)
    #else
      Darwin.listen(fd, backlog)
    #endif
  }

  /// The local port of a bound socket.
  ///
  /// The pointers exist only for the C calls: `sockaddr_storage` is large and aligned enough for
  /// every address family, `length` tells getsockname its size, and the storage is read as the
  /// family's own struct (`sockaddr_in` / `sockaddr_in6`) only after checking `ss_family`.
  private static func boundPort(_ fd: Int32) throws(SocketError) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw SocketError.current("getsockname") }
    let family = Int32(storage.ss_family)
    return withUnsafePointer(to: &storage) { pointer -> Int in
      if family == AF_INET6 {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
    }
  }

  /// Accepts one pending connection from a non-blocking listener and prepares it: non-blocking,
  /// `TCP_NODELAY`, and on Darwin `SO_NOSIGPIPE`. `nil` when none is pending (or on a transient
  /// error such as `ECONNABORTED` or `EMFILE`).
  package static func accept(_ listener: Int32) -> Int32? {
    while true {
      #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
      #else
        let fd = Darwin.accept(listener, nil, nil)
      #endif
      if fd < 0 {
        if errno == EINTR { continue }
        return nil
      }
      var one: Int32 = 1
      _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      #if !canImport(Glibc)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      do {
        try setNonBlocking(fd)
      } catch {
        close(fd)
        continue
      }
      return fd
    }
  }

  /// Sets `O_NONBLOCK` on `fd`.
  package static func setNonBlocking(_ fd: Int32) throws(SocketError) {
    let flags = fcntl(fd, F_GETFL, 0)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SocketError.current("fcntl(O_NONBLOCK)") }
  }

  /// Reads at most `buffer.count` bytes from a non-blocking descriptor into `buffer` (`recv` is
  /// given `buffer`'s own storage and its count, so it cannot write past it).
  package static func read(_ fd: Int32, into buffer: inout [UInt8]) -> IOResult {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfFile }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      return .failed(errno)
    }
  }

  /// Writes what it can of `bytes[offset...]` to a non-blocking socket, without ever raising
  /// `SIGPIPE`.
  ///
  /// The unsafe buffer handed to `send` is `bytes`' own storage, from `offset` to its end: the
  /// guard keeps `offset` inside it (and the buffer non-empty, so its base address exists).
  package static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> IOResult {
    guard offset >= 0 && offset < bytes.count else { return .bytes(0) }
    while true {
      let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, sendFlags) }
      if count >= 0 { return .bytes(count) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
      return .failed(errno)
    }
  }

  /// Stops sending on a connection (`shutdown(SHUT_WR)`): the peer reads end-of-file after the
  /// bytes already sent, while this side can still read.
  package static func shutdownWrite(_ fd: Int32) {
    #if canImport(Glibc)
      _ = shutdown(fd, Int32(SHUT_WR))
    #else
      _ = shutdown(fd, SHUT_WR)
    #endif
  }

  /// Closes `fd`. Called exactly once per descriptor, by its owner.
  package static func close(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }
}
