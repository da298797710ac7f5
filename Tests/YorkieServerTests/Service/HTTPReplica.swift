import CRDT
import Foundation
import YorkieProtocol
@testable import YorkieServer

/// A replica that syncs with the dev server over real HTTP, the way an SDK does: activate,
/// attach with its pending changes, push-pull, detach. Its document is the `CRDT` module's.
final class HTTPReplica: Sendable {
  /// The transport.
  let client: ConnectTestClient
  /// The replica.
  let document: Document
  /// The client id the server assigned.
  let clientID: String
  /// The document id, once attached.
  private let documentIDBox = LockedBox<String?>(nil)

  /// The document id (after ``attach()``).
  var documentID: String { documentIDBox.value! }

  /// Activates a client on the server at `url` for document `key`.
  init(url: URL, key: String, clientKey: String = "replica", headers: [String: String] = [:]) async throws {
    client = ConnectTestClient(url, headers: headers)
    let activated = try await client.call(
      "ActivateClient", ActivateClientRequest(clientKey: clientKey), as: ActivateClientResponse.self)
    clientID = activated.clientID
    document = Document(key: key)
    try await document.setActor(ActorID(hex: clientID))
  }

  /// Attaches with the pending changes (an initial presence, as SDKs send).
  func attach(presence: [String: JSONValue] = [:], disableGC: Bool = false) async throws {
    try await document.update { _, p in p.set(presence) }
    let pack = WireChangePack(try await document.createChangePack())
    let response = try await client.call(
      "AttachDocument", AttachDocumentRequest(clientID: clientID, changePack: pack, disableGC: disableGC), as: AttachDocumentResponse.self)
    documentIDBox.value = response.documentID
    try await apply(response.changePack)
    await document.setStatus(.attached)
  }

  /// Push-pull; returns the server's answer.
  @discardableResult
  func sync(pushOnly: Bool = false) async throws -> WireChangePack? {
    let pack = WireChangePack(try await document.createChangePack())
    let response = try await client.call(
      "PushPullChanges", PushPullChangesRequest(clientID: clientID, documentID: documentID, changePack: pack, pushOnly: pushOnly),
      as: PushPullChangesResponse.self)
    try await apply(response.changePack)
    return response.changePack
  }

  /// Detaches (with a presence clear, as SDKs do).
  func detach() async throws {
    try await document.update { _, p in p.clear() }
    let pack = WireChangePack(try await document.createChangePack())
    let response = try await client.call(
      "DetachDocument", DetachDocumentRequest(clientID: clientID, documentID: documentID, changePack: pack), as: DetachDocumentResponse.self)
    try await apply(response.changePack)
    await document.setStatus(.detached)
  }

  /// Applies a response pack.
  private func apply(_ pack: WireChangePack?) async throws {
    guard let pack else { throw TestClientError(description: "a response without its change pack") }
    try await document.applyChangePack(try pack.model(role: .response))
  }
}

/// A value behind a lock, for test helpers that must be `Sendable`.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  // Unchecked: `stored` is touched only under `lock`.
  /// The lock.
  private let lock = NSLock()
  /// The value.
  private var stored: Value

  /// A box holding `value`.
  init(_ value: Value) { stored = value }

  /// The value. Reading and then writing it is two steps: use ``mutate(_:)`` to change it
  /// atomically.
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  /// Changes the value in one step under the lock.
  func mutate<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try lock.withLock { try body(&stored) }
  }
}
