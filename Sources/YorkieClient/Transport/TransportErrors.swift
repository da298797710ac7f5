import Foundation
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// How the Connect transport reports failures.
//
// Design: the transport throws the SDK's one error type, `YorkieError`, with the codes of
// ClientErrorCodes.swift rather than a separate `ClientError` enum. Apps then catch one type everywhere (documents,
// wire data, network), and the codes stay open-ended as `YorkieError.Code` intends. The
// details a caller switches on are not parsed out of the message: the error's `underlying`
// is the `ConnectError` the server sent (or built from the HTTP status) for an error answer,
// and the `URLError` when no answer came; the accessors below read them
// (`connectCode`, `serverCode`, `urlErrorCode`). The codes live in the client module,
// because only the client talks to a server; `CRDT` stays free of networking.
//
// Messages name the method and the code, never a header: the auth token can never leak into
// an error message or a log line that prints one.

extension YorkieError {
  /// The Connect error the server answered with (code, message and details as sent); nil
  /// when the error did not come from a server's answer.
  public var connectError: ConnectError? { underlying as? ConnectError }

  /// The Connect code of a server's error answer (`failed_precondition`, `unauthenticated`, …).
  public var connectCode: ConnectCode? { connectError?.code }

  /// Yorkie's name of a server's error answer, the `code` of its `ErrorInfo` metadata
  /// (`ErrClientNotFound`, `ErrDocumentNotAttached`, …); nil when the server sent none.
  public var serverCode: String? { connectError?.yorkieCode }

  /// The `URLError` code of an error where no answer came (`.cannotConnectToHost`,
  /// `.timedOut`, `.networkConnectionLost`, and on Linux `.unknown` for a stream the server
  /// closed early); nil for other errors.
  public var urlErrorCode: URLError.Code? { (underlying as? URLError)?.code }

  /// The error for a Connect error the server answered `method` with.
  static func server(_ method: String, _ error: ConnectError) -> YorkieError {
    var text = "\(method): the server answered \(error.code.rawValue)"
    if let name = error.yorkieCode { text += " (\(name))" }
    if !error.message.isEmpty { text += ": \(error.message)" }
    return YorkieError(.forServerAnswer(error), text, underlying: error)
  }

  /// The error for a non-200 answer to `method` without a Connect error body: the code is
  /// inferred from the HTTP status as Connect specifies. A 404 there most likely means that
  /// `baseURL` is wrong (a path such as `http://host:8080/api`, or a server that is not Yorkie):
  /// the message names the URL and asks whether it is the server's base URL.
  static func httpStatus(_ method: String, _ status: Int, baseURL: URL) -> YorkieError {
    if status == 413 {
      // Connect infers nothing better than `unknown` for 413, which a client would retry: the
      // same request is refused again, for ever.
      let error = ConnectError(code: .unknown, message: "HTTP status 413: the request is larger than the server accepts")
      return YorkieError(.requestTooLarge, "\(method): the server refused the request as too large (HTTP 413)", underlying: error)
    }
    let code = ConnectCode.inferred(fromHTTPStatus: status)
    let error = server(method, ConnectError(code: code, message: "HTTP status \(status) without a Connect error body"))
    guard status == 404 else { return error }
    // The code stays the one Connect infers (`unimplemented`); only the message helps.
    return YorkieError(
      error.code,
      "\(error.message): is \(baseURL.absoluteString) the server's base URL? (A 404 comes from a wrong path, such as http://host:8080/api for http://host:8080, or from a server that is not Yorkie.)",
      underlying: error.underlying)
  }

  /// The error for a call to `method` that got no answer.
  static func transport(_ method: String, _ error: URLError) -> YorkieError {
    YorkieError(.forTransportFailure(error.code), "\(method): no answer from the server (URLError \(error.code.rawValue))", underlying: error)
  }

  /// The error for a failure of `method` that is not a `URLError` (rare: Foundation reports
  /// network failures as `URLError`s).
  static func transport(_ method: String, other error: any Error) -> YorkieError {
    YorkieError(.unavailable, "\(method): the request failed (\(type(of: error)))", underlying: error)
  }

  /// The error for a 200 answer to `method` whose body does not decode.
  static func malformed(_ method: String, _ error: YorkieError) -> YorkieError {
    YorkieError(.invalidWireData, "\(method): malformed answer: \(error.message)", field: error.field, underlying: error)
  }

  /// The error for a token provider that threw before `method` was sent.
  static func tokenProvider(_ method: String, _ error: any Error) -> YorkieError {
    YorkieError(.authTokenUnavailable, "\(method): the auth token provider failed", underlying: error)
  }
}

extension YorkieError {
  /// The error for a non-200 answer to `method` of the server at `baseURL`: the Connect error
  /// of a JSON body, or the code inferred from `status` when the body is not one (a proxy's
  /// error page, an empty 405).
  static func errorAnswer(_ method: String, status: Int, contentType: String?, body: Data, baseURL: URL) -> YorkieError {
    let isJSON = contentType.map { $0.lowercased().hasPrefix("application/json") } ?? false
    if isJSON, let error = try? ConnectError(jsonData: body) { return server(method, error) }
    return httpStatus(method, status, baseURL: baseURL)
  }
}
