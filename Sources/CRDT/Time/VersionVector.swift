/// For each actor, the greatest Lamport clock of that actor's changes a replica has integrated.
///
/// Every change carries its author's vector, so receivers can tell which concurrent edits the
/// author had seen. The server sends the minimum of all attached clients' vectors, which tells
/// a replica which tombstones nobody can refer to any more (see ``Document/garbageCollect(minSyncedVersionVector:)``).
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
  /// Entries sorted by actor. A handful of actors is the common case, and every change carries
  /// a copy, so a small sorted array (one allocation, no hashing) beats a dictionary.
  @usableFromInline package private(set) var storage: [(actor: ActorID, lamport: Int64)]

  /// Creates a vector from actor → lamport entries.
  public init(_ entries: [ActorID: Int64] = [:]) {
    storage = entries.map { (actor: $0.key, lamport: $0.value) }.sorted { $0.actor < $1.actor }
  }

  /// The lamport recorded for `actor`, or nil when the vector has no entry for it.
  public subscript(_ actor: ActorID) -> Int64? {
    get {
      let index = position(of: actor)
      return index < storage.count && storage[index].actor == actor ? storage[index].lamport : nil
    }
  }

  /// The entries as a dictionary.
  public var entries: [ActorID: Int64] {
    Dictionary(uniqueKeysWithValues: storage.map { ($0.actor, $0.lamport) })
  }

  /// The number of actors in the vector.
  public var count: Int { storage.count }

  /// The actors that have an entry, in byte order.
  public var actors: [ActorID] { storage.map(\.actor) }

  /// Whether the vector has no entry.
  public var isEmpty: Bool { storage.isEmpty }

  @inline(__always) private func position(of actor: ActorID) -> Int {
    var low = 0
    var high = storage.count
    while low < high {
      let mid = (low + high) / 2
      if storage[mid].actor < actor { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Sets the entry of `actor`.
  package mutating func set(_ actor: ActorID, _ lamport: Int64) {
    let index = position(of: actor)
    if index < storage.count && storage[index].actor == actor {
      storage[index].lamport = lamport
    } else {
      storage.insert((actor: actor, lamport: lamport), at: index)
    }
  }

  /// Removes the entry of `actor`.
  package mutating func remove(_ actor: ActorID) {
    let index = position(of: actor)
    if index < storage.count && storage[index].actor == actor { storage.remove(at: index) }
  }

  /// The greatest lamport in the vector, or 0 when it is empty.
  package var maxLamport: Int64 {
    storage.map(\.lamport).max() ?? 0
  }

  /// The element-wise maximum of two vectors; an actor missing from one side keeps the other's value.
  package func merged(with other: VersionVector) -> VersionVector {
    var result = self
    result.formMax(other)
    return result
  }

  /// Replaces each entry with the element-wise maximum of both vectors.
  package mutating func formMax(_ other: VersionVector) {
    for entry in other.storage {
      let index = position(of: entry.actor)
      if index < storage.count && storage[index].actor == entry.actor {
        if entry.lamport > storage[index].lamport { storage[index].lamport = entry.lamport }
      } else {
        storage.insert(entry, at: index)
      }
    }
  }

  /// The element-wise minimum, where an actor missing from one side counts as 0 (Yorkie's rule).
  package func minimum(with other: VersionVector) -> VersionVector {
    var result: [ActorID: Int64] = [:]
    for actor in Set(actors).union(other.actors) {
      result[actor] = Swift.min(self[actor] ?? 0, other[actor] ?? 0)
    }
    return VersionVector(result)
  }

  /// Whether a tombstone removed at `ticket` may be purged: the vector has an entry for the
  /// ticket's actor and that entry has reached the ticket's lamport.
  ///
  /// An actor missing from the vector (a client that detached, whose entry the server dropped)
  /// counts as covered when every entry is past the ticket's lamport, as in the JS SDK.
  package func covers(_ ticket: TimeTicket) -> Bool {
    if let lamport = self[ticket.actorID] { return lamport >= ticket.lamport }
    guard let smallest = storage.map(\.lamport).min(), smallest != 0 else { return false }
    return smallest > ticket.lamport
  }

  /// Whether the author of this vector had seen `ticket` when it made its change.
  ///
  /// An empty vector means "local, knows everything", as in Yorkie.
  package func knows(_ ticket: TimeTicket) -> Bool {
    if storage.isEmpty { return true }
    guard let lamport = self[ticket.actorID] else { return false }
    return lamport >= ticket.lamport
  }

  /// Equal entries.
  public static func == (lhs: VersionVector, rhs: VersionVector) -> Bool {
    lhs.storage.count == rhs.storage.count && zip(lhs.storage, rhs.storage).allSatisfy { $0.actor == $1.actor && $0.lamport == $1.lamport }
  }

  /// Hashes the entries.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.count)
    for entry in storage {
      hasher.combine(entry.actor)
      hasher.combine(entry.lamport)
    }
  }

  /// The vector as Go Yorkie prints it: `{actorhex:lamport,…}`, actors in byte order.
  public var description: String {
    let items = storage.map { "\($0.actor.hex):\($0.lamport)" }
    return "{" + items.joined(separator: ",") + "}"
  }
}
