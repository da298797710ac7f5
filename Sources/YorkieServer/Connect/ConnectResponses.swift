import CRDT
import Foundation
import YorkieProtocol

/// The bytes and headers of Connect answers (yorkie-protocol.md sections 2.3 and 2.4).
enum ConnectResponses {
  /// The content types a unary call accepts.
  static let unaryContentTypes = ["application/json", "application/json; charset=utf-8"]
  /// The content types a streaming call accepts.
  static let streamContentTypes = ["application/connect+json", "application/connect+json; charset=utf-8"]

  /// Whether `contentType` is one of `accepted` (case and spacing around `;` ignored).
  static func accepts(_ contentType: String?, _ accepted: [String]) -> Bool {
    guard let contentType else { return false }
    let normalized = contentType.lowercased().split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    return accepted.contains(normalized)
  }

  /// A unary success: `200` with the message as JSON.
  static func unary(_ message: some WireMessage, writer: ResponseWriter) {
    writer.send(status: .ok, headers: ["Content-Type": "application/json"], body: message.jsonBytes)
  }

  /// A unary error: the code's HTTP status with the error as JSON.
  static func unaryError(_ error: ConnectError, writer: ResponseWriter) {
    writer.send(status: HTTPStatus(code: error.code.httpStatus), headers: ["Content-Type": "application/json"], body: error.json.bytes)
  }

  /// The end-of-stream envelope: clean, or carrying `error`.
  static func endOfStream(_ error: ConnectError?) -> [UInt8] {
    ConnectEnvelope(endOfStream: ConnectEndOfStream(error: error)).bytes
  }

  /// The error a request body that does not decode gets (Connect's own, no details).
  static func unmarshalError(_ error: YorkieError) -> ConnectError {
    ConnectError(code: .invalidArgument, message: "unmarshal message: \(error.message)")
  }

  /// The error of an empty unary body.
  static let zeroLengthError = ConnectError(code: .invalidArgument, message: "unmarshal message: zero-length payload is not a valid JSON object")
}

