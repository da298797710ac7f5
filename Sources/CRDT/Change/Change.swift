import Foundation

/// A presence update carried by a change.
package enum PresenceChange: Sendable, Equatable {
  /// Replace the author's whole presence.
  case put([String: JSONValue])
  /// Remove the author's presence (sent on detach).
  case clear
}

/// One atomic edit of a document by one replica: an ID, operations, an optional message and an
/// optional presence change. Changes are values: they can be kept, sent and applied elsewhere.
public struct Change: Sendable, Equatable {
  /// The identity and clocks of the change.
  public var id: ChangeID
  /// The message given to ``Document/update(message:_:)``.
  public var message: String?
  package var operations: OperationList
  package var presenceChange: PresenceChange?

  package init(id: ChangeID, operations: OperationList, message: String? = nil, presenceChange: PresenceChange? = nil) {
    self.id = id
    self.operations = operations
    self.message = message
    self.presenceChange = presenceChange
  }

  package init(id: ChangeID, operations: [Operation], message: String? = nil, presenceChange: PresenceChange? = nil) {
    self.init(id: id, operations: OperationList(operations), message: message, presenceChange: presenceChange)
  }

  /// The number of operations in the change.
  public var operationCount: Int { operations.count }

  /// Whether the change only updates presence.
  public var isPresenceOnly: Bool { operations.isEmpty }
}

/// Local changes on their way to the server, or remote changes on their way in, with the
/// checkpoint that says how far both sides are.
public struct ChangePack: Sendable {
  /// The document's key.
  public var key: String
  /// Request: the last server sequence received and the client sequence after these changes.
  /// Response: the server's answer; local changes up to `clientSeq` are acknowledged.
  public var checkpoint: Checkpoint
  /// The changes, in order.
  public var changes: [Change]
  /// Request: the sender's version vector. Response: the minimum vector of all replicas (for
  /// garbage collection), or the snapshot's vector.
  public var versionVector: VersionVector?
  /// A binary snapshot that replaces the document's content, when the server sends one.
  public var snapshot: Data?
  /// Whether the document has been removed.
  public var isRemoved: Bool
  /// Whether the pack is a replica's request or a server's answer; decides what applying it
  /// may acknowledge.
  public var role: Role

  /// Who made a pack, and so what its checkpoint and version vector mean.
  public enum Role: Sendable, Equatable {
    /// Made by a replica (``Document/createChangePack()``): its changes are that replica's, its
    /// checkpoint and version vector are the sender's own. Applying it to another replica
    /// applies the changes and acknowledges nothing.
    case request
    /// A server's answer: its checkpoint acknowledges this replica's changes up to its
    /// `clientSeq`, its version vector is the minimum of all replicas' (for garbage collection).
    case response
  }

  /// Creates a pack. The role defaults to ``Role/response``: a pack built by hand stands for
  /// a server's answer. Packs passed between replicas come from ``Document/createChangePack()``,
  /// which marks them ``Role/request``.
  public init(key: String, checkpoint: Checkpoint, changes: [Change], versionVector: VersionVector? = nil,
              snapshot: Data? = nil, isRemoved: Bool = false, role: Role = .response) {
    self.key = key
    self.checkpoint = checkpoint
    self.changes = changes
    self.versionVector = versionVector
    self.snapshot = snapshot
    self.isRemoved = isRemoved
    self.role = role
  }
}
