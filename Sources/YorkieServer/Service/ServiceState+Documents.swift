import YorkieProtocol

// AttachDocument, PushPullChanges, DetachDocument and RemoveDocument (yorkie-protocol.md
// sections 3.3–3.6, 5.2–5.4). Each checks everything before it changes anything.

/// The answer of a document step.
package struct DocumentStepResult: Sendable {
  /// The document.
  package var document: ResourceID
  /// The response pack (its snapshot still to be built when `snapshotJob` is set).
  package var pack: WireChangePack
  /// The snapshot to build into `pack`, or `nil`.
  package var snapshotJob: SnapshotJob?
  /// For a snapshot answer to a client that opted out of GC: that client.
  package var disableGCClient: ResourceID?
  /// The document's persisted `disablePresence` (attach answers it).
  package var disablePresence: Bool
  /// What the outside must do.
  package var effects: ServiceEffects
}

/// The limits of a project that document steps enforce.
package struct DocumentLimits: Sendable {
  /// Most clients attached at once; 0: no limit.
  package var maxAttachments = 0
  /// Whether detaching the last client removes the document.
  package var removeOnDetach = false

  /// No limits.
  package init(maxAttachments: Int = 0, removeOnDetach: Bool = false) {
    self.maxAttachments = maxAttachments
    self.removeOnDetach = removeOnDetach
  }
}

extension ServiceState {
  /// AttachDocument: finds or creates the live document of the pack's key, attaches the client
  /// and runs PushPull.
  package mutating func attachDocument(
    client clientID: ResourceID, project: String, pack: WireChangePack?, disableGC: Bool, disablePresence: Bool,
    limits: DocumentLimits = DocumentLimits(), now: Double
  ) throws(ServiceError) -> DocumentStepResult {
    let (pack, checkpoint) = try RequestValidation.changePack(pack)
    let key = try RequestValidation.documentKey(pack.documentKey)
    let client = try activeClient(clientID, project: project, now: now)
    var effects = ServiceEffects()
    let existing = documentByKey[DocumentKeyPath(project: project, key: key)].flatMap { documents[$0] != nil ? $0 : nil }
    let documentID = existing ?? newDocumentID()
    let record = client.documents[documentID]
    if checkpoint.serverSeq != 0 && record?.status == .detached {
      throw .documentAlreadyDetached(document: documentID.hex, client: clientID.hex)
    }
    if record?.status == .attached { throw .clientNotFound(clientID.hex) }
    if limits.maxAttachments > 0, attachedCount(documentID) >= limits.maxAttachments {
      throw .attachmentLimit(limits.maxAttachments)
    }
    let input = PushPullInput(client: clientID, pack: pack, checkpoint: checkpoint, disableGC: disableGC, target: .attached)
    let before = ClientDocumentInfo(status: .attached, serverSeq: 0, clientSeq: 0)
    let outcome: PushPullOutcome
    if existing != nil {
      outcome = try Self.pushPull(input, document: &documents[documentID]!, before: before, settings: settings)
    } else {
      // A new document exists only once its first attach succeeded.
      var document = DocumentRecord(
        id: documentID, key: key, project: project, disablePresence: disablePresence, isRemoved: false, changes: [],
        versionVectors: [:], snapshot: nil)
      outcome = try Self.pushPull(input, document: &document, before: before, settings: settings)
      documents[documentID] = document
      effects.journal.append(.documentCreated(id: documentID, key: key, project: project, disablePresence: disablePresence))
      documentByKey[DocumentKeyPath(project: project, key: key)] = documentID
    }
    return commit(outcome, document: documentID, client: clientID, effects: effects)
  }

  /// PushPullChanges for an attached document.
  package mutating func pushPullChanges(
    client clientID: ResourceID, project: String, documentID: ResourceID, pack: WireChangePack?, pushOnly: Bool, disableGC: Bool,
    now: Double
  ) throws(ServiceError) -> DocumentStepResult {
    let (pack, checkpoint) = try RequestValidation.changePack(pack)
    let before = try attachedDocument(clientID, documentID, project: project, now: now)
    let outcome = try Self.pushPull(
      PushPullInput(client: clientID, pack: pack, checkpoint: checkpoint, pushOnly: pushOnly, disableGC: disableGC, target: .attached),
      document: &documents[documentID]!, before: before, settings: settings)
    return commit(outcome, document: documentID, client: clientID, effects: ServiceEffects())
  }

  /// DetachDocument: PushPull, then the client is detached (and with the project's
  /// `removeOnDetach`, the document removed when nobody else is attached).
  package mutating func detachDocument(
    client clientID: ResourceID, project: String, documentID: ResourceID, pack: WireChangePack?, limits: DocumentLimits = DocumentLimits(),
    now: Double
  ) throws(ServiceError) -> DocumentStepResult {
    let (pack, checkpoint) = try RequestValidation.changePack(pack)
    let before = try attachedDocument(clientID, documentID, project: project, now: now)
    var input = PushPullInput(client: clientID, pack: pack, checkpoint: checkpoint, target: .detached)
    if limits.removeOnDetach && attachedCount(documentID, excluding: clientID) == 0 {
      input.pack.isRemoved = true
      input.target = .removed
    }
    let outcome = try Self.pushPull(input, document: &documents[documentID]!, before: before, settings: settings)
    return commit(outcome, document: documentID, client: clientID, effects: ServiceEffects())
  }

  /// RemoveDocument: PushPull with the pack's `isRemoved` (clients set it), the client's record
  /// becomes removed.
  package mutating func removeDocument(
    client clientID: ResourceID, project: String, documentID: ResourceID, pack: WireChangePack?, now: Double
  ) throws(ServiceError) -> DocumentStepResult {
    let (pack, checkpoint) = try RequestValidation.changePack(pack)
    let before = try attachedDocument(clientID, documentID, project: project, now: now)
    let outcome = try Self.pushPull(
      PushPullInput(client: clientID, pack: pack, checkpoint: checkpoint, target: .removed),
      document: &documents[documentID]!, before: before, settings: settings)
    return commit(outcome, document: documentID, client: clientID, effects: ServiceEffects())
  }

  /// The client's view of a document it has attached (which then exists).
  private mutating func attachedDocument(_ clientID: ResourceID, _ documentID: ResourceID, project: String, now: Double)
    throws(ServiceError) -> ClientDocumentInfo
  {
    let client = try activeClient(clientID, project: project, now: now)
    guard let info = client.documents[documentID], info.status == .attached, documents[documentID] != nil else {
      throw .documentNotAttached(document: documentID.hex, client: clientID.hex)
    }
    return info
  }

  /// How many clients have `document` attached (not counting `excluded`).
  func attachedCount(_ document: ResourceID, excluding excluded: ResourceID? = nil) -> Int {
    clients.values.reduce(0) { count, client in
      client.id != excluded && client.documents[document]?.status == .attached ? count + 1 : count
    }
  }

  /// Stores the records a successful step changed and says what the outside must do.
  private mutating func commit(_ outcome: PushPullOutcome, document documentID: ResourceID, client: ResourceID, effects: ServiceEffects)
    -> DocumentStepResult
  {
    var effects = effects
    effects.append(outcome.effects)
    let document = documents[documentID]!
    if document.isRemoved, documentByKey[DocumentKeyPath(project: document.project, key: document.key)] == document.id {
      documentByKey[DocumentKeyPath(project: document.project, key: document.key)] = nil
    }
    clients[client]!.documents[document.id] = outcome.info
    effects.journal.append(.clientDocumentUpdated(client: client, document: document.id, info: outcome.info, versionVector: outcome.versionVectorChange))
    if outcome.changedDocument {
      effects.documentEvents.append(DocumentEvent(document: document.id, type: .documentChanged, publisher: client))
    }
    return DocumentStepResult(
      document: document.id, pack: outcome.pack, snapshotJob: outcome.snapshotJob, disableGCClient: outcome.disableGCClient,
      disablePresence: document.disablePresence, effects: effects)
  }

  /// A fresh id not used by any document.
  private mutating func newDocumentID() -> ResourceID {
    while true {
      let id = ids.next()
      if documents[id] == nil { return id }
    }
  }
}
