import CRDT
import Foundation

// Changes and change packs on the wire (yorkie/v1/resources.proto).

/// `yorkie.v1.Change`: one change of a document as it travels.
///
/// Its operations stay internal: make one from a `Change` with ``init(_:)`` and turn it back
/// with `Change.init(_:)`.
public struct WireChange: WireMessage, ProtoJSONMessage {
  /// The change's ID; a change without one is refused when converted.
  public var id: WireChangeID?
  /// The change's message, or empty.
  public var message: String
  /// The operations, in their wire form (package only: they convert with the change).
  package var operations: [PBOperation]
  /// The change's presence change, if any.
  public var presenceChange: WirePresenceChange?

  package init(id: WireChangeID? = nil, message: String = "", operations: [PBOperation] = [], presenceChange: WirePresenceChange? = nil) {
    self.id = id
    self.message = message
    self.operations = operations
    self.presenceChange = presenceChange
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.message("id"), message: try r.string("message"), operations: try r.repeated("operations"),
              presenceChange: try r.message("presenceChange"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("id", id)
    w.string("message", message)
    w.repeated("operations", operations)
    w.message("presenceChange", presenceChange)
  }
}

/// `yorkie.v1.ChangePack`: what a push-pull carries each way.
///
/// Make one from the `ChangePack` of `Document.createChangePack()` with ``init(_:)``; turn a
/// response's pack back with `ChangePack.init(_:)` and hand it to `Document.applyChangePack(_:)`.
public struct WireChangePack: WireMessage, ProtoJSONMessage {
  /// The document's key.
  public var documentKey: String
  /// How far client and server have synchronized; absent reads as the initial checkpoint.
  public var checkpoint: WireCheckpoint?
  /// Yorkie's binary `Snapshot` of the document, when the server sends one instead of changes; empty otherwise.
  public var snapshot: Data
  /// The changes, oldest first.
  public var changes: [WireChange]
  /// Unused by Yorkie v0.7 (the version vector replaced it); kept for completeness.
  public var minSyncedTicket: WireTimeTicket?
  /// Whether the document is removed.
  public var isRemoved: Bool
  /// The version vector: the client's own when pushing; the minimum synced one, which bounds garbage collection, when pulling.
  public var versionVector: WireVersionVector?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(documentKey: String = "", checkpoint: WireCheckpoint? = nil, snapshot: Data = Data(), changes: [WireChange] = [],
               minSyncedTicket: WireTimeTicket? = nil, isRemoved: Bool = false, versionVector: WireVersionVector? = nil) {
    self.documentKey = documentKey
    self.checkpoint = checkpoint
    self.snapshot = snapshot
    self.changes = changes
    self.minSyncedTicket = minSyncedTicket
    self.isRemoved = isRemoved
    self.versionVector = versionVector
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentKey: try r.string("documentKey"), checkpoint: try r.message("checkpoint"), snapshot: try r.bytes("snapshot"),
              changes: try r.repeated("changes"), minSyncedTicket: try r.message("minSyncedTicket"),
              isRemoved: try r.bool("isRemoved"), versionVector: try r.message("versionVector"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("documentKey", documentKey)
    w.message("checkpoint", checkpoint)
    w.bytes("snapshot", snapshot)
    w.repeated("changes", changes)
    w.message("minSyncedTicket", minSyncedTicket)
    w.bool("isRemoved", isRemoved)
    w.message("versionVector", versionVector)
  }
}

extension WireChange {
  /// How many operations the change carries; 0 for a presence-only change.
  public var operationCount: Int { operations.count }
}
