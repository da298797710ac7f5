import CRDT
import Foundation

// Channel and broadcast messages of YorkieService (yorkie/v1/yorkie.proto).

/// The request of `Broadcast`: a message to every other watcher of a channel.
public struct BroadcastRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The channel's key.
  public var channelKey: String
  /// The broadcast's topic.
  public var topic: String
  /// The broadcast's payload: bytes the publisher chose (Yorkie SDKs send JSON text).
  public var payload: Data

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", channelKey: String = "", topic: String = "", payload: Data = Data()) {
    self.clientID = clientID
    self.channelKey = channelKey
    self.topic = topic
    self.payload = payload
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("topic", topic)
    w.bytes("payload", payload)
  }
}

/// The response of `Broadcast` (empty).
public struct BroadcastResponse: WireMessage, ProtoJSONMessage {
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

/// The request of `AttachChannel`: join a channel, starting a session.
public struct AttachChannelRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The channel's key.
  public var channelKey: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", channelKey: String = "") {
    self.clientID = clientID
    self.channelKey = channelKey
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
  }
}

/// The response of `AttachChannel`: the new session.
public struct AttachChannelResponse: WireMessage, ProtoJSONMessage {
  /// The new session's ID, which later channel calls name.
  public var sessionID: String
  /// How many sessions the channel has.
  public var sessionCount: Int64

  /// Creates the message; an omitted field takes its protobuf default.
  public init(sessionID: String = "", sessionCount: Int64 = 0) {
    self.sessionID = sessionID
    self.sessionCount = sessionCount
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionID: try r.string("sessionId"), sessionCount: try r.int64("sessionCount"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("sessionId", sessionID)
    w.int64("sessionCount", sessionCount)
  }
}

/// The request of `DetachChannel`: leave a channel, ending a session.
public struct DetachChannelRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The channel's key.
  public var channelKey: String
  /// The channel session's ID, from ``AttachChannelResponse/sessionID``.
  public var sessionID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", channelKey: String = "", sessionID: String = "") {
    self.clientID = clientID
    self.channelKey = channelKey
    self.sessionID = sessionID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), sessionID: try r.string("sessionId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("sessionId", sessionID)
  }
}

/// The response of `DetachChannel`.
public struct DetachChannelResponse: WireMessage, ProtoJSONMessage {
  /// How many sessions the channel has.
  public var sessionCount: Int64

  /// Creates the message; an omitted field takes its protobuf default.
  public init(sessionCount: Int64 = 0) {
    self.sessionCount = sessionCount
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("sessionCount", sessionCount)
  }
}

/// The request of `RefreshChannel`: a session's heartbeat, or a first call that activates a
/// client and attaches it at once.
public struct RefreshChannelRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The channel's key.
  public var channelKey: String
  /// The channel session's ID, from ``AttachChannelResponse/sessionID``.
  public var sessionID: String
  /// The client key for a first call, which activates a client.
  public var clientKey: String
  /// Facts about the client, such as its user agent.
  public var metadata: [String: String]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", channelKey: String = "", sessionID: String = "", clientKey: String = "", metadata: [String: String] = [:]) {
    self.clientID = clientID
    self.channelKey = channelKey
    self.sessionID = sessionID
    self.clientKey = clientKey
    self.metadata = metadata
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), sessionID: try r.string("sessionId"), clientKey: try r.string("clientKey"), metadata: try r.stringMap("metadata"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("sessionId", sessionID)
    w.string("clientKey", clientKey)
    w.stringMap("metadata", metadata)
  }
}

/// The response of `RefreshChannel`.
public struct RefreshChannelResponse: WireMessage, ProtoJSONMessage {
  /// How many sessions the channel has.
  public var sessionCount: Int64
  /// The client's ID; new when the request had none (a first call activates a client).
  public var clientID: String
  /// The session's ID; new when the request had none.
  public var sessionID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(sessionCount: Int64 = 0, clientID: String = "", sessionID: String = "") {
    self.sessionCount = sessionCount
    self.clientID = clientID
    self.sessionID = sessionID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"), clientID: try r.string("clientId"), sessionID: try r.string("sessionId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("sessionCount", sessionCount)
    w.string("clientId", clientID)
    w.string("sessionId", sessionID)
  }
}

/// The request of `PeekChannel`: how many sessions a channel has, without joining it.
public struct PeekChannelRequest: WireMessage, ProtoJSONMessage {
  /// The channel's key.
  public var channelKey: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(channelKey: String = "") {
    self.channelKey = channelKey
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("channelKey", channelKey)
  }
}

/// The response of `PeekChannel`.
public struct PeekChannelResponse: WireMessage, ProtoJSONMessage {
  /// How many sessions the channel has.
  public var sessionCount: Int64

  /// Creates the message; an omitted field takes its protobuf default.
  public init(sessionCount: Int64 = 0) {
    self.sessionCount = sessionCount
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("sessionCount", sessionCount)
  }
}
