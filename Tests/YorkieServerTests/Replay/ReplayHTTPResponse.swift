import Foundation

/// An HTTP/1.1 response as far as its bytes have arrived: head, de-chunked body, and the
/// Connect envelopes in the body (for streams). Parsing is a pure function of the bytes, so the
/// replay re-parses what a ``ReplayConnection`` has collected whenever it looks.
struct ReplayHTTPResponse {
  /// The status code.
  let status: Int
  /// Header fields, names lower-cased (the last value of a repeated name wins).
  let headers: [String: String]
  /// The body received so far, de-chunked.
  let body: [UInt8]
  /// Whether the whole body has arrived (last chunk, Content-Length reached, or end-of-file
  /// for a body delimited by the connection).
  let isComplete: Bool

  /// Parses `bytes`; nil until the head is complete. `endOfFile` says the server closed.
  ///
  /// - Throws: ``ReplayError`` for a malformed head or chunk.
  static func parse(_ bytes: [UInt8], endOfFile: Bool) throws -> ReplayHTTPResponse? {
    guard let headEnd = find([13, 10, 13, 10], in: bytes, from: 0) else {
      if endOfFile { throw ReplayError("the connection closed before a complete response head (\(bytes.count) bytes)") }
      return nil
    }
    let lines = String(decoding: bytes[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ReplayError("bad status line \(lines[0])") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { throw ReplayError("bad header field \(line)") }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let start = headEnd + 4
    if headers["transfer-encoding"]?.lowercased() == "chunked" {
      var body: [UInt8] = []
      var position = start
      while true {
        guard let lineEnd = find([13, 10], in: bytes, from: position) else { break }
        let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw ReplayError("bad chunk size \(sizeText)") }
        if size == 0 {
          // The last chunk, then (no trailers here) the final CRLF.
          return ReplayHTTPResponse(status: status, headers: headers, body: body, isComplete: bytes.count >= lineEnd + 4)
        }
        guard bytes.count >= lineEnd + 2 + size + 2 else { break }
        body += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
        position = lineEnd + 2 + size + 2
      }
      return ReplayHTTPResponse(status: status, headers: headers, body: body, isComplete: false)
    }
    if let length = headers["content-length"].flatMap({ Int($0) }) {
      let available = min(length, bytes.count - start)
      return ReplayHTTPResponse(status: status, headers: headers, body: Array(bytes[start..<(start + available)]), isComplete: available == length)
    }
    return ReplayHTTPResponse(status: status, headers: headers, body: Array(bytes[start...]), isComplete: endOfFile)
  }

  /// The complete Connect envelopes at the start of the body (flags, payload), and whether
  /// bytes of an incomplete one follow.
  var envelopes: (frames: [(flags: UInt8, payload: [UInt8])], partial: Bool) {
    var frames: [(UInt8, [UInt8])] = []
    var position = 0
    while body.count - position >= 5 {
      let length = body[(position + 1)..<(position + 5)].reduce(0) { $0 << 8 | Int($1) }
      guard body.count - position - 5 >= length else { break }
      frames.append((body[position], Array(body[(position + 5)..<(position + 5 + length)])))
      position += 5 + length
    }
    return (frames, position < body.count)
  }

  /// The index of the first occurrence of `pattern` in `bytes` at or after `from`.
  private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    var index = from
    while index + pattern.count <= bytes.count {
      if bytes[index] == pattern[0] && Array(bytes[index..<(index + pattern.count)]) == pattern { return index }
      index += 1
    }
    return nil
  }
}
