import Foundation
import Testing

@testable import YorkieServer

/// Parses `wire` in one chunk with a fresh parser.
func parseWhole(_ wire: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Output {
  var parser = HTTPRequestParser(limits: limits)
  return parser.parse(Array(wire.utf8))
}

/// Parses `wire` one byte at a time with a fresh parser.
func parseBytewise(_ wire: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Output {
  var parser = HTTPRequestParser(limits: limits)
  var output = HTTPRequestParser.Output(requests: [], error: nil)
  for byte in wire {
    let step = parser.parse([byte])
    output.requests += step.requests
    if let error = step.error {
      output.error = error
      break
    }
  }
  return output
}

@Suite("HTTP request parser: features")
struct HTTPRequestParserFeatureTests {
  @Test("A GET: method, target, path, query, version, headers, empty body, keep-alive")
  func simpleGet() throws {
    let output = parseWhole("GET /yorkie.v1.YorkieService/health?x=1&y HTTP/1.1\r\nHost: localhost:8080\r\nAccept: */*\r\nX-Empty:\r\n\r\n")
    #expect(output.error == nil)
    let request = try #require(output.requests.first)
    #expect(output.requests.count == 1)
    #expect(request.method == "GET")
    #expect(request.target == "/yorkie.v1.YorkieService/health?x=1&y")
    #expect(request.path == "/yorkie.v1.YorkieService/health")
    #expect(request.query == "x=1&y")
    #expect(request.version == .http1_1)
    #expect(request.headers.fields == [
      HTTPHeaderField(name: "Host", value: "localhost:8080"), HTTPHeaderField(name: "Accept", value: "*/*"),
      HTTPHeaderField(name: "X-Empty", value: ""),
    ])
    #expect(request.body.isEmpty)
    #expect(request.trailers.isEmpty)
    #expect(request.keepAlive)
    #expect(HTTPRequest(method: "GET", target: "/a").query == nil)
    #expect(HTTPRequest(method: "GET", target: "/a?").query == "")
  }

  @Test("Header lookup ignores case and keeps order and duplicates; values lose surrounding whitespace")
  func headerLookup() throws {
    let output = parseWhole("GET / HTTP/1.1\r\nhost: h\r\nX-Multi: a\r\nx-multi:   b , c\t \r\nX-MULTI:\td\r\n\r\n")
    let headers = try #require(output.requests.first).headers
    #expect(headers["HOST"] == "h")
    #expect(headers["x-multi"] == "a")
    #expect(headers.values(for: "X-Multi") == ["a", "b , c", "d"])
    #expect(headers.tokens(for: "x-multi") == ["a", "b", "c", "d"])
    #expect(headers.contains(name: "X-mUlTi"))
    #expect(!headers.contains(name: "x-multi2"))
    #expect(headers["missing"] == nil)
    #expect(headers.count == 4)
    var copy = headers
    copy.replaceOrAppend(name: "X-MULTI", value: "z")
    #expect(copy.fields.map(\.value) == ["h", "z"])
    copy.remove(name: "HOST")
    #expect(copy.fields == [HTTPHeaderField(name: "X-Multi", value: "z")])
  }

  @Test("A Content-Length body")
  func contentLengthBody() throws {
    let output = parseWhole("POST /a HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":\"b\\r\\n\"}")
    #expect(output.error == nil)
    #expect(try #require(output.requests.first).body == Array("{\"a\":\"b\\r\\n\"}".utf8))
    // Identical repeated values, as a list or as fields, are one length.
    let repeated = parseWhole("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\ncontent-length: 3\r\n\r\nabc")
    #expect(repeated.error == nil)
    #expect(repeated.requests.map(\.body) == [Array("abc".utf8)])
    let zero = parseWhole("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
    #expect(zero.requests.map(\.body) == [[]])
    let leadingZeros = parseWhole("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 000000000000000000000000000002\r\n\r\nab")
    #expect(leadingZeros.requests.map(\.body) == [Array("ab".utf8)])
  }

  @Test("A chunked body with chunk extensions and trailers")
  func chunkedBody() throws {
    let wire =
      "POST /s HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n"
      + "5;name=value;quoted=\"a b\"\r\nhello\r\n" + "1A \t; ext\r\n" + String(repeating: "z", count: 26) + "\r\n"
      + "00000000000000000000000000001\r\n!\r\n" + "0;last\r\nX-Checksum: abc\r\nX-Other:  1 \r\n\r\n"
    let output = parseWhole(wire)
    #expect(output.error == nil)
    let request = try #require(output.requests.first)
    #expect(request.body == Array(("hello" + String(repeating: "z", count: 26) + "!").utf8))
    #expect(request.trailers.fields == [HTTPHeaderField(name: "X-Checksum", value: "abc"), HTTPHeaderField(name: "X-Other", value: "1")])
    #expect(request.headers["transfer-encoding"] == "Chunked")
    let empty = parseWhole("POST /s HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    #expect(empty.requests.map(\.body) == [[]])
    #expect(empty.requests.first?.trailers.isEmpty == true)
    // Empty list elements are allowed around the single coding.
    #expect(parseWhole("POST /s HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , chunked,\r\n\r\n0\r\n\r\n").error == nil)
  }

  @Test("Keep-alive: HTTP/1.1 unless Connection: close, HTTP/1.0 only with Connection: keep-alive")
  func keepAlive() {
    func keepAlive(_ version: String, _ connection: String?) -> Bool? {
      let field = connection.map { "Connection: \($0)\r\n" } ?? ""
      return parseWhole("GET / \(version)\r\nHost: h\r\n\(field)\r\n").requests.first?.keepAlive
    }
    #expect(keepAlive("HTTP/1.1", nil) == true)
    #expect(keepAlive("HTTP/1.1", "close") == false)
    #expect(keepAlive("HTTP/1.1", "Upgrade, CLOSE") == false)
    #expect(keepAlive("HTTP/1.1", "keep-alive") == true)
    #expect(keepAlive("HTTP/1.0", nil) == false)
    #expect(keepAlive("HTTP/1.0", "Keep-Alive") == true)
    #expect(keepAlive("HTTP/1.0", "keep-alive, close") == false)
    #expect(keepAlive("HTTP/1.0", "close") == false)
    // HTTP/1.0 needs no Host.
    let old = parseWhole("GET / HTTP/1.0\r\n\r\n")
    #expect(old.error == nil)
    #expect(old.requests.first?.version == .http1_0)
  }

  @Test("Pipelined requests in one chunk come out in order")
  func pipelined() {
    let wire =
      "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n" + "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nab"
      + "POST /3 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\ncd\r\n0\r\n\r\n" + "DELETE /4 HTTP/1.1\r\nHost: h\r\n\r\n"
    let output = parseWhole(wire)
    #expect(output.error == nil)
    #expect(output.requests.map(\.target) == ["/1", "/2", "/3", "/4"])
    #expect(output.requests.map(\.method) == ["GET", "POST", "POST", "DELETE"])
    #expect(output.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["", "ab", "cd", ""])
  }

  @Test("Empty lines before a request line are ignored")
  func leadingEmptyLines() {
    let output = parseWhole("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
    #expect(output.error == nil)
    #expect(output.requests.count == 1)
  }

  @Test("After a request that closes the connection, the rest is ignored")
  func closedAfterClose() {
    var parser = HTTPRequestParser()
    let output = parser.parse(Array("GET /1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    #expect(output.requests.map(\.target) == ["/1"])
    #expect(output.error == nil)
    #expect(parser.isClosed)
    #expect(!parser.hasPartialRequest)
    #expect(parser.parse(Array("garbage\r\n\r\n".utf8)) == HTTPRequestParser.Output(requests: [], error: nil))
  }

  @Test("hasPartialRequest tells idle from mid-request")
  func partialRequest() throws {
    var parser = HTTPRequestParser()
    #expect(!parser.hasPartialRequest)
    parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\na".utf8))
    #expect(try parser.next() == nil)
    #expect(parser.hasPartialRequest)
    parser.append([0x62, 0x63])
    #expect(try parser.next()?.body == [0x61, 0x62, 0x63])
    #expect(!parser.hasPartialRequest)
    #expect(try parser.next() == nil)
    parser.append([0x47])
    #expect(parser.hasPartialRequest)
    #expect(!parser.isClosed)
    #expect(parser.error == nil)
  }

  @Test("Any byte sequence type can be appended")
  func inputTypes() throws {
    let wire = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
    var parser = HTTPRequestParser()
    parser.append(wire[0..<5])
    parser.append(ContiguousArray(wire[5..<10]))
    parser.append(wire[10...].map { $0 })
    #expect(try parser.next()?.target == "/")
    var fromString = HTTPRequestParser()
    fromString.append("GET /s HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
    #expect(try fromString.next()?.target == "/s")
    var fromData = HTTPRequestParser()
    let data = Data("POST /d HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi".utf8)
    fromData.append(data.prefix(10))
    fromData.append(data.dropFirst(10))
    #expect(try fromData.next()?.body == Array("hi".utf8))
  }

  @Test("Large bodies in many chunks, and a body exactly at the limit")
  func largeBodies() throws {
    let limits = HTTPRequestParser.Limits(maxBodyBytes: 100_000)
    let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
    var wire = Array("PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n".utf8) + body
    var parser = HTTPRequestParser(limits: limits)
    var requests: [HTTPRequest] = []
    for start in stride(from: 0, to: wire.count, by: 1000) {
      requests += parser.parse(wire[start..<min(start + 1000, wire.count)]).requests
    }
    #expect(requests.map(\.body) == [body])
    wire = Array("PUT /big HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    for start in stride(from: 0, to: body.count, by: 7000) {
      wire += HTTPChunkedResponse.chunk(body[start..<min(start + 7000, body.count)])
    }
    wire += HTTPChunkedResponse.end
    var chunked = HTTPRequestParser(limits: limits)
    #expect(chunked.parse(wire).requests.map(\.body) == [body])
  }

  @Test("Default limits")
  func defaults() {
    let limits = HTTPRequestParser.Limits()
    #expect(limits.maxHeaderBytes == 16 * 1024)
    #expect(limits.maxHeaderCount == 100)
    #expect(limits.maxBodyBytes == 12 * 1024 * 1024)
    #expect(limits.maxChunkLineBytes == 4 * 1024)
  }
}

@Suite("HTTP request parser: Expect: 100-continue")
struct HTTPRequestParserContinueTests {
  @Test("A request that expects 100-continue asks for it once, before its body")
  func asksOnce() throws {
    var parser = HTTPRequestParser()
    #expect(parser.parse(Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8)).requests.isEmpty)
    #expect(parser.expectsContinue)
    let first = parser.takeContinueRequest()
    #expect(first)
    #expect(!parser.expectsContinue)
    let second = parser.takeContinueRequest()
    #expect(!second)
    #expect(parser.parse(Array("ok".utf8)).requests.map(\.body) == [Array("ok".utf8)])
    let third = parser.takeContinueRequest()
    #expect(!third)
    #expect(String(decoding: HTTPResponseHead.continueResponse, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
  }

  @Test("Chunked bodies ask too; complete requests, bodiless ones, HTTP/1.0 and refused bodies do not")
  func whenNotAsked() {
    func asks(_ wire: String, limits: HTTPRequestParser.Limits = .init()) -> Bool {
      var parser = HTTPRequestParser(limits: limits)
      _ = parser.parse(Array(wire.utf8))
      return parser.takeContinueRequest()
    }
    #expect(asks("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"))
    #expect(!asks("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx"))
    #expect(!asks("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n"))
    #expect(!asks("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"))
    #expect(!asks("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n"))
    #expect(!asks("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n", limits: .init(maxBodyBytes: 10)))
  }
}
