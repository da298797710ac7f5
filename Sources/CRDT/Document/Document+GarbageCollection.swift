import Foundation

// Purging tombstones every replica has seen, and the clocks of a replica loaded from its own
// snapshot.

extension Document {
  // MARK: - Garbage collection

  /// Tombstones and dead nodes not yet purged, counted as Yorkie counts them.
  public var garbageLength: Int { root.garbageLength }

  /// Purges every tombstone whose removal all replicas have seen, according to
  /// `minSyncedVersionVector` (an entry for the remover's actor at or past the removal's lamport).
  ///
  /// - Returns: the number of purged elements (with their descendants) and dead nodes.
  @discardableResult
  public func garbageCollect(minSyncedVersionVector: VersionVector) -> Int {
    defer { verifyInvariants(after: "garbage collection") }
    editLog.forget(seenThrough: minSyncedVersionVector[changeID.actorID] ?? 0)
    return collectGarbage(minSyncedVersionVector)
  }

  /// Purges what `minSyncedVersionVector` says every replica has seen removed. The history
  /// first reads the characters its steps removed and have not read yet: the purge may take
  /// the pieces that hold them (``HistoryCapture/RemovedRun``).
  func collectGarbage(_ minSyncedVersionVector: VersionVector) -> Int {
    history.readRemovedContent(in: root, pendingChanges: localChanges)
    return root.garbageCollect(minSyncedVersionVector)
  }

  /// Sets the clocks to what a fresh replica would have right after loading this replica's own
  /// snapshot with its own version vector (``applyChangePack(_:)`` with a snapshot pack), so
  /// that this replica goes on exactly as that fresh one would. The server keeps a
  /// materialized document after storing its snapshot instead of decoding that snapshot again,
  /// and calls this to make the two interchangeable (the content already is: the snapshot holds
  /// all of it, tombstones and presences included).
  ///
  /// Only for a replica that never set its actor, made no change and has no subscriber.
  ///
  /// - Throws: ``YorkieError`` `invalidArgument` otherwise; nothing changes then.
  package func resetClocksAsLoadedFromOwnSnapshot() throws {
    guard changeID.actorID == .initial, changeID.clientSeq == 0, localChanges.isEmpty, !hasSubscribers else {
      throw YorkieError(.invalidArgument, "only a replica that never set its actor, made no change and has no subscriber can reset its clocks")
    }
    changeID = ChangeID.initial.synced(withSnapshotVector: changeID.versionVector)
    lastClientSeq = [:]
    loadedSnapshot = true
  }
}
