import CRDT
import Foundation
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Yorkie's RPCs over the Connect protocol with the JSON codec, on one long-lived `URLSession`.
///
/// ```swift
/// let transport = ConnectTransport(baseURL: url, apiKey: "my-project")
/// let activated: ActivateClientResponse = try await transport.unary(
///   "ActivateClient", ActivateClientRequest(clientKey: "alice"), shardKey: "alice")
/// for try await message in transport.stream("Watch", watchRequest, shardKey: docKey, as: WatchResponse.self) { … }
/// ```
///
/// Every call sends `Connect-Protocol-Version: 1`, `x-api-key` (when there is one),
/// `authorization` (when the token provider gives a token), `x-shard-key` and
/// `x-yorkie-user-agent`. Failures are `YorkieError`s: a code named after the server's
/// `ErrorInfo` (or its Connect code) for an error answer, `unavailable`, `timedOut` or
/// `cancelled` when no answer came, `invalidWireData` for an answer
/// that does not decode; a cancelled caller gets `CancellationError`.
///
/// Tasks run on two long-lived sessions, one for unary calls and one for streams, whose
/// delegates (on a serial queue of the transport's own) see bodies as they arrive, the only way
/// to stream on Linux. Call ``invalidate()`` when done with the transport.
///
/// ## A stream never opens a connection
///
/// On Linux, FoundationNetworking watches libcurl's sockets with dispatch sources, and it
/// never removes a write source that libcurl no longer wants: a new connection gets one while
/// it connects, and it stays until that connection's first request ends. The socket being
/// writable, the source fires again and again, and each time libcurl only finds nothing to
/// read: a core spins at ~90 % for as long as the request runs. For a unary call that is as
/// long as its answer takes (a moment, or up to the request timeout on a network that swallows
/// packets; this is left as it is), but for a Watch stream that happens to open a new
/// connection (when every idle connection of the session is busy with other calls) it is
/// forever. A connection that a finished request gave back starts its next request clean.
///
/// So a stream is opened only on such a connection: stream openings take turns
/// (``OpeningLine``) on a session that only streams use; each first sends a health check
/// (`GET …/yorkie.v1.YorkieService/health`), whose connection is then idle, and the stream
/// takes it. The turn ends when the stream's body went out (it has its connection), and the
/// check costs one round trip per opening. When the check fails, the stream opens anyway (on
/// a new connection, to fail or work as it would have).
package final class ConnectTransport: Sendable {
  /// How long calls may take.
  package struct Timeouts: Sendable {
    /// A unary call (or the health check before a stream) fails with `timedOut` when no byte
    /// arrives for this many seconds.
    package var request: TimeInterval
    /// A stream fails with `timedOut` when no byte arrives for this many seconds; Yorkie sends
    /// no heartbeats, so a quiet Watch stream needs a very long one (a week by default).
    package var streamIdle: TimeInterval

    /// Timeouts with the given values, rounded up to whole seconds (at least 1): on Linux,
    /// FoundationNetworking truncates a timeout to whole seconds, and 0.5 s would become 0
    /// and fail every call at once.
    package init(request: TimeInterval = 30, streamIdle: TimeInterval = 7 * 24 * 3600) {
      self.request = max(1, request.rounded(.up))
      self.streamIdle = max(1, streamIdle.rounded(.up))
    }
  }

  /// The provider of the `authorization` header: nil sends none.
  package typealias TokenProvider = @Sendable () async throws -> String?

  /// The server's base URL, such as `http://localhost:8080`.
  package let baseURL: URL
  /// The project's public key, sent as `x-api-key`.
  package let apiKey: String?
  /// Asked before every call for the `authorization` header.
  private let tokenProvider: TokenProvider?
  /// Sent as `x-yorkie-user-agent`.
  package let userAgent: String
  /// The timeouts.
  package let timeouts: Timeouts
  /// The session of unary calls.
  private let session: URLSession
  /// The delegate of `session`, which routes task events to calls.
  private let delegate: SessionDelegate
  /// The session of streams (and of the health checks before them).
  private let streamSession: URLSession
  /// The delegate of `streamSession`.
  private let streamDelegate: SessionDelegate
  /// The serial queue of both delegates.
  private let delegateQueue: OperationQueue
  /// The stream openings, one at a time.
  private let openings = OpeningLine()
  /// Whether ``invalidate()`` was called; guards the creation of tasks, since a session traps
  /// when asked for a task after its invalidation.
  private let invalidated = Locked(false)

  /// Creates a transport; it connects lazily, on the first call.
  ///
  /// - Parameters:
  ///   - baseURL: The server, such as `http://localhost:8080`.
  ///   - apiKey: The project's public key; nil for the server's default project.
  ///   - tokenProvider: Gives the `authorization` header's value before each call (nil: none).
  ///   - userAgent: The `x-yorkie-user-agent` value.
  ///   - timeouts: How long calls may stay silent.
  package init(
    baseURL: URL, apiKey: String? = nil, tokenProvider: TokenProvider? = nil,
    userAgent: String = YorkieClientInfo.userAgent, timeouts: Timeouts = Timeouts()
  ) {
    self.baseURL = baseURL
    self.apiKey = apiKey
    self.tokenProvider = tokenProvider
    self.userAgent = userAgent
    self.timeouts = timeouts
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeouts.request
    // Each Watch stream holds a connection; the default of 6 per host would queue the 7th call.
    configuration.httpMaximumConnectionsPerHost = 64
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    let queue = OperationQueue()
    queue.name = "YorkieClient.ConnectTransport"
    queue.maxConcurrentOperationCount = 1
    delegateQueue = queue
    // Task identifiers are per session: each session routes through a delegate of its own.
    delegate = SessionDelegate()
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    streamDelegate = SessionDelegate()
    streamSession = URLSession(configuration: configuration, delegate: streamDelegate, delegateQueue: queue)
  }

  /// Response body bytes received so far by unary calls and streams (for tests and
  /// benchmarks of what a call costs on the wire).
  package var receivedBodyBytes: Int { delegate.receivedBodyBytes + streamDelegate.receivedBodyBytes }

  /// Cancels every running call and releases the sessions. Calls made after fail with
  /// ``YorkieError/Code/cancelled``.
  package func invalidate() {
    let first: Bool = invalidated.withLock { invalidated in
      defer { invalidated = true }
      return !invalidated
    }
    guard first else { return }
    session.invalidateAndCancel()
    streamSession.invalidateAndCancel()
    // Every call still waiting ends now, whatever the sessions report (see SessionDelegate.close()).
    let orphans = delegate.close() + streamDelegate.close()
    guard !orphans.isEmpty else { return }
    delegateQueue.addOperation {
      for sink in orphans { sink.completed(error: URLError(.cancelled)) }
    }
  }

  /// A task for `request` on `session`; nil once the transport is invalidated.
  private func makeTask(_ request: URLRequest, on session: URLSession) -> URLSessionDataTask? {
    invalidated.withLock { invalidated in invalidated ? nil : session.dataTask(with: request) }
  }

  /// Calls a unary RPC: POSTs `request` as JSON and decodes the answer.
  ///
  /// - Parameters:
  ///   - method: The RPC's name in `yorkie.v1.YorkieService`, such as `PushPullChanges`.
  ///   - request: The request message.
  ///   - shardKey: The routing key of `x-shard-key` (the client key for Activate/Deactivate,
  ///     the document key for document RPCs); the API key is prefixed here.
  ///   - responseType: The response message's type (inferred from the context when omitted).
  /// - Throws: `YorkieError` (a server's code, a transport code,
  ///   ``YorkieError/Code/authTokenUnavailable`` or `invalidWireData`); `CancellationError`
  ///   when the calling task is cancelled.
  package func unary<Request: WireMessage, Response: WireMessage>(
    _ method: String, _ request: Request, shardKey: String, as responseType: Response.Type = Response.self
  ) async throws -> Response {
    var urlRequest = try await makeRequest(method, shardKey: shardKey, contentType: "application/json")
    urlRequest.httpBody = request.jsonData
    urlRequest.timeoutInterval = timeouts.request
    let answer: UnaryCall.Answer
    do {
      answer = try await exchange(urlRequest, on: session, delegate)
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as URLError {
      throw YorkieError.transport(method, error)
    } catch {
      throw YorkieError.transport(method, other: error)
    }
    guard answer.status == 200 else {
      throw YorkieError.errorAnswer(
        method, status: answer.status, contentType: answer.contentType, body: answer.body, baseURL: baseURL)
    }
    do throws(YorkieError) {
      return try Response(jsonData: answer.body)
    } catch {
      throw YorkieError.malformed(method, error)
    }
  }

  /// Opens a server-streaming RPC such as `Watch`: POSTs `request` in one Connect envelope and
  /// yields each message of the answer as it arrives.
  ///
  /// The sequence finishes when the server ends the stream cleanly, and throws the same errors
  /// as ``unary(_:_:shardKey:as:)`` otherwise (an end-of-stream error, such as `canceled` from
  /// a stopping server, is a server's error with code `canceled`). Cancelling the consuming task,
  /// or dropping the sequence, cancels the HTTP request, and the server sees the client leave.
  ///
  /// The request goes out on a connection that a health check just left idle, after the
  /// streams opened before it (see "A stream never opens a connection" above).
  ///
  /// - Parameters:
  ///   - method: The RPC's name, such as `Watch`.
  ///   - request: The request message.
  ///   - shardKey: The routing key of `x-shard-key` (the document key for a document's Watch).
  ///   - responseType: The type of the stream's messages, such as `WatchResponse`.
  package func stream<Request: WireMessage, Response: WireMessage>(
    _ method: String, _ request: Request, shardKey: String, as responseType: Response.Type = Response.self
  ) -> AsyncThrowingStream<Response, any Error> {
    AsyncThrowingStream { continuation in
      let canceller = TaskCanceller()
      // The token provider is async; the request starts once it answered.
      let opening = Task {
        var urlRequest: URLRequest
        do {
          urlRequest = try await makeRequest(method, shardKey: shardKey, contentType: "application/connect+json")
        } catch {
          continuation.finish(throwing: error)
          return
        }
        urlRequest.httpBody = Data(ConnectEnvelope(message: request).bytes)
        urlRequest.timeoutInterval = timeouts.streamIdle
        // Cancelled while waiting: the consumer is gone, and nobody is left to tell.
        guard let turn = await openings.enter() else { return }
        await prepareStreamConnection(shardKey: shardKey)
        guard !Task.isCancelled else {
          turn.end()
          return
        }
        guard let task = makeTask(urlRequest, on: streamSession) else {
          turn.end()
          continuation.finish(throwing: YorkieError.transport(method, URLError(.cancelled)))
          return
        }
        streamDelegate.register(
          task, StreamCall(
            method: method, baseURL: baseURL, continuation: continuation, canceller: canceller, onConnection: { turn.end() }))
        // Bounds the wait of the next openings should no sign of the connection ever come.
        turn.end(after: timeouts.request)
        canceller.start(task)
      }
      continuation.onTermination = { _ in
        opening.cancel()
        canceller.cancel()
      }
    }
  }

  /// On Linux, leaves an idle connection to the server in the stream session, for the next
  /// stream to take (see "A stream never opens a connection" above): sends the health check and waits
  /// for its answer, whatever it is. Returns early, without an error, when the check fails or
  /// the calling task is cancelled.
  private func prepareStreamConnection(shardKey: String) async {
    #if canImport(FoundationNetworking)
      await sendHealthCheck(shardKey: shardKey)
    #endif
    // Apple's URLSession has no such fault: a stream opens its connection itself there.
  }

  /// The health check of ``prepareStreamConnection(shardKey:)``.
  private func sendHealthCheck(shardKey: String) async {
    var request = URLRequest(url: baseURL.appendingPathComponent("yorkie.v1.YorkieService").appendingPathComponent("health"))
    request.httpMethod = "GET"
    if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "x-api-key") }
    request.setValue("\(apiKey ?? "")/\(shardKey)", forHTTPHeaderField: "x-shard-key")
    request.setValue(userAgent, forHTTPHeaderField: "x-yorkie-user-agent")
    request.timeoutInterval = timeouts.request
    _ = try? await exchange(request, on: streamSession, streamDelegate)
  }

  /// Sends `request` on `session` (whose delegate is `delegate`) and gathers the whole answer.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled; else the task's error,
  ///   a `URLError` (the status is not checked: an error answer is an answer), `cancelled`
  ///   when the transport is invalidated.
  private func exchange(_ request: URLRequest, on session: URLSession, _ delegate: SessionDelegate) async throws -> UnaryCall.Answer {
    guard let task = makeTask(request, on: session) else { throw URLError(.cancelled) }
    let canceller = TaskCanceller()
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          delegate.register(task, UnaryCall(continuation))
          canceller.start(task)
        }
      } onCancel: {
        canceller.cancel()
      }
    } catch let error as URLError where error.code == .cancelled && canceller.isCancelled {
      throw CancellationError()
    }
  }

  /// A POST to `method` with every Connect and Yorkie header but the body.
  ///
  /// - Throws: `YorkieError` ``YorkieError/Code/authTokenUnavailable`` when the token provider
  ///   throws; `CancellationError` when the calling task is cancelled meanwhile.
  func makeRequest(_ method: String, shardKey: String, contentType: String) async throws -> URLRequest {
    var request = URLRequest(url: baseURL.appendingPathComponent("yorkie.v1.YorkieService").appendingPathComponent(method))
    request.httpMethod = "POST"
    request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    request.setValue("1", forHTTPHeaderField: "Connect-Protocol-Version")
    if let apiKey { request.setValue(apiKey, forHTTPHeaderField: "x-api-key") }
    request.setValue("\(apiKey ?? "")/\(shardKey)", forHTTPHeaderField: "x-shard-key")
    request.setValue(userAgent, forHTTPHeaderField: "x-yorkie-user-agent")
    if let tokenProvider {
      let token: String?
      do {
        token = try await tokenProvider()
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        throw YorkieError.tokenProvider(method, error)
      }
      if let token { request.setValue(token, forHTTPHeaderField: "authorization") }
    }
    try Task.checkCancellation()
    return request
  }
}
