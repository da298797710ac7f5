import Foundation
import YorkieProtocol

/// Writes the replay's HTTP/1.1 requests to the server under test: exactly the recorded method,
/// path, header fields and body (Host and Content-Length added), one connection per call.
struct ReplayTransport: Sendable {
  /// The server's port on 127.0.0.1.
  let port: Int
  /// How long a unary call may take.
  var unaryTimeout: Double = 15

  /// Sends one unary call and waits for the whole response.
  func unary(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]?) throws -> ReplayHTTPResponse {
    let connection = try ReplayConnection(port: port)
    defer { connection.close() }
    try connection.send(request(method: method, path: path, headers: headers, body: body, closing: true))
    var parsed: ReplayHTTPResponse?
    var failure: Error?
    connection.wait(timeout: unaryTimeout) { bytes, eof in
      do {
        parsed = try ReplayHTTPResponse.parse(bytes, endOfFile: eof)
        return parsed?.isComplete ?? false
      } catch {
        failure = error
        return true
      }
    }
    if let failure { throw failure }
    guard let parsed, parsed.isComplete else {
      throw ReplayError("\(method) \(path): no complete response within \(unaryTimeout) s")
    }
    return parsed
  }

  /// A unary POST of JSON `body` with the usual Connect headers; returns the status and the
  /// parsed body (nil when empty or not JSON).
  func post(_ rpc: String, _ body: WireJSON) throws -> (status: Int, body: WireJSON?) {
    let response = try unary(
      method: "POST", path: "/yorkie.v1.YorkieService/\(rpc)",
      headers: [("Content-Type", "application/json"), ("Connect-Protocol-Version", "1")], body: body.bytes)
    return (response.status, try? WireJSON.parse(response.body))
  }

  /// Opens a server stream: sends the request with `message` in one envelope (flags 0) and
  /// returns the connection, whose reader keeps collecting the response.
  func openStream(path: String, headers: [(name: String, value: String)], message: [UInt8]) throws -> ReplayConnection {
    let connection = try ReplayConnection(port: port)
    let length = UInt32(message.count)
    let envelope = [0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + message
    do {
      try connection.send(request(method: "POST", path: path, headers: headers, body: envelope, closing: false))
    } catch {
      connection.close()
      throw error
    }
    return connection
  }

  /// The bytes of a request. `closing` asks the server to close the connection after the
  /// response (unary calls use one connection each).
  func request(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]?, closing: Bool) -> [UInt8] {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for (name, value) in headers where !["host", "content-length", "connection"].contains(name.lowercased()) {
      head += "\(name): \(value)\r\n"
    }
    if let body {
      head += "Content-Length: \(body.count)\r\n"
    } else if method == "POST" {
      head += "Content-Length: 0\r\n"
    }
    if closing { head += "Connection: close\r\n" }
    head += "\r\n"
    return Array(head.utf8) + (body ?? [])
  }
}
