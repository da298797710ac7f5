// Copies that restore elements under their old identities, and the operations made
// concurrently inside what they replaced.
//
// An undo of a Remove (this replica's or a Yorkie peer's) puts back a copy of the removed
// element as it was when removed, under the tickets it had: an object member keeps its own
// ticket and replaces its tombstone; an array element gets a fresh ticket, its descendants
// keep theirs. A peer that edited inside the removed element before it saw the removal made
// operations naming those tickets:
//
// - on a replica where the restore arrives after such an operation, the operation changed the
//   tombstone, which the copy then replaces: its effect is gone;
// - on a replica where the restore arrives first, the same operation would land in the copy:
//   in content the copy has, it would show there (a difference for good); naming content only
//   the tombstone had (the peer's own insertion), it would fail, and the whole change with it.
//   Yorkie's replicas do both.
//
// So an operation whose author had not seen the restore, aimed at the copy or anything inside
// it, does nothing, on every replica: what its author saw is what every replica shows once the
// restore arrived. The elements such a skipped operation would have created are remembered:
// the author's later operations on them (still without the restore) are skipped as well; so
// are the elements such an operation did create where it arrived before the restore, which
// the copy drops with the tombstone (`noteDropped`).
//
// A Remove of an object member concurrent with the Set restoring it names the same ticket as
// the copy. Yorkie removes the copy when the Remove arrives after it and keeps it live when the
// Remove arrived first (the restore replaces the tombstone). Here the newer ticket wins either
// way: arriving after the copy, such a Remove applies only when newer than the restore
// (`Operation+Remove.swift`); arriving before, a removal newer than the restore leaves the
// copy removed (`Operation+Set.swift`). A restore is remembered by the copy's creation ticket with the ticket of
// the operation that placed it, until every replica has seen it (garbage collection with a
// vector covering it): no operation made without it can arrive after that. Snapshots carry
// them in fields of their own (`SnapshotCodec.swift`), which Yorkie's decoders skip; a
// snapshot a Yorkie server built has none, and a replica loaded from one taken before every
// peer had seen a restore applies such an operation as Yorkie does.
extension CRDTRoot {
  /// The restores a root remembers, as a snapshot carries them: sorted, so that equal roots
  /// encode equal bytes.
  package struct RestoreRecords: Equatable {
    /// One remembered restore: an element's ticket and the ticket that placed the copy.
    package struct Pair: Equatable {
      /// The restored copy (or, for a skipped creation, the element not created).
      package var element: TimeTicket
      /// The ticket of the operation that placed the copy.
      package var placedAt: TimeTicket
    }

    /// ``CRDTRoot/restoredCopies``, sorted by element.
    package var copies: [Pair] = []
    /// ``CRDTRoot/skippedCreations``, sorted by element.
    package var skipped: [Pair] = []

    /// No restore.
    package init() {}

    /// Whether there is no restore.
    package var isEmpty: Bool { copies.isEmpty && skipped.isEmpty }
  }

  /// What ``restoredCopies`` and ``skippedCreations`` hold, for a snapshot.
  package var restoreRecords: RestoreRecords {
    var records = RestoreRecords()
    records.copies = restoredCopies.map { RestoreRecords.Pair(element: $0.key, placedAt: $0.value) }.sorted { $0.element < $1.element }
    records.skipped = skippedCreations.map { RestoreRecords.Pair(element: $0.key, placedAt: $0.value) }.sorted { $0.element < $1.element }
    return records
  }

  /// Takes the restores a snapshot carried (a root just built from it).
  package func adopt(_ records: RestoreRecords) {
    for pair in records.copies { restoredCopies[pair.element] = pair.placedAt }
    for pair in records.skipped { skippedCreations[pair.element] = pair.placedAt }
  }

  /// Notes that `copy`, placed by the operation at `placedAt`, restores identities.
  package func noteRestoredCopy(_ copy: CRDTElement, placedAt: TimeTicket, journal: Journal) {
    journal.append(.root(.restoredCopy(copy.createdAt, restoredCopies[copy.createdAt])))
    restoredCopies[copy.createdAt] = placedAt
  }

  /// The ticket that placed the restored copy holding `element` (or being it) when an author
  /// who had seen what `authorVector` holds had not seen it; nil otherwise.
  package func unseenRestore(around element: CRDTElement, authorVector: VersionVector) -> TimeTicket? {
    var current: CRDTElement? = element
    var steps = 0
    while let element = current, steps <= registry.count {
      guard let entry = registry[element.createdAt], entry.element === element else { return nil }
      if let placedAt = restoredCopies[element.createdAt], !CRDTRoot.knows(authorVector, placedAt) {
        return placedAt
      }
      current = entry.parent
      steps += 1
    }
    return nil
  }

  /// When the element created at `createdAt` is missing because the operation that would have
  /// created it was skipped inside a restore its author had not seen, and this author had not
  /// seen that restore either: the ticket that placed the restore.
  package func restoreHiding(creationOf createdAt: TimeTicket, authorVector: VersionVector) -> TimeTicket? {
    guard let placedAt = skippedCreations[createdAt], !CRDTRoot.knows(authorVector, placedAt) else { return nil }
    return placedAt
  }

  /// Remembers the elements `operation` (skipped inside the restore placed at `hiddenBy`) would
  /// have created, so that the author's later operations on them are skipped too.
  package func noteSkipped(_ operation: Operation, hiddenBy placedAt: TimeTicket, journal: Journal) {
    guard let value = operation.createdValue else { return }
    let element = value.materialize(for: .replay)
    func note(_ element: CRDTElement) {
      guard element.kind.isRegistered else { return }
      noteSkippedCreation(element.createdAt, hiddenBy: placedAt, journal: journal)
    }
    note(element)
    element.forEachDescendant(note)
  }

  /// Remembers that the element created at `createdAt` is not in the document because of the
  /// restore placed at `placedAt` (undone on rollback).
  private func noteSkippedCreation(_ createdAt: TimeTicket, hiddenBy placedAt: TimeTicket, journal: Journal) {
    journal.append(.root(.skippedCreation(createdAt, skippedCreations[createdAt])))
    skippedCreations[createdAt] = placedAt
  }

  /// Remembers the elements under `holder` (a tombstone or older copy that the restored `copy`,
  /// placed at `placedAt`, replaces) that the copy lacks: operations concurrent with the
  /// restore created them, and their authors' later operations on them are skipped, as they
  /// are on a replica where the restore arrived before those creations (``noteSkipped(_:hiddenBy:journal:)``).
  package func noteDropped(under holder: CRDTElement, keptBy copy: CRDTElement, placedAt: TimeTicket, journal: Journal) {
    var kept: Set<TimeTicket> = []
    copy.forEachDescendant { if $0.kind.isRegistered { kept.insert($0.createdAt) } }
    holder.forEachDescendant { element in
      guard element.kind.isRegistered, !kept.contains(element.createdAt) else { return }
      noteSkippedCreation(element.createdAt, hiddenBy: placedAt, journal: journal)
    }
  }

  /// Whether an author who had seen what `vector` holds had seen `ticket`.
  @inline(__always) static func knows(_ vector: VersionVector, _ ticket: TimeTicket) -> Bool {
    (vector[ticket.actorID] ?? 0) >= ticket.lamport
  }

  /// Whether `element` (a value an operation just registered) carries a container older than
  /// itself: a copy of elements made before it, not a fresh value (whose elements all share the
  /// change's Lamport time).
  package static func carriesOlderIdentities(_ element: CRDTElement) -> Bool {
    let lamport = element.createdAt.lamport
    var found = false
    func visit(_ element: CRDTElement) {
      element.kind.forEachChild { child in
        if found || !child.kind.isRegistered { return }
        if child.createdAt.lamport < lamport {
          found = true
          return
        }
        visit(child)
      }
    }
    visit(element)
    return found
  }

  /// Forgets the restores every replica has seen (part of garbage collection), and what was
  /// skipped inside them.
  func forgetSeenRestores(_ minSyncedVersionVector: VersionVector) {
    guard !restoredCopies.isEmpty else { return }
    restoredCopies = restoredCopies.filter { !CRDTRoot.knows(minSyncedVersionVector, $0.value) }
    skippedCreations = skippedCreations.filter { !CRDTRoot.knows(minSyncedVersionVector, $0.value) }
  }
}
