import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the test client (with `errno` where there is one).
struct TestClientError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String
}

/// A response as the test client read it.
struct TestResponse {
  /// The status code.
  var status: Int
  /// The header fields, names lower-cased (the last value of a repeated name wins).
  var headers: [String: String]
  /// The body, de-chunked when it was chunked.
  var body: [UInt8]
  /// The body as UTF-8 text.
  var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small blocking HTTP/1.1 client over a raw TCP socket, for the socket tests: it writes bytes
/// exactly as given and reads responses incrementally. Every read times out after
/// `readTimeout` seconds, so a test that waits for bytes that never come fails instead of hanging.
final class TestHTTPClient {
  /// The connected socket.
  private let fd: Int32
  /// Bytes read and not yet consumed.
  private var buffer: [UInt8] = []
  /// Whether the socket is closed.
  private var closed = false

  /// Connects to `127.0.0.1:port`.
  init(port: Int, readTimeout: Double = 3) throws {
    do {
      fd = try connectToLoopback(port: port, readTimeout: readTimeout)
    } catch {
      // `deinit` may run for an initializer that throws: mark the socket closed so that it is
      // closed exactly once (a second close could hit another test's reused descriptor).
      fd = -1
      closed = true
      throw error
    }
  }

  deinit { close() }

  /// Writes all of `text`.
  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Writes all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
      #else
        let flags: Int32 = 0
      #endif
      let count = bytes.withUnsafeBytes { systemSend(fd, $0.baseAddress! + offset, $0.count - offset, flags) }
      guard count > 0 else { throw TestClientError(description: "send: \(String(cString: strerror(errno)))") }
      offset += count
    }
  }

  /// Reads more bytes into the buffer; `false` at end-of-file or on a reset.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 {
      buffer.append(contentsOf: chunk[0..<count])
      return true
    }
    if count == 0 || errno == ECONNRESET { return false }
    throw TestClientError(description: "recv: \(String(cString: strerror(errno)))")
  }

  /// Reads through the next CRLF and returns the line without it.
  func readLine() throws -> String {
    while true {
      if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
        let line = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        return line
      }
      guard try fill() else { throw TestClientError(description: "end of file before a line") }
    }
  }

  /// Reads exactly `count` bytes.
  func readBytes(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw TestClientError(description: "end of file before \(count) bytes") }
    }
    defer { buffer.removeFirst(count) }
    return Array(buffer[0..<count])
  }

  /// Reads a status line and header fields; returns the status and the fields.
  func readHead() throws -> (status: Int, headers: [String: String]) {
    let statusLine = try readLine()
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw TestClientError(description: "bad status line \(statusLine)") }
    var headers: [String: String] = [:]
    while true {
      let line = try readLine()
      if line.isEmpty { return (status, headers) }
      guard let colon = line.firstIndex(of: ":") else { throw TestClientError(description: "bad field \(line)") }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
  }

  /// Reads one chunk of a chunked body; `nil` for the last (empty) chunk and its final CRLF.
  func readChunk() throws -> [UInt8]? {
    let sizeLine = try readLine()
    guard let size = Int(sizeLine, radix: 16) else { throw TestClientError(description: "bad chunk size \(sizeLine)") }
    if size == 0 {
      _ = try readLine()
      return nil
    }
    let data = try readBytes(size)
    _ = try readBytes(2)
    return data
  }

  /// Reads one whole response (Content-Length or chunked body).
  func readResponse() throws -> TestResponse {
    let (status, headers) = try readHead()
    var body: [UInt8] = []
    if headers["transfer-encoding"] == "chunked" {
      while let chunk = try readChunk() { body += chunk }
    } else {
      body = try readBytes(Int(headers["content-length"] ?? "0") ?? 0)
    }
    return TestResponse(status: status, headers: headers, body: body)
  }

  /// Whether the server closed the connection: the next read finds end-of-file (or a reset)
  /// with no byte left unread.
  func readsEndOfFile() throws -> Bool {
    buffer.isEmpty ? !(try fill()) : false
  }

  /// Closes the socket (once).
  func close() {
    guard !closed else { return }
    closed = true
    systemClose(fd)
  }
}

/// `send(2)`, named apart from ``TestHTTPClient/send(_:)-swift.method``.
private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  #if canImport(Glibc)
    Glibc.send(fd, pointer, count, flags)
  #else
    Darwin.send(fd, pointer, count, flags)
  #endif
}

/// `close(2)`, named apart from ``TestHTTPClient/close()``.
private func systemClose(_ fd: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(fd)
  #else
    _ = Darwin.close(fd)
  #endif
}

/// A blocking TCP socket connected to `127.0.0.1:port`, whose reads give up after `readTimeout`
/// seconds (and which never raises SIGPIPE on Darwin). The caller owns the descriptor.
func connectToLoopback(port: Int, readTimeout: Double) throws -> Int32 {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard fd >= 0 else { throw TestClientError(description: "socket: \(errno)") }
  var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: .init((readTimeout - readTimeout.rounded(.down)) * 1e6))
  _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  #if !canImport(Glibc)
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
  #endif
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(port).bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  // The pointer is used only during the call, and `address` outlives it.
  let result = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  guard result == 0 else {
    let code = errno
    systemClose(fd)
    throw TestClientError(description: "connect to port \(port): \(String(cString: strerror(code)))")
  }
  return fd
}
