import Foundation

/// One step of a replica's history after its base, as a ``ReplicaRecorder`` receives it.
///
/// Replayed in order on the base (``Document/restore(from:replaying:)``), the records rebuild
/// the replica exactly: the same content, the same clocks, the same pending changes.
package enum ReplicaRecord: Sendable {
  /// A change an update made here.
  case localChange(Change)
  /// A server's answer that was applied (changes or a snapshot, an acknowledgement, a
  /// version vector for garbage collection).
  case serverPack(ChangePack)
}

/// The state a replica's history starts from: a snapshot and the clocks that go with it.
package struct ReplicaBase: Sendable, Equatable {
  /// The actor the replica writes as.
  package var actorID: ActorID
  /// How far it had synchronized with the server.
  package var checkpoint: Checkpoint
  /// The client sequence of its last local change: the pending changes up to it are in the
  /// snapshot.
  package var localClientSeq: UInt32
  /// Its version vector (its own entry is its lamport clock).
  package var versionVector: VersionVector
  /// ``Document/snapshot()``: the root with its tombstones, and the presences.
  package var snapshot: Data

  /// A base with the given parts.
  package init(actorID: ActorID, checkpoint: Checkpoint, localClientSeq: UInt32, versionVector: VersionVector, snapshot: Data) {
    self.actorID = actorID
    self.checkpoint = checkpoint
    self.localClientSeq = localClientSeq
    self.versionVector = versionVector
    self.snapshot = snapshot
  }
}

/// Keeps a replica's history durable: a base from time to time, and every record after it.
///
/// A ``Document`` calls it synchronously, on its own executor, before a step counts: a local
/// change before the update returns, a server's pack before it is applied for good. A throw
/// undoes the step (the update or ``Document/applyChangePack(_:)`` throws it), so the replica
/// never shows what the recorder could not keep. The calls come one at a time, in the order
/// the steps happen.
package protocol ReplicaRecorder: AnyObject, Sendable {
  /// A new base (the replica's state now) and its pending changes, which the snapshot
  /// contains: the history starts again from here.
  func rebase(_ base: ReplicaBase, pendingChanges: [Change]) throws
  /// A step after the base.
  func record(_ record: ReplicaRecord) throws
}
