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
  /// Connection events (each also written to the log).
  let hub: EventHub<ClientEvent>
  /// The log (``ClientOptions/logLevel``, ``ClientOptions/logSink``).
  let log: ClientLog
  /// Whether the client is activated.
  public private(set) var status: ClientStatus = .deactivated
  /// The ID the server gave this client while activated: the actor of its changes, as
  /// presences and peers name it (``PeerPresence/actorID``, ``Document/actorID``).
  public var id: ActorID? { hexID.flatMap { try? ActorID(hex: $0) } }
  /// ``id`` as the server spells it (24 hex characters), for requests; activation checks
  /// that it is an actor ID.
  private(set) var hexID: String?
  /// Attached documents by key.
  var documents: [String: DocumentSession] = [:]
  /// Keys of documents being attached (an attach awaits the server; a second one must not
  /// start meanwhile).
  var attaching: Set<String> = []
  /// Documents shared through ``document(_:initialPresence:syncMode:initialRoot:)``, by key.
  var handles: [String: SharedDocumentHandle] = [:]
  /// Attached channels by key.
  var channels: [String: ChannelSession] = [:]
  /// The document store, open from the first ``activate()`` until ``close()``; nil with
  /// ``DocumentStorage/memory``.
  var store: (any DocumentStore)?
  /// Whether ``hexID`` came from the store and no call has confirmed the server still knows it.
  var identityAdopted = false

  /// A client of the server at `url`; nothing is sent before ``activate()``.
  public init(_ url: URL, options: ClientOptions = ClientOptions()) {
    self.url = url
    self.key = options.key
    self.options = options
    let log = ClientLog(level: options.logLevel, sink: options.logSink)
    self.log = log
    // Every event is logged where it is sent: the log tells what the app is told, in order.
    var observer: (@Sendable (ClientEvent) -> Void)?
    if log.level != .off { observer = { @Sendable event in log.record(event) } }
    hub = EventHub(observer: observer)
    let tokens = AuthTokenStore(provider: options.authTokenProvider)
    var tokenProvider: ConnectTransport.TokenProvider?
    if options.authTokenProvider != nil {
      tokenProvider = { try await tokens.current() }
    }
    let transport = ConnectTransport(
      baseURL: url, apiKey: options.apiKey, tokenProvider: tokenProvider,
      userAgent: options.userAgent,
      timeouts: ConnectTransport.Timeouts(request: options.timeouts.request, streamIdle: options.timeouts.streamIdle))
    rpc = ClientRPC(transport: transport, tokens: tokens, events: hub, log: log)
  }

  deinit {
    for session in documents.values {
      session.halt(with: YorkieError(.clientNotActivated, "the client was released"))
      session.recorder?.stop()
    }
    // Released, so that another client may open the directory (the documents stay editable).
    store?.close()
    for session in channels.values {
      session.halt()
      // A Channel outlives its client: it says detached, not attached or pending.
      Task { [channel = session.channel, id = session.id] in await channel.release(from: id) }
    }
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
  ///
  /// With a store that holds an identity (``ClientOptions/storage``: a client on the same
  /// directory ran before and did not deactivate), the client goes on as that client without a
  /// round trip, offline too; its stored documents resume when attached. Should the server no
  /// longer know it, the first call finds out and the client activates anew (stored documents
  /// are then attached afresh, with a ``ClientEvent/documentReset(_:)`` event).
  ///
  /// - Throws: the server's error, or ``YorkieError`` `storageFailed` when the store cannot
  ///   be opened (another client holds its directory).
  public func activate() async throws {
    guard status == .deactivated else { return }
    let load = try openStore().map { store in try storing("the document store failed") { try store.loadIdentity() } }
    if let damage = load?.damage {
      hub.send(.storeDamaged(StoreDamageNotice(document: nil, file: damage.file, reason: damage.reason)))
    }
    if let tail = load?.tornTail {
      hub.send(.storeDamaged(StoreDamageNotice(document: nil, file: tail.file, reason: tail.reason, kind: .tornTail)))
    }
    if let identity = load?.identity, (try? ActorID(hex: identity.clientID)) != nil {
      hexID = identity.clientID
      identityAdopted = true
      status = .activated
      hub.send(.statusChanged(.activated))
      return
    }
    try await activateOnServer()
    status = .activated
    hub.send(.statusChanged(.activated))
  }

  /// ActivateClient: a new client ID from the server, kept in the store.
  func activateOnServer() async throws {
    let response: ActivateClientResponse = try await rpc.call(
      "ActivateClient", ActivateClientRequest(clientKey: key, metadata: options.metadata), shardKey: key)
    guard (try? ActorID(hex: response.clientID)) != nil else {
      throw YorkieError(.invalidWireData, "ActivateClient: the server gave an invalid client ID \"\(response.clientID)\"", field: "clientId")
    }
    let identity = StoredIdentity(clientKey: key, clientID: response.clientID)
    if let store { try storing("the document store failed") { try store.saveIdentity(identity) } }
    hexID = response.clientID
    identityAdopted = false
  }

  /// Stops syncing every document and channel and tells the server the client leaves. The
  /// documents become detached locally; their unpushed changes stay in them. A failure to
  /// reach the server still deactivates the client locally (the server drops idle clients
  /// on its own), and is rethrown.
  public func deactivate() async throws {
    guard status == .activated, let clientID = hexID else { return }
    await stopAll(because: YorkieError(.clientNotActivated, "the client was deactivated"))
    hub.send(.statusChanged(.deactivated))
    // The identity ends here: a later activation is a new client, and the documents stored
    // under this one are attached afresh.
    if let store { try? store.saveIdentity(nil) }
    identityAdopted = false
    let _: DeactivateClientResponse = try await rpc.call(
      "DeactivateClient", DeactivateClientRequest(clientID: clientID), shardKey: key)
  }

  /// Stops every document and channel without telling the server, and closes the store: the
  /// client stays attached on the server, as after a crash, so that a client started later on
  /// the same ``ClientOptions/storage`` resumes its documents (this one too, after
  /// ``activate()``). For an app going away (into the background, or quitting) that will be
  /// back; ``deactivate()`` is for a user who leaves.
  ///
  /// Pending local changes stay stored and are pushed on resumption. Peers see this client's
  /// Watch streams end. Documents become detached locally.
  public func close() async {
    let wasActive = status == .activated
    await stopAll(because: YorkieError(.clientNotActivated, "the client was closed"))
    identityAdopted = false
    store?.close()
    store = nil
    if wasActive { hub.send(.statusChanged(.deactivated)) }
  }

  // MARK: - Internals

  /// Marks the client deactivated locally and stops every document (left detached) and
  /// channel, failing what waits on them with `reason`; shared handles end.
  func stopAll(because reason: YorkieError) async {
    status = .deactivated
    hexID = nil
    endSharedHandles()
    let sessions = Array(documents.values)
    let channelSessions = Array(channels.values)
    documents = [:]
    channels = [:]
    for session in sessions {
      await session.stop(with: reason, awaitingInFlight: false)
      await session.document.endAttachment(reason.message)
    }
    for session in channelSessions { await session.stop() }
  }

  /// The client's ID, or `clientNotActivated`.
  func requireActive() throws -> String {
    guard status == .activated, let hexID else {
      throw YorkieError(.clientNotActivated, "the client is not activated: call activate() first")
    }
    return hexID
  }

  /// A session stopped on its own: drop it; a client error deactivates the client; a
  /// resumed attachment that is gone is attached afresh.
  func sessionHalted(_ session: DocumentSession) async {
    if session.needsRecovery {
      await recover(session)
      return
    }
    if session.awaitsReattach {
      // Kept as the document's session: ``detach(_:)`` ends the attachment on the server and
      // ``reattach(_:)`` attaches afresh. (Either may have run already.)
      if documents[session.key] === session, await session.document.status == .attached {
        await session.document.endAttachment("its sync stopped: this replica could not apply the server's changes")
      }
      return
    }
    if documents[session.key] === session { documents[session.key] = nil }
    let reason = session.state.withLock { $0.stopError }
    if await session.document.status == .attached {
      await session.document.endAttachment("its sync stopped: \(reason?.description ?? "halted")")
    }
    if let reason, reason.code == .clientNotActivated || reason.code == .clientNotFound, status == .activated {
      // The server no longer knows this client: every other attachment fails the same way.
      await stopAll(because: reason)
      hub.send(.statusChanged(.deactivated))
    }
  }
}
