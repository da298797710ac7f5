// Whether a piece is live, when removals and revivals of it are concurrent.
//
// An undo revives removed pieces by identity (``restore(_:executedAt:fallback:journal:)``).
// Yorkie revives a piece by clearing its removal ticket and forgets the revival. A range
// deletion whose author had not seen the revival then removes the piece on the replicas where
// the revival arrived first and leaves it on the others, where the revival came last: their
// texts differ for good (the three-replica fuzzer with undo found it within five steps).
//
// Here removals and revivals of a piece are steps of its liveness, ordered by ticket:
//
// 1. A piece is live when it has no effective removal, or when its latest step is a revival.
// 2. A revival is always a step.
// 3. A removal (a range deletion, or a redo's removal by identity) is a step — effective —
//    when its author saw the piece live: when, among the steps its author had seen, there is
//    no removal or the latest is a revival. Otherwise it does nothing: where it was made, the
//    piece was already removed.
//
// 4. A revival also resets the piece's attributes to those its span carries (what the piece
//    had when removed): those keys set, every other key removed, all at the revival's ticket.
//    The revival wins over every style its author had not seen, whatever the tickets: a
//    replica that garbage collection let purge the piece recreates it with the span's
//    attributes only, having had nowhere to apply such a style (fuzz seed 903310). So the reset
//    overwrites, key by key, what its author had not seen, and otherwise last writer wins; a
//    style whose author had not seen the piece's latest revival writes, for each key it names,
//    a removal at that revival's ticket instead: what the revival would have cleared had the
//    style arrived first (`CRDTText+Editing.swift`, `style`).
//
// Whether a step is effective depends only on what its author had seen, which every replica
// has applied before the step; the state is a function of the set of effective steps. So the
// outcome does not depend on the order of arrival. For a piece that was never revived and
// removed at most once, this is Yorkie's rule (a deletion applies to a live piece, or to a
// tombstone whose removal its author had not seen, which then takes the newer ticket).
//
// Storage: a piece's steps are implicit while it is live and never removed ([]) or removed
// once ([its removal slot's ticket]), and once garbage collection compacted away the steps every
// replica has seen (``compactLivenessSteps(_:)``); only a piece revived, or removed by two
// effective removals, gets an explicit list in `livenessSteps`, a side table keyed by handle (a live
// piece without one pays nothing). The removal slot always holds the latest effective
// removal's ticket while the piece is not live. Both parts of a split keep the list; it goes
// with the piece when unlinked. A piece recreated after garbage collection purged it gets
// [a removal at the zero ticket, which every author has seen; its revival]: a replica that had
// purged it decides later removals as one that had kept its tombstone. Snapshots carry the
// lists in a field of their own (100 of `TextNode`, `ElementCodec`), which Yorkie's decoders
// skip; a snapshot a Yorkie server built has none, and a replica loaded from one taken before
// every peer had seen a revival decides a concurrent removal as Yorkie does.
//
// Invariants (checked by ``checkInvariants()``):
// L1. Every list names a linked piece and holds at least one step.
// L2. A piece with a list is live exactly when rule 1 says so, and while not live its removal
//     slot holds the ticket of its latest removal.
extension CRDTText {
  /// One step of a piece's liveness: an effective removal or a revival.
  package struct LivenessStep: Equatable {
    /// The step's ticket.
    var at: PackedTicket
    /// A revival (else a removal).
    var revives: Bool
  }

  /// The zero ticket, which every author has seen: the removal a recreated piece outlived.
  static let purgedRemoval = PackedTicket(lamport: 0, delimiter: 0, actor: 0)

  /// The steps of piece `handle`, explicit or implicit.
  func livenessSteps(of handle: Int32) -> [LivenessStep] {
    if let steps = livenessSteps[handle] { return steps }
    let slot = arena[Int(handle)].removal
    return slot >= 0 ? [LivenessStep(at: removals[Int(slot)], revives: false)] : []
  }

  /// The latest of `steps` by ticket, among those `include` accepts (no array is built).
  private func latest(_ steps: [LivenessStep], where include: (LivenessStep) -> Bool = { _ in true }) -> LivenessStep? {
    var result: LivenessStep? = nil
    for step in steps where include(step) {
      if let current = result, !isAfter(step.at, current.at) { continue }
      result = step
    }
    return result
  }


  /// The latest revival of piece `handle` that a style made at `editedAt` by an author who had
  /// seen what `knowledge` holds had not seen (rule 4); nil when there is none. This replica's
  /// own style (`knowledge` nil) saw every revival applied here, so only a newer one counts.
  func revivalUnseen(by knowledge: inout Knowledge?, of handle: Int32, editedAt: TimeTicket) -> PackedTicket? {
    guard let steps = livenessSteps[handle] else { return nil }
    guard var known = knowledge else {
      return latest(steps, where: \.revives).map(\.at).flatMap { isAfter($0, editedAt) ? $0 : nil }
    }
    defer { knowledge = known }
    return latest(steps, where: { $0.revives && !known.knows($0.at, in: self) })?.at
  }

  /// Whether an author who had seen what `knowledge` holds saw piece `handle` live (rule 3).
  func sawLive(_ handle: Int32, knowledge: inout Knowledge) -> Bool {
    if livenessSteps.isEmpty || livenessSteps[handle] == nil {
      let slot = arena[Int(handle)].removal
      return slot < 0 || !knowledge.knows(removals[Int(slot)], in: self)
    }
    let steps = livenessSteps[handle]!
    return latest(steps, where: { knowledge.knows($0.at, in: self) }).map(\.revives) ?? true
  }

  /// Records an effective removal of piece `handle` at `removedAt` (rule 3) and brings the
  /// piece's state in line (rule 1): the removal slot, the index weight.
  ///
  /// - Returns: whether the piece went from live to removed.
  func applyEffectiveRemoval(_ handle: Int32, at removedAt: TimeTicket, journal: Journal) -> Bool {
    let wasRemoved = arena[Int(handle)].isRemoved
    if livenessSteps.isEmpty || livenessSteps[handle] == nil {
      if !wasRemoved {
        journal.append(self, .removal(handle, nil))
        setRemovedAt(handle, removedAt)
        index.setWeight(handle, 0)
        return true
      }
      // A second effective removal: both are kept, the slot takes the newer.
      let first = removals[Int(arena[Int(handle)].removal)]
      setSteps(handle, [LivenessStep(at: first, revives: false), LivenessStep(at: pack(removedAt), revives: false)], journal: journal)
    } else {
      var steps = livenessSteps[handle]!
      steps.append(LivenessStep(at: pack(removedAt), revives: false))
      setSteps(handle, steps, journal: journal)
    }
    settle(handle, journal: journal)
    return !wasRemoved && arena[Int(handle)].isRemoved
  }

  /// Records a revival of piece `handle` at `revivedAt` (rule 2).
  ///
  /// - Returns: whether the piece went from removed to live.
  func revive(_ handle: Int32, at revivedAt: TimeTicket, journal: Journal) -> Bool {
    let wasRemoved = arena[Int(handle)].isRemoved
    let step = LivenessStep(at: pack(revivedAt), revives: true)
    var steps: [LivenessStep]
    if let existing = livenessSteps[handle] {
      steps = existing
      steps.append(step)
    } else {
      // The common first revival (a redo of typing): one allocation for both steps.
      steps = []
      steps.reserveCapacity(2)
      let slot = arena[Int(handle)].removal
      if slot >= 0 { steps.append(LivenessStep(at: removals[Int(slot)], revives: false)) }
      steps.append(step)
    }
    setSteps(handle, steps, journal: journal)
    settle(handle, journal: journal)
    return wasRemoved && !arena[Int(handle)].isRemoved
  }

  /// Gives recreated piece `handle` its steps: a removal every author had seen, then its
  /// revival at `revivedAt`.
  func noteRecreated(_ handle: Int32, at revivedAt: TimeTicket, journal: Journal) {
    setSteps(handle, [LivenessStep(at: CRDTText.purgedRemoval, revives: false), LivenessStep(at: pack(revivedAt), revives: true)],
             journal: journal)
  }

  /// Sets the removal slot and the index weight of a piece with a list as rule 1 says.
  private func settle(_ handle: Int32, journal: Journal) {
    guard let last = latest(livenessSteps[handle] ?? []) else { return }
    let removedAt = last.revives ? nil : unpack(last.at)
    let current = self.removedAt(handle)
    guard current != removedAt else { return }
    journal.append(self, .removal(handle, current))
    setRemovedAt(handle, removedAt)
    index.setWeight(handle, removedAt == nil ? Int(arena[Int(handle)].length) : 0)
  }

  private func setSteps(_ handle: Int32, _ steps: [LivenessStep], journal: Journal) {
    journal.append(self, .liveness(handle, livenessSteps[handle]))
    livenessSteps[handle] = steps
  }

  /// The steps of a piece as they were (rollback only).
  func restoreLivenessSteps(_ handle: Int32, _ steps: [LivenessStep]?) {
    livenessSteps[handle] = steps
  }

  /// Forgets the steps every replica has seen (`minimum` covers them, and the zero ticket of a
  /// recreation), but the latest of them, so that undoing and redoing the same deletion again
  /// and again does not grow the lists without bound. Returns whether explicit steps remain.
  ///
  /// Every later operation's author has seen the forgotten steps (garbage collection's
  /// minimum), so where rules 1, 3 and 4 look for the latest step, or the latest revival, it
  /// saw, the latest of them stands for all. A list left with nothing unseen becomes implicit:
  /// with a removal, the removal slot holds it (L2); with a revival, the piece is live, and
  /// every later step treats a live piece alike with or without a list (a restore records its
  /// revival on a live piece either way, `CRDTText+Restore.swift`). Not journaled: garbage
  /// collection is never rolled back.
  package func compactLivenessSteps(_ minimum: VersionVector) -> Bool {
    guard !livenessSteps.isEmpty else { return false }
    var compacted: [(handle: Int32, steps: [LivenessStep]?)] = []
    for (handle, steps) in livenessSteps {
      var latestSeen: LivenessStep?
      var unseen: [LivenessStep] = []
      for step in steps {
        guard step.at == CRDTText.purgedRemoval || minimum.covers(unpack(step.at)) else {
          unseen.append(step)
          continue
        }
        if let current = latestSeen, !isAfter(step.at, current.at) { continue }
        latestSeen = step
      }
      guard let latestSeen else { continue }
      if unseen.isEmpty {
        compacted.append((handle, nil))
      } else if unseen.count + 1 < steps.count {
        // The kept step goes first, as it was: the steps of a recreation keep their order.
        compacted.append((handle, [latestSeen] + unseen))
      }
    }
    for (handle, steps) in compacted { livenessSteps[handle] = steps }
    return !livenessSteps.isEmpty
  }

  /// Checks invariants L1–L2.
  func checkLivenessInvariants(linked: Set<Int32>) -> String? {
    for (handle, steps) in livenessSteps {
      guard linked.contains(handle) else { return "liveness steps of unlinked piece \(handle)" }
      guard let last = latest(steps) else { return "piece \(id(of: handle)) has an empty list of liveness steps" }
      let slot = arena[Int(handle)].removal
      if last.revives != (slot < 0) { return "piece \(id(of: handle)) is \(slot < 0 ? "live" : "removed") against its steps" }
      if slot >= 0 && removals[Int(slot)] != last.at { return "piece \(id(of: handle)) keeps a removal other than its latest" }
    }
    return nil
  }

  /// A description of piece `handle`'s explicit steps, for debugging dumps ("" without a list).
  package func describeLivenessSteps(of handle: Int32) -> String {
    guard let steps = livenessSteps[handle] else { return "" }
    return " steps " + steps.map { "\($0.revives ? "+" : "-")\(unpack($0.at))" }.joined(separator: ",")
  }
}
