/// An HTTP protocol version; the parser accepts 1.0 and 1.1.
package struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
  /// The major version (1).
  package var major: Int
  /// The minor version (0 or 1).
  package var minor: Int

  /// The version `major.minor`.
  package init(major: Int, minor: Int) {
    self.major = major
    self.minor = minor
  }

  /// HTTP/1.0.
  package static let http1_0 = HTTPVersion(major: 1, minor: 0)
  /// HTTP/1.1.
  package static let http1_1 = HTTPVersion(major: 1, minor: 1)

  /// `"HTTP/1.1"`.
  package var description: String { "HTTP/\(major).\(minor)" }
}

/// A complete request as read from a connection: head, whole body and trailers.
package struct HTTPRequest: Sendable, Hashable {
  /// The method token, case-sensitive as sent (`"POST"`).
  package var method: String
  /// The request target exactly as sent: the path and, after `?`, the query (`"/a/b?x=1"`).
  package var target: String
  /// The protocol version of the request line.
  package var version: HTTPVersion
  /// The header fields in wire order.
  package var headers: HTTPHeaders
  /// The body: the Content-Length bytes or the de-chunked data; empty when the request has none.
  package var body: [UInt8]
  /// The trailer fields of a chunked body (empty otherwise).
  package var trailers: HTTPHeaders
  /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`,
  /// HTTP/1.0 only with `Connection: keep-alive`.
  package var keepAlive: Bool

  /// A request with every part given.
  package init(
    method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
    body: [UInt8] = [], trailers: HTTPHeaders = [:], keepAlive: Bool = true
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    self.body = body
    self.trailers = trailers
    self.keepAlive = keepAlive
  }

  /// The target up to (not including) the first `?`.
  package var path: String {
    if let mark = target.firstIndex(of: "?") { return String(target[..<mark]) }
    return target
  }

  /// The target after the first `?` (possibly empty), or `nil` when there is no `?`.
  package var query: String? {
    if let mark = target.firstIndex(of: "?") { return String(target[target.index(after: mark)...]) }
    return nil
  }
}

/// Why the parser rejected a connection's input; each case maps to the status of the answer
/// (``status``, or the whole ``response``) sent before closing the connection.
package enum HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request line is not `method SP target SP HTTP/x.y` (400).
  case malformedRequestLine
  /// The request line names a well-formed version other than HTTP/1.0 or HTTP/1.1 (505).
  case unsupportedVersion
  /// A header or trailer line is not `name: value`, has whitespace before the colon, contains
  /// a control character, is an obsolete line folding, or ends in a bare LF (400).
  case malformedHeader
  /// The request line and headers together exceed ``HTTPRequestParser/Limits/maxHeaderBytes``,
  /// or the trailers do (431).
  case headersTooLarge
  /// More header (or trailer) fields than ``HTTPRequestParser/Limits/maxHeaderCount`` (431).
  case tooManyHeaders
  /// An HTTP/1.1 request without exactly one `Host` field (400, RFC 9112 §3.2).
  case missingOrDuplicateHost
  /// A Content-Length that is not a decimal number (400).
  case invalidContentLength
  /// Content-Length fields (or list elements) with different values (400).
  case conflictingContentLength
  /// Both Content-Length and Transfer-Encoding (400, a request-smuggling vector).
  case contentLengthWithTransferEncoding
  /// A Transfer-Encoding that is empty, names `chunked` twice or not last, or is sent in an
  /// HTTP/1.0 request (400).
  case invalidTransferEncoding
  /// A Transfer-Encoding naming a coding other than `chunked` (501).
  case unsupportedTransferEncoding
  /// The body is larger than ``HTTPRequestParser/Limits/maxBodyBytes``, known from the
  /// Content-Length or from the chunk sizes so far, including sizes too large for any integer (413).
  case bodyTooLarge
  /// A chunk-size line that is not hex digits optionally followed by extensions (400).
  case invalidChunkSize
  /// A chunk-size line longer than ``HTTPRequestParser/Limits/maxChunkLineBytes`` (400).
  case chunkLineTooLong
  /// Chunk data not followed by CRLF (400).
  case invalidChunkTerminator

  /// The status of the response to send before closing the connection.
  package var status: HTTPStatus {
    switch self {
    case .malformedRequestLine, .malformedHeader, .missingOrDuplicateHost, .invalidContentLength,
      .conflictingContentLength, .contentLengthWithTransferEncoding, .invalidTransferEncoding,
      .invalidChunkSize, .chunkLineTooLong, .invalidChunkTerminator:
      .badRequest
    case .unsupportedVersion: .httpVersionNotSupported
    case .headersTooLarge, .tooManyHeaders: .requestHeaderFieldsTooLarge
    case .unsupportedTransferEncoding: .notImplemented
    case .bodyTooLarge: .contentTooLarge
    }
  }

  /// A short English explanation, for logs and the body of ``response``.
  package var description: String {
    switch self {
    case .malformedRequestLine: "malformed request line"
    case .unsupportedVersion: "unsupported HTTP version (HTTP/1.0 and HTTP/1.1 are supported)"
    case .malformedHeader: "malformed header field"
    case .headersTooLarge: "header section too large"
    case .tooManyHeaders: "too many header fields"
    case .missingOrDuplicateHost: "an HTTP/1.1 request needs exactly one Host field"
    case .invalidContentLength: "invalid Content-Length"
    case .conflictingContentLength: "conflicting Content-Length values"
    case .contentLengthWithTransferEncoding: "both Content-Length and Transfer-Encoding"
    case .invalidTransferEncoding: "invalid Transfer-Encoding"
    case .unsupportedTransferEncoding: "unsupported Transfer-Encoding (only chunked is supported)"
    case .bodyTooLarge: "request body too large"
    case .invalidChunkSize: "invalid chunk size"
    case .chunkLineTooLong: "chunk-size line too long"
    case .invalidChunkTerminator: "chunk data not followed by CRLF"
    }
  }

  /// The whole response to send before closing the connection: ``status``, `Connection: close`,
  /// and ``description`` as a plain-text body.
  package var response: [UInt8] {
    HTTPResponseHead.fullResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((description + "\n").utf8),
      close: true)
  }
}
