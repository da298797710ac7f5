import Testing

@testable import YorkieServer

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite("HTTP responses")
struct HTTPResponseTests {
  @Test("A head serializes to the exact status line, fields in order and empty line")
  func headBytes() {
    let head = HTTPResponseHead(status: .ok, headers: ["Content-Type": "application/json", "X-A": "1", "x-a": "2"])
    #expect(text(head.bytes) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\nx-a: 2\r\n\r\n")
    var output: [UInt8] = [0x41]
    head.write(into: &output)
    #expect(output == [0x41] + head.bytes)
    #expect(text(HTTPResponseHead(status: .notFound, version: .http1_0).bytes) == "HTTP/1.0 404 Not Found\r\n\r\n")
  }

  @Test("Every status the server uses has its standard reason phrase")
  func reasonPhrases() {
    let expected: [(HTTPStatus, Int, String)] = [
      (.continue, 100, "Continue"), (.ok, 200, "OK"), (.badRequest, 400, "Bad Request"), (.unauthorized, 401, "Unauthorized"),
      (.forbidden, 403, "Forbidden"), (.notFound, 404, "Not Found"), (.requestTimeout, 408, "Request Timeout"),
      (.contentTooLarge, 413, "Content Too Large"), (.unsupportedMediaType, 415, "Unsupported Media Type"),
      (.tooManyRequests, 429, "Too Many Requests"),
      (.requestHeaderFieldsTooLarge, 431, "Request Header Fields Too Large"),
      (.internalServerError, 500, "Internal Server Error"), (.notImplemented, 501, "Not Implemented"),
      (.serviceUnavailable, 503, "Service Unavailable"), (.httpVersionNotSupported, 505, "HTTP Version Not Supported"),
    ]
    for (status, code, phrase) in expected {
      #expect(status.code == code)
      #expect(status.reasonPhrase == phrase)
      #expect(HTTPStatus(code: code) == status)
      #expect(text(HTTPResponseHead(status: status).bytes) == "HTTP/1.1 \(code) \(phrase)\r\n\r\n")
    }
    #expect(HTTPStatus(code: 299).reasonPhrase == "")
    #expect(text(HTTPResponseHead(status: HTTPStatus(code: 299)).bytes) == "HTTP/1.1 299 \r\n\r\n")
    #expect(HTTPStatus.notFound.description == "404 Not Found")
  }

  @Test("A full response carries its Content-Length, replacing any given framing")
  func fullResponse() {
    let body = Array(#"{"status":"serving"}"#.utf8)
    let bytes = HTTPResponseHead.fullResponse(
      status: .ok, headers: ["Content-Type": "application/json", "content-length": "99", "Transfer-Encoding": "chunked"],
      body: body)
    // The given field keeps its place and spelling, with the right value.
    #expect(text(bytes) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 20\r\n\r\n{\"status\":\"serving\"}")
    #expect(text(HTTPResponseHead.fullResponse(status: .badRequest, close: true)) == "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    #expect(
      text(HTTPResponseHead.fullResponse(status: .ok, headers: ["connection": "keep-alive"], body: [0x61], close: true))
        == "HTTP/1.1 200 OK\r\nconnection: close\r\nContent-Length: 1\r\n\r\na")
  }

  @Test("A chunked response: head, chunks in hex sizes, the last chunk")
  func chunkedResponse() {
    #expect(
      text(HTTPChunkedResponse.head(status: .ok, headers: ["Content-Type": "application/connect+json", "Content-Length": "5"]))
        == "HTTP/1.1 200 OK\r\nContent-Type: application/connect+json\r\nTransfer-Encoding: chunked\r\n\r\n")
    #expect(text(HTTPChunkedResponse.chunk(Array("hello".utf8))) == "5\r\nhello\r\n")
    #expect(text(HTTPChunkedResponse.chunk([UInt8](repeating: 0x78, count: 26))) == "1a\r\n" + String(repeating: "x", count: 26) + "\r\n")
    #expect(HTTPChunkedResponse.chunk([UInt8](repeating: 0, count: 4096)).prefix(6) == Array("1000\r\n".utf8)[...])
    #expect(HTTPChunkedResponse.chunk([UInt8]()) == [])
    #expect(HTTPChunkedResponse.chunk(ArraySlice<UInt8>([1, 2])) == [0x32, 13, 10, 1, 2, 13, 10])
    #expect(text(HTTPChunkedResponse.end) == "0\r\n\r\n")
  }

  @Test("A streamed response reads back through a chunked decoder")
  func chunkedRoundTrip() throws {
    // The request parser de-chunks the same framing; reuse it as the decoder.
    var wire = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    var expected: [UInt8] = []
    for size in [1, 15, 16, 255, 256, 0, 4097] {
      let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      expected += piece
      wire += HTTPChunkedResponse.chunk(piece)
    }
    wire += HTTPChunkedResponse.end
    var parser = HTTPRequestParser()
    let output = parser.parse(wire)
    #expect(output.error == nil)
    #expect(output.requests.map(\.body) == [expected])
  }

  @Test("Serialization neutralizes CR, LF and control bytes so no field can be injected")
  func noInjection() {
    let head = HTTPResponseHead(
      status: HTTPStatus(code: 200, reasonPhrase: "OK\r\nX: y"),
      headers: ["Bad Name\r\n": "v\r\nSet-Cookie: a=b\u{0}", "Tab": "a\tb"])
    #expect(text(head.bytes) == "HTTP/1.1 200 OK  X: y\r\nBad_Name__: v  Set-Cookie: a=b \r\nTab: a\tb\r\n\r\n")
  }
}
