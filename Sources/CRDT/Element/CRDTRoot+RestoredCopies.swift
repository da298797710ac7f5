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
// restore arrived. A restore is remembered by the copy's creation ticket with the ticket of
// the operation that placed it, until every replica has seen it (garbage collection with a
// vector covering it): no operation made without it can arrive after that. Snapshots do not
// carry them (the wire format has no field for them): a replica loaded from a snapshot taken
// before every peer had seen a restore applies such an operation as Yorkie does.
extension CRDTRoot {
  /// Notes that `copy`, placed by the operation at `placedAt`, restores identities.
  package func noteRestoredCopy(_ copy: CRDTElement, placedAt: TimeTicket, journal: Journal) {
    journal.append(.root(.restoredCopy(copy.createdAt, restoredCopies[copy.createdAt])))
    restoredCopies[copy.createdAt] = placedAt
  }

  /// Whether `element` is a restored copy, or lies inside one, that an author who had seen what
  /// `authorVector` holds had not seen placed.
  package func isInsideUnseenRestore(_ element: CRDTElement, authorVector: VersionVector) -> Bool {
    var current: CRDTElement? = element
    var steps = 0
    while let element = current, steps <= registry.count {
      guard let entry = registry[element.createdAt], entry.element === element else { return false }
      if let placedAt = restoredCopies[element.createdAt], (authorVector[placedAt.actorID] ?? 0) < placedAt.lamport {
        return true
      }
      current = entry.parent
      steps += 1
    }
    return false
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

  /// Forgets the restores every replica has seen (part of garbage collection).
  func forgetSeenRestores(_ minSyncedVersionVector: VersionVector) {
    guard !restoredCopies.isEmpty else { return }
    restoredCopies = restoredCopies.filter { (minSyncedVersionVector[$0.value.actorID] ?? 0) < $0.value.lamport }
  }
}
