import Foundation

/// The answer of an auth webhook, `{"allowed": bool, "reason": string}`, with the HTTP status it
/// came with (yorkie-protocol.md section 5.7).
struct AuthWebhookResponse: Sendable, Hashable {
  /// The HTTP status (200, 401 or 403; other statuses are never parsed).
  var status: Int
  /// Whether the webhook allows the call.
  var allowed: Bool
  /// Why, in the webhook's words; passed on to the client as ErrorInfo metadata `reason`.
  var reason: String

  /// The answer `status` with the given fields.
  init(status: Int, allowed: Bool, reason: String) {
    self.status = status
    self.allowed = allowed
    self.reason = reason
  }

  /// The answer with status `status` and the JSON body `body`, or `nil` when the body is not a
  /// JSON object or its fields have the wrong types. As with Go's decoder, absent or `null`
  /// fields take their zero value (`false`, `""`) and unknown fields are ignored.
  init?(status: Int, body: Data) {
    guard let fields = try? JSONDecoder().decode(Fields.self, from: body) else { return nil }
    self.init(status: status, allowed: fields.allowed ?? false, reason: fields.reason ?? "")
  }

  /// The JSON fields of an answer.
  private struct Fields: Decodable {
    /// `allowed`, if present and not null.
    var allowed: Bool?
    /// `reason`, if present and not null.
    var reason: String?
  }

  /// What the answer means for the RPC: nothing (allowed) or the error the client gets.
  ///
  /// - Throws: `permission_denied`/`ErrPermissionDenied` for 403 with `allowed: false`,
  ///   `unauthenticated`/`ErrUnauthenticated` for 401 with `allowed: false` (both with `reason`),
  ///   and `internal`/`ErrInvalidJSONResponse` for a status that contradicts `allowed`.
  func verdict() throws(ServiceError) {
    switch (status, allowed) {
    case (200, true): return
    case (403, false): throw .permissionDenied(reason: reason)
    case (401, false): throw .unauthenticated(reason: reason)
    default: throw .webhookInvalidResponse("status \(status) with allowed=\(allowed)")
    }
  }
}
