import CRDT
import Foundation
import YorkieProtocol

/// The Connect protocol (JSON codec) over ``HTTPServer``: routes each request to
/// ``YorkieService``, checks what Connect checks (method, content type, protocol version,
/// timeout header), decodes the body, and writes the answer — a unary JSON body, or a server
/// stream of envelopes ending with the end-of-stream message.
///
/// The event loop calls ``handle(_:writer:)``; every call runs in its own task, so a slow webhook
/// or a durable write never holds the loop.
package final class ConnectHandler: HTTPHandler {
  /// The service.
  let service: YorkieService
  /// Resolves `x-api-key` (absent: `nil`) to a project, or refuses.
  let resolveProject: @Sendable (String?) throws(ServiceError) -> Project
  /// The log.
  let log: ServerLog
  /// The open streams, so that stopping the server can end them.
  let streams = StreamRegistry()

  /// A handler over `service`.
  package init(service: YorkieService, log: ServerLog, resolveProject: @escaping @Sendable (String?) throws(ServiceError) -> Project) {
    self.service = service
    self.resolveProject = resolveProject
    self.log = log
  }

  package func handle(_ request: HTTPRequest, writer: ResponseWriter) {
    let path = request.path
    if path == YorkieRPC.pathPrefix + "health" || path == "/healthz" {
      guard request.method == "GET" || request.method == "HEAD" else {
        writer.send(status: HTTPStatus(code: 405), headers: ["Allow": "GET"])
        return
      }
      writer.send(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"status":"serving"}"#.utf8))
      return
    }
    if path == "/grpc.health.v1.Health/Check" {
      guard let _ = precheck(request, streaming: false, writer: writer) else { return }
      writer.send(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"status":"SERVING_STATUS_SERVING"}"#.utf8))
      return
    }
    guard let rpc = YorkieRPC(path: path) else {
      writer.send(status: HTTPStatus(code: 404), headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array("404 page not found\n".utf8))
      return
    }
    guard let context = precheck(request, streaming: rpc.isStreaming, writer: writer) else { return }
    if rpc == .pushPullChanges, request.body.count <= Self.inlineBodyLimit, answerInline(request, context: context, writer: writer) {
      return
    }
    if rpc.isStreaming {
      log.debug("\(rpc.rawValue) stream opened (\(request.body.count) bytes)")
      startStream(rpc, request: request, context: context, writer: writer)
    } else {
      let started = ContinuousClock.now
      let log = self.log
      serverTask { [self] in
        let status = await self.unary(rpc, body: request.body, context: context, writer: writer)
        log.debug("\(rpc.rawValue) \(status) in \(Self.milliseconds(since: started)) ms (\(request.body.count) bytes in)")
      }
    }
  }

  /// The largest PushPullChanges body decoded on the event loop's own thread; larger ones (a
  /// long offline backlog) are decoded on a server thread, so that the loop is never held long.
  static let inlineBodyLimit = 64 * 1024

  /// PushPullChanges answered without a task when the service can (see
  /// ``YorkieService/pushPullChangesNow(_:context:answer:)``); `false` when it cannot, having
  /// answered nothing.
  private func answerInline(_ request: HTTPRequest, context: RequestContext, writer: ResponseWriter) -> Bool {
    guard !request.body.isEmpty, let decoded = try? PushPullChangesRequest(jsonData: request.body) else { return false }
    let log = self.log
    let started = ContinuousClock.now
    return service.pushPullChangesNow(decoded, context: context) { result in
      let status: Int
      switch result {
      case .success(let response):
        ConnectResponses.unary(response, writer: writer)
        status = 200
      case .failure(let error):
        ConnectResponses.unaryError(error.connectError, writer: writer)
        status = error.code.httpStatus
      }
      log.debug("PushPullChanges \(status) in \(Self.milliseconds(since: started)) ms (\(request.body.count) bytes in, on the loop)")
    }
  }

  /// The time since `start` in milliseconds, two decimals, for the request log line.
  static func milliseconds(since start: ContinuousClock.Instant) -> String {
    let elapsed = ContinuousClock.now - start
    return String(format: "%.2f", Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
  }

  /// Logs each connection event at info, one line each.
  package func connectionEvent(_ event: HTTPConnectionEvent) {
    switch event {
    case .opened(let id, let open): log.info("connection \(id) opened (\(open) open)")
    case .closed(let id, let requests, let open): log.info("connection \(id) closed after \(requests) request(s) (\(open) open)")
    }
  }

  /// The checks of the Connect protocol and the project; answers and returns `nil` on failure.
  private func precheck(_ request: HTTPRequest, streaming: Bool, writer: ResponseWriter) -> RequestContext? {
    guard request.method == "POST" else {
      writer.send(status: HTTPStatus(code: 405), headers: ["Allow": "POST"])
      return nil
    }
    let accepted = streaming ? ConnectResponses.streamContentTypes : ConnectResponses.unaryContentTypes
    guard ConnectResponses.accepts(request.headers["Content-Type"], accepted) else {
      writer.send(status: HTTPStatus(code: 415), headers: ["Accept-Post": accepted.joined(separator: ", ")])
      return nil
    }
    let fail = { (error: ConnectError) -> RequestContext? in
      if streaming {
        writer.startStream(status: .ok, headers: ["Content-Type": "application/connect+json"])
        writer.sendChunk(ConnectResponses.endOfStream(error))
        writer.endStream()
      } else {
        ConnectResponses.unaryError(error, writer: writer)
      }
      return nil
    }
    if let version = request.headers["Connect-Protocol-Version"], version != "1" {
      return fail(ConnectError(code: .invalidArgument, message: "Connect-Protocol-Version must be \"1\": got \"\(version)\""))
    }
    if let timeout = request.headers["Connect-Timeout-Ms"], Self.timeoutMilliseconds(timeout) == nil {
      return fail(ConnectError(code: .invalidArgument, message: "protocol error: invalid timeout \"\(timeout)\""))
    }
    let encoding = streaming ? request.headers["Connect-Content-Encoding"] : request.headers["Content-Encoding"]
    if let encoding, encoding.lowercased() != "identity" {
      return fail(ConnectError(code: .unimplemented, message: "unknown compression \"\(encoding)\": supported encodings are identity"))
    }
    do throws(ServiceError) {
      let project = try resolveProject(request.headers["x-api-key"])
      return RequestContext(project: project, token: request.headers["authorization"])
    } catch {
      return fail(error.connectError)
    }
  }

  /// A `Connect-Timeout-Ms` value: at most 10 digits.
  static func timeoutMilliseconds(_ text: String) -> Int? {
    guard (1...10).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
  }

  /// Runs a unary call and answers it; returns the HTTP status it answered with.
  private func unary(_ rpc: YorkieRPC, body: [UInt8], context: RequestContext, writer: ResponseWriter) async -> Int {
    let service = self.service
    switch rpc {
    case .activateClient: return await call(body, writer) { (r: ActivateClientRequest) async throws(ServiceError) in try await service.activateClient(r, context: context) }
    case .deactivateClient: return await call(body, writer) { (r: DeactivateClientRequest) async throws(ServiceError) in try await service.deactivateClient(r, context: context) }
    case .attachDocument: return await call(body, writer) { (r: AttachDocumentRequest) async throws(ServiceError) in try await service.attachDocument(r, context: context) }
    case .detachDocument: return await call(body, writer) { (r: DetachDocumentRequest) async throws(ServiceError) in try await service.detachDocument(r, context: context) }
    case .removeDocument: return await call(body, writer) { (r: RemoveDocumentRequest) async throws(ServiceError) in try await service.removeDocument(r, context: context) }
    case .pushPullChanges: return await call(body, writer) { (r: PushPullChangesRequest) async throws(ServiceError) in try await service.pushPullChanges(r, context: context) }
    case .broadcast: return await call(body, writer) { (r: BroadcastRequest) async throws(ServiceError) in try await service.broadcast(r, context: context) }
    case .attachChannel: return await call(body, writer) { (r: AttachChannelRequest) async throws(ServiceError) in try await service.attachChannel(r, context: context) }
    case .detachChannel: return await call(body, writer) { (r: DetachChannelRequest) async throws(ServiceError) in try await service.detachChannel(r, context: context) }
    case .refreshChannel: return await call(body, writer) { (r: RefreshChannelRequest) async throws(ServiceError) in try await service.refreshChannel(r, context: context) }
    case .peekChannel: return await call(body, writer) { (r: PeekChannelRequest) async throws(ServiceError) in try await service.peekChannel(r, context: context) }
    case .createRevision, .getRevision, .listRevisions, .restoreRevision:
      let error = ConnectError(code: .unimplemented, message: "yorkie.v1.YorkieService.\(rpc.rawValue) is not implemented by this development server")
      ConnectResponses.unaryError(error, writer: writer)
      return error.code.httpStatus
    case .watch, .watchDocument, .watchChannel:
      return 0
    }
  }

  /// Decodes `body` as `Request`, runs `body`, and answers with its response or error.
  private func call<Request: WireMessage, Response: WireMessage>(
    _ body: [UInt8], _ writer: ResponseWriter, _ run: (Request) async throws(ServiceError) -> Response
  ) async -> Int {
    guard !body.isEmpty else {
      ConnectResponses.unaryError(ConnectResponses.zeroLengthError, writer: writer)
      return ConnectResponses.zeroLengthError.code.httpStatus
    }
    let request: Request
    do throws(YorkieError) {
      request = try Request(jsonData: body)
    } catch {
      let answer = ConnectResponses.unmarshalError(error)
      ConnectResponses.unaryError(answer, writer: writer)
      return answer.code.httpStatus
    }
    do throws(ServiceError) {
      ConnectResponses.unary(try await run(request), writer: writer)
      return 200
    } catch {
      log.debug("\(Request.self) refused: \(error)")
      ConnectResponses.unaryError(error.connectError, writer: writer)
      return error.code.httpStatus
    }
  }
}
