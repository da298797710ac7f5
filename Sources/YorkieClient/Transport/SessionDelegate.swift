import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a call does with its task's events. Every method runs on the session's serial
/// delegate queue, one at a time and in order, so conforming types may keep unsynchronized
/// state that only these methods touch.
protocol TaskSink: AnyObject, Sendable {
  /// The response head arrived.
  func received(response: URLResponse)
  /// Body bytes arrived (a chunk: any part of the body, as the network delivered it).
  func received(data: Data)
  /// Request body bytes went out: the request has its connection.
  func sentBody()
  /// The task ended: `error` is nil after a complete body.
  func completed(error: (any Error)?)
}

extension TaskSink {
  /// Most sinks do not care when the request body goes out.
  func sentBody() {}
}

/// The session-level delegate of a ``ConnectTransport``'s `URLSession`: routes each task's
/// events to the ``TaskSink`` registered for it.
///
/// On Linux only a session-level `URLSessionDataDelegate` sees a body incrementally
/// (per-task delegates are ignored and `bytes(for:)` does not exist), so unary calls and
/// streams both go through here.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // Unchecked: `sinks` and `closed` are only touched under `lock`.
  /// Guards `sinks` and `closed`.
  private let lock = NSLock()
  /// The sink of each running task, by task identifier.
  private var sinks: [Int: any TaskSink] = [:]
  /// Whether ``close()`` was called: no sink is taken any more.
  private var closed = false
  /// Body bytes received, behind `lock`.
  private var bodyBytesReceived = 0

  /// Routes the events of `task` to `sink`; call before resuming the task. Once the delegate
  /// is closed, `sink` is completed at once with `URLError(.cancelled)` instead (on the
  /// caller's thread: nobody else knows the sink yet).
  func register(_ task: URLSessionTask, _ sink: any TaskSink) {
    let taken: Bool = lock.withLock {
      guard !closed else { return false }
      sinks[task.taskIdentifier] = sink
      return true
    }
    if !taken { sink.completed(error: URLError(.cancelled)) }
  }

  /// Stops routing: forgets every sink and returns them, for the caller to complete on the
  /// delegate queue; later registrations fail at once.
  ///
  /// The session's invalidation is not enough to end every call: on Linux, a task cancelled
  /// between its creation and its `resume()` never reports its end, and its caller would wait
  /// forever. A task's end that the session still reports later finds no sink.
  func close() -> [any TaskSink] {
    lock.withLock {
      closed = true
      defer { sinks = [:] }
      return Array(sinks.values)
    }
  }

  /// The sink of `task`, if any.
  private func sink(_ task: URLSessionTask) -> (any TaskSink)? {
    lock.withLock { sinks[task.taskIdentifier] }
  }

  /// Hands the response head to the task's sink and lets the body come.
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    sink(dataTask)?.received(response: response)
    completionHandler(.allow)
  }

  /// Hands a body chunk to the task's sink.
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let sink = lock.withLock {
      bodyBytesReceived += data.count
      return sinks[dataTask.taskIdentifier]
    }
    sink?.received(data: data)
  }

  /// Response body bytes received so far, over every task (what resumption saves is counted
  /// with it).
  var receivedBodyBytes: Int { lock.withLock { bodyBytesReceived } }

  /// Tells the task's sink that request body bytes went out.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    sink(task)?.sentBody()
  }

  /// Tells the task's sink that the task ended, and forgets the sink.
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let sink = lock.withLock { sinks.removeValue(forKey: task.taskIdentifier) }
    sink?.completed(error: error)
  }
}
