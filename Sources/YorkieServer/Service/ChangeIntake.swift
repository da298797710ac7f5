import CRDT
import Foundation
import YorkieProtocol

/// Checks and re-encodes the changes a client pushes, before anything is stored.
///
/// Every change goes through the `CRDT` model and back, as Yorkie's server decodes and re-encodes
/// what it stores: a change the model cannot read is refused as a whole (nothing of its request is
/// stored), and what other clients pull is canonical. So every stored change is one the model
/// reads, and every document can be materialized (snapshots for clients far behind).
enum ChangeIntake {
  /// A pushed change, checked.
  struct Checked {
    /// The change as it will be stored (without its serverSeq yet).
    var wire: WireChange
    /// Its author.
    var actor: ResourceID
  }

  /// Checks `change` (at `path` of the request, for messages).
  static func check(_ change: WireChange, path: String) throws(ServiceError) -> Checked {
    guard let id = change.id else {
      throw ServiceError(.invalidArgument, "\(path).id: a change needs its id", metadataCode: "ErrInvalidChangeID")
    }
    guard let actor = ResourceID(bytes: id.actorID) else { throw .invalidActorID(length: id.actorID.count) }
    var wire: WireChange
    do {
      wire = WireChange(try change.model(path))
    } catch {
      throw map(error)
    }
    // Presence-only changes are stored without a version vector, as Yorkie stores them; a change
    // with operations keeps the one its author sent.
    if var storedID = wire.id {
      if wire.operations.isEmpty {
        storedID.versionVector = WireVersionVector()
      } else if storedID.versionVector == nil {
        storedID.versionVector = WireVersionVector()
      }
      wire.id = storedID
    }
    return Checked(wire: wire, actor: actor)
  }

  /// The service error for a change the model refused, by the error's code (yorkie-protocol.md
  /// section 5.8): an actor of the wrong length is `ErrInvalidActorID`, a negative split level
  /// `ErrInvalidSplitLevel`, a primitive payload of the wrong length `internal` without details
  /// (what Yorkie's decoder answers), and anything else the model cannot read, `unsupported`
  /// included, `ErrUnsupportedOperation`.
  static func map(_ error: YorkieError) -> ServiceError {
    switch error.code {
    case .invalidActorID:
      return ServiceError(.invalidArgument, "\(error.message): invalid actor id", metadataCode: "ErrInvalidActorID")
    case .invalidSplitLevel:
      return ServiceError(.invalidArgument, "\(error.message): invalid split level", metadataCode: "ErrInvalidSplitLevel")
    case .invalidValueEncoding:
      return ServiceError(.internal, error.message, metadataCode: nil)
    default:
      return ServiceError(.invalidArgument, error.message, metadataCode: "ErrUnsupportedOperation")
    }
  }
}
