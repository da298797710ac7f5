/// An HTTP/1.1 request parser as a pure state machine: bytes in, complete requests out.
///
/// Feed it what a connection reads, in chunks of any size (one byte at a time works), with
/// ``append(_:)``, and take the requests with ``next()``; or do both with ``parse(_:)``.
/// Pipelined requests come out one by one, in order. The parser does no I/O and keeps no clock:
/// timeouts belong to its owner, who can ask ``hasPartialRequest`` whether a request is under way.
///
/// It is strict (RFC 9112, with the leniency it recommends only for empty lines before a request
/// line) and bounded by ``Limits``. The first violation puts it in a terminal state: ``next()``
/// throws that ``HTTPParseError`` again on every call, further input is dropped, and the owner
/// answers with ``HTTPParseError/status`` and closes the connection. After a request that does
/// not keep the connection alive (``HTTPRequest/keepAlive``), the parser is closed
/// (``isClosed``): it ignores whatever follows.
///
/// Message framing (RFC 9112 §6): `Transfer-Encoding: chunked` (the only coding accepted; any other
/// is ``HTTPParseError/unsupportedTransferEncoding``), else `Content-Length`, else no body. A
/// request carrying both is refused. Bodies are returned whole, up to ``Limits/maxBodyBytes``.
package struct HTTPRequestParser: Sendable {
  /// The bounds a request must stay within.
  package struct Limits: Sendable, Hashable {
    /// The most bytes of the request line plus header lines, CRLFs included, and separately of
    /// the trailer section of a chunked body. Default 16 KiB.
    package var maxHeaderBytes: Int
    /// The most header fields, and separately trailer fields, in a request. Default 100.
    package var maxHeaderCount: Int
    /// The largest body, before chunked decoding is counted by data bytes only. Default 12 MiB:
    /// Yorkie's 10 MiB document limit plus room for the JSON around a change pack.
    package var maxBodyBytes: Int
    /// The longest chunk-size line (size, extensions and CRLF). Default 4 KiB.
    package var maxChunkLineBytes: Int

    /// Limits with the given values; every omitted one takes its default.
    package init(
      maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100,
      maxBodyBytes: Int = 12 * 1024 * 1024, maxChunkLineBytes: Int = 4 * 1024
    ) {
      self.maxHeaderBytes = maxHeaderBytes
      self.maxHeaderCount = maxHeaderCount
      self.maxBodyBytes = maxBodyBytes
      self.maxChunkLineBytes = maxChunkLineBytes
    }
  }

  /// What ``parse(_:)`` found in the bytes it was given together with those buffered before.
  package struct Output: Sendable, Hashable {
    /// The requests completed, in order.
    package var requests: [HTTPRequest]
    /// The error that stopped the parser, if any; it comes after every request in ``requests``.
    package var error: HTTPParseError?
  }

  private enum State: Sendable {
    /// Reading the request line (after optional empty lines) and the header lines.
    case head
    /// Reading a Content-Length body with this many bytes still to come.
    case body(remaining: Int)
    /// Reading a chunk-size line.
    case chunkSize
    /// Reading chunk data with this many bytes still to come.
    case chunkData(remaining: Int)
    /// Expecting the CRLF after chunk data; the count says how many of its bytes were seen.
    case chunkDataEnd(seen: Int)
    /// Reading trailer lines up to the empty line.
    case trailers
    /// The last request closed the connection; input is ignored.
    case closed
    /// Stopped by an error; input is ignored.
    case failed(HTTPParseError)
  }

  /// The limits this parser enforces.
  package let limits: Limits

  private var state: State = .head
  private var buffer: [UInt8] = []
  /// Where the unconsumed input starts in `buffer`.
  private var readIndex = 0
  /// Where the search for the current line's LF resumes (so byte-by-byte input stays linear).
  private var scanIndex = 0

  // The request under construction.
  private var headBytes = 0
  private var requestLine: (method: String, target: String, version: HTTPVersion)?
  private var headers: [HTTPHeaderField] = []
  private var body: [UInt8] = []
  private var trailerBytes = 0
  private var trailers: [HTTPHeaderField] = []
  private var continueRequested = false

  /// A parser in its initial state, enforcing `limits`.
  package init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Whether a request that did not keep the connection alive has been returned; the parser
  /// ignores any further input.
  package var isClosed: Bool {
    if case .closed = state { return true }
    return false
  }

  /// The error that stopped the parser, or `nil` while it is working.
  package var error: HTTPParseError? {
    if case .failed(let error) = state { return error }
    return nil
  }

  /// Whether part of a request has been received and not yet returned by ``next()`` (bytes that
  /// are buffered count, even when they only hold empty lines). The owner applies a slow-request
  /// timeout while this is true and an idle timeout otherwise.
  package var hasPartialRequest: Bool {
    switch state {
    case .closed, .failed: return false
    case .head: return headBytes > 0 || readIndex < buffer.count
    default: return true
    }
  }

  /// Whether the request under way asked for `100 Continue` (HTTP/1.1 with
  /// `Expect: 100-continue`) before sending a body that the limits allow, and the owner has not
  /// yet taken that request with ``takeContinueRequest()``.
  package var expectsContinue: Bool { continueRequested }

  /// Returns ``expectsContinue`` and clears it, so the owner sends
  /// ``HTTPResponseHead/continueResponse`` at most once per request (after the responses to any
  /// earlier pipelined requests). A request whose body is refused (413) fails before this is
  /// set; a request that completes before the owner asks no longer needs it.
  package mutating func takeContinueRequest() -> Bool {
    defer { continueRequested = false }
    return continueRequested
  }

  /// Buffers `bytes`, read from the connection, for ``next()``. Ignored once the parser is
  /// closed or failed.
  package mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    switch state {
    case .closed, .failed: return
    default: break
    }
    compact()
    buffer.append(contentsOf: bytes)
  }

  /// The next complete request, or `nil` when more input is needed (or the parser is closed).
  ///
  /// - Throws: the ``HTTPParseError`` that stopped the parser, now and on every later call.
  package mutating func next() throws(HTTPParseError) -> HTTPRequest? {
    if case .failed(let error) = state { throw error }
    do {
      return try step()
    } catch {
      state = .failed(error)
      continueRequested = false
      buffer = []
      readIndex = 0
      scanIndex = 0
      body = []
      throw error
    }
  }

  /// Appends `bytes` and returns every request they complete, followed by the error that stopped
  /// the parser if there is one (including an earlier one).
  package mutating func parse<Bytes: Sequence>(_ bytes: Bytes) -> Output where Bytes.Element == UInt8 {
    append(bytes)
    var output = Output(requests: [], error: nil)
    do {
      while let request = try next() { output.requests.append(request) }
    } catch {
      output.error = error
    }
    return output
  }

  // MARK: - The state machine

  private mutating func step() throws(HTTPParseError) -> HTTPRequest? {
    while true {
      switch state {
      case .closed, .failed:
        return nil

      case .head:
        let budget = limits.maxHeaderBytes - headBytes
        guard let line = try nextLine(budget: budget, tooLong: .headersTooLarge, bareLF: requestLine == nil ? .malformedRequestLine : .malformedHeader) else {
          return nil
        }
        headBytes += line.count + 2
        if requestLine == nil {
          if line.isEmpty { continue }  // RFC 9112 §2.2: empty lines before a request line.
          requestLine = try Self.parseRequestLine(buffer[line])
        } else if line.isEmpty {
          if let request = try finishHead() { return request }
        } else {
          guard headers.count < limits.maxHeaderCount else { throw .tooManyHeaders }
          headers.append(try Self.parseField(buffer[line]))
        }

      case .body(let remaining):
        let count = min(remaining, buffer.count - readIndex)
        guard count > 0 else { return nil }
        body.append(contentsOf: buffer[readIndex..<(readIndex + count)])
        consume(count)
        if count == remaining { return finishRequest() }
        state = .body(remaining: remaining - count)

      case .chunkSize:
        guard let line = try nextLine(budget: limits.maxChunkLineBytes, tooLong: .chunkLineTooLong, bareLF: .invalidChunkSize) else {
          return nil
        }
        let size = try Self.parseChunkSize(buffer[line])
        guard size <= limits.maxBodyBytes - body.count else { throw .bodyTooLarge }
        state = size == 0 ? .trailers : .chunkData(remaining: size)

      case .chunkData(let remaining):
        let count = min(remaining, buffer.count - readIndex)
        guard count > 0 else { return nil }
        body.append(contentsOf: buffer[readIndex..<(readIndex + count)])
        consume(count)
        state = count == remaining ? .chunkDataEnd(seen: 0) : .chunkData(remaining: remaining - count)

      case .chunkDataEnd(let seen):
        guard readIndex < buffer.count else { return nil }
        let expected = seen == 0 ? HTTPSyntax.cr : HTTPSyntax.lf
        guard buffer[readIndex] == expected else { throw .invalidChunkTerminator }
        consume(1)
        state = seen == 0 ? .chunkDataEnd(seen: 1) : .chunkSize

      case .trailers:
        let budget = limits.maxHeaderBytes - trailerBytes
        guard let line = try nextLine(budget: budget, tooLong: .headersTooLarge, bareLF: .malformedHeader) else {
          return nil
        }
        trailerBytes += line.count + 2
        if line.isEmpty { return finishRequest() }
        guard trailers.count < limits.maxHeaderCount else { throw .tooManyHeaders }
        trailers.append(try Self.parseField(buffer[line]))
      }
    }
  }

  /// The range of the next CRLF-terminated line (without the CRLF), consumed from the input; `nil`
  /// when its end has not arrived yet.
  ///
  /// - Throws: `tooLong` when no line end is among the next `budget` bytes (CRLF included), and
  ///   `bareLF` when the line ends in an LF without CR.
  private mutating func nextLine(budget: Int, tooLong: HTTPParseError, bareLF: HTTPParseError) throws(HTTPParseError) -> Range<Int>? {
    guard budget > 0 else { throw tooLong }
    let available = buffer.count - readIndex
    let searchEnd = readIndex + min(available, budget)
    var index = max(scanIndex, readIndex)
    while index < searchEnd {
      if buffer[index] == HTTPSyntax.lf {
        guard index > readIndex, buffer[index - 1] == HTTPSyntax.cr else { throw bareLF }
        let line = readIndex..<(index - 1)
        readIndex = index + 1
        scanIndex = readIndex
        return line
      }
      index += 1
    }
    scanIndex = index
    if available >= budget { throw tooLong }
    return nil
  }

  private mutating func consume(_ count: Int) {
    readIndex += count
    scanIndex = max(scanIndex, readIndex)
  }

  /// Drops consumed bytes from the buffer when that is cheap relative to what was consumed.
  private mutating func compact() {
    if readIndex == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
      readIndex = 0
      scanIndex = 0
    } else if readIndex >= 4096 && readIndex * 2 >= buffer.count {
      buffer.removeSubrange(0..<readIndex)
      scanIndex -= readIndex
      readIndex = 0
    }
  }

  /// Decides the body framing once the head is complete; returns the request when it has no body.
  private mutating func finishHead() throws(HTTPParseError) -> HTTPRequest? {
    let fields = HTTPHeaders(headers)
    guard let requestLine else { throw .malformedRequestLine }
    let hosts = fields.values(for: "host").count
    if hosts > 1 || (requestLine.version == .http1_1 && hosts == 0) { throw .missingOrDuplicateHost }

    let hasContentLength = fields.contains(name: "content-length")
    if fields.contains(name: "transfer-encoding") {
      if hasContentLength { throw .contentLengthWithTransferEncoding }
      if requestLine.version == .http1_0 { throw .invalidTransferEncoding }
      let codings = fields.tokens(for: "transfer-encoding")
      if codings.contains(where: { $0 != "chunked" }) { throw .unsupportedTransferEncoding }
      guard codings.count == 1 else { throw .invalidTransferEncoding }
      state = .chunkSize
      continueRequested = Self.asksForContinue(fields, requestLine.version)
      return nil
    }
    if hasContentLength {
      let length = try Self.contentLength(fields.values(for: "content-length"))
      guard length <= limits.maxBodyBytes else { throw .bodyTooLarge }
      if length > 0 {
        state = .body(remaining: length)
        continueRequested = Self.asksForContinue(fields, requestLine.version)
        return nil
      }
    }
    return finishRequest()
  }

  /// Returns the request under construction and resets for the next one.
  private mutating func finishRequest() -> HTTPRequest {
    let fields = HTTPHeaders(headers)
    let line = requestLine ?? (method: "", target: "", version: .http1_1)
    let connection = fields.tokens(for: "connection")
    let keepAlive =
      line.version == .http1_1
      ? !connection.contains("close")
      : connection.contains("keep-alive") && !connection.contains("close")
    let request = HTTPRequest(
      method: line.method, target: line.target, version: line.version, headers: fields, body: body,
      trailers: HTTPHeaders(trailers), keepAlive: keepAlive)
    requestLine = nil
    headers = []
    body = []
    trailers = []
    headBytes = 0
    trailerBytes = 0
    continueRequested = false
    if keepAlive {
      state = .head
    } else {
      state = .closed
      buffer = []
      readIndex = 0
      scanIndex = 0
    }
    return request
  }

  /// Whether an HTTP/1.1 request's `Expect` field holds `100-continue` (RFC 9110 §10.1.1; other
  /// expectations are ignored, and HTTP/1.0 clients do not wait for an interim response).
  private static func asksForContinue(_ fields: HTTPHeaders, _ version: HTTPVersion) -> Bool {
    version == .http1_1 && fields.tokens(for: "expect").contains("100-continue")
  }

  // MARK: - Syntax of single lines

  /// `method SP request-target SP HTTP-version` (RFC 9112 §3), single spaces only.
  private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (method: String, target: String, version: HTTPVersion) {
    guard let firstSpace = line.firstIndex(of: HTTPSyntax.space) else { throw .malformedRequestLine }
    let method = line[line.startIndex..<firstSpace]
    let rest = line[(firstSpace + 1)...]
    guard let secondSpace = rest.firstIndex(of: HTTPSyntax.space) else { throw .malformedRequestLine }
    let target = rest[rest.startIndex..<secondSpace]
    let version = rest[(secondSpace + 1)...]
    guard !method.isEmpty, method.allSatisfy(HTTPSyntax.isTokenChar),
      !target.isEmpty, target.allSatisfy(HTTPSyntax.isTargetChar)
    else { throw .malformedRequestLine }
    return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), try parseVersion(version))
  }

  /// `HTTP/DIGIT.DIGIT`; a well-formed version other than 1.0 and 1.1 is unsupported.
  private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
    let text = Array(bytes)
    let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
    guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), digit.contains(text[5]),
      text[6] == UInt8(ascii: "."), digit.contains(text[7])
    else { throw .malformedRequestLine }
    let version = HTTPVersion(major: Int(text[5] - digit.lowerBound), minor: Int(text[7] - digit.lowerBound))
    guard version == .http1_1 || version == .http1_0 else { throw .unsupportedVersion }
    return version
  }

  /// `field-name ":" OWS field-value OWS` (RFC 9112 §5); no obsolete line folding.
  private static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPHeaderField {
    guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { throw .malformedHeader }
    let name = line[line.startIndex..<colon]
    var value = line[(colon + 1)...]
    guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isTokenChar), value.allSatisfy(HTTPSyntax.isFieldValueChar) else {
      throw .malformedHeader
    }
    while let first = value.first, first == HTTPSyntax.space || first == HTTPSyntax.tab { value = value.dropFirst() }
    while let last = value.last, last == HTTPSyntax.space || last == HTTPSyntax.tab { value = value.dropLast() }
    return HTTPHeaderField(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
  }

  /// The common value of the Content-Length fields and their comma-separated elements; a value
  /// too large for `Int` comes back as `Int.max` (and is then too large for any limit).
  private static func contentLength(_ values: [String]) throws(HTTPParseError) -> Int {
    var result: Int?
    for value in values {
      for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
        var digits = element[...]
        while let first = digits.first, first == HTTPSyntax.space || first == HTTPSyntax.tab { digits = digits.dropFirst() }
        while let last = digits.last, last == HTTPSyntax.space || last == HTTPSyntax.tab { digits = digits.dropLast() }
        guard !digits.isEmpty else { throw .invalidContentLength }
        var number = 0
        for byte in digits {
          guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .invalidContentLength }
          number = saturatingMultiplyAdd(number, 10, Int(byte - UInt8(ascii: "0")))
        }
        if let result, result != number { throw .conflictingContentLength }
        result = number
      }
    }
    guard let result else { throw .invalidContentLength }
    return result
  }

  /// `chunk-size [ BWS ";" chunk-ext ]` (RFC 9112 §7.1); a size too large for `Int` comes back
  /// as `Int.max`. Extensions are checked for control characters and otherwise ignored.
  private static func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    var size = 0
    var index = line.startIndex
    while index < line.endIndex, let digit = HTTPSyntax.hexValue(line[index]) {
      size = saturatingMultiplyAdd(size, 16, digit)
      index += 1
    }
    guard index > line.startIndex else { throw .invalidChunkSize }
    var rest = line[index...]
    while let first = rest.first, first == HTTPSyntax.space || first == HTTPSyntax.tab { rest = rest.dropFirst() }
    if let first = rest.first {
      guard first == UInt8(ascii: ";"), rest.allSatisfy(HTTPSyntax.isFieldValueChar) else { throw .invalidChunkSize }
    } else if rest.startIndex != index {
      throw .invalidChunkSize  // Whitespace after the size without an extension.
    }
    return size
  }

  /// `value * base + digit`, or `Int.max` when that overflows.
  private static func saturatingMultiplyAdd(_ value: Int, _ base: Int, _ digit: Int) -> Int {
    let (product, overflow) = value.multipliedReportingOverflow(by: base)
    if overflow { return Int.max }
    let (sum, overflow2) = product.addingReportingOverflow(digit)
    return overflow2 ? Int.max : sum
  }
}
