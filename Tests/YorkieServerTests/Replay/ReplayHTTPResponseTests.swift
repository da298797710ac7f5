import Foundation
import Testing

/// The replay's incremental response parsing: heads, chunked bodies cut anywhere, envelopes.
@Suite("Replay: HTTP response parsing")
struct ReplayHTTPResponseTests {
  @Test("no head yet, then a chunked stream body as it arrives")
  func chunkedStream() throws {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/connect+json\r\nTransfer-Encoding: chunked\r\n\r\n"
    let envelope: [UInt8] = [0, 0, 0, 0, 2] + Array("{}".utf8)
    let end: [UInt8] = [2, 0, 0, 0, 2] + Array("{}".utf8)
    let body = Array("7\r\n".utf8) + envelope + Array("\r\n".utf8) + Array("7\r\n".utf8) + end + Array("\r\n0\r\n\r\n".utf8)
    let all = Array(head.utf8) + body
    #expect(try ReplayHTTPResponse.parse(Array(all.prefix(20)), endOfFile: false) == nil)
    for cut in head.utf8.count..<all.count {
      let partial = try #require(try ReplayHTTPResponse.parse(Array(all.prefix(cut)), endOfFile: false))
      #expect(partial.status == 200 && partial.headers["content-type"] == "application/connect+json")
      #expect(!partial.isComplete)
      #expect(partial.envelopes.frames.count <= 2)
    }
    let whole = try #require(try ReplayHTTPResponse.parse(all, endOfFile: false))
    #expect(whole.isComplete)
    #expect(whole.envelopes.frames.map(\.flags) == [0, 2])
    #expect(!whole.envelopes.partial)
  }

  @Test("Content-Length bodies, and bodies delimited by the connection")
  func lengths() throws {
    let text = "HTTP/1.1 404 Not Found\r\nContent-Length: 19\r\n\r\n404 page not found\n"
    let response = try #require(try ReplayHTTPResponse.parse(Array(text.utf8), endOfFile: false))
    #expect(response.status == 404 && response.isComplete && String(decoding: response.body, as: UTF8.self) == "404 page not found\n")
    let open = "HTTP/1.1 200 OK\r\n\r\nabc"
    #expect(try ReplayHTTPResponse.parse(Array(open.utf8), endOfFile: false)?.isComplete == false)
    #expect(try ReplayHTTPResponse.parse(Array(open.utf8), endOfFile: true)?.isComplete == true)
    #expect(throws: ReplayError.self) { try ReplayHTTPResponse.parse(Array("HTTP/1.1 2".utf8), endOfFile: true) }
  }
}
