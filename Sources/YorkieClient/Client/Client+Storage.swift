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

  /// What the store holds for `key` (the damage and the torn tail it found reported as
  /// events).
  func loadStored(_ key: String, from store: any DocumentStore) throws -> StoreLoad {
    let load = try storing("the document store failed") { try store.load(key) }
    for damage in load.damages {
      hub.send(.storeDamaged(StoreDamageNotice(document: key, file: damage.file, reason: damage.reason)))
    }
    if let tail = load.tornTail {
      hub.send(.storeDamaged(StoreDamageNotice(document: key, file: tail.file, reason: tail.reason, kind: .tornTail)))
    }
    return load
  }

  /// What ``resumeStored(_:store:clientID:initialPresence:syncMode:initialRoot:)`` did.
  enum StoredOutcome {
    /// The stored attachment goes on: the document is attached.
    case resumed
    /// Nothing usable was stored, or it was forgotten (see the discarded attachment, if any):
    /// the document is to be attached afresh.
    case attachAfresh(after: DiscardedAttachment?)
  }

  /// What a forgotten stored attachment of this client leaves for the fresh attach after it.
  struct DiscardedAttachment {
    /// The attachment, when the server could not be told that it ended (unreachable): the
    /// fresh attach ends it first (the server refuses a second attachment).
    var unended: UnendedAttachment?
    /// The highest lamport a change of the forgotten attachment may have on the server: the
    /// fresh replica's clock starts past it, so that its tickets never equal those changes'.
    var lamport: Int64
  }

  /// An attachment on the server that a fresh attach must end first.
  struct UnendedAttachment: Sendable {
    /// The server's document ID.
    var documentID: String
    /// The checkpoint the attachment reached.
    var checkpoint: Checkpoint
  }

  /// Resumes what the store holds for `document`'s key, if it can; otherwise forgets it
  /// (reporting unsent edits), for a fresh attach.
  func resumeStored(
    _ document: Document, store: any DocumentStore, clientID: String, initialPresence: [String: JSONValue], syncMode: SyncMode,
    initialRoot: [String: InitialValue]?
  ) async throws -> StoredOutcome {
    let key = document.key
    let load = try loadStored(key, from: store)
    guard let stored = load.document else { return .attachAfresh(after: nil) }
    let reason: YorkieError
    if isResumable(load, clientID: clientID), await document.isFresh {
      do {
        try await resume(
          document, from: stored, seal: load.seal, store: store, clientID: clientID, initialPresence: initialPresence,
          syncMode: syncMode, initialRoot: initialRoot)
        return .resumed
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
    let discarded = try await discardStored(key, load: load, store: store, clientID: clientID, reason: reason)
    return .attachAfresh(after: discarded)
  }

  /// Whether `stored` can be resumed by this client as it is: written under this client's
  /// identity (attached on the server, or waiting for a deferred attach), read back without
  /// damage. (A torn tail is no damage: the records before it are whole, and what it cut was
  /// never made durable, so never sent. Records lost otherwise, which no checksum tells, are
  /// caught by the seal: see ``resume(_:from:seal:store:clientID:initialPresence:syncMode:initialRoot:)``.)
  func isResumable(_ load: StoreLoad, clientID: String) -> Bool {
    guard let stored = load.document, load.damages.isEmpty else { return false }
    return stored.base.replica.actorID == (try? ActorID(hex: clientID))
  }

  /// Resumes a stored attachment: the document shows its stored state at once, and the first
  /// push-pull (in the background) pushes the unacknowledged changes and pulls only what
  /// happened since the stored checkpoint (or, for a deferred attach that never reached the
  /// server, attaches it). Returns without waiting for the network.
  ///
  /// - Throws: `actorConflict` when the stored changes end before `seal` (the last change
  ///   sent): the state went back (a generation cut at a record boundary, or rolled back), and
  ///   its next changes would reuse client sequences and tickets the server may already have,
  ///   which it would skip as duplicates. (A copy of the whole folder goes back with its seal;
  ///   the first answer catches that, see ``DocumentSession/checkAcknowledgement(_:sent:)``.)
  func resume(
    _ document: Document, from stored: StoredDocument, seal: StoreSeal?, store: any DocumentStore, clientID: String,
    initialPresence: [String: JSONValue], syncMode: SyncMode, initialRoot: [String: InitialValue]?
  ) async throws {
    let replica = try StoredEntry.replica(stored)
    let documentID = stored.base.documentID
    try await document.restore(from: replica.base, replaying: replica.records)
    let last = await document.lastLocalClientSeq
    if let seal, seal.clientSeq > last {
      throw YorkieError(
        .actorConflict,
        "the stored state went back: it holds this client's changes up to \(last), yet changes up to \(seal.clientSeq) were sent to the server")
    }
    let recorder = StoreRecorder(
      continuing: stored, seal: seal, store: store, key: document.key, durability: options.storage.durability)
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
    initialRoot: [String: InitialValue]? = nil, earlier: DiscardedAttachment? = nil
  ) -> DocumentSession {
    DocumentSession(
      document: document, documentID: documentID, clientID: clientID, mode: syncMode, rpc: rpc,
      policy: options.reconnect, environment: options.environment, events: hub, recorder: recorder, unconfirmed: unconfirmed,
      initialRoot: initialRoot, earlier: earlier, onHalt: { [weak self] session in Task { await self?.sessionHalted(session) } })
  }

  /// Forgets a stored state that cannot be resumed, telling the app what it held when local
  /// changes in it were never acknowledged; a state bound to this client's identity is detached
  /// on the server first (the server would refuse a second attach). Best effort on the server:
  /// what the fresh attach must still do about a state of this client is returned.
  func discardStored(_ key: String, load: StoreLoad, store: any DocumentStore, clientID: String, reason: YorkieError) async throws
    -> DiscardedAttachment?
  {
    var discarded: DiscardedAttachment?
    if let stored = load.document {
      let replica = stored.base.replica
      if replica.actorID == (try? ActorID(hex: clientID)) {
        let lamport = max(load.seal?.lamport ?? 0, replica.versionVector[replica.actorID] ?? 0)
        discarded = DiscardedAttachment(unended: nil, lamport: lamport)
        if let documentID = stored.base.documentID,
          await !detachOnServer(key, documentID: documentID, checkpoint: replica.checkpoint, clientID: clientID)
        {
          discarded?.unended = UnendedAttachment(documentID: documentID, checkpoint: replica.checkpoint)
        }
      }
      let scratch = Document(key: key)
      if let replica = try? StoredEntry.replica(stored), (try? await scratch.restore(from: replica.base, replaying: replica.records)) != nil {
        let unsent = await scratch.localChanges.count
        // A state that went back is told of even when everything in it was acknowledged: the
        // changes it lost were the app's.
        if unsent > 0 || reason.code == .actorConflict {
          hub.send(.documentReset(DocumentResetNotice(document: key, reason: reason, lastContent: await scratch.toJSON(), unsentChanges: unsent)))
        }
      }
    }
    try storing("the document store failed") { try store.remove(key) }
    return discarded
  }

  /// DetachDocument with no changes: ends an attachment the client gives up, so that the
  /// server lets it attach the document again. Returns whether the server answered (an error
  /// answer too: the attachment was not there to end); false when it was unreachable.
  @discardableResult
  func detachOnServer(_ key: String, documentID: String, checkpoint: Checkpoint, clientID: String) async -> Bool {
    await Self.detachOnServer(key, documentID: documentID, checkpoint: checkpoint, clientID: clientID, rpc: rpc)
  }

  /// ``detachOnServer(_:documentID:checkpoint:clientID:)`` through `rpc` (a session calls it).
  static func detachOnServer(_ key: String, documentID: String, checkpoint: Checkpoint, clientID: String, rpc: ClientRPC) async -> Bool {
    let pack = WireChangePack(ChangePack(key: key, checkpoint: checkpoint, changes: [], role: .request))
    do {
      let _: DetachDocumentResponse = try await rpc.call(
        "DetachDocument", DetachDocumentRequest(clientID: clientID, documentID: documentID, changePack: pack), shardKey: key)
      return true
    } catch {
      return FailureKind(error) != .retryable
    }
  }

  /// Attaches afresh the document of a resumed session whose attachment is gone (see
  /// ``DocumentSession/needsRecovery``): the app is told what the document held, and the same
  /// `Document` then shows the server's content.
  func recover(_ session: DocumentSession) async {
    do {
      try await attachAfresh(replacing: session)
    } catch {
      let failure = YorkieError.wrapping(error, "AttachDocument")
      hub.send(.stopped(StopNotice(resource: .documentSync(session.key), error: failure, remedy: "attach the document again")))
    }
  }

  /// Ends the attachment of the stopped `session` (on the server too, unless the server forgot
  /// this client), reports what its document held (``ClientEvent/documentReset(_:)``, with
  /// the unsent edits), and attaches the same `Document` afresh with its presence and sync
  /// mode. Throws when the fresh attach fails (the document is then detached).
  func attachAfresh(replacing session: DocumentSession) async throws {
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
    if identityLost, status == .activated, hexID == session.clientID {
      try await activateOnServer()
    }
    try await attach(document, initialPresence: presence, syncMode: session.mode)
  }
}

extension Client {
  /// Response body bytes this client received so far (tests and benchmarks count what an
  /// attach or a resumption transferred).
  package nonisolated var receivedBodyBytes: Int { rpc.transport.receivedBodyBytes }
}
