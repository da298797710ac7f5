import Foundation
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

/// A document replica that syncs through a ``ConnectTransport``, the way the client will:
/// activate, attach with its pending changes, push-pull.
final class TransportReplica: Sendable {
  /// The transport.
  let transport: ConnectTransport
  /// The replica.
  let document: Document
  /// The document's key.
  let key: String
  /// The client id the server assigned.
  let clientID: String
  /// The document id, once attached.
  private let attachedID = LockedValue<String?>(nil)

  /// The document id (after ``attach()``).
  var documentID: String { attachedID.withLock { $0! } }

  /// Activates a client at `url` that will edit document `key`.
  init(url: URL, key: String, clientKey: String = "replica", apiKey: String? = nil) async throws {
    transport = ConnectTransport(baseURL: url, apiKey: apiKey)
    let activated: ActivateClientResponse = try await transport.unary(
      "ActivateClient", ActivateClientRequest(clientKey: clientKey), shardKey: clientKey)
    clientID = activated.clientID
    self.key = key
    document = Document(key: key)
    try await document.setActor(ActorID(hex: clientID))
  }

  /// Releases the transport's session.
  deinit { transport.invalidate() }

  /// Attaches the document with its pending changes.
  func attach() async throws {
    let pack = WireChangePack(try await document.createChangePack())
    let response: AttachDocumentResponse = try await transport.unary(
      "AttachDocument", AttachDocumentRequest(clientID: clientID, changePack: pack), shardKey: key)
    attachedID.withLock { $0 = response.documentID }
    try await apply(response.changePack)
    await document.setStatus(.attached)
  }

  /// Pushes the pending changes and pulls the others'; returns the server's pack.
  @discardableResult
  func sync() async throws -> WireChangePack? {
    let pack = WireChangePack(try await document.createChangePack())
    let response: PushPullChangesResponse = try await transport.unary(
      "PushPullChanges", PushPullChangesRequest(clientID: clientID, documentID: documentID, changePack: pack), shardKey: key)
    try await apply(response.changePack)
    return response.changePack
  }

  /// The Watch stream of the document.
  func watch() -> AsyncThrowingStream<WatchResponse, any Error> {
    transport.stream(
      "Watch", WatchRequest(clientID: clientID, resources: [.document(WireDocumentResource(documentID: documentID))]),
      shardKey: key, as: WatchResponse.self)
  }

  /// Applies a pack the server answered with.
  private func apply(_ pack: WireChangePack?) async throws {
    guard let pack else { throw YorkieError(.invalidChangePack, "an answer without its change pack") }
    try await document.applyChangePack(try pack.model(role: .response))
  }
}

/// Runs `body` against a fresh in-process server.
func withServer<T>(
  _ configuration: YorkieDevServer.Configuration = .init(), _ body: (URL, YorkieDevServer) async throws -> T
) async throws -> T {
  let server = YorkieDevServer(configuration: configuration)
  let url = try server.start()
  defer { server.stop() }
  return try await body(url, server)
}

/// The document event of a Watch message: its type and publisher, or nil for another message.
func documentEvent(_ message: WatchResponse?) -> (WireDocEvent.Kind, String)? {
  guard case .documentEvent(let event)? = message, let body = event.event else { return nil }
  return (body.type, body.publisher)
}

/// A value behind a lock (test helpers must be `Sendable`; `Mutex` needs newer Apple systems).
final class LockedValue<Value: Sendable>: @unchecked Sendable {
  // Unchecked: `value` is only touched under `lock`.
  /// Guards `value`.
  private let lock = NSLock()
  /// The value.
  private var value: Value

  /// A box holding `value`.
  init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, under the lock.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
