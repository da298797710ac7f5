#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// Where the server listens: host and port of an `http://` URL.
struct ServerAddress: Sendable {
  /// The host name or address.
  var host: String
  /// The TCP port.
  var port: Int

  /// The address of `url` (`http://127.0.0.1:8080`; port 80 when it has none).
  init(url: URL) throws(BenchError) {
    guard url.scheme == "http", let host = url.host, !host.isEmpty else {
      throw BenchError("--url must be http://HOST[:PORT], got \(url.absoluteString)")
    }
    self.host = host
    self.port = url.port ?? 80
  }
}

/// One keep-alive HTTP/1.1 connection with blocking I/O, for one thread: unary Connect calls
/// one after another, and at most once a server stream, which takes the socket over.
///
/// A failed call closes the socket; the next call connects again.
final class HTTPConnection {
  /// The server.
  let address: ServerAddress
  /// The socket, or -1 when not connected.
  private var fd: Int32 = -1
  /// Bytes received and not yet used, from `start` on.
  private var buffer: [UInt8] = []
  /// Where the unused bytes of `buffer` begin.
  private var start = 0

  /// A connection to `address`; it connects on its first call.
  init(address: ServerAddress) { self.address = address }

  /// Closes the socket, unless a stream took it over.
  deinit { closeSocket() }

  /// Calls the unary `YorkieService` method `rpc` with the JSON `body`.
  ///
  /// - Parameter shardKey: The `x-shard-key` routing key (document or client key), as the
  ///   official SDKs send it.
  /// - Returns: The response body of a `200`.
  /// - Throws: ``BenchError`` for any other status (with the body's start) or a broken connection.
  func call(_ rpc: String, shardKey: String, body: [UInt8]) throws(BenchError) -> [UInt8] {
    do throws(BenchError) {
      try sendRequest(rpc, shardKey: shardKey, contentType: "application/json", body: body)
      let head = try readHead()
      let response = try readBody(head)
      if head.headers["connection"]?.lowercased() == "close" { closeSocket() }
      guard head.status == 200 else {
        throw BenchError("\(rpc) -> \(head.status) \(String(decoding: response.prefix(300), as: UTF8.self))")
      }
      return response
    } catch {
      closeSocket()
      throw error
    }
  }

  /// Opens the server stream `rpc` with `envelope` (one Connect envelope) as the request body
  /// and hands the socket over: this connection is closed afterwards.
  ///
  /// - Returns: The socket, still blocking, and the body bytes already received after the head.
  /// - Throws: ``BenchError`` for a status other than `200`, a body that is not chunked, or a
  ///   broken connection.
  func openStream(_ rpc: String, shardKey: String, envelope: [UInt8]) throws(BenchError) -> (fd: Int32, received: [UInt8]) {
    defer { closeSocket() }
    try sendRequest(rpc, shardKey: shardKey, contentType: "application/connect+json", body: envelope)
    let head = try readHead()
    guard head.status == 200 else {
      let body = (try? readBody(head)) ?? []
      throw BenchError("\(rpc) -> \(head.status) \(String(decoding: body.prefix(300), as: UTF8.self))")
    }
    guard head.headers["transfer-encoding"]?.lowercased() == "chunked" else {
      throw BenchError("\(rpc): the stream's body is not chunked")
    }
    let stream = (fd, Array(buffer[start...]))
    fd = -1
    return stream
  }

  /// Connects when needed and sends one request.
  private func sendRequest(_ rpc: String, shardKey: String, contentType: String, body: [UInt8]) throws(BenchError) {
    if fd < 0 { try openSocket() }
    var request = Array("""
      POST /yorkie.v1.YorkieService/\(rpc) HTTP/1.1\r
      Host: \(address.host):\(address.port)\r
      Content-Type: \(contentType)\r
      Connect-Protocol-Version: 1\r
      x-shard-key: /\(shardKey)\r
      Content-Length: \(body.count)\r
      \r

      """.utf8)
    request.append(contentsOf: body)
    var sent = 0
    while sent < request.count {
      let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw BenchError.system("send") }
      sent += n
    }
  }

  /// Opens the socket: `TCP_NODELAY`, a 30 s receive timeout (as server-load.py's).
  private func openSocket() throws(BenchError) {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamSocketType
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(address.host, String(address.port), &hints, &list)
    guard status == 0, let first = list else {
      throw BenchError("getaddrinfo \(address.host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    let newFD = socket(first.pointee.ai_family, streamSocketType, 0)
    guard newFD >= 0 else { throw BenchError.system("socket") }
    guard connect(newFD, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
      let error = BenchError.system("connect to \(address.host):\(address.port)")
      close(newFD)
      throw error
    }
    var one: Int32 = 1
    _ = setsockopt(newFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    _ = setsockopt(newFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    fd = newFD
    buffer.removeAll(keepingCapacity: true)
    start = 0
  }

  /// Closes the socket, if open.
  private func closeSocket() {
    if fd >= 0 { close(fd) }
    fd = -1
  }

  /// Receives more bytes into `buffer` (blocking).
  private func receive() throws(BenchError) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw BenchError.system("recv") }
      guard n > 0 else { throw BenchError("the server closed the connection") }
      buffer.append(contentsOf: chunk[..<n])
      return
    }
  }

  /// A response's status and headers (names lowercased).
  private struct Head {
    /// The status code.
    var status: Int
    /// The headers by lowercased name.
    var headers: [String: String]
  }

  /// Reads the status line and headers.
  private func readHead() throws(BenchError) -> Head {
    let end: Int
    while true {
      if let found = headEnd() {
        end = found
        break
      }
      guard buffer.count - start < 64 * 1024 else { throw BenchError("a response head of more than 64 KiB") }
      try receive()
    }
    let lines = String(decoding: buffer[start..<end], as: UTF8.self).components(separatedBy: "\r\n")
    start = end + 4
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
      throw BenchError("bad status line \"\(lines[0])\"")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Head(status: status, headers: headers)
  }

  /// Where the `\r\n\r\n` ending the head starts in `buffer`, if received.
  private func headEnd() -> Int? {
    var i = start
    while i + 3 < buffer.count {
      if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
      i += 1
    }
    return nil
  }

  /// Reads the body that `head` announces: `Content-Length` bytes, or a chunked body.
  private func readBody(_ head: Head) throws(BenchError) -> [UInt8] {
    if let lengthText = head.headers["content-length"] {
      guard let length = Int(lengthText), length >= 0 else { throw BenchError("bad Content-Length \(lengthText)") }
      while buffer.count - start < length { try receive() }
      defer { start += length }
      return Array(buffer[start..<start + length])
    }
    guard head.headers["transfer-encoding"]?.lowercased() == "chunked" else {
      throw BenchError("a response with neither Content-Length nor chunked encoding")
    }
    var decoder = ChunkedDecoder()
    var body: [UInt8] = []
    while true {
      start += try decoder.feed(buffer[start...], into: &body)
      if decoder.isFinished { return body }
      try receive()
    }
  }
}
