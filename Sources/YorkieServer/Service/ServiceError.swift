import YorkieProtocol

/// An error a Yorkie RPC answers with: a Connect code, a human message, and (for most errors)
/// the `ErrorInfo` metadata code that clients key on (`ErrClientNotFound`, …).
///
/// Yorkie attaches an `ErrorInfo` detail to the errors it creates through its error catalogue and
/// none to the few it creates directly as Connect errors (a clientSeq gap, a checkpoint ahead of
/// the server on push, a missing API key); ``metadataCode`` is `nil` for those, so the wire shows
/// no `details` at all, as the recordings in `Fixtures/wire/16-errors.json` do.
package struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The Connect code (and with it the HTTP status).
  package var code: ConnectCode
  /// The human text; never parsed by clients.
  package var message: String
  /// The `code` entry of the ErrorInfo metadata, or `nil` for an error without details. May be
  /// the empty string: Yorkie sends `"code": ""` for a few errors.
  package var metadataCode: String?
  /// Further ErrorInfo metadata (the webhook's `reason`).
  package var extraMetadata: [String: String]

  /// An error with the given parts.
  package init(_ code: ConnectCode, _ message: String, metadataCode: String?, extraMetadata: [String: String] = [:]) {
    self.code = code
    self.message = message
    self.metadataCode = metadataCode
    self.extraMetadata = extraMetadata
  }

  /// The error as the Connect protocol carries it: with one `google.rpc.ErrorInfo` detail whose
  /// reason is the code's name, unless ``metadataCode`` is `nil`.
  package var connectError: ConnectError {
    guard let metadataCode else { return ConnectError(code: code, message: message) }
    var metadata = extraMetadata
    metadata["code"] = metadataCode
    let info = ErrorInfo(reason: code.rawValue, metadata: metadata)
    // connect-go also renders the detail as JSON under `debug`; clients may read either.
    let debugMetadata = WireJSON.object(metadata.keys.sorted().map { WireJSON.Member($0, .string(metadata[$0]!)) })
    let debug = WireJSON.object([.init("reason", .string(info.reason)), .init("metadata", debugMetadata)])
    return ConnectError(code: code, message: message, details: [ConnectErrorDetail(type: "google.rpc.ErrorInfo", value: info.binary, debug: debug)])
  }

  package var description: String { "\(code.rawValue): \(message)" + (metadataCode.map { " [\($0)]" } ?? "") }
}

extension ServiceError {
  // The catalogue of yorkie-protocol.md section 5.8, one constructor per situation.

  /// A client id that is not 24 hexadecimal characters.
  package static func invalidHexString(_ text: String) -> ServiceError {
    let bytes = text.utf8.count
    let message = bytes % 2 == 0 && text.utf8.allSatisfy(\.isHexDigitASCII)
      ? "decoded length \(bytes / 2): invalid hex string" : "\(text): invalid hex string"
    return ServiceError(.invalidArgument, message, metadataCode: "ErrInvalidHexString")
  }
  /// A document, session or revision id that is not an ObjectID.
  package static func invalidID(_ text: String) -> ServiceError {
    ServiceError(.invalidArgument, "\(text): invalid ID", metadataCode: "ErrInvalidID")
  }
  /// A document key outside Yorkie's slug rules.
  package static let invalidKey = ServiceError(.invalidArgument, "invalid key, slug with 4-120 characters", metadataCode: "ErrInvalidKey")
  /// A channel key outside the channel path rules.
  package static let invalidChannelKey = ServiceError(.invalidArgument, "channel key is invalid", metadataCode: "ErrInvalidChannelKey")
  /// An empty client key on activation.
  package static let invalidClientKey = ServiceError(.invalidArgument, "invalid client key", metadataCode: "ErrInvalidClientKey")
  /// A request without its change pack.
  package static let packRequired = ServiceError(.invalidArgument, "pack required", metadataCode: "ErrPackRequired")
  /// A change pack without its checkpoint.
  package static let checkpointRequired = ServiceError(.invalidArgument, "checkpoint required", metadataCode: "ErrCheckpointRequired")
  /// A pushed change whose clientSeq skips or repeats a number (no details, as in Yorkie).
  package static let clientSeqGap = ServiceError(.invalidArgument, "change clientSeq must increase by one", metadataCode: nil)
  /// A push whose checkpoint is ahead of the document (no details, as in Yorkie).
  package static let checkpointAhead = ServiceError(.invalidArgument, "checkpoint serverSeq exceeds server state", metadataCode: nil)
  /// A pull whose checkpoint is ahead of what the document held before the push.
  package static func invalidServerSeq(_ requested: Int64, _ initial: Int64) -> ServiceError {
    ServiceError(.invalidArgument, "invalid server seq: requested \(requested), document at \(initial)", metadataCode: "ErrInvalidServerSeq")
  }
  /// An unknown client id.
  package static func clientNotFound(_ id: String) -> ServiceError {
    ServiceError(.notFound, "\(id): client not found", metadataCode: "ErrClientNotFound")
  }
  /// A deactivated client.
  package static func clientNotActivated(_ id: String) -> ServiceError {
    ServiceError(.failedPrecondition, "ensure activated client(\(id)): client not activated", metadataCode: "ErrClientNotActivated")
  }
  /// A document RPC on a document the client has not attached.
  package static func documentNotAttached(document: String, client: String) -> ServiceError {
    ServiceError(.failedPrecondition, "ensure attached \(document) in client(\(client)): document not attached", metadataCode: "ErrDocumentNotAttached")
  }
  /// Re-attaching a document object that was detached.
  package static func documentAlreadyDetached(document: String, client: String) -> ServiceError {
    ServiceError(.failedPrecondition, "attach \(document) in client(\(client)): document already detached", metadataCode: "ErrDocumentAlreadyDetached")
  }
  /// An unknown document id.
  package static func documentNotFound(_ id: String) -> ServiceError {
    ServiceError(.notFound, "find document of \(id): document not found", metadataCode: "ErrDocumentNotFound")
  }
  /// An unknown channel session.
  package static func sessionNotFound(_ id: String, action: String) -> ServiceError {
    ServiceError(.notFound, "\(action) \(id): session not found", metadataCode: "ErrSessionNotFound")
  }
  /// A change or ticket whose actor is not 12 bytes.
  package static func invalidActorID(length: Int) -> ServiceError {
    ServiceError(.invalidArgument, "bytes length \(length): invalid actor id", metadataCode: "ErrInvalidActorID")
  }
  /// An unknown API key.
  package static func projectNotFound() -> ServiceError {
    ServiceError(.notFound, "project not found", metadataCode: "ErrProjectNotFound")
  }
  /// A request without an API key on a server without a default project (no details, as in
  /// Yorkie, which creates it directly as a Connect error).
  package static let apiKeyNotProvided = ServiceError(.unauthenticated, "api key is not provided", metadataCode: nil)
  /// The auth webhook denied the call (403); `reason` is the webhook's.
  package static func permissionDenied(reason: String) -> ServiceError {
    ServiceError(.permissionDenied, "not allowed", metadataCode: "ErrPermissionDenied", extraMetadata: ["reason": reason])
  }
  /// The auth webhook did not accept the token (401); `reason` is the webhook's. Clients fetch a
  /// fresh token and retry.
  package static func unauthenticated(reason: String) -> ServiceError {
    ServiceError(.unauthenticated, "unauthenticated", metadataCode: "ErrUnauthenticated", extraMetadata: ["reason": reason])
  }
  /// The auth webhook answered a status other than 200, 401 and 403.
  package static func webhookUnexpectedStatus(_ status: Int) -> ServiceError {
    ServiceError(.internal, "\(status): unexpected status code from webhook", metadataCode: "ErrUnexpectedStatusCode")
  }
  /// The auth webhook's body is not the expected JSON object, or contradicts its status
  /// (200 with `allowed: false`, 403 with `allowed: true`, …). `detail` must not quote the body.
  package static func webhookInvalidResponse(_ detail: String) -> ServiceError {
    ServiceError(.internal, "\(detail): invalid JSON response from webhook", metadataCode: "ErrInvalidJSONResponse")
  }
  /// The auth webhook did not answer within `seconds`.
  package static func webhookTimeout(seconds: Double) -> ServiceError {
    ServiceError(.internal, "no answer within \(seconds) s: webhook timeout", metadataCode: "ErrWebhookTimeout")
  }
  /// The auth webhook could not be reached at all (`detail`: refused, unknown host, …). The code
  /// is this server's: Yorkie sends this case as `internal` without details.
  package static func webhookUnreachable(_ detail: String) -> ServiceError {
    ServiceError(.internal, "post to webhook: \(detail): webhook unreachable", metadataCode: "ErrWebhookUnreachable")
  }
  /// Too many Watch streams on one document.
  package static func tooManySubscribers(_ limit: Int) -> ServiceError {
    ServiceError(.resourceExhausted, "\(limit) subscribers allowed per document: too many subscribers", metadataCode: "ErrTooManySubscribers")
  }
  /// Too many clients attached to one document (Yorkie's metadata code is empty).
  package static func attachmentLimit(_ limit: Int) -> ServiceError {
    ServiceError(.resourceExhausted, "\(limit) attachments allowed per document: attachment limit exceeded", metadataCode: "")
  }
  /// The server is stopping (streams end with it).
  package static let canceled = ServiceError(.canceled, "context canceled", metadataCode: nil)
}

extension UInt8 {
  /// Whether the byte is an ASCII hexadecimal digit.
  var isHexDigitASCII: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
