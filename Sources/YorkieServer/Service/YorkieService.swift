import DurableStorage
import CRDT
import Foundation
import YorkieProtocol

/// Yorkie's `YorkieService` over the pure ``ServiceState``: each RPC checks its request, asks
/// the project's auth webhook when it guards the method, runs one state step under the lock,
/// waits until that step's records are durable, publishes its events, and answers.
///
/// A step that fails to reach the journal leaves the service *failed*: every later call answers
/// `unavailable`, since what is in memory may no longer match what is on disk.
package final class YorkieService: Sendable {
  /// The state, under the service's lock.
  let state: Locked<ServiceState>
  /// The open Watch streams.
  package let hub = WatchHub()
  /// Where records become durable.
  let journal: any ServiceJournal
  /// Asks a project's auth webhook (or does nothing).
  let authorize: Authorizer
  /// Monotonic seconds, for session TTLs and client idleness.
  let now: @Sendable () -> Double
  /// Writes log lines.
  let log: ServerLog
  /// Set once a journal write failed.
  private let failure = Locked<String?>(nil)
  /// How many pulls were answered with a snapshot (for tests and logs).
  package let snapshotsSent = Locked(0)
  /// The documents whose snapshot is being built: one at a time per document (every push past
  /// the interval asks for one until it is stored; without this, a busy document queued a
  /// full rebuild per push and starved every request behind them).
  private let snapshotsUnderway = Locked<Set<ResourceID>>([])
  /// The last materialized state of recently built documents, where snapshot builds start.
  package let materialized: MaterializedDocuments
  /// How many snapshot builds started from a materialized document (for tests and logs).
  package let materializedReuses = Locked(0)

  /// The auth hook: `(project, method, token, attributes)`; throws to refuse
  /// (``AuthWebhookClient/authorize(project:method:token:attributes:)`` in a server).
  package typealias Authorizer = @Sendable (Project, AuthMethod, String?, [AccessAttribute]) async throws(ServiceError) -> Void

  /// A service over `state`.
  package init(
    state: ServiceState, journal: any ServiceJournal = MemoryJournal(), log: ServerLog = ServerLog(),
    now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
    authorize: @escaping Authorizer = { _, _, _, _ throws(ServiceError) in }
  ) {
    self.state = Locked(state)
    materialized = MaterializedDocuments(budget: state.settings.materializedDocumentsBudget)
    self.journal = journal
    self.log = log
    self.now = now
    self.authorize = authorize
  }

  /// Runs one state step: under the lock, then durable, then published.
  func step<Value: Sendable>(_ body: (inout ServiceState, Double) throws(ServiceError) -> (Value, ServiceEffects))
    async throws(ServiceError) -> Value
  {
    let (value, effects, mark) = try runLocked(body)
    do throws(ServiceError) {
      try await journal.sync(through: mark)
    } catch {
      journalFailed(error)
      throw error
    }
    publish(effects)
    return value
  }

  /// The first half of a step: refuses when the service has failed, runs `body` under the lock
  /// and appends its records to the journal; returns its value, its effects and the mark the
  /// answer must wait for.
  func runLocked<Value: Sendable>(_ body: (inout ServiceState, Double) throws(ServiceError) -> (Value, ServiceEffects))
    throws(ServiceError) -> (Value, ServiceEffects, DurableLog.Position)
  {
    if let reason = failure.withLock({ $0 }) {
      throw ServiceError(.unavailable, "the server stopped accepting requests: \(reason)", metadataCode: nil)
    }
    let time = now()
    let journal = self.journal
    let failure = self.failure
    return try state.withLock { (state) throws(ServiceError) -> (Value, ServiceEffects, DurableLog.Position) in
      let (value, effects) = try body(&state, time)
      guard !effects.journal.isEmpty else { return (value, effects, journal.currentMark) }
      do throws(ServiceError) {
        return (value, effects, try journal.append(effects.journal))
      } catch {
        failure.withLock { $0 = error.message }
        throw error
      }
    }
  }

  /// The second half of a step, once its records are durable: events go out, due snapshots
  /// start.
  func publish(_ effects: ServiceEffects) {
    hub.publish(effects.documentEvents)
    hub.publish(effects.channelEvents)
    for case .documentRemoved(let document) in effects.journal { materialized.drop(document) }
    for document in effects.snapshotsDue { storeSnapshot(of: document) }
  }

  /// Whether a snapshot is being built and stored in the background (for tests that wait for
  /// the service to settle).
  package var isStoringSnapshots: Bool { snapshotsUnderway.withLock { !$0.isEmpty } }

  /// Keeps what a build materialized for the next build of `document`, unless the document was
  /// removed meanwhile (the removal's ``publish(_:)`` may already have dropped its entry).
  private func keepMaterialized(_ entry: MaterializedDocuments.Entry, of document: ResourceID) {
    guard state.withLock({ $0.documents[document].map { !$0.isRemoved } ?? false }) else { return }
    materialized.checkIn(document, entry)
  }

  /// Marks the service failed after the journal could not make a step durable.
  func journalFailed(_ error: ServiceError) {
    failure.withLock { $0 = error.message }
    log.error("journal: \(error.message); the server refuses further requests")
  }

  /// Builds and stores a snapshot of `documentID` at its current serverSeq, in the background.
  func storeSnapshot(of documentID: ResourceID) {
    let job: SnapshotJob? = state.withLock { state in
      guard let document = state.documents[documentID] else { return nil }
      var job = ServiceState.makeSnapshotJob(document, through: document.serverSeq)
      // Garbage every attached client has seen goes, so that stored snapshots stay the size of
      // the document rather than of its history.
      job.minVersionVector = ServiceState.minimumVersionVector(Array(document.versionVectors.values))
      return job
    }
    guard let job else { return }
    guard snapshotsUnderway.withLock({ $0.insert(documentID).inserted }) else { return }
    let serverSeq = Int64(job.changes.count) + (job.base?.serverSeq ?? 0)
    serverTask { [self] in
      defer { snapshotsUnderway.withLock { _ = $0.remove(documentID) } }
      do throws(ServiceError) {
        let built = try await SnapshotBuilder.build(job, from: materialized.checkOut(documentID))
        if built.reused { materializedReuses.withLock { $0 += 1 } }
        let stored = try await step { state, _ throws(ServiceError) in
          var effects = ServiceEffects()
          guard var document = state.documents[documentID], (document.snapshot?.serverSeq ?? 0) < serverSeq else { return (false, effects) }
          document.snapshot = StoredSnapshot(serverSeq: serverSeq, data: built.data, versionVector: built.versionVector)
          state.documents[documentID] = document
          effects.journal.append(.snapshotStored(document: documentID, serverSeq: serverSeq, data: built.data, versionVector: built.versionVector))
          return (true, effects)
        }
        if var entry = built.materialized {
          if stored {
            // The materialized document is the snapshot just stored: from now on it stands in
            // for loading that snapshot (see MaterializedDocuments).
            try? await entry.document.resetClocksAsLoadedFromOwnSnapshot()
            entry.baseSeq = serverSeq
            entry.base = built.data
            entry.through = serverSeq
            keepMaterialized(entry, of: documentID)
          } else if built.collected == 0 {
            keepMaterialized(entry, of: documentID)
          }
        }
      } catch {
        log.warning("snapshot of document \(documentID.hex) at \(serverSeq) not stored: \(error.message)")
      }
    }
  }

  /// Fills the snapshot of a document step's pack, or falls back to changes when building it
  /// fails (a stored history the model cannot apply: a bug, logged as a warning).
  func completeSnapshot(_ result: DocumentStepResult, client: ResourceID, since serverSeq: Int64) async -> WireChangePack {
    guard let job = result.snapshotJob else { return result.pack }
    var pack = result.pack
    do throws(ServiceError) {
      let built = try await SnapshotBuilder.build(job, from: materialized.checkOut(job.document))
      if built.reused { materializedReuses.withLock { $0 += 1 } }
      // A collection that purged anything leaves the document other than its base and changes.
      if let entry = built.materialized, built.collected == 0 { keepMaterialized(entry, of: job.document) }
      snapshotsSent.withLock { $0 += 1 }
      pack.snapshot = Data(built.data)
      if let disableGCClient = result.disableGCClient {
        pack.versionVector = WireVersionVector(vector: [disableGCClient.base64: built.versionVector.values.max() ?? 0])
      } else {
        pack.versionVector = WireVersionVector(vector: built.versionVector)
      }
    } catch {
      log.warning("document \(job.document.hex) could not be materialized (\(error.message)); answering with changes")
      let checkpoint = pack.checkpoint ?? WireCheckpoint()
      let changes: [WireChange] = state.withLock { state in
        guard let document = state.documents[job.document] else { return [] }
        let through = min(checkpoint.serverSeq, document.serverSeq)
        return ServiceState.pulledChanges(
          document, after: min(serverSeq, through), through: through, client: client, ownThrough: checkpoint.clientSeq)
      }
      pack.changes = changes
      pack.versionVector = WireVersionVector(vector: job.minVersionVector ?? [:])
    }
    return pack
  }
}

extension YorkieService {
  /// The live document of `key` materialized at its latest change, as a binary `Snapshot`
  /// (for tests and tools), or `nil` when there is no such document.
  package func materialize(documentKey key: String, project: String = "") async throws(ServiceError) -> [UInt8]? {
    let job: SnapshotJob? = state.withLock { state in
      guard let id = state.documentByKey[DocumentKeyPath(project: project, key: key)], let document = state.documents[id] else { return nil }
      return ServiceState.makeSnapshotJob(document, through: document.serverSeq)
    }
    guard let job else { return nil }
    return try await SnapshotBuilder.build(job).data
  }
}
