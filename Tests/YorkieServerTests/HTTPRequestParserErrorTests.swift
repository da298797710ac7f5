import Testing

@testable import YorkieServer

/// One malformed or hostile input, the error it must give, and that error's status code.
struct BadInput: Sendable, CustomTestStringConvertible {
  var name: String
  var wire: String
  var error: HTTPParseError
  var status: Int
  var limits = HTTPRequestParser.Limits()
  var testDescription: String { name }
}

private let host = "Host: h\r\n"
private let smallLimits = HTTPRequestParser.Limits(maxHeaderBytes: 64, maxHeaderCount: 3, maxBodyBytes: 10, maxChunkLineBytes: 16)

let badInputs: [BadInput] = [
  // 400: the request line.
  BadInput(name: "no spaces", wire: "GET\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "no version", wire: "GET /\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "double space", wire: "GET  / HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "trailing space", wire: "GET / HTTP/1.1 \r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "space in target", wire: "GET /a b HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "empty method", wire: " / HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "method with separator", wire: "GE(T / HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "control byte in target", wire: "GET /\u{7f} HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "non-ASCII target", wire: "GET /é HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "lower-case protocol", wire: "GET / http/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "version without minor", wire: "GET / HTTP/2\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "version with two digits", wire: "GET / HTTP/1.10\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "bare LF after request line", wire: "GET / HTTP/1.1\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "bare LF empty line", wire: "\nGET / HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  BadInput(name: "CR inside request line", wire: "GET /\r HTTP/1.1\r\n\r\n", error: .malformedRequestLine, status: 400),
  // 505.
  BadInput(name: "HTTP/2.0", wire: "GET / HTTP/2.0\r\n\r\n", error: .unsupportedVersion, status: 505),
  BadInput(name: "HTTP/1.2", wire: "GET / HTTP/1.2\r\n\r\n", error: .unsupportedVersion, status: 505),
  BadInput(name: "HTTP/0.9", wire: "GET / HTTP/0.9\r\n\r\n", error: .unsupportedVersion, status: 505),
  // 400: header syntax.
  BadInput(name: "no colon", wire: "GET / HTTP/1.1\r\nHost h\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "space before colon", wire: "GET / HTTP/1.1\r\nHost : h\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "empty name", wire: "GET / HTTP/1.1\r\n: h\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "obsolete folding", wire: "GET / HTTP/1.1\r\n\(host)X: a\r\n b\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "bare LF in headers", wire: "GET / HTTP/1.1\r\n\(host)X: a\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "CR in value", wire: "GET / HTTP/1.1\r\n\(host)X: a\rb\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "NUL in value", wire: "GET / HTTP/1.1\r\n\(host)X: a\u{0}b\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "missing Host", wire: "GET / HTTP/1.1\r\nX: a\r\n\r\n", error: .missingOrDuplicateHost, status: 400),
  BadInput(name: "two Hosts", wire: "GET / HTTP/1.1\r\n\(host)\(host)\r\n", error: .missingOrDuplicateHost, status: 400),
  // 400: framing.
  BadInput(name: "Content-Length not a number", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 1a\r\n\r\n", error: .invalidContentLength, status: 400),
  BadInput(name: "negative Content-Length", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", error: .invalidContentLength, status: 400),
  BadInput(name: "signed Content-Length", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: +1\r\n\r\n", error: .invalidContentLength, status: 400),
  BadInput(name: "empty Content-Length", wire: "POST / HTTP/1.1\r\n\(host)Content-Length:\r\n\r\n", error: .invalidContentLength, status: 400),
  BadInput(name: "empty Content-Length element", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 1,\r\n\r\n", error: .invalidContentLength, status: 400),
  BadInput(name: "conflicting Content-Length fields", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 2\r\n\r\n", error: .conflictingContentLength, status: 400),
  BadInput(name: "conflicting Content-Length list", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 1, 2\r\n\r\n", error: .conflictingContentLength, status: 400),
  BadInput(name: "Content-Length and Transfer-Encoding", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", error: .contentLengthWithTransferEncoding, status: 400),
  BadInput(name: "Transfer-Encoding and Content-Length", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n", error: .contentLengthWithTransferEncoding, status: 400),
  BadInput(name: "chunked twice", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked, chunked\r\n\r\n", error: .invalidTransferEncoding, status: 400),
  BadInput(name: "empty Transfer-Encoding", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: \r\n\r\n", error: .invalidTransferEncoding, status: 400),
  BadInput(name: "Transfer-Encoding in HTTP/1.0", wire: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", error: .invalidTransferEncoding, status: 400),
  BadInput(name: "chunk size not hex", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nzz\r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk size missing", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n;ext\r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk size negative", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n-1\r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk size with 0x", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0x5\r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk size then space", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5 \r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk extension with control byte", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5;a\u{1}\r\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk size line ends in bare LF", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\n", error: .invalidChunkSize, status: 400),
  BadInput(name: "chunk data longer than its size", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", error: .invalidChunkTerminator, status: 400),
  BadInput(name: "chunk data followed by bare LF", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1\r\na\n", error: .invalidChunkTerminator, status: 400),
  BadInput(name: "chunk data followed by CR only", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1\r\na\rx", error: .invalidChunkTerminator, status: 400),
  BadInput(name: "bad trailer", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", error: .malformedHeader, status: 400),
  BadInput(name: "chunk-size line too long", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "x", count: 5000), error: .chunkLineTooLong, status: 400),
  BadInput(name: "chunk-size line too long (small limit)", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1;aaaaaaaaaaaaa\r\n", error: .chunkLineTooLong, status: 400, limits: smallLimits),
  // 413.
  BadInput(name: "Content-Length over the limit", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 12582913\r\n\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "Content-Length overflowing Int", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999\r\n\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "Content-Length at Int.max + 1", wire: "POST / HTTP/1.1\r\n\(host)Content-Length: 9223372036854775808\r\n\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "Content-Length over a small limit", wire: "POST / HTTP/1.1\r\nContent-Length: 11\r\n\(host)\r\n", error: .bodyTooLarge, status: 413, limits: smallLimits),
  BadInput(name: "chunk size overflowing Int", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "chunk size at Int.max", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "one chunk over the limit", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nc00001\r\n", error: .bodyTooLarge, status: 413),
  BadInput(name: "chunks adding up over a small limit", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n67890\r\n1\r\n", error: .bodyTooLarge, status: 413, limits: smallLimits),
  // 431.
  BadInput(name: "header section too large", wire: "GET / HTTP/1.1\r\n\(host)X: " + String(repeating: "a", count: 17000) + "\r\n\r\n", error: .headersTooLarge, status: 431),
  BadInput(name: "unterminated header section too large", wire: "GET / HTTP/1.1\r\n\(host)X: " + String(repeating: "a", count: 17000), error: .headersTooLarge, status: 431),
  BadInput(name: "request line too large", wire: "GET /" + String(repeating: "a", count: 16400) + " HTTP/1.1\r\n", error: .headersTooLarge, status: 431),
  BadInput(name: "many small headers over the byte limit", wire: "GET / HTTP/1.1\r\n\(host)" + String(repeating: "A: b\r\n", count: 40) + "\r\n", error: .headersTooLarge, status: 431, limits: HTTPRequestParser.Limits(maxHeaderBytes: 200)),
  BadInput(name: "empty-line flood", wire: String(repeating: "\r\n", count: 9000), error: .headersTooLarge, status: 431),
  BadInput(name: "too many headers", wire: "GET / HTTP/1.1\r\n\(host)" + String(repeating: "A: b\r\n", count: 100) + "\r\n", error: .tooManyHeaders, status: 431),
  BadInput(name: "too many headers (small limit)", wire: "GET / HTTP/1.1\r\n\(host)A: 1\r\nB: 2\r\nC: 3\r\n\r\n", error: .tooManyHeaders, status: 431, limits: smallLimits),
  BadInput(name: "trailers too large", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "a", count: 17000), error: .headersTooLarge, status: 431),
  BadInput(name: "too many trailers", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n" + String(repeating: "A: b\r\n", count: 101) + "\r\n", error: .tooManyHeaders, status: 431),
  // 501.
  BadInput(name: "gzip", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
  BadInput(name: "gzip then chunked", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip, chunked\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
  BadInput(name: "chunked then identity", wire: "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n", error: .unsupportedTransferEncoding, status: 501),
]

@Suite("HTTP request parser: errors")
struct HTTPRequestParserErrorTests {
  @Test("Each bad input gives its precise error and status, in one chunk and byte by byte", arguments: badInputs)
  func badInput(_ input: BadInput) throws {
    let whole = parseWhole(input.wire, limits: input.limits)
    #expect(whole.requests.isEmpty)
    #expect(whole.error == input.error)
    #expect(input.error.status.code == input.status)
    let bytewise = parseBytewise(Array(input.wire.utf8), limits: input.limits)
    #expect(bytewise.requests.isEmpty)
    #expect(bytewise.error == input.error)
  }

  @Test("After an error the parser stays failed and drops input; earlier requests still come out")
  func terminal() {
    var parser = HTTPRequestParser()
    let output = parser.parse(Array("GET /ok HTTP/1.1\r\nHost: h\r\n\r\nBAD\r\n\r\nGET /never HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    #expect(output.requests.map(\.target) == ["/ok"])
    #expect(output.error == .malformedRequestLine)
    #expect(parser.error == .malformedRequestLine)
    #expect(!parser.hasPartialRequest)
    #expect(throws: HTTPParseError.malformedRequestLine) { try parser.next() }
    let later = parser.parse(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    #expect(later == HTTPRequestParser.Output(requests: [], error: .malformedRequestLine))
  }

  @Test("A too-large Content-Length is refused before any of the body arrives")
  func earlyTooLarge() {
    var parser = HTTPRequestParser(limits: .init(maxBodyBytes: 1000))
    #expect(parser.parse(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n".utf8)).error == .bodyTooLarge)
  }

  @Test("Limits are exact: at the limit passes, one over fails")
  func exactLimits() {
    let head = "GET / HTTP/1.1\r\nHost: h\r\n\r\n"  // 27 bytes
    #expect(parseWhole(head, limits: .init(maxHeaderBytes: 27)).error == nil)
    #expect(parseWhole(head, limits: .init(maxHeaderBytes: 26)).error == .headersTooLarge)
    #expect(parseWhole(head, limits: .init(maxHeaderCount: 1)).error == nil)
    #expect(parseWhole(head, limits: .init(maxHeaderCount: 0)).error == .tooManyHeaders)
    let post = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcde"
    #expect(parseWhole(post, limits: .init(maxBodyBytes: 5)).error == nil)
    #expect(parseWhole(post, limits: .init(maxBodyBytes: 4)).error == .bodyTooLarge)
    let chunked = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;abc\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    #expect(parseWhole(chunked, limits: .init(maxBodyBytes: 5, maxChunkLineBytes: 7)).error == nil)
    #expect(parseWhole(chunked, limits: .init(maxBodyBytes: 4)).error == .bodyTooLarge)
    #expect(parseWhole(chunked, limits: .init(maxChunkLineBytes: 6)).error == .chunkLineTooLong)
    // Each request gets the whole header budget again.
    #expect(parseWhole(head + head + head, limits: .init(maxHeaderBytes: 27)).requests.count == 3)
  }

  @Test("Every error maps to its status")
  func statusTable() {
    let table: [HTTPParseError: Int] = [
      .malformedRequestLine: 400, .unsupportedVersion: 505, .malformedHeader: 400, .headersTooLarge: 431,
      .tooManyHeaders: 431, .missingOrDuplicateHost: 400, .invalidContentLength: 400, .conflictingContentLength: 400,
      .contentLengthWithTransferEncoding: 400, .invalidTransferEncoding: 400, .unsupportedTransferEncoding: 501,
      .bodyTooLarge: 413, .invalidChunkSize: 400, .chunkLineTooLong: 400, .invalidChunkTerminator: 400,
    ]
    for (error, code) in table { #expect(error.status.code == code, "\(error)") }
  }
}

@Suite("HTTP parse errors: responses")
struct HTTPParseErrorResponseTests {
  @Test("An error's response is exact: status, plain-text reason, Connection: close")
  func exactResponse() {
    #expect(
      String(decoding: HTTPParseError.bodyTooLarge.response, as: UTF8.self)
        == "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 23\r\nConnection: close\r\n\r\nrequest body too large\n")
    for input in badInputs {
      let text = String(decoding: input.error.response, as: UTF8.self)
      #expect(text.hasPrefix("HTTP/1.1 \(input.status) "))
      #expect(text.hasSuffix("\r\n\r\n\(input.error.description)\n"))
      #expect(text.contains("\r\nConnection: close\r\n"))
    }
  }
}
