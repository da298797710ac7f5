/// For each actor, the greatest Lamport clock of that actor's changes a replica has integrated.
///
/// Every change carries its author's vector, so receivers can tell which concurrent edits the
/// author had seen. The server sends the minimum of all attached clients' vectors, which tells
/// a replica which tombstones nobody can refer to any more (see ``Document/garbageCollect(minSyncedVersionVector:)``).
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
  package private(set) var entries: [ActorID: Int64]

  /// Creates a vector from actor → lamport entries.
  public init(_ entries: [ActorID: Int64] = [:]) {
    self.entries = entries
  }

  /// The lamport recorded for `actor`, or nil when the vector has no entry for it.
  public subscript(_ actor: ActorID) -> Int64? {
    get { entries[actor] }
  }

  /// The number of actors in the vector.
  public var count: Int { entries.count }

  /// The actors that have an entry, in byte order.
  public var actors: [ActorID] { entries.keys.sorted() }

  /// Whether the vector has no entry.
  public var isEmpty: Bool { entries.isEmpty }

  /// Sets the entry of `actor`.
  package mutating func set(_ actor: ActorID, _ lamport: Int64) {
    entries[actor] = lamport
  }

  /// Removes the entry of `actor`.
  package mutating func remove(_ actor: ActorID) {
    entries[actor] = nil
  }

  /// The greatest lamport in the vector, or 0 when it is empty.
  package var maxLamport: Int64 {
    entries.values.max() ?? 0
  }

  /// The element-wise maximum of two vectors; an actor missing from one side keeps the other's value.
  package func merged(with other: VersionVector) -> VersionVector {
    var result = self
    result.formMax(other)
    return result
  }

  /// Replaces each entry with the element-wise maximum of both vectors.
  package mutating func formMax(_ other: VersionVector) {
    for (actor, lamport) in other.entries {
      if let mine = entries[actor] {
        if lamport > mine { entries[actor] = lamport }
      } else {
        entries[actor] = lamport
      }
    }
  }

  /// The element-wise minimum, where an actor missing from one side counts as 0 (Yorkie's rule).
  package func minimum(with other: VersionVector) -> VersionVector {
    var result: [ActorID: Int64] = [:]
    for actor in Set(entries.keys).union(other.entries.keys) {
      result[actor] = Swift.min(entries[actor] ?? 0, other.entries[actor] ?? 0)
    }
    return VersionVector(result)
  }

  /// Whether a tombstone removed at `ticket` may be purged: the vector has an entry for the
  /// ticket's actor and that entry has reached the ticket's lamport.
  ///
  /// An actor missing from the vector (a client that detached, whose entry the server dropped)
  /// counts as covered when every entry is past the ticket's lamport, as in the JS SDK.
  package func covers(_ ticket: TimeTicket) -> Bool {
    if let lamport = entries[ticket.actorID] { return lamport >= ticket.lamport }
    guard let smallest = entries.values.min(), smallest != 0 else { return false }
    return smallest > ticket.lamport
  }

  /// Whether the author of this vector had seen `ticket` when it made its change.
  ///
  /// An empty vector means "local, knows everything", as in Yorkie.
  package func knows(_ ticket: TimeTicket) -> Bool {
    if entries.isEmpty { return true }
    guard let lamport = entries[ticket.actorID] else { return false }
    return lamport >= ticket.lamport
  }

  /// The vector as Go Yorkie prints it: `{actorhex:lamport,…}`, actors in byte order.
  public var description: String {
    let items = entries.sorted { $0.key < $1.key }.map { "\($0.key.hex):\($0.value)" }
    return "{" + items.joined(separator: ",") + "}"
  }
}
