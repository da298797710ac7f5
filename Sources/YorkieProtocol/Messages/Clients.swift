import CRDT
import Foundation

// Client messages of YorkieService (yorkie/v1/yorkie.proto): activation and deactivation.

/// The request of `ActivateClient`: register a client.
public struct ActivateClientRequest: WireMessage, ProtoJSONMessage {
  /// A key the application chose for the client.
  public var clientKey: String
  /// Facts about the client, such as its user agent.
  public var metadata: [String: String]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientKey: String = "", metadata: [String: String] = [:]) {
    self.clientKey = clientKey
    self.metadata = metadata
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientKey: try r.string("clientKey"), metadata: try r.stringMap("metadata"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientKey", clientKey)
    w.stringMap("metadata", metadata)
  }
}

/// The response of `ActivateClient`: the new client's ID.
public struct ActivateClientResponse: WireMessage, ProtoJSONMessage {
  /// The new client's ID: 24 hex characters, which every later call names.
  public var clientID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "") {
    self.clientID = clientID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
  }
}

/// The request of `DeactivateClient`: end a client, detaching its documents.
public struct DeactivateClientRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// Whether to wait until the client's documents are detached.
  public var synchronous: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", synchronous: Bool = false) {
    self.clientID = clientID
    self.synchronous = synchronous
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), synchronous: try r.bool("synchronous"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.bool("synchronous", synchronous)
  }
}

/// The response of `DeactivateClient` (empty).
public struct DeactivateClientResponse: WireMessage, ProtoJSONMessage {
  /// Creates the message; an omitted field takes its protobuf default.
  public init() {}

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {}
}
