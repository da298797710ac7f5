#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// `--verbose` only: one keep-alive HTTP/1.1 connection over a blocking socket, the floor that
/// the client's URLSession round trips are compared with. Unary POSTs with a Content-Length
/// answer only (what the development server sends); anything else is an error.
final class RawHTTPConnection {
  private let fd: Int32
  private var buffer: [UInt8] = []

  /// Connects to `host` (an IPv4 address) and `port`.
  init(host: String, port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(fd)
      throw BenchFailure("not an IPv4 address: \(host)")
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(fd)
      throw BenchFailure("connect: errno \(errno)")
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { close(fd) }

  /// POSTs `body` to `path` and returns the response body (any status).
  func post(_ path: String, headers: [(String, String)], body: [UInt8]) throws -> [UInt8] {
    var request = "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    var bytes = Array((request + "\r\n").utf8) + body
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeMutableBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, 0) }
      guard count > 0 else { throw BenchFailure("send: errno \(errno)") }
      sent += count
    }
    bytes = []
    // The head, then Content-Length bytes.
    var headEnd: Int?
    while headEnd == nil {
      try receive()
      headEnd = endOfHead()
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).lowercased()
    guard let lengthLine = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
      let length = Int(lengthLine.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    else { throw BenchFailure("an answer without Content-Length") }
    let total = headEnd! + 4 + length
    while buffer.count < total { try receive() }
    let answer = Array(buffer[(headEnd! + 4)..<total])
    buffer.removeFirst(total)
    return answer
  }

  private func endOfHead() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
      return index
    }
    return nil
  }

  private func receive() throws {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
    guard count > 0 else { throw BenchFailure("recv: \(count == 0 ? "closed" : "errno \(errno)")") }
    buffer += chunk[..<count]
  }
}
