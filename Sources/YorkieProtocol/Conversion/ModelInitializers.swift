import CRDT
import Foundation

// The CRDT model's types made from their wire messages: the public face of the conversions in
// this folder. Errors name the offending field from the wire type's name
// (`WireChangePack.changes[2].operations[0].set.value`).

extension ChangePack {
  /// The pack a wire message describes, ready for `Document.applyChangePack(_:)`.
  ///
  /// A missing checkpoint reads as the initial one (servers always send it). `role` says
  /// what the message was: a server's answer (the default: applying it acknowledges this
  /// replica's changes up to its checkpoint) or a replica's request (a pack another replica
  /// sent, whose checkpoint and version vector are its own and acknowledge nothing here).
  ///
  /// - Throws: `YorkieError` `invalidWireData` for what the model cannot hold (an actor
  ///   that is not 12 bytes, a missing ticket, a payload of the wrong size), `unsupported` for
  ///   Tree elements and operations; `YorkieError.field` names the offending field.
  /// - Complexity: O(*n*) in the size of the pack.
  public init(_ wire: WireChangePack, role: ChangePack.Role = .response) throws(YorkieError) {
    self = try wire.model("WireChangePack", role: role)
  }
}

extension Change {
  /// The change a wire message describes.
  ///
  /// - Throws: `YorkieError`, as `ChangePack.init(_:)` does.
  public init(_ wire: WireChange) throws(YorkieError) {
    self = try wire.model("WireChange")
  }
}

extension ChangeID {
  /// The change ID a wire message describes; a missing version vector reads as empty.
  ///
  /// - Throws: `YorkieError` `invalidWireData` when an actor is not 12 bytes.
  public init(_ wire: WireChangeID) throws(YorkieError) {
    self = try wire.model("WireChangeID")
  }
}

extension TimeTicket {
  /// The ticket a wire message describes.
  ///
  /// - Throws: `YorkieError` `invalidWireData` when the actor is not 12 bytes.
  public init(_ wire: WireTimeTicket) throws(YorkieError) {
    self = try wire.model("WireTimeTicket")
  }
}

extension VersionVector {
  /// The version vector a wire message describes.
  ///
  /// - Throws: `YorkieError` `invalidWireData` when a key is not the base64 of a
  ///   12-byte actor.
  public init(_ wire: WireVersionVector) throws(YorkieError) {
    self = try wire.model("WireVersionVector")
  }
}

extension Checkpoint {
  /// The checkpoint a wire message describes.
  public init(_ wire: WireCheckpoint) {
    self = wire.model
  }
}
