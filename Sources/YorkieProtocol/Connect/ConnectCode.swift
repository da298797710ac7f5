import Foundation

/// Connect's error codes, with the HTTP status each one travels under.
///
/// The raw value is the code's name on the wire (`invalid_argument`).
public enum ConnectCode: String, Sendable, CaseIterable {
  /// The call was cancelled (also what a Yorkie server sends when a stream's deadline passes).
  case canceled
  /// An error without a better code.
  case unknown
  /// The request was malformed.
  case invalidArgument = "invalid_argument"
  /// The deadline passed.
  case deadlineExceeded = "deadline_exceeded"
  /// Something the request names does not exist.
  case notFound = "not_found"
  /// Something the request creates exists already.
  case alreadyExists = "already_exists"
  /// The caller may not do this.
  case permissionDenied = "permission_denied"
  /// A quota or limit was reached.
  case resourceExhausted = "resource_exhausted"
  /// The system is not in a state that allows the call (a document not attached, say).
  case failedPrecondition = "failed_precondition"
  /// The call was aborted, typically by a concurrency conflict.
  case aborted
  /// A value is out of its valid range.
  case outOfRange = "out_of_range"
  /// The server does not implement the call.
  case unimplemented
  /// An invariant of the server broke.
  case `internal`
  /// The service is unavailable for now; retrying may help.
  case unavailable
  /// Data was lost or corrupted.
  case dataLoss = "data_loss"
  /// The request carries no valid credentials.
  case unauthenticated

  /// The HTTP status of a unary error with this code.
  public var httpStatus: Int {
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
  /// (a proxy's error page, say), as Connect specifies.
  public static func inferred(fromHTTPStatus status: Int) -> ConnectCode {
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
