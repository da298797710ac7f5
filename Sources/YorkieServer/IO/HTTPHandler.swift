/// What an ``HTTPServer`` does with each request.
///
/// The event loop calls ``handle(_:writer:)`` on its own thread, once per request, in the order
/// the requests arrive on a connection. The handler must return quickly and never block: work
/// that takes time belongs on another thread or task, which answers through `writer` later
/// (a ``ResponseWriter`` may be used from any thread). Responses to a connection's pipelined
/// requests go out in request order, whatever order the handler finishes them in.
package protocol HTTPHandler: Sendable {
  /// Answers `request` through `writer`: exactly one full response, or one streamed response
  /// (head, chunks, end). A request never answered holds back every later response on its
  /// connection.
  func handle(_ request: HTTPRequest, writer: ResponseWriter)

  /// Hears that a connection opened or closed (on the loop thread; must be quick). Does nothing
  /// unless implemented.
  func connectionEvent(_ event: HTTPConnectionEvent)
}

extension HTTPHandler {
  /// Ignores connection events.
  package func connectionEvent(_ event: HTTPConnectionEvent) {}
}

/// A connection opening or closing, as an ``HTTPServer`` tells its handler.
package enum HTTPConnectionEvent: Sendable, Equatable {
  /// Connection `connection` was accepted; `open` connections are now open.
  case opened(connection: Int, open: Int)
  /// Connection `connection` closed after carrying `requests` requests; `open` remain.
  case closed(connection: Int, requests: Int, open: Int)
}

/// An ``HTTPHandler`` made of a closure.
package struct ClosureHTTPHandler: HTTPHandler {
  /// The closure that answers each request.
  private let body: @Sendable (HTTPRequest, ResponseWriter) -> Void

  /// A handler that calls `body` for each request.
  package init(_ body: @escaping @Sendable (HTTPRequest, ResponseWriter) -> Void) {
    self.body = body
  }

  /// Calls the closure.
  package func handle(_ request: HTTPRequest, writer: ResponseWriter) {
    body(request, writer)
  }
}
