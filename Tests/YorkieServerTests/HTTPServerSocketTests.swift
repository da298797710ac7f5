import CRDT
import Foundation
import Testing

@testable import YorkieServer

/// A request as the socket tests write it.
private func get(_ path: String, _ extra: String = "") -> String {
  "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
}

/// A handler that answers `200` with `"<method> <path> <body>"`.
private let echo = ClosureHTTPHandler { request, writer in
  writer.send(status: .ok, body: Array("\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))".utf8))
}

/// Starts a server on 127.0.0.1 port 0, runs `body` with it, and stops it.
private func withServer(
  limits: HTTPServerLimits = HTTPServerLimits(), handler: any HTTPHandler = echo,
  _ body: (HTTPServer, Int) throws -> Void
) throws {
  let server = HTTPServer(limits: limits, handler: handler)
  let url = try server.start()
  defer { server.stop() }
  let port = try #require(server.port)
  #expect(port > 0)
  #expect(url.absoluteString == "http://127.0.0.1:\(port)")
  try body(server, port)
}

/// `HTTPServer` end to end: a real server on 127.0.0.1 port 0 and raw-socket clients.
@Suite("HTTP server over real sockets")
struct HTTPServerSocketTests {
  @Test("A unary request gets its response, with the body read")
  func unary() throws {
    try withServer { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello")
      let response = try client.readResponse()
      #expect(response.status == 200)
      #expect(response.text == "POST /echo hello")
      #expect(response.headers["connection"] == nil)
    }
  }

  @Test("Keep-alive: two requests one after the other on one connection")
  func keepAlive() throws {
    try withServer { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send(get("/one"))
      #expect(try client.readResponse().text == "GET /one ")
      try client.send(get("/two"))
      #expect(try client.readResponse().text == "GET /two ")
    }
  }

  @Test("Many clients at once are all served, each on its own connection")
  func manyClients() throws {
    try withServer { _, port in
      let clients = try (0..<64).map { _ in try TestHTTPClient(port: port) }
      for (index, client) in clients.enumerated() { try client.send(get("/\(index)")) }
      for (index, client) in clients.enumerated().reversed() {
        #expect(try client.readResponse().text == "GET /\(index) ")
      }
    }
  }

  @Test("Connection: close is answered with Connection: close, then end-of-file")
  func connectionClose() throws {
    try withServer { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send(get("/bye", "Connection: close\r\n"))
      let response = try client.readResponse()
      #expect(response.text == "GET /bye ")
      #expect(response.headers["connection"] == "close")
      #expect(try client.readsEndOfFile())
    }
  }

  @Test("Pipelined requests are answered in request order even when the first finishes last")
  func pipelinedInOrder() throws {
    let handler = ClosureHTTPHandler { request, writer in
      let body = Array(request.path.utf8)
      if request.path == "/slow" {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) { writer.send(status: .ok, body: body) }
      } else {
        writer.send(status: .ok, body: body)
      }
    }
    try withServer(handler: handler) { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send(get("/slow") + get("/fast") + get("/last"))
      #expect(try client.readResponse().text == "/slow")
      #expect(try client.readResponse().text == "/fast")
      #expect(try client.readResponse().text == "/last")
    }
  }

  @Test("A streamed response arrives chunk by chunk, written from another thread")
  func streaming() throws {
    let writers = Locked<[ResponseWriter]>([])
    let handler = ClosureHTTPHandler { _, writer in
      writer.startStream(status: .ok, headers: ["Content-Type": "application/connect+json"])
      writer.sendChunk(Array("first".utf8))
      writers.withLock { $0.append(writer) }
    }
    try withServer(handler: handler) { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send(get("/watch"))
      let head = try client.readHead()
      #expect(head.status == 200)
      #expect(head.headers["transfer-encoding"] == "chunked")
      #expect(try client.readChunk() == Array("first".utf8))
      let writer = try #require(writers.withLock { $0.first })
      #expect(writer.sendChunk(Array("second".utf8)))
      #expect(try client.readChunk() == Array("second".utf8))
      #expect(writer.endStream())
      #expect(try client.readChunk() == nil)
      #expect(!writer.sendChunk(Array("late".utf8)))
      // The connection is still usable.
      try client.send(get("/watch"))
      #expect(try client.readHead().status == 200)
    }
  }

  @Test("A malformed request gets 400 and the connection closes")
  func malformed() throws {
    try withServer { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send("NOT A REQUEST\r\n\r\n")
      let response = try client.readResponse()
      #expect(response.status == 400)
      #expect(response.headers["connection"] == "close")
      #expect(try client.readsEndOfFile())
    }
  }

  @Test("A body over the limit gets 413 and the connection closes")
  func bodyTooLarge() throws {
    let limits = HTTPServerLimits(parser: HTTPRequestParser.Limits(maxBodyBytes: 10))
    try withServer(limits: limits) { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n" + String(repeating: "x", count: 100))
      #expect(try client.readResponse().status == 413)
      #expect(try client.readsEndOfFile())
    }
  }

  @Test("An idle connection is closed after the idle timeout")
  func idleTimeout() throws {
    try withServer(limits: HTTPServerLimits(idleTimeout: 0.2)) { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send(get("/"))
      #expect(try client.readResponse().status == 200)
      let start = Date()
      #expect(try client.readsEndOfFile())
      #expect(Date().timeIntervalSince(start) >= 0.1)
    }
  }

  @Test("A request that is too slow gets 408 and the connection closes")
  func requestTimeout() throws {
    try withServer(limits: HTTPServerLimits(idleTimeout: 10, requestTimeout: 0.2)) { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send("GET / HTTP/1.1\r\nHost: te")
      #expect(try client.readResponse().status == 408)
      #expect(try client.readsEndOfFile())
    }
  }

  @Test("Beyond the connection limit a connection gets 503 and is closed; the others go on")
  func connectionLimit() throws {
    try withServer(limits: HTTPServerLimits(maxConnections: 1)) { _, port in
      let first = try TestHTTPClient(port: port)
      try first.send(get("/first"))
      #expect(try first.readResponse().status == 200)
      let second = try TestHTTPClient(port: port)
      let response = try second.readResponse()
      #expect(response.status == 503)
      #expect(response.headers["connection"] == "close")
      #expect(try second.readsEndOfFile())
      try first.send(get("/again"))
      #expect(try first.readResponse().text == "GET /again ")
    }
  }

  @Test("Binding a port already listened on throws, and so does starting twice")
  func bindErrors() throws {
    try withServer { server, port in
      let other = HTTPServer(port: port, handler: echo)
      #expect(throws: SocketError.self) { try other.start() }
      #expect(throws: SocketError.self) { try server.start() }
    }
  }

  @Test("stop() closes open connections and the listener")
  func stopCloses() throws {
    let server = HTTPServer(handler: echo)
    try server.start()
    let port = try #require(server.port)
    let client = try TestHTTPClient(port: port)
    try client.send(get("/"))
    #expect(try client.readResponse().status == 200)
    server.stop()
    #expect(try client.readsEndOfFile())
    #expect(throws: TestClientError.self) { try TestHTTPClient(port: port) }
    server.stop()
  }

  @Test("Expect: 100-continue gets 100 Continue before the body is sent")
  func expectContinue() throws {
    try withServer { _, port in
      let client = try TestHTTPClient(port: port)
      try client.send("POST /up HTTP/1.1\r\nHost: test\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
      #expect(try client.readHead().status == 100)
      try client.send("data")
      #expect(try client.readResponse().text == "POST /up data")
    }
  }

  @Test("A writer used after stop() is refused")
  func writerAfterStop() throws {
    let writers = Locked<[ResponseWriter]>([])
    let handler = ClosureHTTPHandler { _, writer in writers.withLock { $0.append(writer) } }
    let server = HTTPServer(handler: handler)
    try server.start()
    let client = try TestHTTPClient(port: try #require(server.port))
    try client.send(get("/"))
    var writer: ResponseWriter?
    for _ in 0..<300 where writer == nil {
      writer = writers.withLock { $0.first }
      if writer == nil { usleep(10_000) }
    }
    server.stop()
    #expect(try #require(writer).send(status: .ok) == false)
    #expect(try client.readsEndOfFile())
  }

  @Test("A stream's writer learns that its client went away, and that the server stopped")
  func streamCloseNotification() throws {
    let closed = DispatchSemaphore(value: 0)
    let handler = ClosureHTTPHandler { _, writer in
      writer.startStream(status: .ok)
      writer.onConnectionClose { closed.signal() }
    }
    let server = HTTPServer(handler: handler)
    try server.start()
    defer { server.stop() }
    let port = try #require(server.port)
    let leaving = try TestHTTPClient(port: port)
    try leaving.send(get("/watch"))
    #expect(try leaving.readHead().status == 200)
    leaving.close()
    #expect(closed.wait(timeout: .now() + 3) == .success)
    let staying = try TestHTTPClient(port: port)
    try staying.send(get("/watch"))
    #expect(try staying.readHead().status == 200)
    server.stop()
    #expect(closed.wait(timeout: .now() + 3) == .success)
  }

  @Test("A stream whose peer stops reading is cut off once its backlog passes the limit; the others go on")
  func stalledReader() throws {
    let closed = DispatchSemaphore(value: 0)
    let handler = ClosureHTTPHandler { request, writer in
      guard request.path == "/flood" else {
        writer.send(status: .ok, body: Array("ok".utf8))
        return
      }
      writer.startStream(status: .ok)
      writer.onConnectionClose { closed.signal() }
      // Far more than the socket buffers and the 256 KiB limit hold.
      let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
      DispatchQueue.global().async {
        for _ in 0..<200 where !writer.isConnectionClosed { writer.sendChunk(chunk) }
      }
    }
    try withServer(limits: HTTPServerLimits(maxPendingOutputBytes: 256 * 1024), handler: handler) { _, port in
      let stalled = try TestHTTPClient(port: port)
      try stalled.send(get("/flood"))
      #expect(closed.wait(timeout: .now() + 10) == .success)
      let other = try TestHTTPClient(port: port)
      try other.send(get("/other"))
      #expect(try other.readResponse().text == "ok")
      stalled.close()
    }
  }

  @Test("A peer that disconnects mid-response does not hurt the server")
  func peerDisconnects() throws {
    // SIGPIPE keeps its default action (terminate) in the test process, so a server write to a
    // reset connection without MSG_NOSIGNAL / SO_NOSIGPIPE would kill the whole test run.
    let big = [UInt8](repeating: 0x61, count: 8 * 1024 * 1024)
    let writers = Locked<[ResponseWriter]>([])
    let handler = ClosureHTTPHandler { request, writer in
      switch request.path {
      case "/big": writer.send(status: .ok, body: big)
      case "/stream":
        writer.startStream(status: .ok)
        writers.withLock { $0.append(writer) }
      default: writer.send(status: .ok, body: Array("alive".utf8))
      }
    }
    try withServer(handler: handler) { _, port in
      let first = try TestHTTPClient(port: port)
      try first.send(get("/big"))
      #expect(try first.readHead().status == 200)
      first.close()
      let second = try TestHTTPClient(port: port)
      try second.send(get("/stream"))
      #expect(try second.readHead().status == 200)
      second.close()
      let writer = try #require(writers.withLock { $0.first })
      for _ in 0..<64 { writer.sendChunk([UInt8](repeating: 0x62, count: 64 * 1024)) }
      writer.endStream()
      let third = try TestHTTPClient(port: port)
      try third.send(get("/"))
      #expect(try third.readResponse().text == "alive")
    }
  }
}
