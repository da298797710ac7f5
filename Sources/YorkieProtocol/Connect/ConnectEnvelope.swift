import CRDT
import Foundation

// The Connect protocol's framing of streaming calls (yorkie-protocol.md 2.3).

/// One enveloped message of a Connect stream: a flags byte, a big-endian 32-bit length, then
/// the payload.
///
/// A server-streaming call such as `Watch` sends its request in one envelope and receives its
/// responses in envelopes, the last of which has the ``Flags-swift.struct/endStream`` flag and
/// carries a ``ConnectEndOfStream``.
///
/// ```swift
/// let request = ConnectEnvelope(message: WatchRequest(clientID: clientID, resources: [.document(.init(documentID: id))]))
/// body.append(contentsOf: request.bytes)
/// ```
public struct ConnectEnvelope: Sendable, Equatable {
  /// The flags byte of an envelope.
  public struct Flags: OptionSet, Sendable, Hashable {
    /// The byte.
    public let rawValue: UInt8

    /// Flags from their byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The payload is compressed with the stream's negotiated encoding.
    public static let compressed = Flags(rawValue: 0x01)
    /// This is the end-of-stream envelope: its payload is a ``ConnectEndOfStream``.
    public static let endStream = Flags(rawValue: 0x02)

    /// Every flag this SDK knows; an envelope with any other bit set is refused.
    public static let known: Flags = [.compressed, .endStream]
  }

  /// The envelope's flags.
  public var flags: Flags
  /// The payload: JSON text of a message, or of the end-of-stream message.
  public var payload: [UInt8]

  /// Creates an envelope.
  ///
  /// - Parameters:
  ///   - flags: The flags; none for an ordinary message.
  ///   - payload: The payload bytes (at most 4 GiB − 1).
  public init(flags: Flags = [], payload: [UInt8]) {
    self.flags = flags
    self.payload = payload
  }

  /// An envelope carrying `message` as JSON.
  public init(message: some WireMessage) {
    self.init(payload: message.jsonBytes)
  }

  /// The end-of-stream envelope carrying `endOfStream`.
  public init(endOfStream: ConnectEndOfStream) {
    self.init(flags: .endStream, payload: endOfStream.json.bytes)
  }

  /// Whether this is the stream's end-of-stream envelope.
  public var isEndOfStream: Bool { flags.contains(.endStream) }

  /// The envelope as it travels: flags, length, payload.
  ///
  /// - Complexity: O(*n*) in the payload's size.
  public var bytes: [UInt8] {
    let length = UInt32(payload.count)
    var result: [UInt8] = [flags.rawValue, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
    result.append(contentsOf: payload)
    return result
  }

  /// Decodes the payload as a message of type `type`.
  ///
  /// - Throws: `YorkieError` `invalidWireData` for an end-of-stream envelope or a payload
  ///   that is not such a message (with the failing field named), `unsupported` for a
  ///   compressed payload (this module does no decompression).
  public func decode<M: WireMessage>(_ type: M.Type) throws(YorkieError) -> M {
    guard !isEndOfStream else {
      throw YorkieError(.invalidWireData, "Connect stream: expected a \(M.self) message, found the end-of-stream envelope")
    }
    try checkUncompressed()
    return try M(jsonData: payload)
  }

  /// Decodes the payload of the end-of-stream envelope.
  ///
  /// - Throws: `YorkieError` `invalidWireData` when this is not the end-of-stream
  ///   envelope or its payload is malformed, `unsupported` for a compressed payload.
  public func decodeEndOfStream() throws(YorkieError) -> ConnectEndOfStream {
    guard isEndOfStream else {
      throw YorkieError(.invalidWireData, "Connect stream: expected the end-of-stream envelope, found a message")
    }
    try checkUncompressed()
    return try ConnectEndOfStream(jsonData: payload)
  }

  private func checkUncompressed() throws(YorkieError) {
    guard !flags.contains(.compressed) else {
      throw YorkieError(.unsupported, "Connect stream: compressed envelopes are not supported; do not advertise Connect-Accept-Encoding")
    }
  }
}
