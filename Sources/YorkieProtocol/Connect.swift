import CRDT
import Foundation

// The Connect protocol's framing and errors (yorkie-protocol.md 2.3 and 2.4).

/// One enveloped message of a Connect stream: flags, then a big-endian 32-bit length, then the
/// payload.
package struct ConnectEnvelope: Sendable, Equatable {
  /// Flag bit: the payload is compressed.
  package static let compressedFlag: UInt8 = 0x01
  /// Flag bit: this is the end-of-stream message.
  package static let endStreamFlag: UInt8 = 0x02

  package var flags: UInt8
  package var payload: [UInt8]

  package init(flags: UInt8 = 0, payload: [UInt8]) {
    self.flags = flags
    self.payload = payload
  }

  package var isEndOfStream: Bool { flags & ConnectEnvelope.endStreamFlag != 0 }

  /// The envelope's bytes.
  package var bytes: [UInt8] {
    let length = UInt32(payload.count)
    return [flags, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
  }
}

/// Cuts a Connect stream into envelopes, however the bytes arrive: a chunk may hold several
/// envelopes or part of one.
package struct ConnectEnvelopeDecoder {
  /// Envelopes longer than this are refused (a corrupt length would otherwise buffer forever).
  package let maximumLength: Int
  private var buffer: [UInt8] = []
  private var consumed = 0

  package init(maximumLength: Int = 64 << 20) { self.maximumLength = maximumLength }

  /// Adds received bytes and returns every envelope they complete.
  package mutating func feed(_ chunk: some Sequence<UInt8>) throws(YorkieError) -> [ConnectEnvelope] {
    buffer.append(contentsOf: chunk)
    var envelopes: [ConnectEnvelope] = []
    while buffer.count - consumed >= 5 {
      let flags = buffer[consumed]
      let length = Int(buffer[consumed + 1]) << 24 | Int(buffer[consumed + 2]) << 16 | Int(buffer[consumed + 3]) << 8 | Int(buffer[consumed + 4])
      guard flags & ~(ConnectEnvelope.compressedFlag | ConnectEnvelope.endStreamFlag) == 0 else {
        throw YorkieError(.invalidWireData, "Connect stream: unknown envelope flags 0x\(String(flags, radix: 16))")
      }
      guard length <= maximumLength else {
        throw YorkieError(.invalidWireData, "Connect stream: an envelope of \(length) bytes exceeds the limit of \(maximumLength)")
      }
      guard buffer.count - consumed - 5 >= length else { break }
      envelopes.append(ConnectEnvelope(flags: flags, payload: Array(buffer[consumed + 5..<consumed + 5 + length])))
      consumed += 5 + length
    }
    if consumed > 0 && consumed * 2 >= buffer.count {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    return envelopes
  }

  /// Bytes received but not yet part of a complete envelope.
  package var pendingByteCount: Int { buffer.count - consumed }

  /// Call at the end of the stream: leftover bytes mean a truncated envelope.
  package func finish() throws(YorkieError) {
    guard pendingByteCount == 0 else {
      throw YorkieError(.invalidWireData, "Connect stream: \(pendingByteCount) bytes of a truncated envelope at the end")
    }
  }
}

/// Connect's error codes, with the HTTP status each one travels under.
package enum ConnectCode: String, Sendable, CaseIterable {
  case canceled, unknown, invalidArgument = "invalid_argument", deadlineExceeded = "deadline_exceeded", notFound = "not_found"
  case alreadyExists = "already_exists", permissionDenied = "permission_denied", resourceExhausted = "resource_exhausted"
  case failedPrecondition = "failed_precondition", aborted, outOfRange = "out_of_range", unimplemented, `internal`, unavailable
  case dataLoss = "data_loss", unauthenticated

  /// The HTTP status of a unary error with this code.
  package var httpStatus: Int {
    switch self {
    case .canceled: return 499
    case .unknown, .`internal`, .dataLoss: return 500
    case .invalidArgument, .failedPrecondition, .outOfRange: return 400
    case .deadlineExceeded: return 504
    case .notFound: return 404
    case .alreadyExists, .aborted: return 409
    case .permissionDenied: return 403
    case .resourceExhausted: return 429
    case .unimplemented: return 501
    case .unavailable: return 503
    case .unauthenticated: return 401
    }
  }

  /// The code a client infers from an HTTP status that came without a Connect error body
  /// (a proxy's error page, say).
  package static func inferred(fromHTTPStatus status: Int) -> ConnectCode {
    switch status {
    case 400: return .`internal`
    case 401: return .unauthenticated
    case 403: return .permissionDenied
    case 404: return .unimplemented
    case 429, 502, 503, 504: return .unavailable
    default: return .unknown
    }
  }
}

/// `google.rpc.ErrorInfo`, the detail Yorkie attaches to its errors (`metadata.code` is
/// Yorkie's error name, such as `ErrDocumentNotAttached`).
package struct ErrorInfo: Sendable, Equatable {
  package var reason: String
  package var domain: String
  package var metadata: [String: String]

  package init(reason: String = "", domain: String = "", metadata: [String: String] = [:]) {
    self.reason = reason
    self.domain = domain
    self.metadata = metadata
  }

  /// The binary protobuf encoding.
  package var binary: Data {
    var w = ProtoWriter()
    w.string(1, reason)
    w.string(2, domain)
    for key in metadata.keys.sorted() {
      w.message(3) { w in
        w.string(1, key)
        w.string(2, metadata[key]!)
      }
    }
    return w.data
  }

  /// Decodes the binary protobuf encoding.
  package init(binary: Data) throws(YorkieError) {
    var info = ErrorInfo()
    // The binary reader lives in CRDT and throws untyped; every error it raises is a YorkieError.
    do {
    try ProtoReader.withReader(binary, context: "ErrorInfo") { r in
      while let (field, type) = try r.nextField() {
        switch field {
        case 1: try r.expect(type, .lengthDelimited, field: field); info.reason = try r.string()
        case 2: try r.expect(type, .lengthDelimited, field: field); info.domain = try r.string()
        case 3:
          try r.expect(type, .lengthDelimited, field: field)
          var entry = try r.message()
          var key = ""
          var value = ""
          while let (field, type) = try entry.nextField() {
            switch field {
            case 1: try entry.expect(type, .lengthDelimited, field: field); key = try entry.string()
            case 2: try entry.expect(type, .lengthDelimited, field: field); value = try entry.string()
            default: try entry.skip(type)
            }
          }
          info.metadata[key] = value
        default: try r.skip(type)
        }
      }
    }
    } catch {
      throw error as? YorkieError ?? YorkieError(.invalidWireData, "ErrorInfo: \(error)", underlying: error)
    }
    self = info
  }
}

/// One `details` entry of a Connect error.
package struct ConnectErrorDetail: Sendable, Equatable {
  /// The detail's protobuf type, such as `google.rpc.ErrorInfo`.
  package var type: String
  /// The binary message.
  package var value: Data
  /// connect-go's JSON rendering of the same message, when the server knows it.
  package var debug: WireJSON?

  package init(type: String, value: Data, debug: WireJSON? = nil) {
    self.type = type
    self.value = value
    self.debug = debug
  }

  /// The detail as an `ErrorInfo`, when it is one.
  package var errorInfo: ErrorInfo? {
    guard type == "google.rpc.ErrorInfo" else { return nil }
    return try? ErrorInfo(binary: value)
  }
}

/// A Connect error: the JSON body of a failed unary call, or the `error` of an end-of-stream
/// message.
package struct ConnectError: Error, Sendable, Equatable {
  package var code: ConnectCode
  package var message: String
  package var details: [ConnectErrorDetail]

  package init(code: ConnectCode, message: String = "", details: [ConnectErrorDetail] = []) {
    self.code = code
    self.message = message
    self.details = details
  }

  /// Yorkie's error name from the first `ErrorInfo` detail (`ErrDocumentNotAttached`), if any.
  package var yorkieCode: String? {
    details.lazy.compactMap { $0.errorInfo?.metadata["code"] }.first
  }

  package init(json: WireJSON, path: String = "error") throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    let codeName = try r.string("code")
    guard let code = ConnectCode(rawValue: codeName) else { throw r.error("code", "unknown Connect code \(codeName.debugDescription)") }
    var details: [ConnectErrorDetail] = []
    if let list = r.value("details") {
      guard case .array(let items) = list else { throw r.error("details", "expected an array") }
      for (index, item) in items.enumerated() {
        let d = try ProtoJSONReader(item, path: "\(path).details[\(index)]")
        // Connect writes the value as unpadded base64; the lenient decoder pads it.
        details.append(ConnectErrorDetail(type: try d.string("type"), value: try d.bytes("value"), debug: d.value("debug")))
      }
    }
    self.init(code: code, message: try r.string("message"), details: details)
  }

  package var json: WireJSON {
    var members: [WireJSON.Member] = [.init("code", .string(code.rawValue))]
    if !message.isEmpty { members.append(.init("message", .string(message))) }
    if !details.isEmpty {
      members.append(.init("details", .array(details.map { detail in
        var entry: [WireJSON.Member] = [.init("type", .string(detail.type))]
        var value = detail.value.base64EncodedString()
        while value.hasSuffix("=") { value.removeLast() }
        entry.append(.init("value", .string(value)))
        if let debug = detail.debug { entry.append(.init("debug", debug)) }
        return .object(entry)
      })))
    }
    return .object(members)
  }
}

/// The payload of a stream's end-of-stream envelope: `{}` or an error, with trailers.
package struct ConnectEndOfStream: Sendable, Equatable {
  package var error: ConnectError?
  package var metadata: [String: [String]]

  package init(error: ConnectError? = nil, metadata: [String: [String]] = [:]) {
    self.error = error
    self.metadata = metadata
  }

  package init(json: WireJSON) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: "endOfStream")
    var metadata: [String: [String]] = [:]
    if case .object(let members)? = r.value("metadata") {
      for member in members {
        guard case .array(let values) = member.value else { throw r.error("metadata.\(member.key)", "expected an array of strings") }
        metadata[member.key] = try values.map { (value) throws(YorkieError) in
          guard case .string(let s) = value else { throw r.error("metadata.\(member.key)", "expected a string") }
          return s
        }
      }
    }
    self.init(error: try r.value("error").map { (error) throws(YorkieError) in try ConnectError(json: error, path: "endOfStream.error") }, metadata: metadata)
  }

  package var json: WireJSON {
    var members: [WireJSON.Member] = []
    if let error { members.append(.init("error", error.json)) }
    if !metadata.isEmpty {
      members.append(.init("metadata", .object(metadata.keys.sorted().map { .init($0, .array(metadata[$0]!.map { .string($0) })) })))
    }
    return .object(members)
  }
}
