import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP port on 127.0.0.1 that listens but never accepts: connections complete in the kernel's
/// backlog and requests get no answer, for timeout and cancellation tests. Nothing ever reads,
/// so no thread blocks.
final class SilentListener: Sendable {
  /// The listening socket.
  private let fd: Int32
  /// The bound port.
  let port: Int

  /// Binds a free port and listens.
  init() throws {
    #if canImport(Glibc)
      let socketType = Int32(SOCK_STREAM.rawValue)
    #else
      let socketType = SOCK_STREAM
    #endif
    let fd = socket(AF_INET, socketType, 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var actual = sockaddr_in()
    var length = size
    _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    self.fd = fd
    port = Int(UInt16(bigEndian: actual.sin_port))
  }

  /// The listener's base URL.
  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Closes the socket.
  deinit { close(fd) }
}
