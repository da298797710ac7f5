import Foundation
import Testing
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@testable import YorkieClient

@Suite("Failure classification and error codes")
struct FailureKindTests {
  /// The error the client makes of a server's answer `code` with ErrorInfo code `name`.
  static func answer(_ code: ConnectCode, _ name: String?) -> YorkieError {
    var details: [ConnectErrorDetail] = []
    if let name { details.append(ConnectErrorDetail(ErrorInfo(reason: name, metadata: ["code": name]))) }
    return YorkieError.server("PushPullChanges", ConnectError(code: code, message: "m", details: details))
  }

  @Test("a server's answer is coded after its ErrorInfo, else after its Connect code")
  func codes() {
    #expect(Self.answer(.failedPrecondition, "ErrClientNotActivated").code == .clientNotActivated)
    #expect(Self.answer(.failedPrecondition, "ErrEpochMismatch").code == .epochMismatch)
    #expect(Self.answer(.notFound, "ErrDocumentNotFound").code == .documentNotFound)
    #expect(Self.answer(.unauthenticated, "ErrUnauthenticated").code == .unauthenticated)
    #expect(Self.answer(.resourceExhausted, "").code == .resourceExhausted, "Yorkie's attachment limit has an empty code")
    #expect(Self.answer(.invalidArgument, nil).code == YorkieError.Code("invalidArgument"))
    #expect(Self.answer(.permissionDenied, "ErrPermissionDenied").serverCode == "ErrPermissionDenied")
    #expect(YorkieError.transport("Watch", URLError(.timedOut)).code == .timedOut)
    #expect(YorkieError.transport("Watch", URLError(.cannotConnectToHost)).code == .unavailable)
    #expect(YorkieError.transport("Watch", URLError(.networkConnectionLost)).code == .unavailable)
  }

  @Test("what retrying can fix is retried; what it cannot stops with a remedy")
  func kinds() {
    let retryable: [YorkieError] = [
      Self.answer(.unavailable, nil), Self.answer(.canceled, nil), Self.answer(.unknown, nil),
      Self.answer(.resourceExhausted, "ErrTooManySubscribers"), Self.answer(.deadlineExceeded, nil),
      Self.answer(.internal, nil), Self.answer(.aborted, nil),
      YorkieError.transport("PushPullChanges", URLError(.timedOut)),
      YorkieError.transport("PushPullChanges", URLError(.networkConnectionLost)),
      YorkieError(.storageFailed, "the disk is full"),
    ]
    for error in retryable { #expect(FailureKind(error) == .retryable, "\(error)") }
    #expect(FailureKind(Self.answer(.unauthenticated, "ErrUnauthenticated")) == .unauthenticated)
    let fatal: [YorkieError] = [
      Self.answer(.failedPrecondition, "ErrClientNotActivated"), Self.answer(.notFound, "ErrClientNotFound"),
      Self.answer(.failedPrecondition, "ErrEpochMismatch"), Self.answer(.notFound, "ErrDocumentNotFound"),
      Self.answer(.failedPrecondition, "ErrDocumentNotAttached"), Self.answer(.permissionDenied, "ErrPermissionDenied"),
      Self.answer(.invalidArgument, "ErrInvalidKey"), YorkieError(.invalidWireData, "bad answer"),
    ]
    for error in fatal {
      guard case .fatal(let remedy) = FailureKind(error) else {
        Issue.record("\(error) is not fatal")
        continue
      }
      #expect(!remedy.isEmpty)
    }
    if case .fatal(let remedy) = FailureKind(Self.answer(.failedPrecondition, "ErrEpochMismatch")) {
      #expect(remedy.contains("attach a new Document"))
    }
  }

  @Test("malformed data in an answer is a bug to report whatever its precise code; the same code from the server is a refusal")
  func malformedAnswers() {
    let bug = FailureKind.fatal(remedy: "the server's answer could not be applied; this is a bug, please report it with the log")
    for code: YorkieError.Code in [.invalidWireData, .invalidActorID, .invalidValueEncoding, .invalidSplitLevel] {
      #expect(FailureKind(YorkieError(code, "changePack.changes[0]: bad")) == bug, "\(code)")
    }
    let refused = FailureKind(Self.answer(.invalidArgument, "ErrInvalidActorID"))
    #expect(refused == .fatal(remedy: "the server refused the request (invalidActorID): it will not succeed by retrying"))
  }
}
