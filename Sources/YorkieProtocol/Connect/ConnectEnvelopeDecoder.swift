import CRDT
import Foundation

/// Cuts a Connect stream into envelopes, however its bytes arrive: a chunk may hold several
/// envelopes or part of one.
///
/// ```swift
/// var decoder = ConnectEnvelopeDecoder()
/// for try await chunk in body {
///   for envelope in try decoder.feed(chunk) { … }
/// }
/// try decoder.finish()
/// ```
public struct ConnectEnvelopeDecoder: Sendable {
  /// Envelopes longer than this are refused (a corrupt length would otherwise buffer forever).
  public let maximumLength: Int
  private var buffer: [UInt8] = []
  private var consumed = 0

  /// Creates a decoder.
  ///
  /// - Parameter maximumLength: The longest payload accepted, in bytes; 64 MiB by default.
  public init(maximumLength: Int = 64 << 20) { self.maximumLength = maximumLength }

  /// Adds received bytes and returns every envelope they complete, in order.
  ///
  /// - Throws: `YorkieError` `invalidWireData` for unknown flags or a length past
  ///   ``maximumLength``; the decoder should not be used after that.
  /// - Complexity: Amortized O(*n*) in the bytes received.
  public mutating func feed(_ chunk: some Sequence<UInt8>) throws(YorkieError) -> [ConnectEnvelope] {
    buffer.append(contentsOf: chunk)
    var envelopes: [ConnectEnvelope] = []
    while buffer.count - consumed >= 5 {
      let flags = ConnectEnvelope.Flags(rawValue: buffer[consumed])
      let length = Int(buffer[consumed + 1]) << 24 | Int(buffer[consumed + 2]) << 16 | Int(buffer[consumed + 3]) << 8 | Int(buffer[consumed + 4])
      guard ConnectEnvelope.Flags.known.isSuperset(of: flags) else {
        throw YorkieError(.invalidWireData, "Connect stream: unknown envelope flags 0x\(String(flags.rawValue, radix: 16))")
      }
      guard length <= maximumLength else {
        throw YorkieError(.invalidWireData, "Connect stream: an envelope of \(length) bytes exceeds the limit of \(maximumLength)")
      }
      guard buffer.count - consumed - 5 >= length else { break }
      envelopes.append(ConnectEnvelope(flags: flags, payload: Array(buffer[consumed + 5..<consumed + 5 + length])))
      consumed += 5 + length
    }
    // Drop what was consumed once it is at least half the buffer, so that each byte moves O(1) times.
    if consumed > 0 && consumed * 2 >= buffer.count {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    return envelopes
  }

  /// Bytes received but not yet part of a complete envelope.
  public var pendingByteCount: Int { buffer.count - consumed }

  /// Call at the end of the stream: leftover bytes mean a truncated envelope.
  ///
  /// - Throws: `YorkieError` `invalidWireData` when bytes are left over.
  public func finish() throws(YorkieError) {
    guard pendingByteCount == 0 else {
      throw YorkieError(.invalidWireData, "Connect stream: \(pendingByteCount) bytes of a truncated envelope at the end")
    }
  }
}
