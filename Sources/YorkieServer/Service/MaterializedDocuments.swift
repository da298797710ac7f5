import CRDT
import Foundation

/// The documents the service materialized last, kept so that the next snapshot build of each
/// starts from it (applying only the changes stored since) instead of decoding the stored
/// snapshot again: tens of milliseconds for a large document, on every attach of a new client
/// and every stored snapshot. Yorkie's server keeps such live documents too.
///
/// **What an entry is, exactly.** A `Document` that is the stored snapshot `base` (of serverSeq
/// `baseSeq`; none when `baseSeq` is 0) loaded as ``SnapshotBuilder`` loads it, with the stored
/// changes `(baseSeq, through]` applied in order, and nothing else: no change that is not in
/// the history, no garbage collection that collected anything. Such a document is what a build
/// would make from the same base and changes, so a build that starts from it gives the same
/// bytes. One exception keeps the cache warm across stored snapshots: once a snapshot built
/// from an entry is stored, the entry (collected as that snapshot was) *is* that snapshot, and
/// after ``Document/resetClocksAsLoadedFromOwnSnapshot()`` it is the snapshot as loaded; its
/// base becomes that snapshot.
///
/// **Concurrency.** A build takes its document's entry out (``checkOut(_:)``) and puts it back
/// when done (``checkIn(_:_:)``): two builds never touch one entry at once; a build that
/// finds none builds from the stored snapshot, as without a cache.
///
/// **Bounds.** Entries are counted at ``bytesPerSnapshotByte`` times their snapshot's size (plus
/// the root's encoding they keep) and held within `budget` bytes, the least recently used going first; a document's entry goes
/// when the document is removed; `budget` 0 keeps nothing.
package final class MaterializedDocuments: Sendable {
  /// A materialized document (see the type's description).
  package struct Entry: Sendable {
    /// The document, at `through`.
    package let document: Document
    /// The serverSeq of the stored snapshot it was loaded from; 0: none (the history from the start).
    package var baseSeq: Int64
    /// That snapshot's bytes (the stored array itself: comparing them is usually a pointer test).
    package var base: [UInt8]
    /// The last stored change applied.
    package var through: Int64
    /// The size of its last encoding, which bounds its memory (see ``bytesPerSnapshotByte``).
    package var snapshotBytes: Int
    /// The encoding of its root (the snapshot's first field) as it is now, when known: while
    /// only presences change (the attaches of new clients), snapshots reuse it instead of
    /// encoding the root again.
    package var rootField: [UInt8]?

    package init(document: Document, baseSeq: Int64, base: [UInt8], through: Int64, snapshotBytes: Int, rootField: [UInt8]? = nil) {
      self.document = document
      self.baseSeq = baseSeq
      self.base = base
      self.through = through
      self.snapshotBytes = snapshotBytes
      self.rootField = rootField
    }

    /// The memory it is counted at.
    var cost: Int { max(snapshotBytes, 1) * MaterializedDocuments.bytesPerSnapshotByte + (rootField?.count ?? 0) }

    /// Whether it can stand in for loading `base` at `baseSeq` (nil: no stored snapshot) and
    /// applying the changes up to `through`.
    package func matches(baseSeq: Int64, base: [UInt8]?, through: Int64) -> Bool {
      guard self.through <= through else { return false }
      guard let base else { return self.baseSeq == 0 }
      return self.baseSeq == baseSeq && self.base == base
    }
  }

  /// A materialized document takes about this many bytes of memory per byte of its snapshot
  /// (measured: 10 MB for the 3 MB snapshot of a 105,000-character text typed a keystroke at a
  /// time; this rounds up).
  package static let bytesPerSnapshotByte = 4

  private struct Slots: Sendable {
    var entries: [ResourceID: Entry] = [:]
    var lastUse: [ResourceID: UInt64] = [:]
    var clock: UInt64 = 0
    var cost = 0
  }

  /// The most memory the entries are counted at.
  package let budget: Int
  private let slots = Locked(Slots())

  /// A cache holding at most `budget` bytes (as counted); 0 keeps nothing.
  package init(budget: Int) {
    self.budget = max(budget, 0)
  }

  /// Takes `document`'s entry out of the cache (the caller then owns it), or nil.
  package func checkOut(_ document: ResourceID) -> Entry? {
    slots.withLock { slots in
      guard let entry = slots.entries.removeValue(forKey: document) else { return nil }
      slots.lastUse[document] = nil
      slots.cost -= entry.cost
      return entry
    }
  }

  /// Puts `entry` in as `document`'s, unless the entry there is further along (a later base,
  /// or the same base and more changes); then the least recently used entries go until the
  /// rest fits the budget. An entry larger than the whole budget is not kept.
  package func checkIn(_ document: ResourceID, _ entry: Entry) {
    guard entry.cost <= budget else { return }
    slots.withLock { slots in
      if let current = slots.entries[document] {
        if (current.baseSeq, current.through) > (entry.baseSeq, entry.through) { return }
        slots.cost -= current.cost
      }
      slots.entries[document] = entry
      slots.clock += 1
      slots.lastUse[document] = slots.clock
      slots.cost += entry.cost
      while slots.cost > budget, let oldest = slots.lastUse.min(by: { $0.value < $1.value })?.key {
        if let evicted = slots.entries.removeValue(forKey: oldest) { slots.cost -= evicted.cost }
        slots.lastUse[oldest] = nil
      }
    }
  }

  /// Forgets `document`'s entry (the document was removed).
  package func drop(_ document: ResourceID) {
    slots.withLock { slots in
      if let entry = slots.entries.removeValue(forKey: document) { slots.cost -= entry.cost }
      slots.lastUse[document] = nil
    }
  }

  /// The documents that have an entry, and the memory they are counted at (for tests).
  package var contents: (documents: Set<ResourceID>, cost: Int) {
    slots.withLock { (Set($0.entries.keys), $0.cost) }
  }
}
