import CRDT
import Foundation

// Clocks between the wire and the CRDT model. Decoding checks what the model relies on (12-byte
// actors, required tickets) and names the field that was wrong; encoding cannot fail.

/// An actor id of `count` bytes at `field`: `invalidActorID` (Yorkie's `ErrInvalidActorID`),
/// not `invalidWireData`, since the server answers it with its own code.
private func actorLengthError(_ field: String, count: Int) -> YorkieError {
  YorkieError(.invalidActorID, "\(field): an actor id has \(count) bytes, not 12", field: field)
}

extension WireTimeTicket {
  /// The wire form of `ticket`.
  public init(_ ticket: TimeTicket) {
    self.init(lamport: ticket.lamport, delimiter: ticket.delimiter, actorID: ticket.actorID.bytes)
  }

  /// The ticket; its actor must be 12 bytes.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TimeTicket {
    guard actorID.count == 12, let actor = try? ActorID(bytes: actorID) else {
      throw actorLengthError(path() + ".actorId", count: actorID.count)
    }
    return TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor)
  }
}

extension Optional where Wrapped == WireTimeTicket {
  /// The ticket, which must be present.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> TimeTicket {
    guard let ticket = self else { throw wireDataError(path(), "is required") }
    return try ticket.model(path())
  }
}

extension WireVersionVector {
  /// The wire form of `vector`: base64 actor keys, lamport values.
  public init(_ vector: VersionVector) {
    var entries: [String: Int64] = [:]
    for (actor, lamport) in vector.entries { entries[actor.bytes.base64EncodedString()] = lamport }
    self.init(vector: entries)
  }

  /// The vector; every key must be the base64 of a 12-byte actor.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> VersionVector {
    var entries: [ActorID: Int64] = [:]
    for (key, lamport) in vector {
      guard let bytes = decodeBase64Leniently(key), bytes.count == 12, let actor = try? ActorID(bytes: bytes) else {
        throw wireDataError(path() + ".vector", "key \"\(key)\" is not the base64 of a 12-byte actor id")
      }
      entries[actor] = lamport
    }
    return VersionVector(entries)
  }
}

extension WireChangeID {
  /// The wire form of `id`.
  public init(_ id: ChangeID) {
    self.init(clientSeq: id.clientSeq, serverSeq: id.serverSeq, lamport: id.lamport, actorID: id.actorID.bytes,
              versionVector: WireVersionVector(id.versionVector))
  }

  /// The change ID.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> ChangeID {
    guard actorID.count == 12, let actor = try? ActorID(bytes: actorID) else {
      throw actorLengthError(path() + ".actorId", count: actorID.count)
    }
    return ChangeID(clientSeq: clientSeq, serverSeq: serverSeq, lamport: lamport, actorID: actor,
                    versionVector: try versionVector?.model(path() + ".versionVector") ?? VersionVector())
  }
}

extension WireCheckpoint {
  /// The wire form of `checkpoint`.
  public init(_ checkpoint: Checkpoint) {
    self.init(serverSeq: checkpoint.serverSeq, clientSeq: checkpoint.clientSeq)
  }

  /// The checkpoint.
  package var model: Checkpoint { Checkpoint(serverSeq: serverSeq, clientSeq: clientSeq) }
}
