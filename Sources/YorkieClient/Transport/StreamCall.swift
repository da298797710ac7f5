import Foundation
import YorkieProtocol

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sink of a server-streaming call: cuts the body into Connect envelopes as it arrives and
/// yields each message, then ends the sequence as the end-of-stream envelope says.
final class StreamCall<Response: WireMessage>: TaskSink, @unchecked Sendable {
  // Unchecked: the mutable fields are touched only by the `TaskSink` methods, which run one at
  // a time on the session's serial delegate queue.
  /// The RPC's name, for errors.
  private let method: String
  /// The server's base URL, for the error of an answer from no Yorkie service.
  private let baseURL: URL
  /// Where messages go.
  private let continuation: AsyncThrowingStream<Response, any Error>.Continuation
  /// Cancels the task when the body is broken.
  private let canceller: TaskCanceller
  /// Cuts the body into envelopes.
  private var decoder = ConnectEnvelopeDecoder()
  /// The HTTP status, once the head arrived.
  private var status = 0
  /// The `Content-Type` of the answer.
  private var contentType: String?
  /// The body of a non-200 answer, kept for its error.
  private var errorBody = Data()
  /// Whether the sequence was ended (by the end-of-stream envelope or a broken body).
  private var ended = false
  /// Called once, at the first sign that the request has its connection (its body went out,
  /// its head came back, or it ended); nil once called.
  private var onConnection: (@Sendable () -> Void)?

  /// A sink feeding `continuation` for a call of `method` to the server at `baseURL`;
  /// `onConnection` runs once, as soon as the request is known to have its connection (or
  /// ended without one).
  init(
    method: String, baseURL: URL, continuation: AsyncThrowingStream<Response, any Error>.Continuation, canceller: TaskCanceller,
    onConnection: (@Sendable () -> Void)? = nil
  ) {
    self.method = method
    self.baseURL = baseURL
    self.continuation = continuation
    self.canceller = canceller
    self.onConnection = onConnection
  }

  /// Runs `onConnection`, the first time only.
  private func hasConnection() {
    let call = onConnection
    onConnection = nil
    call?()
  }

  /// The request's body went out, so it has its connection.
  func sentBody() {
    hasConnection()
  }

  /// Records the status.
  func received(response: URLResponse) {
    hasConnection()
    guard let http = response as? HTTPURLResponse else { return }
    status = http.statusCode
    contentType = http.value(forHTTPHeaderField: "Content-Type")
  }

  /// Yields the messages the chunk completes; ends the sequence at the end-of-stream envelope.
  func received(data: Data) {
    guard !ended else { return }
    guard status == 200 else {
      // An error answer before the stream started: small, kept whole (bounded all the same).
      if errorBody.count < 1 << 20 { errorBody.append(data) }
      return
    }
    do throws(YorkieError) {
      for envelope in try decoder.feed(data) {
        if envelope.isEndOfStream {
          let end = try envelope.decodeEndOfStream()
          finish(end.error.map { YorkieError.server(method, $0) })
          return
        }
        continuation.yield(try envelope.decode(Response.self))
      }
    } catch {
      finish(YorkieError.malformed(method, error))
      canceller.cancel()
    }
  }

  /// Ends the sequence when the body ended without its end-of-stream envelope.
  func completed(error: (any Error)?) {
    hasConnection()
    guard !ended else { return }
    if let error {
      let urlError = error as? URLError
      if urlError?.code == .cancelled || canceller.isCancelled {
        finish(nil)  // The consumer stopped listening; nobody is left to tell.
      } else if let urlError {
        finish(YorkieError.transport(method, urlError))
      } else {
        finish(YorkieError.transport(method, other: error))
      }
    } else if status != 200 {
      finish(YorkieError.errorAnswer(method, status: status, contentType: contentType, body: errorBody, baseURL: baseURL))
    } else {
      // A complete HTTP body without the end-of-stream envelope: the connection was cut short.
      finish(YorkieError.transport(method, URLError(.networkConnectionLost)))
    }
  }

  /// Ends the sequence: cleanly when `error` is nil.
  private func finish(_ error: YorkieError?) {
    ended = true
    continuation.finish(throwing: error)
  }
}
