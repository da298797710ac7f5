/// The identity and clocks of a change: the author's sequence number, Lamport clock and
/// version vector at the time of the change.
public struct ChangeID: Hashable, Sendable {
  /// 1, 2, 3, … for the author's changes to this document (presence-only changes included).
  public var clientSeq: UInt32
  /// Assigned by the server; 0 until then.
  public var serverSeq: Int64
  /// The change's Lamport clock (a presence-only change keeps its predecessor's).
  public var lamport: Int64
  /// The author.
  public var actorID: ActorID
  /// The author's version vector including this change; empty for presence-only changes.
  public var versionVector: VersionVector

  /// Creates a change ID.
  public init(clientSeq: UInt32, serverSeq: Int64 = 0, lamport: Int64, actorID: ActorID, versionVector: VersionVector) {
    self.clientSeq = clientSeq
    self.serverSeq = serverSeq
    self.lamport = lamport
    self.actorID = actorID
    self.versionVector = versionVector
  }

  /// The ID a new document starts from.
  package static let initial = ChangeID(clientSeq: 0, lamport: 0, actorID: .initial, versionVector: VersionVector())

  /// Whether the clocks of this change take part in clock syncing (Yorkie: a non-empty vector
  /// and a non-zero lamport).
  package var hasClocks: Bool { !versionVector.isEmpty && lamport != 0 }

  /// The ID of the next change with operations: sequence + 1, lamport + 1, own vector entry = lamport.
  package func next() -> ChangeID {
    var vector = versionVector
    vector.set(actorID, lamport + 1)
    return ChangeID(clientSeq: clientSeq + 1, lamport: lamport + 1, actorID: actorID, versionVector: vector)
  }

  /// The ID of the next presence-only change: sequence + 1, same lamport, empty vector.
  package func nextPresenceOnly() -> ChangeID {
    ChangeID(clientSeq: clientSeq + 1, lamport: lamport, actorID: actorID, versionVector: VersionVector())
  }

  /// This ID after receiving a change with `other`'s clocks: lamport = max + 1, vector =
  /// element-wise max with the own entry set to the new lamport.
  package func synced(with other: ChangeID) -> ChangeID {
    guard other.hasClocks else { return self }
    let newLamport = Swift.max(lamport, other.lamport) + 1
    var vector = versionVector.merged(with: other.versionVector)
    vector.set(actorID, newLamport)
    return ChangeID(clientSeq: clientSeq, serverSeq: serverSeq, lamport: newLamport, actorID: actorID, versionVector: vector)
  }

  /// This ID after loading a snapshot whose vector is `vector`.
  package func synced(withSnapshotVector vector: VersionVector) -> ChangeID {
    let newLamport = Swift.max(lamport, vector.maxLamport) + 1
    var merged = versionVector.merged(with: vector)
    merged.set(actorID, newLamport)
    return ChangeID(clientSeq: clientSeq, serverSeq: serverSeq, lamport: newLamport, actorID: actorID, versionVector: merged)
  }

  /// A ticket of this change.
  @inline(__always) package func ticket(_ delimiter: UInt32) -> TimeTicket {
    TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actorID)
  }
}

/// How far a replica has synchronized with the server.
public struct Checkpoint: Hashable, Sendable {
  /// The highest server sequence received.
  public var serverSeq: Int64
  /// The highest client sequence the server has acknowledged.
  public var clientSeq: UInt32

  /// Creates a checkpoint.
  public init(serverSeq: Int64, clientSeq: UInt32) {
    self.serverSeq = serverSeq
    self.clientSeq = clientSeq
  }

  /// `(0, 0)`: nothing synchronized.
  public static let initial = Checkpoint(serverSeq: 0, clientSeq: 0)

  /// The field-wise maximum.
  package func forwarded(to other: Checkpoint) -> Checkpoint {
    Checkpoint(serverSeq: Swift.max(serverSeq, other.serverSeq), clientSeq: Swift.max(clientSeq, other.clientSeq))
  }
}
