import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

@Suite("Watch streams")
struct WatchTests {
  /// The document event of a `WatchResponse` JSON: (type, publisher).
  static func docEvent(_ json: WireJSON?) throws -> (WireDocEvent.Kind, String)? {
    guard let json else { return nil }
    let response = try WatchResponse(json: json, path: "response")
    guard case .documentEvent(let event) = response, let body = event.event else { return nil }
    return (body.type, body.publisher)
  }

  @Test("initialization lists every watcher; WATCHED, CHANGED and UNWATCHED reach the others, never the publisher")
  func documentEvents() async throws {
    try await withServer { url, _ in
      let a = try await HTTPReplica(url: url, key: "doc-watch")
      let b = try await HTTPReplica(url: url, key: "doc-watch")
      try await a.attach()
      try await b.attach()
      let watchA = try await a.client.stream(
        "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))]))
      #expect(watchA.status == 200)
      #expect(watchA.contentType == "application/connect+json")
      let initA = try WatchResponse(json: try #require(await watchA.nextJSON()), path: "init")
      guard case .initialization(let inits) = initA, case .document(let docInit) = inits.first else {
        Issue.record("the first message is not the initialization: \(initA)")
        return
      }
      #expect(docInit.documentID == a.documentID)
      #expect(docInit.clientIDs == [a.clientID])

      let watchB = try await b.client.stream(
        "Watch", WatchRequest(clientID: b.clientID, resources: [.document(WireDocumentResource(documentID: b.documentID))]))
      let initB = try WatchResponse(json: try #require(await watchB.nextJSON()), path: "init")
      guard case .initialization(let initsB) = initB, case .document(let docInitB) = initsB.first else {
        Issue.record("the first message is not the initialization: \(initB)")
        return
      }
      #expect(Set(docInitB.clientIDs) == [a.clientID, b.clientID])
      let watched = try Self.docEvent(await watchA.nextJSON())
      #expect(watched?.0 == .documentWatched)
      #expect(watched?.1 == b.clientID)

      // b pushes: a hears CHANGED, b hears nothing of its own push.
      try await b.document.update { root, _ in root["k"] = .string("v") }
      try await b.sync()
      let changed = try Self.docEvent(await watchA.nextJSON())
      #expect(changed?.0 == .documentChanged)
      #expect(changed?.1 == b.clientID)

      // a pushes: b hears it; and that is the first thing b hears (nothing of b's own push).
      try await a.document.update { root, _ in root["j"] = .string("w") }
      try await a.sync()
      let changedB = try Self.docEvent(await watchB.nextJSON())
      #expect(changedB?.0 == .documentChanged)
      #expect(changedB?.1 == a.clientID)

      watchB.close()
      let unwatched = try Self.docEvent(await watchA.nextJSON())
      #expect(unwatched?.0 == .documentUnwatched)
      #expect(unwatched?.1 == b.clientID)
      watchA.close()
    }
  }

  @Test("setup errors arrive as 200 with an end-of-stream error; a stopping server ends streams with canceled")
  func endings() async throws {
    let server = YorkieDevServer()
    let url = try server.start()
    defer { server.stop() }
    let a = try await HTTPReplica(url: url, key: "doc-endings")
    try await a.attach()
    let unknown = try await a.client.stream(
      "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: "0123456789abcdef01234567"))]))
    #expect(unknown.status == 200)
    let end = try #require(await unknown.next())
    #expect(end.isEndOfStream)
    #expect(try end.decodeEndOfStream().error?.yorkieCode == "ErrDocumentNotFound")
    #expect(try await unknown.next() == nil)

    let malformed = try await a.client.stream(
      "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: "xyz"))]))
    #expect(try #require(await malformed.next()).decodeEndOfStream().error?.yorkieCode == "ErrInvalidID")

    let open = try await a.client.stream(
      "WatchDocument", WatchDocumentRequest(clientID: a.clientID, documentID: a.documentID))
    let first = try WatchDocumentResponse(json: try #require(await open.nextJSON()), path: "init")
    guard case .initialization(let initialization) = first else {
      Issue.record("WatchDocument's first message is \(first)")
      return
    }
    #expect(initialization.clientIDs == [a.clientID])
    server.stop()
    let canceled = try #require(await open.next())
    #expect(canceled.isEndOfStream)
    #expect(try canceled.decodeEndOfStream().error?.code == .canceled)
  }

  @Test("a Connect-Timeout-Ms deadline ends a stream with canceled, as Yorkie's do")
  func deadline() async throws {
    try await withServer { url, _ in
      let a = try await HTTPReplica(url: url, key: "doc-deadline")
      try await a.attach()
      let stream = try await a.client.stream(
        "Watch", WatchRequest(clientID: a.clientID, resources: [.document(WireDocumentResource(documentID: a.documentID))]),
        extra: ["Connect-Timeout-Ms": "200"])
      _ = try await stream.nextJSON()
      let end = try #require(await stream.next())
      #expect(try end.decodeEndOfStream().error?.code == .canceled)
      #expect(try await stream.next() == nil)
    }
  }
}
