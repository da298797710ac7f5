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
/// All tasks run on one session whose delegate (a serial queue of its own) sees bodies as they
/// arrive, the only way to stream on Linux. Call ``invalidate()`` when done with the transport.
package final class ConnectTransport: Sendable {
  /// How long calls may take.
  package struct Timeouts: Sendable {
    /// A unary call fails with `timedOut` when no byte arrives for this many seconds.
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
  /// The one session of this transport.
  private let session: URLSession
  /// The session's delegate, which routes task events to calls.
  private let delegate: SessionDelegate

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
    delegate = SessionDelegate()
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
  }

  /// Cancels every running call and releases the session; the transport cannot be used after.
  package func invalidate() {
    session.invalidateAndCancel()
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
    let task = session.dataTask(with: urlRequest)
    let canceller = TaskCanceller()
    let answer: UnaryCall.Answer
    do {
      answer = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          delegate.register(task, UnaryCall(continuation))
          canceller.start(task)
        }
      } onCancel: {
        canceller.cancel()
      }
    } catch let error as URLError {
      if error.code == .cancelled, canceller.isCancelled { throw CancellationError() }
      throw YorkieError.transport(method, error)
    } catch {
      throw YorkieError.transport(method, other: error)
    }
    guard answer.status == 200 else {
      throw YorkieError.errorAnswer(method, status: answer.status, contentType: answer.contentType, body: answer.body)
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
        let task = session.dataTask(with: urlRequest)
        delegate.register(task, StreamCall(method: method, continuation: continuation, canceller: canceller))
        canceller.start(task)
      }
      continuation.onTermination = { _ in
        opening.cancel()
        canceller.cancel()
      }
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
