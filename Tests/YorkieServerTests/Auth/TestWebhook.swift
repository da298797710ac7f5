import CRDT
import Foundation

@testable import YorkieServer

/// An auth webhook for the tests: our own ``HTTPServer`` on 127.0.0.1 (a free port), recording
/// every request it gets and answering each as `answer` says.
final class TestWebhook: Sendable {
  /// How the webhook answers one request.
  enum Answer: Sendable {
    /// A full response with this status and body (`Content-Type: application/json`).
    case respond(status: Int, body: String)
    /// No response at all (the call times out).
    case silence
    /// A `200` head, then a byte of a body that never ends every 0.1 s, until the connection
    /// closes: an answer that is never complete although bytes keep coming.
    case trickle
  }

  /// The server behind the webhook.
  private let server: HTTPServer
  /// Every request received, in order.
  private let received: Locked<[HTTPRequest]>
  /// The webhook's URL (`http://127.0.0.1:<port>/auth`).
  let url: URL

  /// Starts a webhook that answers every request with `answer(request)`.
  init(_ answer: @escaping @Sendable (HTTPRequest) -> Answer) throws {
    let received = Locked<[HTTPRequest]>([])
    self.received = received
    server = HTTPServer(handler: ClosureHTTPHandler { request, writer in
      received.withLock { $0.append(request) }
      switch answer(request) {
      case .respond(let status, let body):
        writer.send(status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: Array(body.utf8))
      case .silence:
        break
      case .trickle:
        writer.startStream(status: .ok, headers: ["Content-Type": "application/json"])
        Self.trickle(writer)
      }
    })
    url = try server.start().appendingPathComponent("auth")
  }

  /// Starts a webhook that always answers `status` with `body`.
  convenience init(status: Int, body: String) throws {
    try self.init { _ in .respond(status: status, body: body) }
  }

  /// Sends one more byte through `writer` and schedules the next, until the connection closes.
  private static func trickle(_ writer: ResponseWriter) {
    guard !writer.isConnectionClosed, writer.sendChunk(Array(" ".utf8)) else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { trickle(writer) }
  }

  /// The requests received so far.
  var requests: [HTTPRequest] { received.withLock { $0 } }

  /// How many requests were received so far.
  var requestCount: Int { received.withLock { $0.count } }

  /// Stops the server (closing any connection still waiting for an answer).
  func stop() {
    server.stop()
  }

  /// A project whose webhook is this one, guarding `methods`.
  func project(publicKey: String = "test-key", methods: Set<String> = Set(AuthMethod.allCases.map(\.rawValue))) -> Project {
    Project(name: "test", publicKey: publicKey, authWebhookURL: url, authWebhookMethods: methods)
  }
}

/// A clock the tests move by hand.
final class ManualClock: Sendable {
  /// The current time in seconds.
  private let time = Locked(1000.0)

  /// The clock as the client takes it.
  var read: @Sendable () -> Double { { [time] in time.withLock { $0 } } }

  /// Moves the time forward by `seconds`.
  func advance(_ seconds: Double) {
    time.withLock { $0 += seconds }
  }
}

/// Runs `body` and returns the `ServiceError` it throws, or `nil` when it returns.
func serviceError(_ body: () async throws(ServiceError) -> Void) async -> ServiceError? {
  do throws(ServiceError) {
    try await body()
    return nil
  } catch {
    return error
  }
}
