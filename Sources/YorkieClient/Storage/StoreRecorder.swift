import CRDT
import Foundation

/// Keeps one attached document's history in a ``DocumentStore``: the ``ReplicaRecorder`` a
/// client gives its documents.
///
/// The document calls it synchronously (see ``ReplicaRecorder``): a local change is appended,
/// and flushed at once under ``DocumentStorage/Durability/perUpdate``; under
/// ``DocumentStorage/Durability/batched(window:)`` it is flushed within the window or by
/// ``flush()``, which the sync loop calls before every push. A server's answer is appended
/// without a flush of its own (a later flush covers it; lost, the server sends it again).
///
/// The history grows until ``wantsRebase`` says a new base is worth its cost: when the
/// entries since the base outweigh the base's snapshot (and 256 KiB). Snapshots then never
/// cost more bytes than the entries they replace (at most twice the entries are written in
/// all), and loading replays at most about a snapshot's worth of entries. (Half a snapshot and
/// 64 KiB, first tried, wrote 261 MB of snapshots for 139 MB of entries over the 259,778
/// edits of automerge-paper: `client-bench store_bytes`.)
final class StoreRecorder: ReplicaRecorder {
  /// The store.
  let store: any DocumentStore
  /// The document's key.
  let key: String
  /// When local changes are flushed.
  let durability: DocumentStorage.Durability

  /// What changes, behind a lock (the document calls from its executor, the sync loop from
  /// its task).
  private struct State {
    /// The server's ID of the document.
    var documentID: String?
    /// Bytes of the base's snapshot, and of the entries since.
    var baseBytes = 0
    var entryBytes = 0
    /// The last seal stored (see ``seal(sending:)``).
    var sealed: StoreSeal?
    /// Whether an entry was appended since the last flush.
    var unflushed = false
    /// The flush a batching window scheduled.
    var flushTask: Task<Void, Never>?
    /// Set by ``stop()``: nothing is written after it (the document is no longer attached, and
    /// its edits are its own again).
    var stopped = false
  }
  private let state: Locked<State>


  /// A recorder of `key` in `store`, attached as `documentID`.
  init(store: any DocumentStore, key: String, documentID: String?, durability: DocumentStorage.Durability) {
    self.store = store
    self.key = key
    self.durability = durability
    state = Locked(State(documentID: documentID))
  }

  /// Binds the history to the server's document: the next base names it.
  func bind(to documentID: String) {
    state.withLock { $0.documentID = documentID }
  }

  /// A recorder that goes on with the generation `stored` was loaded from, and its `seal`.
  convenience init(
    continuing stored: StoredDocument, seal: StoreSeal?, store: any DocumentStore, key: String, durability: DocumentStorage.Durability
  ) {
    self.init(store: store, key: key, documentID: stored.base.documentID, durability: durability)
    state.withLock { state in
      state.sealed = seal
      state.baseBytes = stored.base.replica.snapshot.count
      state.entryBytes = stored.entries.reduce(0) { $0 + $1.count }
    }
  }

  func rebase(_ base: ReplicaBase, pendingChanges: [Change]) throws {
    let entries = pendingChanges.map { StoredEntry.encode(.localChange($0)) }
    try state.withLock { state in
      guard !state.stopped else { return }
      try storing("the document store could not write \"\(key)\"") { try store.replaceBase(key, with: StoredDocument.Base(base, documentID: state.documentID), entries: entries) }
      state.baseBytes = base.snapshot.count
      state.entryBytes = entries.reduce(0) { $0 + $1.count }
      state.unflushed = false
    }
  }

  func record(_ record: ReplicaRecord) throws {
    let entry = StoredEntry.encode(record)
    let durable: Bool
    switch (record, durability) {
    case (.localChange, .perUpdate): durable = true
    default: durable = false
    }
    let schedule: TimeInterval? = try state.withLock { state in
      guard !state.stopped else { return nil }
      try storing("the document store could not write \"\(key)\"") { try store.append(key, [entry], durable: durable) }
      state.entryBytes += entry.count
      state.unflushed = !durable
      guard case .localChange = record, case .batched(let window) = durability, state.flushTask == nil else { return nil }
      return window
    }
    if let window = schedule { scheduleFlush(after: window) }
  }

  /// Makes every entry durable (the sync loop calls it before a push).
  func flush() throws {
    try state.withLock { state in
      state.flushTask?.cancel()
      state.flushTask = nil
      guard state.unflushed, !state.stopped else { return }
      try storing("the document store could not write \"\(key)\"") { try store.append(key, [], durable: true) }
      state.unflushed = false
    }
  }

  /// Seals `changes` as sent, durably, before they are (the sync loop calls it with every
  /// pack it sends, after ``flush()``): when their last client sequence is past the last seal,
  /// a seal record goes to the store (``DocumentStore/seal(_:_:)``). A later load whose
  /// changes end before the seal went back and is not resumed as is.
  ///
  /// The cost: a small write and a flush per push-pull that carries changes not sent before
  /// (none per update, none for a retry of the same changes, none offline). Per update it
  /// would double the flushes of per-update durability (`client-bench store_update`); only a
  /// send can give the server anything, so sealing at the send is as safe.
  func seal(sending changes: [Change]) throws {
    guard let last = changes.last else { return }
    let lamport = changes.reduce(last.id.lamport) { max($0, $1.id.lamport) }
    try state.withLock { state in
      guard !state.stopped, last.id.clientSeq > state.sealed?.clientSeq ?? 0 else { return }
      let seal = StoreSeal(clientSeq: last.id.clientSeq, lamport: max(lamport, state.sealed?.lamport ?? 0))
      try storing("the document store could not write \"\(key)\"") { try store.seal(key, seal) }
      state.sealed = seal
    }
  }

  /// Whether a new base would pay for itself (see the type's notes).
  var wantsRebase: Bool {
    state.withLock { $0.entryBytes > max($0.baseBytes, 256 * 1024) }
  }

  /// Flushes what is pending and writes nothing more.
  func stop() {
    try? flush()
    state.withLock { state in
      state.stopped = true
      state.flushTask?.cancel()
      state.flushTask = nil
    }
  }

  /// Flushes after `window` seconds.
  private func scheduleFlush(after window: TimeInterval) {
    let task = Task { [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(max(window, 0) * 1_000_000_000))
      guard !Task.isCancelled, let self else { return }
      // A failed flush is retried by the next one (before the push at the latest), which
      // reports it.
      self.state.withLock { $0.flushTask = nil }
      try? self.flush()
    }
    let orphan: Task<Void, Never>? = state.withLock { state in
      if state.flushTask != nil || state.stopped { return task }
      state.flushTask = task
      return nil
    }
    orphan?.cancel()
  }
}
