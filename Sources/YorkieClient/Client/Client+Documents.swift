import CRDT
import Foundation
import YorkieProtocol

// Attaching, detaching, removing and syncing documents.

extension Client {
  /// Attaches `document` and starts syncing it.
  ///
  /// The document's local changes (made before attaching) go to the server with the attach;
  /// the server's content comes back and is merged. Then `initialRoot`'s keys that the
  /// document does not have yet are set (one update), so that the first client creates the
  /// shape and later ones keep what is there. In a realtime mode this returns once the Watch
  /// stream answered (peers and their presences are known), or after the request timeout.
  ///
  /// Give texts and counters in `initialRoot` (``InitialValue/text(_:)``,
  /// ``InitialValue/counter(_:)``) rather than creating them in an update after attaching
  /// when missing: that update runs later, and two clients running it at the same time each
  /// create their own text, the later one replacing the other with whatever was typed in it.
  /// One race remains: two clients attaching a document that has no shape yet at the same
  /// moment both find the keys missing and both set them (the later set wins, as in Yorkie).
  /// Avoid it by creating a document's shape once, where it is created (the client that makes
  /// a new document attaches it with its `initialRoot` before sharing its key); should it
  /// happen anyway, the replica whose edits were replaced tells its app with
  /// ``DocEvent/overwritten(_:)``.
  ///
  /// With a directory storage (``ClientOptions/storage``), a document the store holds for this
  /// client is restored and marked attached at once, without waiting for the network (the
  /// first push-pull resumes from the stored checkpoint); one the store cannot resume is
  /// reported (``ClientEvent/documentReset(_:)``) and attached afresh. When the server is
  /// unreachable, the document is stored, marked attached and attached on the server later.
  ///
  /// - Parameters:
  ///   - document: A detached document that was never attached before.
  ///   - initialPresence: This client's presence for peers.
  ///   - syncMode: How the document syncs (``SyncMode/realtime`` by default).
  ///   - initialRoot: Values for keys the document lacks after attaching: plain JSON, texts
  ///     and counters at any depth.
  /// - Throws: ``YorkieError`` `clientNotActivated`, `documentAlreadyAttached`,
  ///   `documentAlreadyDetached`, `documentRemoved`, `invalidKey` or `invalidNumber` for an
  ///   `initialRoot` that cannot be set (checked before anything is sent), or the server's
  ///   error. Nothing stays attached then.
  public func attach(
    _ document: Document, initialPresence: [String: JSONValue] = [:], syncMode: SyncMode = .realtime,
    initialRoot: [String: InitialValue]? = nil
  ) async throws {
    let clientID = try requireActive()
    let key = document.key
    try await Document.validate(initialRoot: initialRoot)
    guard documents[key] == nil, !attaching.contains(key) else {
      throw YorkieError(.documentAlreadyAttached, "a document with key \"\(key)\" is attached to this client already")
    }
    // Claimed before the first suspension below, so that a second attach of the key waits for
    // nothing and is refused.
    attaching.insert(key)
    defer { attaching.remove(key) }
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
    // An earlier attachment that never reached the server (deferred, then detached) left the
    // document refusing edits; this attachment will sync them.
    await document.reopenForAttach()
    let store = try openStore()
    var discarded: DiscardedAttachment?
    if let store {
      let outcome = try await resumeStored(
        document, store: store, clientID: clientID, initialPresence: initialPresence, syncMode: syncMode, initialRoot: initialRoot)
      guard case .attachAfresh(let after) = outcome else { return }
      discarded = after
    }
    let wasFresh = await document.isFresh
    do {
      try await attachFresh(
        document, store: store, clientID: clientID, initialPresence: initialPresence, syncMode: syncMode, initialRoot: initialRoot,
        after: discarded)
    } catch let error as YorkieError where identityAdopted && (error.code == .clientNotFound || error.code == .clientNotActivated) {
      // The stored identity is unknown to the server: activate anew, and attach again when
      // nothing of the document is lost by starting over.
      identityAdopted = false
      try await activateOnServer()
      guard wasFresh, let newID = hexID else { throw error }
      await document.resetToFresh()
      try await attachFresh(document, store: store, clientID: newID, initialPresence: initialPresence, syncMode: syncMode, initialRoot: initialRoot)
    }
  }

  /// AttachDocument, then recording: the first base is the document with the server's answer
  /// applied (one snapshot, bound to the server's document). Changes made before the attach
  /// are stored with it, not before it: they were made before the client took the document.
  ///
  /// After a forgotten stored attachment of this client (`discarded`), the replica's clock
  /// starts past that attachment's changes, and an attachment the server was not told of ends
  /// first: edits made before the server answers (a deferred attach) then reach it whole.
  private func attachFresh(
    _ document: Document, store: (any DocumentStore)?, clientID: String, initialPresence: [String: JSONValue], syncMode: SyncMode,
    initialRoot: [String: InitialValue]?, after discarded: DiscardedAttachment? = nil
  ) async throws {
    let key = document.key
    try await document.setActor(ActorID(hex: clientID))
    var unended = discarded?.unended
    if let discarded {
      await document.advanceClock(past: discarded.lamport)
      if let earlier = unended, await detachOnServer(key, documentID: earlier.documentID, checkpoint: earlier.checkpoint, clientID: clientID) {
        unended = nil
      }
    }
    try await document.update { _, presence in presence.set(initialPresence) }
    let pack = WireChangePack(try await document.createChangePack())
    let response: AttachDocumentResponse
    do {
      response = try await rpc.call("AttachDocument", AttachDocumentRequest(clientID: clientID, changePack: pack), shardKey: key)
    } catch {
      // Unreachable, with a directory: attached locally now, on the server when it answers.
      guard let store, FailureKind(error) == .retryable else { throw error }
      let earlier = discarded.map { DiscardedAttachment(unended: unended, lamport: $0.lamport) }
      try await attachDeferred(document, store: store, clientID: clientID, syncMode: syncMode, initialRoot: initialRoot, earlier: earlier)
      return
    }
    let recorder = store.map { StoreRecorder(store: $0, key: key, documentID: response.documentID, durability: options.storage.durability) }
    var shapeSet = false
    do {
      guard let answer = response.changePack else {
        throw YorkieError(.invalidWireData, "AttachDocument: the answer has no change pack", field: "changePack")
      }
      try await document.applyChangePack(try answer.model(role: .response))
      identityAdopted = false
      guard status == .activated, hexID == clientID else {
        throw YorkieError(.clientNotActivated, "the client was deactivated while \"\(key)\" was being attached")
      }
      shapeSet = try await document.setMissingKeys(initialRoot)
      if let recorder { try await document.startRecording(with: recorder) }
    } catch {
      // The server attached the document, the client could not take it: end the attachment
      // (best effort) so that a later attach is not refused, and keep nothing stored.
      await document.stopRecording()
      recorder?.stop()
      try? store?.remove(key)
      await detachOnServer(key, documentID: response.documentID, checkpoint: await document.checkpoint, clientID: clientID)
      throw error
    }
    await document.setStatus(.attached)
    let session = makeSession(document, documentID: response.documentID, clientID: clientID, syncMode: syncMode, recorder: recorder, unconfirmed: false)
    documents[key] = session
    await session.start()
    if shapeSet && syncMode.pushesAtOnce {
      // The keys `initialRoot` set reach the server before the attach returns, so that a
      // client attaching after this one returned finds them and sets none of its own. A push
      // that fails here is retried as any other; the attach does not fail for it.
      try? await session.waitForAcknowledgement(through: await document.lastLocalClientSeq, timeout: options.timeouts.request)
    }
    await session.waitUntilWatchSettled(timeout: options.timeouts.request)
  }

  /// Attaches `document` while the server is unreachable (directory storage only): it is
  /// stored at once (unbound), marked attached, and its session attaches it on the server when
  /// it can (``DocumentSession/attachDeferred()``), with everything edited meanwhile.
  private func attachDeferred(
    _ document: Document, store: any DocumentStore, clientID: String, syncMode: SyncMode, initialRoot: [String: InitialValue]?,
    earlier: DiscardedAttachment?
  ) async throws {
    let recorder = StoreRecorder(store: store, key: document.key, documentID: nil, durability: options.storage.durability)
    try await document.startRecording(with: recorder)
    await document.setStatus(.attached)
    let session = makeSession(
      document, documentID: nil, clientID: clientID, syncMode: syncMode, recorder: recorder, unconfirmed: true, initialRoot: initialRoot,
      earlier: earlier)
    documents[document.key] = session
    await session.start()
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
    guard let documentID = session.documentID else {
      try await endUnbound(document, as: .detached)
      return
    }
    await document.recordPresenceClear()
    try await sendLastPack(of: session, document, isRemoved: false) { pack in
      let response: DetachDocumentResponse = try await self.rpc.call(
        "DetachDocument", DetachDocumentRequest(clientID: session.clientID, documentID: documentID, changePack: pack),
        shardKey: document.key)
      return response.changePack
    }
  }

  /// Attaches afresh a document whose sync stopped because this replica could not apply the
  /// server's changes (a ``ClientEvent/stopped(_:)`` notice offering
  /// ``StopNotice/Recovery/reattach``, error `changeNotApplicable`): the attachment ends on
  /// the server, a ``ClientEvent/documentReset(_:)`` reports what the document held (its
  /// content as last seen and the count of edits the server had not acknowledged), and the
  /// same `Document` is attached again with its presence and sync mode, showing the server's
  /// document (built afresh from the server's history, which does not depend on what this
  /// replica had purged).
  ///
  /// - Throws: `documentNotAttached` when this client does not hold the document;
  ///   `documentAlreadyAttached` when its sync did not stop that way (there is nothing to
  ///   recover); or the fresh attach's error (the document is then detached).
  public func reattach(_ document: Document) async throws {
    let session = try attachedSession(of: document)
    guard session.awaitsReattach else {
      throw YorkieError(
        .documentAlreadyAttached,
        "document \"\(document.key)\" is attached and its sync did not stop on changes it could not apply: there is nothing to reattach")
    }
    try await attachAfresh(replacing: session)
  }

  /// Removes `document` from the server for every client (after pushing its pending
  /// changes); it becomes `removed` and refuses edits.
  public func remove(_ document: Document) async throws {
    let session = try attachedSession(of: document)
    documents[document.key] = nil
    await session.stop(with: YorkieError(.documentRemoved, "document \"\(document.key)\" was removed"), awaitingInFlight: true)
    guard let documentID = session.documentID else {
      try await endUnbound(document, as: .removed)
      return
    }
    // The pack's isRemoved is what removes the document on the server.
    try await sendLastPack(of: session, document, isRemoved: true) { pack in
      let response: RemoveDocumentResponse = try await self.rpc.call(
        "RemoveDocument", RemoveDocumentRequest(clientID: session.clientID, documentID: documentID, changePack: pack),
        shardKey: document.key)
      return response.changePack
    }
  }

  /// Detaches or removes a document whose deferred attach never reached the server: the server
  /// has nothing of it, so the end is local (its stored state is forgotten; its changes stay in
  /// the `Document`).
  private func endUnbound(_ document: Document, as status: DocumentStatus) async throws {
    await document.endAttachment(status == .removed ? "it was removed" : "it was detached", removed: status == .removed)
    if let store { try storing("the document store failed") { try store.remove(document.key) } }
  }

  /// The end of ``detach(_:)`` and ``remove(_:)``: pushes the backlog of `session`, sends the
  /// document's last pack through `call` (DetachDocument or RemoveDocument) and applies the
  /// answer's pack. The document ends removed (`isRemoved`) or detached, and detached when
  /// anything fails; either way it refuses edits from then on.
  private func sendLastPack(
    of session: DocumentSession, _ document: Document, isRemoved: Bool,
    _ call: (WireChangePack) async throws -> WireChangePack?
  ) async throws {
    do {
      try await pushBacklog(of: session)
      var request = try await document.createChangePack()
      request.isRemoved = isRemoved
      if let answer = try await call(WireChangePack(request)) {
        let pack = try answer.model(role: .response)
        if session.awaitsReattach {
          // The replica cannot apply the server's changes (its sync stopped on them): the
          // answer only acknowledges its own.
          try await document.acknowledgeChanges(through: pack.checkpoint.clientSeq)
        } else {
          try await document.applyChangePack(pack)
        }
      }
    } catch {
      // The stored state stays: the next attach resumes it (or finds the attachment ended).
      await document.endAttachment("its \(isRemoved ? "removal" : "detach") failed: \(error)")
      throw error
    }
    // The attachment ended with every change acknowledged: nothing is left to keep.
    if let store { try? store.remove(document.key) }
    await document.endAttachment(isRemoved ? "it was removed" : "it was detached", removed: isRemoved)
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
  /// While the server is unreachable the client retries the push on its own, and this waits
  /// for it, without a bound unless `timeout` gives one (``sync(_:)`` instead fails at the
  /// first failed attempt). A timeout ends only the wait: the changes stay pending and are
  /// still pushed when the server answers, so waiting again later (or reading
  /// ``syncState(of:)``) tells when they are saved.
  ///
  /// ```swift
  /// do {
  ///   try await client.waitUntilAcknowledged(doc, timeout: 5)
  ///   status = "saved"
  /// } catch let error as YorkieError where error.code == .timedOut {
  ///   status = "not saved yet"                    // still pending, pushed on reconnection
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - document: An attached document.
  ///   - timeout: The most seconds to wait; nil (the default) or infinity waits until the
  ///     acknowledgement comes, the document is detached or the task is cancelled. Zero
  ///     checks without waiting.
  /// - Throws: ``YorkieError/Code/timedOut`` when `timeout` passed first;
  ///   `invalidArgument` for a negative or NaN `timeout`; `documentNotAttached` when the
  ///   document is not attached or is detached while waiting; `CancellationError` when the
  ///   waiting task is cancelled.
  public func waitUntilAcknowledged(_ document: Document, timeout: TimeInterval? = nil) async throws {
    if let timeout, !(timeout >= 0) {
      throw YorkieError(.invalidArgument, "waitUntilAcknowledged: the timeout must be zero or more seconds, not \(timeout)")
    }
    let session = try attachedSession(of: document)
    let bound = timeout.flatMap { $0.isFinite ? $0 : nil }
    try await session.waitForAcknowledgement(through: await document.lastLocalClientSeq, timeout: bound)
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

  /// Where `document` stands with the server now: its Watch stream, the outcome of its last
  /// exchange, its unacknowledged changes (see ``DocumentSyncState``); nil when this client
  /// does not hold it (or its sync stopped). For a view that appears after the events it
  /// would have shown: read this first, then follow ``events()``.
  public func syncState(of document: Document) async -> DocumentSyncState? {
    guard let session = documents[document.key], session.document === document else { return nil }
    return await session.syncState()
  }

  /// Whether a document with `key` is attached to this client.
  public func has(_ key: String) -> Bool { documents[key] != nil }

  // MARK: - Helpers

  /// The session of `document`, or `documentNotAttached`.
  func attachedSession(of document: Document) throws -> DocumentSession {
    _ = try requireActive()
    guard let session = documents[document.key], session.document === document else {
      throw YorkieError(.documentNotAttached, "document \"\(document.key)\" is not attached to this client")
    }
    return session
  }

  /// Pushes all but the last ``DocumentSession/maxChangesPerPush`` pending changes of a
  /// stopped session, so that the final pack of a detach or remove stays within the server's
  /// body limit.
  func pushBacklog(of session: DocumentSession) async throws {
    while await session.document.pendingChanges.count > DocumentSession.maxChangesPerPush {
      _ = try await session.pushPull(pushOnly: true)
    }
  }
}
