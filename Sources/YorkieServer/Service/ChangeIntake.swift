import CRDT
import Foundation
import YorkieProtocol

/// Checks and re-encodes the changes a client pushes, before anything is stored.
///
/// Every change goes through the `CRDT` model and back, as Yorkie's server decodes and re-encodes
/// what it stores: a malformed change is refused as a whole (nothing of its request is stored),
/// and what other clients pull is canonical. Operations the model does not know yet (Tree
/// operations, deduplicating counters, undo restores) are kept as decoded; the document is then
/// marked as one the server cannot materialize (snapshots fall back to changes).
enum ChangeIntake {
  /// A pushed change, checked.
  struct Checked {
    /// The change as it will be stored (without its serverSeq yet).
    var wire: WireChange
    /// Its author.
    var actor: ResourceID
    /// Why the model could not read it (it is kept verbatim), or `nil`.
    var unsupportedReason: String?
  }

  /// Checks `change` (at `path` of the request, for messages).
  static func check(_ change: WireChange, path: String) throws(ServiceError) -> Checked {
    guard let id = change.id else {
      throw ServiceError(.invalidArgument, "\(path).id: a change needs its id", metadataCode: "ErrInvalidChangeID")
    }
    guard let actor = ResourceID(bytes: id.actorID) else { throw .invalidActorID(length: id.actorID.count) }
    var unsupportedReason: String?
    var wire = change
    do {
      wire = WireChange(try change.model(path))
    } catch where error.code == .unsupported {
      unsupportedReason = error.message
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
    return Checked(wire: wire, actor: actor, unsupportedReason: unsupportedReason)
  }

  /// The service error for a change the model refused.
  ///
  /// The model reports every malformed input as `invalidWireData`; Yorkie tells two kinds apart,
  /// so their messages (this package's own, pinned by `ServiceErrorTests`) pick the answer: an
  /// actor of the wrong length is `ErrInvalidActorID`, a primitive payload of the wrong length is
  /// `internal` without details (what Yorkie's decoder answers).
  private static func map(_ error: YorkieError) -> ServiceError {
    if error.code == .invalidActorID || error.message.contains("an actor id has") {
      return ServiceError(.invalidArgument, "\(error.message): invalid actor id", metadataCode: "ErrInvalidActorID")
    }
    if error.message.contains(" value needs ") {
      return ServiceError(.internal, error.message, metadataCode: nil)
    }
    return ServiceError(.invalidArgument, error.message, metadataCode: "ErrUnsupportedOperation")
  }
}
