import CRDT
import Foundation
import YorkieProtocol
@testable import YorkieServer

/// Runs blocking socket work on a thread of its own, so that a test waiting for the server never
/// occupies a thread of the Swift concurrency pool the server's own tasks need (nor one of
/// Dispatch's global queues, which Linux caps at the number of cores).
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// The answer to a unary Connect call.
struct ConnectAnswer: Sendable {
  /// The HTTP status.
  var status: Int
  /// The header fields, names lower-cased.
  var headers: [String: String]
  /// The body, parsed as JSON when it is JSON.
  var json: WireJSON?
  /// The body as text.
  var text: String

  /// The Connect error of an error answer.
  var error: ConnectError? { json.flatMap { try? ConnectError(json: $0, path: "error") } }
  /// The ErrorInfo metadata code of an error answer.
  var errorCode: String? { error?.details.first?.errorInfo?.metadata["code"] }
}

/// A Connect + JSON client for the tests: real HTTP over a TCP socket to an in-process
/// ``YorkieDevServer``, one connection per call.
struct ConnectTestClient: Sendable {
  /// The server's port.
  var port: Int
  /// Extra header fields sent with every call (`x-api-key`, `authorization`).
  var headers: [String: String] = [:]

  /// A client of the server at `url`.
  init(_ url: URL, headers: [String: String] = [:]) {
    self.port = url.port!
    self.headers = headers
  }

  /// POSTs `body` to `method` as a unary call.
  func call(_ method: String, _ body: [UInt8], contentType: String = "application/json", extra: [String: String] = [:]) async throws -> ConnectAnswer {
    let (port, fields) = (self.port, headers.merging(extra) { $1 })
    return try await offPool {
      let http = try TestHTTPClient(port: port, readTimeout: 10)
      defer { http.close() }
      var head = "POST /yorkie.v1.YorkieService/\(method) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\n"
      if fields["Connect-Protocol-Version"] == nil { head += "Connect-Protocol-Version: 1\r\n" }
      head += "Content-Length: \(body.count)\r\n"
      for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
      try http.send(Array((head + "\r\n").utf8) + body)
      let response: TestResponse
      do {
        response = try http.readResponse()
      } catch {
        throw TestClientError(description: "\(method): \(error) (request \(String(decoding: body.prefix(300), as: UTF8.self)))")
      }
      return ConnectAnswer(
        status: response.status, headers: response.headers, json: try? WireJSON.parse(response.body), text: response.text)
    }
  }

  /// Calls `method` with `request` and decodes the success answer as `Response`.
  func call<Response: WireMessage>(_ method: String, _ request: some WireMessage, as: Response.Type) async throws -> Response {
    let answer = try await call(method, request.json.bytes)
    guard answer.status == 200, let json = answer.json else {
      throw TestClientError(description: "\(method) answered \(answer.status): \(answer.text)")
    }
    return try Response(json: json, path: method)
  }

  /// Opens a server stream on `method` with `request`.
  func stream(_ method: String, _ request: some WireMessage, extra: [String: String] = [:]) async throws -> TestStream {
    let body = ConnectEnvelope(message: request).bytes
    let (port, fields) = (self.port, headers.merging(extra) { $1 })
    return try await offPool {
      let http = try TestHTTPClient(port: port, readTimeout: 5)
      var head = "POST /yorkie.v1.YorkieService/\(method) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/connect+json\r\n"
      head += "Connect-Protocol-Version: 1\r\nContent-Length: \(body.count)\r\n"
      for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
      try http.send(Array((head + "\r\n").utf8) + body)
      let (status, headers) = try http.readHead()
      return TestStream(http: http, status: status, contentType: headers["content-type"])
    }
  }
}

/// An open server stream as the tests read it: envelopes cut from the chunked body.
final class TestStream: @unchecked Sendable {
  // Unchecked: used by one test at a time, every access through `lock`.
  /// The connection.
  private let http: TestHTTPClient
  /// Serializes reads.
  private let lock = NSLock()
  /// Cuts envelopes.
  private var decoder = ConnectEnvelopeDecoder()
  /// Envelopes cut and not yet returned.
  private var pending: [ConnectEnvelope] = []
  /// The HTTP status of the stream.
  let status: Int
  /// Its content type.
  let contentType: String?

  /// A stream over `http` whose head was read.
  init(http: TestHTTPClient, status: Int, contentType: String?) {
    self.http = http
    self.status = status
    self.contentType = contentType
  }

  /// The next envelope, or `nil` when the body ended; throws when nothing comes within the
  /// client's read timeout.
  func next() async throws -> ConnectEnvelope? {
    try await offPool { try self.nextBlocking() }
  }

  /// The next envelope's JSON (an end-of-stream envelope included).
  func nextJSON() async throws -> WireJSON? {
    guard let envelope = try await next() else { return nil }
    return try WireJSON.parse(envelope.payload)
  }

  /// Reads until an envelope is complete.
  private func nextBlocking() throws -> ConnectEnvelope? {
    lock.lock()
    defer { lock.unlock() }
    while pending.isEmpty {
      guard let chunk = try http.readChunk() else { return nil }
      pending += try decoder.feed(chunk)
    }
    return pending.removeFirst()
  }

  /// Closes the connection (the server sees the peer leave).
  func close() { http.close() }
}
