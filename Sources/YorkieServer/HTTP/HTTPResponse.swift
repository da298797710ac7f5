/// The head of a response: status line and header fields, serialized with ``bytes``.
///
/// Serialization cannot be used to inject fields or split a response: in names, any byte that is
/// not a token character becomes `_`; in values, CR, LF and other control characters except tab
/// become a space.
package struct HTTPResponseHead: Sendable, Hashable {
  /// The status of the status line.
  package var status: HTTPStatus
  /// The protocol version of the status line (HTTP/1.1 by default).
  package var version: HTTPVersion
  /// The header fields, sent in this order.
  package var headers: HTTPHeaders

  /// A head with the given status, fields and version.
  package init(status: HTTPStatus, headers: HTTPHeaders = [:], version: HTTPVersion = .http1_1) {
    self.status = status
    self.headers = headers
    self.version = version
  }

  /// `HTTP/1.1 200 OK\r\n`, each `name: value\r\n`, and the empty line.
  package var bytes: [UInt8] {
    var output: [UInt8] = []
    write(into: &output)
    return output
  }

  /// Appends ``bytes`` to `output`.
  package func write(into output: inout [UInt8]) {
    output.append(contentsOf: "\(version) \(status.code) ".utf8)
    output.append(contentsOf: status.reasonPhrase.utf8.map { HTTPSyntax.isFieldValueChar($0) ? $0 : HTTPSyntax.space })
    output.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    for field in headers {
      output.append(contentsOf: field.name.utf8.map { HTTPSyntax.isTokenChar($0) ? $0 : UInt8(ascii: "_") })
      output.append(contentsOf: [HTTPSyntax.colon, HTTPSyntax.space])
      output.append(contentsOf: field.value.utf8.map { HTTPSyntax.isFieldValueChar($0) ? $0 : HTTPSyntax.space })
      output.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    }
    output.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
  }

  /// `HTTP/1.1 100 Continue` and the empty line: the interim response a client that sent
  /// `Expect: 100-continue` waits for before its body (see
  /// ``HTTPRequestParser/takeContinueRequest()``).
  package static let continueResponse: [UInt8] = HTTPResponseHead(status: .continue).bytes

  /// A whole response with a body: the head with `Content-Length` set to the body's size (any
  /// Content-Length or Transfer-Encoding in `headers` is replaced), followed by the body.
  /// `close` adds `Connection: close`.
  package static func fullResponse(
    status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], close: Bool = false
  ) -> [UInt8] {
    var head = HTTPResponseHead(status: status, headers: headers)
    head.headers.remove(name: "transfer-encoding")
    head.headers.replaceOrAppend(name: "Content-Length", value: String(body.count))
    if close { head.headers.replaceOrAppend(name: "Connection", value: "close") }
    var output = head.bytes
    output.append(contentsOf: body)
    return output
  }
}

/// The pieces of a response whose body is streamed in chunks (`Transfer-Encoding: chunked`):
/// ``head(status:headers:)`` once, ``chunk(_:)`` for each piece, and ``end`` once.
package enum HTTPChunkedResponse {
  /// The head with `Transfer-Encoding: chunked` (any Content-Length or Transfer-Encoding in
  /// `headers` is replaced).
  package static func head(status: HTTPStatus, headers: HTTPHeaders = [:]) -> [UInt8] {
    var head = HTTPResponseHead(status: status, headers: headers)
    head.headers.remove(name: "content-length")
    head.headers.replaceOrAppend(name: "Transfer-Encoding", value: "chunked")
    return head.bytes
  }

  /// One chunk: the size in lower-case hex, CRLF, the data, CRLF. Empty data gives no bytes at
  /// all, since an empty chunk would end the body.
  package static func chunk<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
    guard !data.isEmpty else { return [] }
    var output = Array(String(data.count, radix: 16).utf8)
    output.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    output.append(contentsOf: data)
    output.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
    return output
  }

  /// The last chunk without trailers: `0\r\n\r\n`.
  package static let end: [UInt8] = Array("0\r\n\r\n".utf8)
}
