import Foundation
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The codes of the errors a client throws and reports. A server's error answer gets the code
// named after its ErrorInfo (`ErrClientNotActivated` → `clientNotActivated`), or after its
// Connect code when the server sent no ErrorInfo (`resource_exhausted` → `resourceExhausted`);
// the raw values stay readable through `serverCode` and `connectCode`. A call that got no
// answer is `unavailable`, `timedOut` or `cancelled`. The client's own refusals (attach before
// activate, detach of a document it does not hold) use the same codes a server would.

extension YorkieError.Code {
  /// The client is not activated (locally, or the server deactivated it): activate again.
  public static let clientNotActivated = YorkieError.Code("clientNotActivated")
  /// The server does not know the client (it was deactivated and forgotten): activate again.
  public static let clientNotFound = YorkieError.Code("clientNotFound")
  /// The document is not attached (to this client, or on the server).
  public static let documentNotAttached = YorkieError.Code("documentNotAttached")
  /// The document is attached already (to this or another client).
  public static let documentAlreadyAttached = YorkieError.Code("documentAlreadyAttached")
  /// This document object was detached before; a detached `Document` cannot attach again
  /// (make a new one).
  public static let documentAlreadyDetached = YorkieError.Code("documentAlreadyDetached")
  /// The server does not know the document.
  public static let documentNotFound = YorkieError.Code("documentNotFound")
  /// The server compacted the document since it was attached: detach it and attach a new
  /// `Document` with the same key.
  public static let epochMismatch = YorkieError.Code("epochMismatch")
  /// The server refused the credentials (see ``YorkieError/Code/permissionDenied`` for a
  /// refusal of the action).
  public static let unauthenticated = YorkieError.Code("unauthenticated")
  /// The server's auth webhook refused the action.
  public static let permissionDenied = YorkieError.Code("permissionDenied")
  /// A limit of the server was reached (attachments per document, subscribers, …).
  public static let resourceExhausted = YorkieError.Code("resourceExhausted")
  /// No answer came: the server could not be reached or the connection broke. Retrying later
  /// may help.
  public static let unavailable = YorkieError.Code("unavailable")
  /// No answer came in time (``ClientTimeouts``).
  public static let timedOut = YorkieError.Code("timedOut")
  /// The call was cancelled before it completed.
  public static let cancelled = YorkieError.Code("cancelled")
  /// The auth token provider threw instead of giving a token; the call was not sent.
  public static let authTokenUnavailable = YorkieError.Code("authTokenUnavailable")

  /// The code of a server's error answer: named after its ErrorInfo code (`ErrEpochMismatch`
  /// → `epochMismatch`), else after its Connect code (`failed_precondition` →
  /// `failedPrecondition`).
  static func forServerAnswer(_ error: ConnectError) -> YorkieError.Code {
    if let name = error.yorkieCode, name.hasPrefix("Err"), name.count > 3 {
      let bare = name.dropFirst(3)
      return YorkieError.Code(bare.prefix(1).lowercased() + bare.dropFirst())
    }
    let parts = error.code.rawValue.split(separator: "_")
    guard let first = parts.first else { return .unavailable }
    return YorkieError.Code(String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
  }

  /// The code of a call that got no answer.
  static func forTransportFailure(_ code: URLError.Code) -> YorkieError.Code {
    switch code {
    case .timedOut: return .timedOut
    case .cancelled: return .cancelled
    default: return .unavailable
    }
  }
}

extension YorkieError.Code {
  /// The server does not know the channel session (it expired): attach the channel again.
  public static let sessionNotFound = YorkieError.Code("sessionNotFound")
  /// A channel with the same key is attached to this client already, or this `Channel` object
  /// is attached to another client (make a new `Channel`).
  public static let channelAlreadyAttached = YorkieError.Code("channelAlreadyAttached")
  /// The channel is not attached to this client (never attached, detached already, or its
  /// attach gave up).
  public static let channelNotAttached = YorkieError.Code("channelNotAttached")
}

extension YorkieError.Code {
  /// The server refused a request as too large (HTTP 413): a single change bigger than the
  /// server's body limit. Retrying sends the same request and cannot help.
  public static let requestTooLarge = YorkieError.Code("requestTooLarge")
}

extension YorkieError.Code {
  /// This replica could not apply changes the server sent (a peer's change names an element
  /// or a piece of text this replica no longer has, for one): a failure here, not a refusal by
  /// the server, and nothing of them was applied. The document's sync stops; its
  /// ``StopNotice`` offers ``StopNotice/Recovery/reattach`` (``Client/reattach(_:)``), and
  /// ``Client/detach(_:)`` still ends the attachment. The error's `underlying` is the
  /// replica's own error.
  public static let changeNotApplicable = YorkieError.Code("changeNotApplicable")
}

extension YorkieError.Code {
  /// The client's document store (``ClientOptions/storage``) could not read or write: a full
  /// disk, a folder without permission, a folder another client holds. An update that could
  /// not be stored is not applied.
  public static let storageFailed = YorkieError.Code("storageFailed")
}
