import CRDT
import Foundation
import YorkieServer

/// An auth webhook for the tests: our own ``HTTPServer`` on 127.0.0.1 (a free port), recording
/// every request it gets and answering each as `answer` says.
package final class TestWebhook: Sendable {
  /// How the webhook answers one request.
  package enum Answer: Sendable {
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
  package let url: URL

  /// Starts a webhook that answers every request with `answer(request)`.
  package init(_ answer: @escaping @Sendable (HTTPRequest) -> Answer) throws {
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
  package convenience init(status: Int, body: String) throws {
    try self.init { _ in .respond(status: status, body: body) }
  }

  /// Sends one more byte through `writer` and schedules the next, until the connection closes.
  private static func trickle(_ writer: ResponseWriter) {
    guard !writer.isConnectionClosed, writer.sendChunk(Array(" ".utf8)) else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { trickle(writer) }
  }

  /// The requests received so far.
  package var requests: [HTTPRequest] { received.withLock { $0 } }

  /// How many requests were received so far.
  package var requestCount: Int { received.withLock { $0.count } }

  /// Stops the server (closing any connection still waiting for an answer).
  package func stop() {
    server.stop()
  }

  /// A project whose webhook is this one, guarding `methods`.
  package func project(publicKey: String = "test-key", methods: Set<String> = Set(AuthMethod.allCases.map(\.rawValue))) -> Project {
    Project(name: "test", publicKey: publicKey, authWebhookURL: url, authWebhookMethods: methods)
  }
}
