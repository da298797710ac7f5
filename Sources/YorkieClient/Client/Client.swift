import CRDT
import Foundation
import YorkieProtocol

/// Connects documents and channels to a Yorkie server and keeps them in sync.
///
/// ```swift
/// let client = Client(URL(string: "http://localhost:8080")!)
/// try await client.activate()
/// let doc = Document(key: "todos")
/// try await client.attach(doc, initialPresence: ["name": "ann"])
/// try await doc.update { root, _ in root["title"] = "Groceries" }   // pushed at once
/// try await client.waitUntilAcknowledged(doc)                         // "saved"
/// try await client.detach(doc)
/// try await client.deactivate()
/// ```
///
/// Syncing is event-driven: a local update starts a push at once (updates made while one is
/// in flight go together in the next), and a change announced on the Watch stream starts a
/// pull. Failed calls and streams are retried with exponential backoff and full jitter (see
/// ``ReconnectPolicy``); what the client does is reported through ``events()``.
public actor Client {
  /// The server's address.
  public nonisolated let url: URL
  /// The client's key (``ClientOptions/key``).
  public nonisolated let key: String
  /// The options the client was made with.
  let options: ClientOptions
  /// The calls.
  let rpc: ClientRPC
  /// Connection events.
  let hub = EventHub<ClientEvent>()
  /// Whether the client is activated.
  public private(set) var status: ClientStatus = .deactivated
  /// The ID the server gave this client (24 hex characters) while activated.
  public private(set) var id: String?
  /// Attached documents by key.
  private var documents: [String: DocumentSession] = [:]
  /// Keys of documents being attached (an attach awaits the server; a second one must not
  /// start meanwhile).
  private var attaching: Set<String> = []
  /// Attached channels by key.
  var channels: [String: ChannelSession] = [:]

  /// A client of the server at `url`; nothing is sent before ``activate()``.
  public init(_ url: URL, options: ClientOptions = ClientOptions()) {
    self.url = url
    self.key = options.key
    self.options = options
    let tokens = AuthTokenStore(provider: options.authTokenProvider)
    var tokenProvider: ConnectTransport.TokenProvider?
    if options.authTokenProvider != nil {
      tokenProvider = { try await tokens.current() }
    }
    let transport = ConnectTransport(
      baseURL: url, apiKey: options.apiKey, tokenProvider: tokenProvider,
      userAgent: options.userAgent,
      timeouts: ConnectTransport.Timeouts(request: options.timeouts.request, streamIdle: options.timeouts.streamIdle))
    rpc = ClientRPC(transport: transport, tokens: tokens, events: hub)
  }

  deinit {
    for session in documents.values { session.halt(with: YorkieError(.clientNotActivated, "the client was released")) }
    for session in channels.values { session.halt() }
    rpc.transport.invalidate()
    hub.finish()
  }

  /// Connection and sync events, in order; each call makes a new subscription, which ends
  /// when the consuming task is cancelled. Delivery never waits for the consumer.
  public nonisolated func events() -> AsyncStream<ClientEvent> { hub.subscribe() }

  /// Whether the client is activated.
  public var isActive: Bool { status == .activated }

  // MARK: - Activation

  /// Registers the client with the server; documents and channels can be attached after.
  /// Does nothing when the client is active already.
  public func activate() async throws {
    guard status == .deactivated else { return }
    let response: ActivateClientResponse = try await rpc.call(
      "ActivateClient", ActivateClientRequest(clientKey: key, metadata: options.metadata), shardKey: key)
    guard (try? ActorID(hex: response.clientID)) != nil else {
      throw YorkieError(.invalidWireData, "ActivateClient: the server gave an invalid client ID \"\(response.clientID)\"", field: "clientId")
    }
    id = response.clientID
    status = .activated
    hub.send(.statusChanged(.activated))
  }

  /// Stops syncing every document and channel and tells the server the client leaves. The
  /// documents become detached locally; their unpushed changes stay in them. A failure to
  /// reach the server still deactivates the client locally (the server drops idle clients
  /// on its own), and is rethrown.
  public func deactivate() async throws {
    guard status == .activated, let clientID = id else { return }
    status = .deactivated
    id = nil
    let sessions = Array(documents.values)
    let channelSessions = Array(channels.values)
    documents = [:]
    channels = [:]
    let reason = YorkieError(.clientNotActivated, "the client was deactivated")
    for session in sessions {
      await session.stop(with: reason, awaitingInFlight: false)
      await session.document.setStatus(.detached)
    }
    for session in channelSessions { await session.stop() }
    hub.send(.statusChanged(.deactivated))
    let _: DeactivateClientResponse = try await rpc.call(
      "DeactivateClient", DeactivateClientRequest(clientID: clientID), shardKey: key)
  }

  // MARK: - Documents

  /// Attaches `document` and starts syncing it.
  ///
  /// The document's local changes (made before attaching) go to the server with the attach;
  /// the server's content comes back and is merged. Then `initialRoot`'s keys that the
  /// document does not have yet are set (one update), so that the first client creates the
  /// shape and later ones keep what is there. In a realtime mode this returns once the Watch
  /// stream answered (peers and their presences are known), or after the request timeout.
  ///
  /// - Parameters:
  ///   - document: A detached document that was never attached before.
  ///   - initialPresence: This client's presence for peers.
  ///   - syncMode: How the document syncs (``SyncMode/realtime`` by default).
  ///   - initialRoot: Values for keys the document lacks after attaching.
  /// - Throws: ``YorkieError`` `clientNotActivated`, `documentAlreadyAttached`,
  ///   `documentAlreadyDetached`, `documentRemoved`, or the server's error. Nothing stays
  ///   attached then.
  public func attach(
    _ document: Document, initialPresence: [String: JSONValue] = [:], syncMode: SyncMode = .realtime,
    initialRoot: [String: JSONValue]? = nil
  ) async throws {
    let clientID = try requireActive()
    let key = document.key
    guard documents[key] == nil, !attaching.contains(key) else {
      throw YorkieError(.documentAlreadyAttached, "a document with key \"\(key)\" is attached to this client already")
    }
    switch await document.status {
    case .attached:
      throw YorkieError(.documentAlreadyAttached, "document \"\(key)\" is attached to another client")
    case .removed:
      throw YorkieError(.documentRemoved, "document \"\(key)\" was removed")
    case .detached:
      break
    }
    if await document.checkpoint != .initial {
      throw YorkieError(.documentAlreadyDetached, "document \"\(key)\" was attached and detached before: attach a new Document")
    }
    attaching.insert(key)
    defer { attaching.remove(key) }
    try await document.setActor(ActorID(hex: clientID))
    try await document.update { _, presence in presence.set(initialPresence) }
    let pack = WireChangePack(try await document.createChangePack())
    let response: AttachDocumentResponse = try await rpc.call(
      "AttachDocument", AttachDocumentRequest(clientID: clientID, changePack: pack), shardKey: key)
    guard let answer = response.changePack else {
      throw YorkieError(.invalidWireData, "AttachDocument: the answer has no change pack", field: "changePack")
    }
    try await document.applyChangePack(try answer.model(role: .response))
    guard status == .activated, id == clientID else {
      throw YorkieError(.clientNotActivated, "the client was deactivated while \"\(key)\" was being attached")
    }
    if let initialRoot, !initialRoot.isEmpty {
      try await document.update { root, _ in
        for (name, value) in initialRoot.sorted(by: { $0.key < $1.key }) where root[name] == nil {
          root[name] = value
        }
      }
    }
    await document.setStatus(.attached)
    let session = DocumentSession(
      document: document, documentID: response.documentID, clientID: clientID, mode: syncMode, rpc: rpc,
      policy: options.reconnect, environment: options.environment, events: hub,
      onHalt: { [weak self] session in Task { await self?.sessionHalted(session) } })
    documents[key] = session
    await session.start()
    await session.waitUntilWatchSettled(timeout: options.timeouts.request)
  }

  /// Pushes the pending changes, says goodbye to peers (the presence is cleared) and stops
  /// syncing `document`. A push-pull in flight completes first.
  ///
  /// - Throws: `documentNotAttached` when this client does not hold the document, or the
  ///   server's error (the document is detached locally all the same).
  public func detach(_ document: Document) async throws {
    let session = try attachedSession(of: document)
    documents[document.key] = nil
    await session.stop(with: YorkieError(.documentNotAttached, "document \"\(document.key)\" was detached"), awaitingInFlight: true)
    await document.recordPresenceClear()
    do {
      try await pushBacklog(of: session)
      let pack = WireChangePack(try await document.createChangePack())
      let response: DetachDocumentResponse = try await rpc.call(
        "DetachDocument", DetachDocumentRequest(clientID: session.clientID, documentID: session.documentID, changePack: pack),
        shardKey: document.key)
      if let answer = response.changePack {
        try await document.applyChangePack(try answer.model(role: .response))
      }
    } catch {
      await document.setStatus(.detached)
      throw error
    }
    await document.setStatus(.detached)
  }

  /// Removes `document` from the server for every client (after pushing its pending
  /// changes); it becomes `removed` and refuses edits.
  public func remove(_ document: Document) async throws {
    let session = try attachedSession(of: document)
    documents[document.key] = nil
    await session.stop(with: YorkieError(.documentRemoved, "document \"\(document.key)\" was removed"), awaitingInFlight: true)
    do {
      try await pushBacklog(of: session)
      // The pack's isRemoved is what removes the document on the server.
      var request = try await document.createChangePack()
      request.isRemoved = true
      let pack = WireChangePack(request)
      let response: RemoveDocumentResponse = try await rpc.call(
        "RemoveDocument", RemoveDocumentRequest(clientID: session.clientID, documentID: session.documentID, changePack: pack),
        shardKey: document.key)
      if let answer = response.changePack {
        try await document.applyChangePack(try answer.model(role: .response))
      }
    } catch {
      await document.setStatus(.detached)
      throw error
    }
    await document.setStatus(.removed)
  }

  /// Pushes `document`'s pending changes and pulls the others' now (every attached document
  /// when nil), after any push-pull in flight; returns when the server answered. Works in
  /// every sync mode.
  public func sync(_ document: Document? = nil) async throws {
    if let document {
      try await attachedSession(of: document).sync()
      return
    }
    _ = try requireActive()
    for session in documents.values { try await session.sync() }
  }

  /// Returns once the server acknowledged every change `document` recorded so far: for a
  /// "saved" indicator after an update. In ``SyncMode/manual`` and
  /// ``SyncMode/realtimeSyncOff`` the push happens on ``sync(_:)`` (or a mode switch).
  ///
  /// - Throws: `documentNotAttached` when the document is not attached or is detached while
  ///   waiting; `CancellationError` when the waiting task is cancelled.
  public func waitUntilAcknowledged(_ document: Document) async throws {
    let session = try attachedSession(of: document)
    try await session.waitForAcknowledgement(through: await document.lastLocalClientSeq)
  }

  /// Switches how `document` syncs; see ``SyncMode``.
  public func changeSyncMode(_ document: Document, to mode: SyncMode) async throws {
    try await attachedSession(of: document).changeMode(to: mode)
  }

  /// The sync mode of `document`, nil when this client does not hold it.
  public func syncMode(of document: Document) -> SyncMode? {
    guard let session = documents[document.key], session.document === document else { return nil }
    return session.mode
  }

  /// Whether a document with `key` is attached to this client.
  public func has(_ key: String) -> Bool { documents[key] != nil }

  // MARK: - Internals

  /// The client's ID, or `clientNotActivated`.
  func requireActive() throws -> String {
    guard status == .activated, let id else {
      throw YorkieError(.clientNotActivated, "the client is not activated: call activate() first")
    }
    return id
  }

  /// The session of `document`, or `documentNotAttached`.
  private func attachedSession(of document: Document) throws -> DocumentSession {
    _ = try requireActive()
    guard let session = documents[document.key], session.document === document else {
      throw YorkieError(.documentNotAttached, "document \"\(document.key)\" is not attached to this client")
    }
    return session
  }

  /// Pushes all but the last ``DocumentSession/maxChangesPerPush`` pending changes of a
  /// stopped session, so that the final pack of a detach or remove stays within the server's
  /// body limit.
  private func pushBacklog(of session: DocumentSession) async throws {
    while await session.document.pendingChanges.count > DocumentSession.maxChangesPerPush {
      _ = try await session.pushPull(pushOnly: true)
    }
  }

  /// A session stopped on its own: drop it; a client error deactivates the client.
  private func sessionHalted(_ session: DocumentSession) async {
    if documents[session.key] === session { documents[session.key] = nil }
    let reason = session.state.withLock { $0.stopError }
    if await session.document.status == .attached { await session.document.setStatus(.detached) }
    if let reason, reason.code == .clientNotActivated || reason.code == .clientNotFound, status == .activated {
      // The server no longer knows this client: every other attachment fails the same way.
      status = .deactivated
      id = nil
      let others = Array(documents.values)
      documents = [:]
      for other in others {
        await other.stop(with: reason, awaitingInFlight: false)
        await other.document.setStatus(.detached)
      }
      for channel in channels.values { await channel.stop() }
      channels = [:]
      hub.send(.statusChanged(.deactivated))
    }
  }
}
