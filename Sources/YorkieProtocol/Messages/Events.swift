import CRDT
import Foundation

// The events of the Watch stream and the deprecated WatchDocument/WatchChannel shims
// (yorkie/v1/yorkie.proto), in the JSON form.
// Written from a field table (see yorkie-protocol.md sections 3 and 4.11).

/// The request of the deprecated `WatchDocument` stream (use ``WatchRequest``).
public struct WatchDocumentRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
  }
}

/// The request of the deprecated `WatchChannel` stream (use ``WatchRequest``).
public struct WatchChannelRequest: WireMessage, ProtoJSONMessage {
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

/// `yorkie.v1.DocEventBody`: the broadcast a document event carries.
public struct WireDocEventBody: WireMessage, ProtoJSONMessage {
  /// The broadcast's topic.
  public var topic: String
  /// The broadcast's payload.
  public var payload: Data

  /// Creates the message; an omitted field takes its protobuf default.
  public init(topic: String = "", payload: Data = Data()) {
    self.topic = topic
    self.payload = payload
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("topic", topic)
    w.bytes("payload", payload)
  }
}

/// `yorkie.v1.DocEvent`: something happened to a watched document.
public struct WireDocEvent: WireMessage, ProtoJSONMessage {
  /// What kind of event this is.
  public var type: WireDocEvent.Kind
  /// The ID of the client that caused the event.
  public var publisher: String
  /// The broadcast, for ``Kind-swift.enum/documentBroadcast`` events.
  public var body: WireDocEventBody?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(type: WireDocEvent.Kind = .documentChanged, publisher: String = "", body: WireDocEventBody? = nil) {
    self.type = type
    self.publisher = publisher
    self.body = body
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), publisher: try r.string("publisher"), body: try r.message("body"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.enumValue("type", type)
    w.string("publisher", publisher)
    w.message("body", body)
  }
}

/// `yorkie.v1.ChannelEvent`: a channel's session count changed, or a broadcast.
public struct WireChannelEvent: WireMessage, ProtoJSONMessage {
  /// What kind of event this is.
  public var type: WireChannelEvent.Kind
  /// The ID of the client that caused the event.
  public var publisher: String
  /// How many sessions the channel has, for ``Kind-swift.enum/presence`` events.
  public var sessionCount: Int64
  /// The channel's event counter (compare order only).
  public var seq: Int64
  /// The broadcast's topic, for ``Kind-swift.enum/broadcast`` events.
  public var topic: String
  /// The broadcast's payload, for ``Kind-swift.enum/broadcast`` events.
  public var payload: Data

  /// Creates the message; an omitted field takes its protobuf default.
  public init(type: WireChannelEvent.Kind = .unspecified, publisher: String = "", sessionCount: Int64 = 0, seq: Int64 = 0, topic: String = "", payload: Data = Data()) {
    self.type = type
    self.publisher = publisher
    self.sessionCount = sessionCount
    self.seq = seq
    self.topic = topic
    self.payload = payload
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), publisher: try r.string("publisher"), sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"), topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.enumValue("type", type)
    w.string("publisher", publisher)
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
    w.string("topic", topic)
    w.bytes("payload", payload)
  }
}

/// The initial state of a watched document: who else watches it.
public struct WireDocumentInit: WireMessage, ProtoJSONMessage {
  /// The watched document's ID.
  public var documentID: String
  /// The IDs of the clients watching the document.
  public var clientIDs: [String]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(documentID: String = "", clientIDs: [String] = []) {
    self.documentID = documentID
    self.clientIDs = clientIDs
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), clientIDs: try r.strings("clientIds"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("documentId", documentID)
    w.strings("clientIds", clientIDs)
  }
}

/// The initial state of a watched channel.
public struct WireChannelInit: WireMessage, ProtoJSONMessage {
  /// The watched channel's key.
  public var channelKey: String
  /// How many sessions the channel has.
  public var sessionCount: Int64
  /// The channel's event counter (compare order only).
  public var seq: Int64

  /// Creates the message; an omitted field takes its protobuf default.
  public init(channelKey: String = "", sessionCount: Int64 = 0, seq: Int64 = 0) {
    self.channelKey = channelKey
    self.sessionCount = sessionCount
    self.seq = seq
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"), sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("channelKey", channelKey)
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
  }
}

/// A document to watch.
public struct WireDocumentResource: WireMessage, ProtoJSONMessage {
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(documentID: String = "") {
    self.documentID = documentID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("documentId", documentID)
  }
}

/// A channel to watch.
public struct WireChannelResource: WireMessage, ProtoJSONMessage {
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

/// An event of a watched document, with the document it is about.
public struct WireWatchDocumentEvent: WireMessage, ProtoJSONMessage {
  /// The ID of the document the event is about.
  public var documentID: String
  /// The event.
  public var event: WireDocEvent?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(documentID: String = "", event: WireDocEvent? = nil) {
    self.documentID = documentID
    self.event = event
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), event: try r.message("event"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("documentId", documentID)
    w.message("event", event)
  }
}

/// An event of a watched channel, with the channel it is about.
public struct WireWatchChannelEvent: WireMessage, ProtoJSONMessage {
  /// The key of the channel the event is about.
  public var channelKey: String
  /// The event.
  public var event: WireChannelEvent?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(channelKey: String = "", event: WireChannelEvent? = nil) {
    self.channelKey = channelKey
    self.event = event
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"), event: try r.message("event"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("channelKey", channelKey)
    w.message("event", event)
  }
}

/// The first message of the deprecated `WatchDocument` stream.
public struct WireWatchDocumentInitialization: WireMessage, ProtoJSONMessage {
  /// The IDs of the clients watching the document.
  public var clientIDs: [String]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientIDs: [String] = []) {
    self.clientIDs = clientIDs
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientIDs: try r.strings("clientIds"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.strings("clientIds", clientIDs)
  }
}

/// The first message of the deprecated `WatchChannel` stream.
public struct WireWatchChannelInitialized: WireMessage, ProtoJSONMessage {
  /// How many sessions the channel has.
  public var sessionCount: Int64
  /// The channel's event counter (compare order only).
  public var seq: Int64

  /// Creates the message; an omitted field takes its protobuf default.
  public init(sessionCount: Int64 = 0, seq: Int64 = 0) {
    self.sessionCount = sessionCount
    self.seq = seq
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
  }
}
