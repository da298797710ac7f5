/// An HTTP status code with its reason phrase.
package struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
  /// The three-digit code.
  package var code: Int
  /// The reason phrase of the status line (informational only; clients ignore it).
  package var reasonPhrase: String

  /// A status with an explicit reason phrase.
  package init(code: Int, reasonPhrase: String) {
    self.code = code
    self.reasonPhrase = reasonPhrase
  }

  /// The status for `code`, with the standard reason phrase of RFC 9110 for the codes this
  /// server uses and an empty one for any other code.
  package init(code: Int) {
    self.init(code: code, reasonPhrase: Self.standardReasonPhrase(for: code) ?? "")
  }

  /// `100 Continue`: the interim answer to `Expect: 100-continue`.
  package static let `continue` = HTTPStatus(code: 100)
  /// `200 OK`.
  package static let ok = HTTPStatus(code: 200)
  /// `400 Bad Request`.
  package static let badRequest = HTTPStatus(code: 400)
  /// `401 Unauthorized`.
  package static let unauthorized = HTTPStatus(code: 401)
  /// `403 Forbidden`.
  package static let forbidden = HTTPStatus(code: 403)
  /// `404 Not Found`.
  package static let notFound = HTTPStatus(code: 404)
  /// `408 Request Timeout`.
  package static let requestTimeout = HTTPStatus(code: 408)
  /// `413 Content Too Large`.
  package static let contentTooLarge = HTTPStatus(code: 413)
  /// `415 Unsupported Media Type`.
  package static let unsupportedMediaType = HTTPStatus(code: 415)
  /// `429 Too Many Requests`.
  package static let tooManyRequests = HTTPStatus(code: 429)
  /// `431 Request Header Fields Too Large`.
  package static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
  /// `500 Internal Server Error`.
  package static let internalServerError = HTTPStatus(code: 500)
  /// `501 Not Implemented`.
  package static let notImplemented = HTTPStatus(code: 501)
  /// `503 Service Unavailable`.
  package static let serviceUnavailable = HTTPStatus(code: 503)
  /// `505 HTTP Version Not Supported`.
  package static let httpVersionNotSupported = HTTPStatus(code: 505)

  /// The reason phrase RFC 9110 gives `code`, for the codes this server sends; `nil` otherwise.
  package static func standardReasonPhrase(for code: Int) -> String? {
    switch code {
    case 100: "Continue"
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 499: "Client Closed Request"
    case 505: "HTTP Version Not Supported"
    default: nil
    }
  }

  /// `"404 Not Found"`.
  package var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }
}
