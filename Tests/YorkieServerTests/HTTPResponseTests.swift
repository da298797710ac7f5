import Testing

@testable import YorkieServer

@Suite("HTTP responses")
struct HTTPResponseTests {
  @Test("A head serializes to the exact status line, fields and empty line")
  func headBytes() {
    let head = HTTPResponseHead(status: .ok, headers: ["Content-Type": "application/json", "X-A": "1"])
    #expect(String(decoding: head.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: 1\r\n\r\n")
  }
}
