import CRDT
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Asks a project's auth webhook whether an RPC may proceed (yorkie-protocol.md section 5.7).
///
/// ```swift
/// try await webhook.authorize(project: project, method: .attachDocument, token: authorization,
///                             attributes: [AccessAttribute(key: documentKey, verb: .readWrite)])
/// ```
///
/// The webhook is called only when the project has a webhook URL and lists the method. It gets a
/// `POST` of ``AuthWebhookRequest/body`` and its answer decides:
///
/// | Answer | Result |
/// | --- | --- |
/// | 200, `allowed: true` | the call proceeds |
/// | 403, `allowed: false` | `permission_denied`, metadata `ErrPermissionDenied` + `reason` |
/// | 401, `allowed: false` | `unauthenticated`, metadata `ErrUnauthenticated` + `reason` |
/// | 200/401/403 contradicting `allowed`, or a body that is not the JSON object | `internal`, `ErrInvalidJSONResponse` |
/// | any other status | `internal`, `ErrUnexpectedStatusCode` |
/// | no answer within the timeout | `internal`, `ErrWebhookTimeout` |
/// | no connection (refused, unknown host, …) | `internal`, `ErrWebhookUnreachable` |
/// | the calling task cancelled | `canceled` |
///
/// The timeout covers the whole call: connecting, sending, and receiving the complete answer.
///
/// Answers with status 200 or 403 and a JSON object body are cached for ``cacheTimeToLive``
/// seconds per project public key and request body (contradicting ones included, as in Yorkie),
/// so a repeated request within that time does not reach the webhook. A 401 is never cached, so a
/// client that fetched a fresh token is asked about again; nor is any call that produced no such
/// answer (other statuses, unparseable bodies, timeouts, no connection, cancellation). Unlike
/// Yorkie, a failed call is not retried.
///
/// The token is part of the request body and of the cache key but of nothing else: no error
/// message, no description.
package final class AuthWebhookClient: Sendable {
  /// What the cache is keyed by: the project and the exact request body.
  private struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The project's public key.
    var publicKey: String
    /// The request body (it holds the token).
    var body: [UInt8]
    /// The key without its body, so that no token can reach a log through it.
    var description: String { "CacheKey(project: \(publicKey), body: <\(body.count) bytes>)" }
  }

  /// How long one webhook call may take, in seconds.
  package let timeout: Double
  /// How long an answer is reused, in seconds.
  package let cacheTimeToLive: Double
  /// The session the calls go through.
  private let session: URLSession
  /// The clock of the cache (monotonic seconds).
  private let clock: @Sendable () -> Double
  /// Answers by project and body.
  private let cache: Locked<ExpiringCache<CacheKey, AuthWebhookResponse>>

  /// A client whose calls time out after `timeout` seconds and whose answers are reused for
  /// `cacheTimeToLive` seconds of `clock`, keeping at most `cacheCapacity` of them.
  package init(
    timeout: Double = 3, cacheTimeToLive: Double = 10, cacheCapacity: Int = 4096,
    clock: @escaping @Sendable () -> Double = systemUptimeClock
  ) {
    self.timeout = timeout
    self.cacheTimeToLive = cacheTimeToLive
    self.clock = clock
    cache = Locked(ExpiringCache(capacity: cacheCapacity, timeToLive: cacheTimeToLive))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = Self.sessionTimeout(timeout)
    configuration.timeoutIntervalForResource = Self.sessionTimeout(timeout)
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    session = URLSession(configuration: configuration)
  }

  /// Lets the session's tasks finish and releases it.
  deinit {
    session.finishTasksAndInvalidate()
  }

  /// How many answers are cached (expired ones included until they are swept).
  package var cachedAnswerCount: Int { cache.withLock { $0.count } }

  /// Returns when `project`'s webhook allows `method` with `token` on `attributes`, or when the
  /// project does not guard `method` (no webhook URL, or the method not listed); throws the error
  /// the RPC must answer with otherwise (see the table on ``AuthWebhookClient``).
  ///
  /// - Parameters:
  ///   - project: The project the request's API key selected.
  ///   - method: The RPC, by its webhook name.
  ///   - token: The request's `authorization` header, verbatim; `nil` is sent as `""`.
  ///   - attributes: The document or channel keys the RPC touches, with how; empty for RPCs
  ///     without keys (sent as `null`, as Yorkie does).
  package func authorize(
    project: Project, method: AuthMethod, token: String?, attributes: [AccessAttribute]
  ) async throws(ServiceError) {
    guard method.isGuarded(in: project), let url = project.authWebhookURL else { return }
    let body = AuthWebhookRequest(token: token ?? "", method: method, attributes: attributes).body
    let key = CacheKey(publicKey: project.publicKey, body: body)
    if let cached = cache.withLock({ $0.value(for: key, now: clock()) }) {
      return try cached.verdict()
    }
    let answer = try await post(body, to: url)
    if answer.status != 401 {
      cache.withLock { $0.insert(answer, for: key, now: clock()) }
    }
    try answer.verdict()
  }

  /// What came first: the webhook's answer, or the end of the time allowed.
  private enum Outcome: Sendable {
    /// The webhook answered with this status and body.
    case answered(status: Int, body: Data)
    /// The response was not HTTP (cannot happen with an `http` URL).
    case notHTTP
    /// The timeout passed first.
    case timedOut
  }

  /// Posts `body` to `url` and returns the parsed answer.
  ///
  /// The timeout is enforced here, by racing the call against a sleep: URLSession on Linux
  /// rounds its timeouts down to whole seconds (0.5 s becomes "at once") and only bounds the time
  /// between bytes. The session's own timeouts are set above ours, as a backstop.
  ///
  /// - Throws: the `internal` errors for a failed call, an unexpected status or an unparseable
  ///   body, and ``ServiceError/canceled`` when the calling task is cancelled.
  private func post(_ body: [UInt8], to url: URL) async throws(ServiceError) -> AuthWebhookResponse {
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.sessionTimeout(timeout))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body)
    let (session, timeout, finalRequest) = (self.session, self.timeout, request)
    let outcome: Outcome
    do {
      outcome = try await Self.onServerThreads {
        try await withThrowingTaskGroup(of: Outcome.self) { group in
          group.addTask {
            let (data, response) = try await session.data(for: finalRequest)
            guard let http = response as? HTTPURLResponse else { return .notHTTP }
            return .answered(status: http.statusCode, body: data)
          }
          group.addTask {
            try await Task.sleep(nanoseconds: UInt64(min(max(0, timeout), 1e6) * 1e9))
            return .timedOut
          }
          defer { group.cancelAll() }
          guard let first = try await group.next() else { throw CancellationError() }
          return first
        }
      }
    } catch {
      throw Self.transportError(error, timeout: timeout)
    }
    switch outcome {
    case .timedOut:
      throw .webhookTimeout(seconds: timeout)
    case .notHTTP:
      throw .webhookInvalidResponse("not an HTTP response")
    case .answered(let status, let data):
      guard [200, 401, 403].contains(status) else { throw .webhookUnexpectedStatus(status) }
      guard let answer = AuthWebhookResponse(status: status, body: data) else {
        throw .webhookInvalidResponse("status \(status) with a body that is not the expected JSON object")
      }
      return answer
    }
  }

  /// Runs `body` preferring the server's own threads, so that the race between the call and its
  /// deadline is decided on time even when the caller's pool is busy.
  private static func onServerThreads<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      return try await withTaskExecutorPreference(ServerExecutor.shared) { try await body() }
    }
    return try await body()
  }

  /// The session's timeouts for a call allowed `timeout` seconds: whole seconds (what Linux
  /// honours), well above `timeout` (twice it, plus 10 s), so that they only fire if ours failed
  /// to and a test can tell which one did.
  private static func sessionTimeout(_ timeout: Double) -> Double {
    (2 * min(max(0, timeout), 1e6) + 10).rounded(.up)
  }

  /// The error for a call that got no HTTP response. Only the error's kind is kept: its text
  /// could name more than we want to show.
  private static func transportError(_ error: any Error, timeout: Double) -> ServiceError {
    if error is CancellationError || Task.isCancelled { return .canceled }
    guard let urlError = error as? URLError else { return .webhookUnreachable("\(type(of: error))") }
    switch urlError.code {
    case .timedOut: return .webhookTimeout(seconds: timeout)
    case .cancelled: return .canceled
    case .cannotConnectToHost: return .webhookUnreachable("connection refused")
    case .cannotFindHost, .dnsLookupFailed: return .webhookUnreachable("unknown host")
    case .networkConnectionLost: return .webhookUnreachable("connection lost")
    default: return .webhookUnreachable("URLError \(urlError.code.rawValue)")
    }
  }
}
