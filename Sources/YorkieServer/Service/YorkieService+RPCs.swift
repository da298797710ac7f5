import DurableStorage
import Foundation
import YorkieProtocol

// The unary RPCs of YorkieService (yorkie-protocol.md section 3). Each parses its ids (the
// precise `invalid_argument` first), asks the webhook, then runs its state step.

extension YorkieService {
  /// ActivateClient.
  package func activateClient(_ request: ActivateClientRequest, context: RequestContext) async throws(ServiceError) -> ActivateClientResponse {
    guard !request.clientKey.isEmpty else { throw .invalidClientKey }
    try await authorize(context.project, .activateClient, context.token, [])
    let id = try await step { state, now throws(ServiceError) in
      try state.activateClient(key: request.clientKey, metadata: request.metadata, project: context.project.publicKey, now: now)
    }
    log.info("client \(id.hex) activated (key \(request.clientKey))")
    return ActivateClientResponse(clientID: id.hex)
  }

  /// DeactivateClient: inline when `synchronous`, otherwise in the background (the answer is
  /// then `{}` whatever happens, as in Yorkie).
  package func deactivateClient(_ request: DeactivateClientRequest, context: RequestContext) async throws(ServiceError) -> DeactivateClientResponse {
    let id = try RequestValidation.clientID(request.clientID)
    try await authorize(context.project, .deactivateClient, context.token, [])
    let project = context.project.publicKey
    let deactivate: @Sendable () async throws(ServiceError) -> Void = { [self] () async throws(ServiceError) in
      try await step { state, now throws(ServiceError) in ((), try state.deactivateClient(id, project: project, now: now)) }
      log.info("client \(id.hex) deactivated")
    }
    if request.synchronous {
      try await deactivate()
    } else {
      serverTask { [self] in
        do throws(ServiceError) { try await deactivate() } catch { log.debug("background deactivation of \(id.hex): \(error)") }
      }
    }
    return DeactivateClientResponse()
  }

  /// AttachDocument.
  package func attachDocument(_ request: AttachDocumentRequest, context: RequestContext) async throws(ServiceError) -> AttachDocumentResponse {
    let client = try RequestValidation.clientID(request.clientID)
    let (pack, _) = try RequestValidation.changePack(request.changePack)
    _ = try RequestValidation.documentKey(pack.documentKey)
    try await authorize(context.project, .attachDocument, context.token, [Self.documentAccess(pack)])
    let project = context.project
    let result = try await step { state, now throws(ServiceError) in
      let result = try state.attachDocument(
        client: client, project: project.publicKey, pack: request.changePack, disableGC: request.disableGC,
        disablePresence: request.disablePresence,
        limits: DocumentLimits(maxAttachments: project.maxAttachmentsPerDocument, removeOnDetach: project.removeOnDetach), now: now)
      return (result, result.effects)
    }
    let responsePack = await completeSnapshot(result, client: client, since: pack.checkpoint?.serverSeq ?? 0)
    log.debug("AttachDocument \(pack.documentKey) by \(client.hex): \(pack.changes.count) pushed, \(responsePack.changes.count) pulled")
    return AttachDocumentResponse(
      documentID: result.document.hex, changePack: responsePack, maxSizePerDocument: project.maxSizePerDocument,
      disablePresence: result.disablePresence)
  }

  /// PushPullChanges.
  package func pushPullChanges(_ request: PushPullChangesRequest, context: RequestContext) async throws(ServiceError) -> PushPullChangesResponse {
    let client = try RequestValidation.clientID(request.clientID)
    let document = try RequestValidation.objectID(request.documentID)
    let (pack, checkpoint) = try RequestValidation.changePack(request.changePack)
    try await authorize(context.project, .pushPull, context.token, [Self.documentAccess(pack)])
    let project = context.project.publicKey
    let result = try await step { state, now throws(ServiceError) in
      let result = try state.pushPullChanges(
        client: client, project: project, documentID: document, pack: pack, pushOnly: request.pushOnly, disableGC: request.disableGC, now: now)
      return (result, result.effects)
    }
    return PushPullChangesResponse(changePack: await completeSnapshot(result, client: client, since: checkpoint.serverSeq))
  }

  /// DetachDocument.
  package func detachDocument(_ request: DetachDocumentRequest, context: RequestContext) async throws(ServiceError) -> DetachDocumentResponse {
    let client = try RequestValidation.clientID(request.clientID)
    let document = try RequestValidation.objectID(request.documentID)
    let (pack, checkpoint) = try RequestValidation.changePack(request.changePack)
    try await authorize(context.project, .detachDocument, context.token, [Self.documentAccess(pack)])
    let project = context.project
    let result = try await step { state, now throws(ServiceError) in
      let result = try state.detachDocument(
        client: client, project: project.publicKey, documentID: document, pack: pack,
        limits: DocumentLimits(removeOnDetach: project.removeOnDetach), now: now)
      return (result, result.effects)
    }
    return DetachDocumentResponse(changePack: await completeSnapshot(result, client: client, since: checkpoint.serverSeq))
  }

  /// RemoveDocument.
  package func removeDocument(_ request: RemoveDocumentRequest, context: RequestContext) async throws(ServiceError) -> RemoveDocumentResponse {
    let client = try RequestValidation.clientID(request.clientID)
    let document = try RequestValidation.objectID(request.documentID)
    let (pack, checkpoint) = try RequestValidation.changePack(request.changePack)
    try await authorize(context.project, .removeDocument, context.token, [AccessAttribute(key: pack.documentKey, verb: .readWrite)])
    let project = context.project.publicKey
    let result = try await step { state, now throws(ServiceError) in
      let result = try state.removeDocument(client: client, project: project, documentID: document, pack: pack, now: now)
      return (result, result.effects)
    }
    return RemoveDocumentResponse(changePack: await completeSnapshot(result, client: client, since: checkpoint.serverSeq))
  }

  /// AttachChannel.
  package func attachChannel(_ request: AttachChannelRequest, context: RequestContext) async throws(ServiceError) -> AttachChannelResponse {
    let client = try RequestValidation.clientID(request.clientID)
    _ = try RequestValidation.channelKey(request.channelKey)
    try await authorize(context.project, .attachChannel, context.token, [AccessAttribute(key: request.channelKey, verb: .read)])
    let project = context.project.publicKey
    let (session, count) = try await step { state, now throws(ServiceError) in
      let result = try state.attachChannel(client: client, project: project, key: request.channelKey, now: now)
      return ((result.session, result.count), result.effects)
    }
    return AttachChannelResponse(sessionID: session.hex, sessionCount: count)
  }

  /// DetachChannel.
  package func detachChannel(_ request: DetachChannelRequest, context: RequestContext) async throws(ServiceError) -> DetachChannelResponse {
    let client = try RequestValidation.clientID(request.clientID)
    _ = try RequestValidation.channelKey(request.channelKey)
    try await authorize(context.project, .detachChannel, context.token, [AccessAttribute(key: request.channelKey, verb: .read)])
    let project = context.project.publicKey
    let count = try await step { state, now throws(ServiceError) in
      let result = try state.detachChannel(client: client, project: project, key: request.channelKey, session: request.sessionID, now: now)
      return (result.count, result.effects)
    }
    return DetachChannelResponse(sessionCount: count)
  }

  /// RefreshChannel (a heartbeat, or the first call that activates and attaches).
  package func refreshChannel(_ request: RefreshChannelRequest, context: RequestContext) async throws(ServiceError) -> RefreshChannelResponse {
    _ = try RequestValidation.channelKey(request.channelKey)
    if !request.sessionID.isEmpty { _ = try RequestValidation.clientID(request.clientID) }
    try await authorize(context.project, .refreshChannel, context.token, [AccessAttribute(key: request.channelKey, verb: .read)])
    let project = context.project.publicKey
    let result = try await step { state, now throws(ServiceError) in
      let result = try state.refreshChannel(
        client: request.clientID, project: project, key: request.channelKey, session: request.sessionID, clientKey: request.clientKey,
        metadata: request.metadata, now: now)
      return ((result.count, result.client, result.session), result.effects)
    }
    return RefreshChannelResponse(sessionCount: result.0, clientID: result.1?.hex ?? "", sessionID: result.2?.hex ?? "")
  }

  /// PeekChannel.
  package func peekChannel(_ request: PeekChannelRequest, context: RequestContext) async throws(ServiceError) -> PeekChannelResponse {
    _ = try RequestValidation.channelKey(request.channelKey)
    try await authorize(context.project, .peekChannel, context.token, [AccessAttribute(key: request.channelKey, verb: .read)])
    let project = context.project.publicKey
    let count = try state.withLock { (state) throws(ServiceError) in try state.peekChannel(project: project, key: request.channelKey) }
    return PeekChannelResponse(sessionCount: count)
  }

  /// Broadcast.
  package func broadcast(_ request: BroadcastRequest, context: RequestContext) async throws(ServiceError) -> BroadcastResponse {
    let client = try RequestValidation.clientID(request.clientID)
    _ = try RequestValidation.channelKey(request.channelKey)
    try await authorize(context.project, .broadcast, context.token, [AccessAttribute(key: request.channelKey, verb: .read)])
    let project = context.project.publicKey
    try await step { state, now throws(ServiceError) in
      ((), try state.broadcast(client: client, project: project, key: request.channelKey, topic: request.topic, payload: request.payload, now: now))
    }
    return BroadcastResponse()
  }

  /// The webhook attribute of a document RPC: `rw` when the pack carries operations, `r` for
  /// a pack of presence changes only (as Yorkie's server decides it).
  static func documentAccess(_ pack: WireChangePack) -> AccessAttribute {
    AccessAttribute(key: pack.documentKey, verb: pack.changes.contains { !$0.operations.isEmpty } ? .readWrite : .read)
  }

  /// Housekeeping: expires channel sessions and deactivates clients idle past the threshold.
  package func housekeeping() async {
    _ = try? await step { state, now throws(ServiceError) in ((), state.expireChannelSessions(now: now)) }
    let idle: [(ResourceID, String)] = state.withLock { state in
      let limit = state.settings.clientDeactivateThreshold
      return state.clients.values.filter { $0.isActive && now() - $0.lastSeen > limit }.map { ($0.id, $0.project) }
    }
    for (id, project) in idle {
      do throws(ServiceError) {
        try await step { state, now throws(ServiceError) in ((), try state.deactivateClient(id, project: project, now: now)) }
        log.info("client \(id.hex) deactivated after being idle")
      } catch {
        log.debug("housekeeping could not deactivate \(id.hex): \(error)")
      }
    }
  }
}

extension YorkieService {
  /// PushPullChanges run on the calling thread (the event loop's) when nothing in it has to
  /// wait for another: no webhook guards it and no snapshot is due. The step runs at once; the
  /// answer goes to `answer` as soon as the step's records are durable — at once in memory,
  /// else from the journal's flushing thread. Two thread hand-offs per push fewer than the
  /// task path, which is what a loaded machine's p99 is made of.
  ///
  /// Returns `false`, having done nothing, when the call must take the task path (the project's
  /// webhook guards PushPull).
  package func pushPullChangesNow(
    _ request: PushPullChangesRequest, context: RequestContext,
    answer: @escaping @Sendable (Result<PushPullChangesResponse, ServiceError>) -> Void
  ) -> Bool {
    guard !AuthMethod.pushPull.isGuarded(in: context.project) else { return false }
    let result: DocumentStepResult
    let effects: ServiceEffects
    let mark: DurableLog.Position
    let client: ResourceID
    let since: Int64
    do throws(ServiceError) {
      client = try RequestValidation.clientID(request.clientID)
      let document = try RequestValidation.objectID(request.documentID)
      let (pack, checkpoint) = try RequestValidation.changePack(request.changePack)
      since = checkpoint.serverSeq
      let project = context.project.publicKey
      (result, effects, mark) = try runLocked { state, now throws(ServiceError) in
        let result = try state.pushPullChanges(
          client: client, project: project, documentID: document, pack: pack, pushOnly: request.pushOnly, disableGC: request.disableGC,
          now: now)
        return (result, result.effects)
      }
    } catch {
      answer(.failure(error))
      return true
    }
    journal.whenDurable(through: mark) { [self] failure in
      if let failure {
        journalFailed(failure)
        return answer(.failure(failure))
      }
      publish(effects)
      guard result.snapshotJob != nil else { return answer(.success(PushPullChangesResponse(changePack: result.pack))) }
      serverTask { [self] in
        answer(.success(PushPullChangesResponse(changePack: await completeSnapshot(result, client: client, since: since))))
      }
    }
    return true
  }
}
