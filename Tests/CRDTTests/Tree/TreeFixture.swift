@testable import CRDT

/// A tree replica for tests: issues tickets for one actor and journals every edit.
final class TreeReplica {
  let actor: ActorID
  var lamport: Int64
  var tree: CRDTTree
  let journal = Journal()

  /// A replica of `actorNumber` whose tree has a root of `type` (created by the initial actor).
  init(actorNumber: Int, rootType: String = "r", startingAt lamport: Int64 = 1) {
    actor = TreeReplica.actor(actorNumber)
    self.lamport = lamport
    tree = CRDTTree(root: CRDTTreeNode(id: TreeNodeID(createdAt: .initial), type: rootType), createdAt: .initial)
  }

  /// A replica holding a copy of `other`'s tree.
  init(actorNumber: Int, copying other: TreeReplica) {
    actor = TreeReplica.actor(actorNumber)
    lamport = other.lamport
    tree = other.tree.deepCopy()
  }

  static func actor(_ number: Int) -> ActorID {
    let hex = String(number, radix: 16)
    return try! ActorID(hex: String(repeating: "0", count: 24 - hex.count) + hex)
  }

  /// The next ticket of this replica.
  func tick() -> TimeTicket {
    lamport += 1
    return TimeTicket(lamport: lamport, delimiter: 0, actorID: actor)
  }

  /// A detached subtree for `value`, with fresh tickets.
  func node(_ value: TreeNode) -> CRDTTreeNode {
    try! CRDTTree.buildSubtree(value, issue: tick)
  }

  /// A local edit by index.
  @discardableResult
  func edit(_ from: Int, _ to: Int, _ contents: [TreeNode] = [], splitLevel: Int = 0) throws(YorkieError) -> CRDTTree.ChangeResult {
    var built: [CRDTTreeNode] = []
    for content in contents { built.append(try CRDTTree.buildSubtree(content, issue: tick)) }
    let editedAt = tick()
    let tickets = (0..<max(splitLevel, 0)).map { _ in tick() }
    let result = try tree.edit(from, to, contents: built, splitLevel: splitLevel, editedAt: editedAt, splitTickets: tickets, journal: journal)
    journal.commit()
    return result
  }

  /// A local style by index.
  @discardableResult
  func style(_ from: Int, _ to: Int, _ attributes: [String: String]) throws(YorkieError) -> CRDTTree.ChangeResult {
    let (fromPos, toPos) = try tree.indexRangeToPosRange(from, to)
    let result = try tree.style(from: fromPos, to: toPos, attributes: attributes, editedAt: tick(), journal: journal)
    journal.commit()
    return result
  }

  /// A local removeStyle by index.
  @discardableResult
  func removeStyle(_ from: Int, _ to: Int, _ keys: [String]) throws(YorkieError) -> CRDTTree.ChangeResult {
    let (fromPos, toPos) = try tree.indexRangeToPosRange(from, to)
    let result = try tree.removeStyle(from: fromPos, to: toPos, keys: keys, editedAt: tick(), journal: journal)
    journal.commit()
    return result
  }

  var xml: String { tree.toXML() }
}

/// A TreeEdit as it travels: positions, contents as node lists, tickets and the author's vector.
struct TreeEditMessage {
  var from: CRDTTreePos
  var to: CRDTTreePos
  var contents: [[TreeNodeRecord]]
  var splitLevel: Int
  var editedAt: TimeTicket
  var splitTickets: [TimeTicket]
  var versionVector: VersionVector

  /// Makes the edit on `replica` (locally) and returns the message for the others.
  static func make(on replica: TreeReplica, _ from: Int, _ to: Int, _ contents: [TreeNode] = [], splitLevel: Int = 0,
                   seen: VersionVector) throws -> TreeEditMessage {
    let (fromPos, toPos) = try replica.tree.indexRangeToPosRange(from, to)
    let built = contents.map(replica.node)
    let records = built.map { CRDTTree.records(of: $0) }
    let editedAt = replica.tick()
    let tickets = (0..<splitLevel).map { _ in replica.tick() }
    _ = try replica.tree.edit(from: fromPos, to: toPos, contents: built, splitLevel: splitLevel, editedAt: editedAt,
                              splitTickets: tickets, journal: replica.journal)
    replica.journal.commit()
    var vector = seen
    vector.set(replica.actor, replica.lamport)
    return TreeEditMessage(from: fromPos, to: toPos, contents: records, splitLevel: splitLevel, editedAt: editedAt,
                           splitTickets: tickets, versionVector: vector)
  }

  /// Applies the edit on a remote replica.
  func apply(to replica: TreeReplica) throws {
    let built = try contents.map { try CRDTTree.buildSubtree($0) }
    _ = try replica.tree.edit(from: from, to: to, contents: built, splitLevel: splitLevel, editedAt: editedAt,
                              splitTickets: splitTickets, versionVector: versionVector, journal: replica.journal)
    replica.journal.commit()
    replica.lamport = max(replica.lamport, editedAt.lamport + Int64(splitTickets.count))
  }
}
