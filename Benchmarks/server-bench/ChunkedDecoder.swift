/// Decodes an HTTP/1.1 chunked body incrementally: received bytes go in however they were cut,
/// the body's bytes come out.
struct ChunkedDecoder {
  /// Where in the chunked framing the next byte falls.
  private enum State {
    /// In a chunk-size line (`1a;ext=1\r\n`).
    case size
    /// In a chunk's data, with this many bytes still to come.
    case data(Int)
    /// In the CRLF after a chunk's data.
    case dataEnd
    /// After the last (zero-size) chunk, in the trailer lines up to the empty one.
    case trailer
    /// The body has ended.
    case done
  }

  /// The current state.
  private var state = State.size
  /// The current size or trailer line so far, CR left out.
  private var line: [UInt8] = []

  /// Whether the body's end (the last chunk and the trailer's empty line) has been read.
  var isFinished: Bool {
    if case .done = state { return true }
    return false
  }

  /// Reads `bytes`, appending the body bytes they carry to `body`; stops at the body's end.
  ///
  /// - Returns: How many of `bytes` were used (fewer than all only when the body ended).
  /// - Throws: ``BenchError`` for a malformed size line.
  mutating func feed(_ bytes: ArraySlice<UInt8>, into body: inout [UInt8]) throws(BenchError) -> Int {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch state {
      case .data(let remaining):
        let take = min(remaining, bytes.endIndex - index)
        body.append(contentsOf: bytes[index..<index + take])
        index += take
        state = remaining == take ? .dataEnd : .data(remaining - take)
      case .done:
        return index - bytes.startIndex
      case .size, .dataEnd, .trailer:
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\r") { continue }
        guard byte == UInt8(ascii: "\n") else {
          line.append(byte)
          guard line.count <= 1024 else { throw BenchError("chunked body: a line of more than 1024 bytes") }
          continue
        }
        try endLine()
      }
    }
    return index - bytes.startIndex
  }

  /// Acts on the line just ended.
  private mutating func endLine() throws(BenchError) {
    defer { line.removeAll(keepingCapacity: true) }
    switch state {
    case .size:
      let digits = line.prefix { $0 != UInt8(ascii: ";") }
      guard let size = Int(String(decoding: digits, as: UTF8.self).trimmingSpaces, radix: 16), size >= 0 else {
        throw BenchError("chunked body: bad chunk size line \"\(String(decoding: line, as: UTF8.self))\"")
      }
      state = size == 0 ? .trailer : .data(size)
    case .dataEnd:
      state = .size
    case .trailer:
      if line.isEmpty { state = .done }
    case .data, .done:
      break
    }
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
