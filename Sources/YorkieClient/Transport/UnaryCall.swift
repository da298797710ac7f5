import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sink of a unary call: gathers the status and the whole body, then resumes the caller.
final class UnaryCall: TaskSink, @unchecked Sendable {
  // Unchecked: the mutable fields are touched only by the `TaskSink` methods, which run one at
  // a time on the session's serial delegate queue.
  /// What came back.
  struct Answer: Sendable {
    /// The HTTP status.
    var status: Int
    /// The `Content-Type` header, if any.
    var contentType: String?
    /// The body.
    var body: Data
  }

  /// The suspended caller, resumed exactly once.
  private let continuation: CheckedContinuation<Answer, any Error>
  /// The answer so far.
  private var answer = Answer(status: 0, contentType: nil, body: Data())

  /// A sink that resumes `continuation` when the task ends.
  init(_ continuation: CheckedContinuation<Answer, any Error>) {
    self.continuation = continuation
  }

  /// Records the status and content type.
  func received(response: URLResponse) {
    guard let http = response as? HTTPURLResponse else { return }
    answer.status = http.statusCode
    answer.contentType = http.value(forHTTPHeaderField: "Content-Type")
  }

  /// Appends a chunk of the body.
  func received(data: Data) { answer.body.append(data) }

  /// Resumes the caller with the answer or the task's error.
  func completed(error: (any Error)?) {
    if let error {
      continuation.resume(throwing: error)
    } else {
      continuation.resume(returning: answer)
    }
  }
}
