import CRDT
import Foundation

// Yorkie's logical clocks on the wire (yorkie/v1/resources.proto): tickets, version vectors,
// checkpoints and change IDs. Field names and numbers: yorkie-protocol.md section 4.

/// `yorkie.v1.TimeTicket`: a logical timestamp (lamport, delimiter, 12-byte actor).
///
/// Converts with `TimeTicket` both ways: ``init(_:)`` and `TimeTicket.init(_:)`.
public struct WireTimeTicket: WireMessage, ProtoJSONMessage {
  /// The Lamport clock value.
  public var lamport: Int64
  /// Orders tickets issued within one change.
  public var delimiter: UInt32
  /// The actor that issued the ticket: 12 bytes.
  public var actorID: Data

  /// Creates the message; an omitted field takes its protobuf default.
  public init(lamport: Int64 = 0, delimiter: UInt32 = 0, actorID: Data = Data()) {
    self.lamport = lamport
    self.delimiter = delimiter
    self.actorID = actorID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(lamport: try r.int64("lamport"), delimiter: try r.uint32("delimiter"), actorID: try r.bytes("actorId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("lamport", lamport)
    w.uint32("delimiter", delimiter)
    w.bytes("actorId", actorID)
  }
}

/// `yorkie.v1.VersionVector`: the Lamport clock seen from each actor.
///
/// Converts with `VersionVector` both ways: ``init(_:)`` and `VersionVector.init(_:)`.
public struct WireVersionVector: WireMessage, ProtoJSONMessage {
  /// The Lamport clock seen from each actor, keyed by the base64 of the actor's 12 bytes.
  public var vector: [String: Int64]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(vector: [String: Int64] = [:]) { self.vector = vector }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(vector: try ProtoJSONReader(json, path: path).int64Map("vector"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64Map("vector", vector)
  }
}

/// `yorkie.v1.Checkpoint`: how far client and server have synchronized.
///
/// Converts with `Checkpoint` both ways: ``init(_:)`` and `Checkpoint.init(_:)`.
public struct WireCheckpoint: WireMessage, ProtoJSONMessage {
  /// The server sequence of the last change the client has received.
  public var serverSeq: Int64
  /// The client sequence of the last change the server has received from the client.
  public var clientSeq: UInt32

  /// Creates the message; an omitted field takes its protobuf default.
  public init(serverSeq: Int64 = 0, clientSeq: UInt32 = 0) {
    self.serverSeq = serverSeq
    self.clientSeq = clientSeq
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(serverSeq: try r.int64("serverSeq"), clientSeq: try r.uint32("clientSeq"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("serverSeq", serverSeq)
    w.uint32("clientSeq", clientSeq)
  }
}

/// `yorkie.v1.ChangeID`: who made a change, in which order, having seen what.
///
/// Converts with `ChangeID` both ways: ``init(_:)`` and `ChangeID.init(_:)`.
public struct WireChangeID: WireMessage, ProtoJSONMessage {
  /// The change's sequence among its author's changes, from 1.
  public var clientSeq: UInt32
  /// The sequence the server gave the change; 0 before it was pushed.
  public var serverSeq: Int64
  /// The Lamport clock of the change; 0 for some presence-only changes.
  public var lamport: Int64
  /// The change's author: 12 bytes.
  public var actorID: Data
  /// What the change's author had seen when it made the change.
  public var versionVector: WireVersionVector?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientSeq: UInt32 = 0, serverSeq: Int64 = 0, lamport: Int64 = 0, actorID: Data = Data(), versionVector: WireVersionVector? = nil) {
    self.clientSeq = clientSeq
    self.serverSeq = serverSeq
    self.lamport = lamport
    self.actorID = actorID
    self.versionVector = versionVector
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientSeq: try r.uint32("clientSeq"), serverSeq: try r.int64("serverSeq"), lamport: try r.int64("lamport"),
              actorID: try r.bytes("actorId"), versionVector: try r.message("versionVector"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.uint32("clientSeq", clientSeq)
    w.int64("serverSeq", serverSeq)
    w.int64("lamport", lamport)
    w.bytes("actorId", actorID)
    w.message("versionVector", versionVector)
  }
}
