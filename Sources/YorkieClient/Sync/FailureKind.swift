import CRDT
import Foundation
import YorkieProtocol

/// What a failed call means for the loop that made it.
enum FailureKind: Equatable {
  /// Try again after a delay (no answer, a busy or restarting server, a cut stream).
  case retryable
  /// The token was refused: ask for a new one, then try again.
  case unauthenticated
  /// Retrying cannot help: stop and tell the app what to do.
  case fatal(remedy: String)

  /// Sorts `error` (Yorkie's JS SDK retries `canceled`, `unknown`, `resource_exhausted` and
  /// `unavailable`; so do we, plus timeouts, `aborted` and `internal`, which a restarting server
  /// answers with).
  init(_ error: any Error) {
    guard let error = error as? YorkieError else {
      self = .retryable
      return
    }
    switch error.code {
    case .unavailable, .timedOut, .cancelled:
      self = .retryable
    case .unauthenticated:
      self = .unauthenticated
    case .authTokenUnavailable:
      self = .retryable
    case .clientNotActivated, .clientNotFound:
      self = .fatal(remedy: "the server deactivated this client: activate it again and attach new Document objects")
    case .epochMismatch:
      self = .fatal(remedy: "the server compacted the document: detach it and attach a new Document with the same key")
    case .documentNotFound, .documentNotAttached, .documentAlreadyDetached:
      self = .fatal(remedy: "the document is no longer attached on the server (removed, or detached by housekeeping): attach a new Document")
    case .storageFailed:
      // The client's own store (a full disk, a folder taken away): the answer was not applied
      // because it could not be recorded; retrying pushes again (the server skips what it
      // has) and pulls again, and succeeds once the store can write.
      self = .retryable
    case .permissionDenied:
      self = .fatal(remedy: "the auth webhook refused this action: check the user's rights")
    case .requestTooLarge:
      self = .fatal(remedy: "a change is larger than the server accepts: make smaller updates (or raise the server's body limit)")
    case .changeNotApplicable:
      self = .fatal(
        remedy: "this replica could not apply the server's changes (a failure here, not a refusal by the server): call reattach(_:) to attach the document afresh from the server (its last content and unsent edits are reported in a documentReset event), or detach it")
    case .invalidWireData, .invalidChangePack, .changeNotReady, .actorConflict:
      self = .fatal(remedy: "the server's answer could not be applied; this is a bug, please report it with the log")
    case let code where error.connectCode == nil && Self.malformedDataCodes.contains(code):
      // Malformed data in the server's answer with a more precise code than invalidWireData
      // (the same codes with a Connect code are the server refusing this client's request).
      self = .fatal(remedy: "the server's answer could not be applied; this is a bug, please report it with the log")
    default:
      switch error.connectCode {
      case .canceled?, .unknown?, .resourceExhausted?, .unavailable?, .deadlineExceeded?, .aborted?, .internal?:
        self = .retryable
      case .unauthenticated?:
        self = .unauthenticated
      default:
        self = .fatal(remedy: "the server refused the request (\(error.code)): it will not succeed by retrying")
      }
    }
  }

  /// The codes that decoding gives malformed wire data besides `invalidWireData`.
  private static let malformedDataCodes: Set<YorkieError.Code> = [.invalidActorID, .invalidValueEncoding, .invalidSplitLevel]

  /// The recovery that the stop notice of `error` offers, if any.
  static func recovery(for error: YorkieError) -> StopNotice.Recovery? {
    error.code == .changeNotApplicable ? .reattach : nil
  }
}
