import CRDT
import Foundation
import YorkieProtocol

// The client's store: opening it, resuming stored documents, and recovering those that cannot
// be resumed.

extension Client {
  /// The store, opened on first use; nil with ``DocumentStorage/memory`` (nothing is kept
  /// beyond the documents themselves, and nothing is recorded: the sync path pays nothing).
  func openStore() throws -> (any DocumentStore)? {
    if let store { return store }
    guard case .directory(let url) = options.storage.location else { return nil }
    let opened = try storing("the document store failed") { try FileDocumentStore(directory: url) }
    store = opened
    return opened
  }

  /// What the store holds for `key` (the damage it found reported as events).
  func loadStored(_ key: String, from store: any DocumentStore) throws -> StoreLoad {
    let load = try storing("the document store failed") { try store.load(key) }
    for damage in load.damages {
      hub.send(.storeDamaged(StoreDamageNotice(document: key, file: damage.file, reason: damage.reason)))
    }
    return load
  }

  /// Resumes what the store holds for `document`'s key, if it can (returns true); otherwise
  /// forgets it (reporting unsent edits) and returns false, for a fresh attach.
  func resumeStored(
    _ document: Document, store: any DocumentStore, clientID: String, initialPresence: [String: JSONValue], syncMode: SyncMode,
    initialRoot: [String: InitialValue]?
  ) async throws -> Bool {
    let key = document.key
    let load = try loadStored(key, from: store)
    guard let stored = load.document else { return false }
    let reason: YorkieError
    if isResumable(load, clientID: clientID), await document.isFresh {
      do {
        try await resume(
          document, from: stored, store: store, clientID: clientID, initialPresence: initialPresence, syncMode: syncMode,
          initialRoot: initialRoot)
        return true
      } catch {
        await document.resetToFresh()
        reason = YorkieError.wrapping(error, "resume")
      }
    } else if !load.damages.isEmpty {
      reason = YorkieError(.invalidChangePack, "the stored state was damaged: \(load.damages.map(\.description).joined(separator: "; "))")
    } else {
      reason = YorkieError(
        .documentNotAttached,
        "the stored state belongs to an attachment that ended (an earlier identity, a detach, or a document edited before this attach)")
    }
    try await discardStored(key, load: load, store: store, clientID: clientID, reason: reason)
    return false
  }

  /// Whether `stored` can be resumed by this client as it is: written under this client's
  /// identity (attached on the server, or waiting for a deferred attach), read back without
  /// damage.
  func isResumable(_ load: StoreLoad, clientID: String) -> Bool {
    guard let stored = load.document, load.damages.isEmpty else { return false }
    return stored.base.replica.actorID == (try? ActorID(hex: clientID))
  }

  /// Resumes a stored attachment: the document shows its stored state at once, and the first
  /// push-pull (in the background) pushes the unacknowledged changes and pulls only what
  /// happened since the stored checkpoint (or, for a deferred attach that never reached the
  /// server, attaches it). Returns without waiting for the network.
  func resume(
    _ document: Document, from stored: StoredDocument, store: any DocumentStore, clientID: String,
    initialPresence: [String: JSONValue], syncMode: SyncMode, initialRoot: [String: InitialValue]?
  ) async throws {
    let replica = try StoredEntry.replica(stored)
    let documentID = stored.base.documentID
    try await document.restore(from: replica.base, replaying: replica.records)
    let recorder = StoreRecorder(continuing: stored, store: store, key: document.key, durability: options.storage.durability)
    await document.continueRecording(with: recorder)
    if !initialPresence.isEmpty {
      try await document.update { _, presence in presence.set(initialPresence) }
    }
    await document.setStatus(.attached)
    let session = makeSession(
      document, documentID: documentID, clientID: clientID, syncMode: syncMode, recorder: recorder, unconfirmed: true,
      initialRoot: documentID == nil ? initialRoot : nil)
    documents[document.key] = session
    await session.start()
  }

  /// A session for an attached document.
  func makeSession(
    _ document: Document, documentID: String?, clientID: String, syncMode: SyncMode, recorder: StoreRecorder?, unconfirmed: Bool,
    initialRoot: [String: InitialValue]? = nil
  ) -> DocumentSession {
    DocumentSession(
      document: document, documentID: documentID, clientID: clientID, mode: syncMode, rpc: rpc,
      policy: options.reconnect, environment: options.environment, events: hub, recorder: recorder, unconfirmed: unconfirmed,
      initialRoot: initialRoot, onHalt: { [weak self] session in Task { await self?.sessionHalted(session) } })
  }

  /// Forgets a stored state that cannot be resumed, telling the app what it held when local
  /// changes in it were never acknowledged; a state bound to this client's identity is detached
  /// on the server first (the server would refuse a second attach). Best effort on the server.
  func discardStored(_ key: String, load: StoreLoad, store: any DocumentStore, clientID: String, reason: YorkieError) async throws {
    if let stored = load.document {
      if let documentID = stored.base.documentID, stored.base.replica.actorID == (try? ActorID(hex: clientID)) {
        await detachOnServer(key, documentID: documentID, checkpoint: stored.base.replica.checkpoint, clientID: clientID)
      }
      let scratch = Document(key: key)
      if let replica = try? StoredEntry.replica(stored), (try? await scratch.restore(from: replica.base, replaying: replica.records)) != nil {
        let unsent = await scratch.localChanges.count
        if unsent > 0 {
          hub.send(.documentReset(DocumentResetNotice(document: key, reason: reason, lastContent: await scratch.toJSON(), unsentChanges: unsent)))
        }
      }
    }
    try storing("the document store failed") { try store.remove(key) }
  }

  /// DetachDocument with no changes, its outcome ignored: ends an attachment the client gives
  /// up, so that the server lets it attach the document again.
  func detachOnServer(_ key: String, documentID: String, checkpoint: Checkpoint, clientID: String) async {
    let pack = WireChangePack(ChangePack(key: key, checkpoint: checkpoint, changes: [], role: .request))
    let _: DetachDocumentResponse? = try? await rpc.call(
      "DetachDocument", DetachDocumentRequest(clientID: clientID, documentID: documentID, changePack: pack), shardKey: key)
  }

  /// Attaches afresh the document of a resumed session whose attachment is gone (see
  /// ``DocumentSession/needsRecovery``): the app is told what the document held, and the same
  /// `Document` then shows the server's content.
  func recover(_ session: DocumentSession) async {
    let key = session.key
    let document = session.document
    if documents[key] === session { documents[key] = nil }
    await session.stop(with: session.state.withLock { $0.stopError } ?? YorkieError(.documentNotAttached, "lost"), awaitingInFlight: false)
    let reason = session.state.withLock { $0.stopError } ?? YorkieError(.documentNotAttached, "the attachment is gone")
    var presence: [String: JSONValue] = [:]
    if let actor = try? ActorID(hex: session.clientID) { presence = await document.presence(of: actor) ?? [:] }
    let unsent = await document.localChanges.count
    let checkpoint = await document.checkpoint
    let identityLost = reason.code == .clientNotFound || reason.code == .clientNotActivated
    if !identityLost, let documentID = session.documentID {
      await detachOnServer(key, documentID: documentID, checkpoint: checkpoint, clientID: session.clientID)
    }
    hub.send(.documentReset(DocumentResetNotice(document: key, reason: reason, lastContent: await document.toJSON(), unsentChanges: unsent)))
    await document.resetToFresh()
    if let store { try? store.remove(key) }
    do {
      if identityLost, status == .activated, id == session.clientID {
        try await activateOnServer()
      }
      try await attach(document, initialPresence: presence, syncMode: session.mode)
    } catch {
      let failure = YorkieError.wrapping(error, "AttachDocument")
      hub.send(.stopped(StopNotice(resource: .documentSync(key), error: failure, remedy: "attach the document again")))
    }
  }
}

extension Client {
  /// Response body bytes this client received so far (tests and benchmarks count what an
  /// attach or a resumption transferred).
  package nonisolated var receivedBodyBytes: Int { rpc.transport.receivedBodyBytes }
}
