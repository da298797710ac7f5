/// Ticket-ordered application: how every replica of a tree ends up equal, whatever order its
/// changes arrived in.
///
/// Yorkie's replicas execute tree operations in arrival order, with rules (version-vector
/// deletes, split-sibling advance, merge redirects, …) meant to make the result independent of
/// that order. For inserts, deletes within an element and styles they do; for concurrent splits
/// and merges they do not (yorkie#1726 and its follow-ups, and this project's fuzz: with Yorkie's
/// rules alone 134 of 200 seeds of concurrent one-level splits diverged).
///
/// Here the rules stay, and the order is fixed: every replica applies a tree's operations in
/// ticket order (`editedAt`: lamport, then actor, then delimiter), a linear extension of
/// causality. The state is then a function of the set of operations, so replicas that applied
/// the same set are equal. An operation arrives in order almost always (its ticket is newer than
/// everything applied); when an older concurrent one arrives late, the newer ones are undone
/// exactly (``Undo`` records, kept per operation), the late one is applied, and they are applied
/// again, each with its author's version vector: what it meant does not change, only what it
/// meets.
///
/// The result is the one a Yorkie replica shows that received the changes in ticket order; where
/// Yorkie's rules are order-independent it is Yorkie's result (DocC *Convergence*, "Trees").
///
/// ```
///   orderLog (sorted by editedAt)         an older operation Y arrives:
///   ┌────┬────┬────┬────┐                 1. undo D, C (newest first; the journal records
///   │ A  │ B  │ C  │ D  │   Y < C            the inverse of every step, so a failed
///   └────┴────┴────┴────┘                    transaction restores them)
///                                         2. apply Y          3. apply C, D again
/// ```
///
/// Invariants (checked by ``checkOrderLog()``):
/// 1. The log is sorted by strictly increasing `editedAt`.
/// 2. Undoing the log's entries newest first, record by record, restores the tree to the state
///    before the first of them: each entry's records are exactly those its last execution
///    journaled, and no node a record names was purged (GC skips them: ``isPinnedByOrderLog(_:)``).
/// 3. `knowledge` covers every ticket in the tree, and no ticket newer than the tree's newest
///    operation per actor.
///
/// Bounds: entries leave the log when every replica has seen them (garbage collection's
/// minimum vector: nothing older can arrive any more), and the log keeps at most
/// ``orderLogLimit`` entries; an operation older than every entry of a full log is applied where
/// it arrives, as Yorkie applies it.
extension CRDTTree {
  /// The most entries the log keeps (see the bounds above).
  package static let orderLogLimit = 10_000

  /// What a tree operation asks, kept to execute it again.
  package struct Command {
    package enum Kind {
      case edit(from: CRDTTreePos, to: CRDTTreePos, contents: [[TreeNodeRecord]], splitLevel: Int, splitTickets: [TimeTicket])
      /// A TreeStyle operation: sets `attributes`, then removes `keysToRemove` (as Yorkie's
      /// operation does both when it carries both).
      case style(from: CRDTTreePos, to: CRDTTreePos, attributes: [String: String], keysToRemove: [String])
      /// A TreeEdit that undoes or redoes by identity (`CRDTTree+Restore.swift`): removes
      /// `removing` again, then revives `restoring` (the restore mode already applied).
      case restore(restoring: [TreeRestoreSpanRecord], removing: [TreeRestoreSpanRecord])
    }
    package var kind: Kind
    package var editedAt: TimeTicket

    package init(_ kind: Kind, editedAt: TimeTicket) {
      self.kind = kind
      self.editedAt = editedAt
    }
  }

  /// One applied operation that an older concurrent one may still come before.
  package struct LoggedOperation {
    var command: Command
    /// What its author had seen (for this replica's own operations, the vector of its change);
    /// for an old server's change whose vector said nothing, the tree's knowledge then.
    var versionVector: VersionVector?
    /// The records its last execution journaled, in order.
    var records: [Undo]
  }

  /// Changes of the ordering state, kept by the journal.
  package enum OrderUndo {
    /// Drops the entry appended last.
    case appended
    /// Puts back the entries from `index` on.
    case replaced(from: Int, previous: [LoggedOperation])
    /// Gives an actor back its knowledge entry.
    case knowledge(ActorID, Int64?)
  }

  /// Applies `command` in ticket order, describing the change for events when `describing`.
  ///
  /// - Parameters:
  ///   - versionVector: the author's vector for a remote operation; nil for this replica's own
  ///     (local, undo/redo, replay), which knew everything the tree holds.
  ///   - ownVector: for this replica's own operation, the vector of its change, which the log
  ///     keeps for a replay (other replicas apply it with that vector). Without one, the tree's
  ///     knowledge stands in (tests that drive a tree alone).
  ///   - tracing: whether an edit says what it did for its reverse (``EditTrace``); its replays
  ///     after a rewind never do.
  package func apply(_ command: Command, versionVector: VersionVector?, ownVector: VersionVector? = nil, describing: Bool,
                     tracing: Bool = false, journal: Journal) throws(YorkieError) -> ChangeResult {
    let authorVector = CRDTTree.isRemote(versionVector) ? versionVector : nil
    let stored = authorVector ?? ownVector ?? knownVector(for: command.editedAt)
    let position = orderLog.partitioningIndex { $0.command.editedAt > command.editedAt }
    guard position < orderLog.count else {
      return try executeLogged(command, authorVector: authorVector, stored: stored, describing: describing, tracing: tracing,
                               journal: journal)
    }
    let before = describing ? rootTreeNode() : nil
    let later = Array(orderLog[position...])
    rewind(later, journal: journal)
    journal.append(.tree(self, .order(.replaced(from: position, previous: later))))
    orderLog.removeSubrange(position...)
    var result = try executeLogged(command, authorVector: authorVector, stored: stored, describing: false, tracing: tracing,
                                   journal: journal)
    for entry in later {
      let again = try executeLogged(entry.command, authorVector: entry.versionVector ?? VersionVector(),
                                    stored: entry.versionVector, describing: false, journal: journal)
      result.gcPairs += again.gcPairs
      result.revived += again.revived
    }
    // The GC pairs registered along the way followed another order: a tombstone the undone
    // operations left, or one a replay made again with another ticket, may have no pair or a
    // pair of another ticket (whose purge would fail and drop it). Every tombstone the undone
    // and the new records name is registered again as it is now.
    result.gcPairs += currentGarbage(namedBy: later.map(\.records) + orderLog[position...].map(\.records))
    result.changes = before.map { [CRDTTree.difference(from: $0, to: rootTreeNode(), actor: command.editedAt.actorID)].compactMap { $0 } } ?? []
    return result
  }

  /// Executes `command` on the tree as it is and appends it to the log with its records.
  private func executeLogged(_ command: Command, authorVector: VersionVector?, stored: VersionVector?, describing: Bool,
                             tracing: Bool = false, journal: Journal) throws(YorkieError) -> ChangeResult {
    let start = journal.count
    let result = try execute(command, versionVector: authorVector, describing: describing, tracing: tracing, journal: journal)
    let records = journal.treeRecords(since: start, of: self)
    orderLog.append(LoggedOperation(command: command, versionVector: stored, records: records))
    journal.append(.tree(self, .order(.appended)))
    if orderLog.count > CRDTTree.orderLogLimit {
      journal.append(.tree(self, .order(.replaced(from: 0, previous: Array(orderLog)))))
      orderLog.removeFirst(orderLog.count - CRDTTree.orderLogLimit)
    }
    noteKnown(command.editedAt, journal: journal)
    return result
  }

  /// Executes one command on the tree as it is (no ordering).
  private func execute(_ command: Command, versionVector: VersionVector?, describing: Bool, tracing: Bool,
                       journal: Journal) throws(YorkieError) -> ChangeResult {
    switch command.kind {
    case .edit(let from, let to, let records, let splitLevel, let splitTickets):
      var contents: [CRDTTreeNode] = []
      contents.reserveCapacity(records.count)
      for subtree in records { contents.append(try CRDTTree.buildSubtree(subtree)) }
      return try edit(from: from, to: to, contents: contents, splitLevel: splitLevel, editedAt: command.editedAt,
                      splitTickets: splitTickets, versionVector: versionVector, describing: describing, tracing: tracing,
                      journal: journal)
    case .style(let from, let to, let attributes, let keysToRemove):
      var result = ChangeResult()
      if !attributes.isEmpty || keysToRemove.isEmpty {
        let set = try style(from: from, to: to, attributes: attributes, editedAt: command.editedAt,
                            versionVector: versionVector, journal: journal)
        result.changes += set.changes
        result.gcPairs += set.gcPairs
      }
      if !keysToRemove.isEmpty {
        let removed = try removeStyle(from: from, to: to, keys: keysToRemove, editedAt: command.editedAt,
                                      versionVector: versionVector, journal: journal)
        result.changes += removed.changes
        result.gcPairs += removed.gcPairs
      }
      return result
    case .restore(let restoring, let removing):
      // Spans name nodes, not places: the event describes the net change, as after a rewind.
      let before = describing ? rootTreeNode() : nil
      var result = try restore(restoring: restoring, removing: removing, editedAt: command.editedAt, journal: journal)
      if let before {
        result.changes = CRDTTree.difference(from: before, to: rootTreeNode(), actor: command.editedAt.actorID)
          .map(CRDTTree.parentsFirst) ?? []
      }
      return result
    }
  }

  /// The tombstones (nodes and attributes) of the registered nodes that `records` name.
  private func currentGarbage(namedBy records: [[Undo]]) -> [TreeGCPair] {
    var seen = Set<ObjectIdentifier>()
    var pairs: [TreeGCPair] = []
    for node in records.joined().flatMap(CRDTTree.nodesNamed) where seen.insert(ObjectIdentifier(node)).inserted {
      guard nodesByID[node.id] === node else { continue }  // undone and made again as another object
      if node.isRemoved { pairs.append(.node(node)) }
      for entry in node.attributes?.entries ?? [] where entry.isRemoved {
        pairs.append(.attribute(node, key: entry.key, removedAt: entry.updatedAt))
      }
    }
    return pairs
  }

  /// The nodes a record holds (not those it names by identity).
  private static func nodesNamed(by record: Undo) -> [CRDTTreeNode] {
    switch record {
    case .splitText(let left, let right, _), .joinedText(let left, let right, _): return [left, right]
    case .inserted(let node), .removedAt(let node, _), .attributes(let node, _), .insLinks(let node, _, _), .mergedInto(let node, _):
      return [node]
    case .unlinked(let node, let parent, let after): return [node] + [parent, after].compactMap { $0 }
    case .moved(let node, let from, let after, _, _): return [node, from] + [after].compactMap { $0 }
    case .order: return []
    }
  }

  /// Undoes `entries` newest first, journaling the inverse of every step.
  private func rewind(_ entries: [LoggedOperation], journal: Journal) {
    for entry in entries.reversed() {
      for record in entry.records.reversed() {
        journal.append(.tree(self, undo(record)))
      }
    }
  }

  // MARK: - Knowledge

  /// What stands in for the vector of an operation of this replica's own when its change's is
  /// not given: everything the tree holds (it was made against all of it), and its own ticket.
  private func knownVector(for editedAt: TimeTicket) -> VersionVector {
    var vector = currentKnowledge()
    if (vector[editedAt.actorID] ?? 0) < editedAt.lamport { vector.set(editedAt.actorID, editedAt.lamport) }
    return vector
  }

  /// The tree's knowledge, computed from its tickets on first use.
  private func currentKnowledge() -> VersionVector {
    if let knowledge { return knowledge }
    var vector = VersionVector()
    func see(_ ticket: TimeTicket?) {
      guard let ticket else { return }
      if (vector[ticket.actorID] ?? 0) < ticket.lamport { vector.set(ticket.actorID, ticket.lamport) }
    }
    see(createdAt)
    root.forEachPreOrder { node in
      see(node.id.createdAt)
      see(node.removedAt)
      see(node.mergedAt)
      for entry in node.attributes?.entries ?? [] { see(entry.updatedAt) }
    }
    knowledge = vector
    return vector
  }

  /// Records that the tree has seen `ticket` (journaled: a rolled-back operation was not seen).
  func noteKnown(_ ticket: TimeTicket, journal: Journal) {
    guard knowledge != nil else { return }  // computed from the tickets when first needed
    let old = knowledge![ticket.actorID]
    guard (old ?? 0) < ticket.lamport else { return }
    journal.append(.tree(self, .order(.knowledge(ticket.actorID, old))))
    knowledge!.set(ticket.actorID, ticket.lamport)
  }

  /// Undoes one ordering record (rollback only).
  func undoOrder(_ record: OrderUndo) {
    switch record {
    case .appended: orderLog.removeLast()
    case .replaced(let index, let previous):
      orderLog.removeSubrange(index...)
      orderLog.append(contentsOf: previous)
    case .knowledge(let actor, let old):
      if let old { knowledge?.set(actor, old) } else { knowledge?.remove(actor) }
    }
  }

  // MARK: - Stability

  /// Forgets the entries every replica has seen (`minimum` covers them): nothing older than
  /// them can arrive any more. Called by garbage collection before it purges.
  package func forgetStableOperations(_ minimum: VersionVector) {
    let stable = orderLog.prefix { minimum.covers($0.command.editedAt) }.count
    if stable > 0 { orderLog.removeFirst(stable) }
  }

  /// Whether the log has entries (the root then asks this tree at each collection).
  package var hasOrderLog: Bool { !orderLog.isEmpty }

  /// The nodes the log's records name, which garbage collection must not purge (invariant 2).
  package func orderLogPins() -> Set<ObjectIdentifier> {
    var pins = Set<ObjectIdentifier>()
    // A node's ancestors too: a purged ancestor would leave it (held by a record) with a
    // parent reference to freed memory.
    func pin(_ node: CRDTTreeNode?) {
      var current = node
      while let next = current, pins.insert(ObjectIdentifier(next)).inserted { current = next.parent }
    }
    func pin(_ id: TreeNodeID?) { if let id { pin(floorNode(id)) } }
    for entry in orderLog {
      for record in entry.records {
        switch record {
        case .splitText(let left, let right, _), .joinedText(let left, let right, _):
          pin(left)
          pin(right)
        case .inserted(let node): pin(node)
        case .unlinked(let node, let parent, let after):
          pin(node)
          pin(parent)
          pin(after)
        case .moved(let node, let from, let after, let mergedFrom, _):
          pin(node)
          pin(from)
          pin(after)
          pin(mergedFrom)
        case .removedAt(let node, _), .attributes(let node, _): pin(node)
        case .insLinks(let node, let previous, let next):
          pin(node)
          pin(previous)
          pin(next)
        case .mergedInto(let node, let target):
          pin(node)
          pin(target)
        case .order: break
        }
      }
    }
    return pins
  }

  /// Checks invariant 1 of the log (part of ``checkTreeInvariants()``).
  func checkOrderLog() throws(InvariantViolation) {
    for (previous, next) in zip(orderLog, orderLog.dropFirst()) where !(previous.command.editedAt < next.command.editedAt) {
      throw InvariantViolation(description: "order log 1: out of order at \(next.command.editedAt)")
    }
    guard orderLog.count <= CRDTTree.orderLogLimit else { throw InvariantViolation(description: "order log: over its limit") }
  }
}
