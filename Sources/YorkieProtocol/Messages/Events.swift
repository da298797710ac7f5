import CRDT
import Foundation

// The events of the Watch stream and the deprecated WatchDocument/WatchChannel shims
// (yorkie/v1/yorkie.proto), in the JSON form.
// Written from a field table (see yorkie-protocol.md sections 3 and 4.11).

/// `WatchDocumentRequest` (deprecated shim of Watch).
package struct WatchDocumentRequest: WireMessage {
  package var clientID: String
  package var documentID: String

  package init(clientID: String = "", documentID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    return w.json
  }
}

/// `WatchChannelRequest` (deprecated shim of Watch).
package struct WatchChannelRequest: WireMessage {
  package var clientID: String
  package var channelKey: String

  package init(clientID: String = "", channelKey: String = "") {
    self.clientID = clientID
    self.channelKey = channelKey
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    return w.json
  }
}

/// `DocEventBody`.
package struct WireDocEventBody: WireMessage {
  package var topic: String
  package var payload: Data

  package init(topic: String = "", payload: Data = Data()) {
    self.topic = topic
    self.payload = payload
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("topic", topic)
    w.bytes("payload", payload)
    return w.json
  }
}

/// `DocEvent`: a missing `type` is DOCUMENT_CHANGED.
package struct WireDocEvent: WireMessage {
  package var type: WireDocEvent.Kind
  package var publisher: String
  package var body: WireDocEventBody?

  package init(type: WireDocEvent.Kind = .documentChanged, publisher: String = "", body: WireDocEventBody? = nil) {
    self.type = type
    self.publisher = publisher
    self.body = body
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), publisher: try r.string("publisher"), body: try r.message("body"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.enumValue("type", type)
    w.string("publisher", publisher)
    w.message("body", body)
    return w.json
  }
}

/// `ChannelEvent`: presence counts and broadcasts.
package struct WireChannelEvent: WireMessage {
  package var type: WireChannelEvent.Kind
  package var publisher: String
  package var sessionCount: Int64
  package var seq: Int64
  package var topic: String
  package var payload: Data

  package init(type: WireChannelEvent.Kind = .unspecified, publisher: String = "", sessionCount: Int64 = 0, seq: Int64 = 0, topic: String = "", payload: Data = Data()) {
    self.type = type
    self.publisher = publisher
    self.sessionCount = sessionCount
    self.seq = seq
    self.topic = topic
    self.payload = payload
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), publisher: try r.string("publisher"), sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"), topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.enumValue("type", type)
    w.string("publisher", publisher)
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
    w.string("topic", topic)
    w.bytes("payload", payload)
    return w.json
  }
}

/// `WatchResponse.Initialization.DocumentInit`.
package struct WireDocumentInit: WireMessage {
  package var documentID: String
  package var clientIDs: [String]

  package init(documentID: String = "", clientIDs: [String] = []) {
    self.documentID = documentID
    self.clientIDs = clientIDs
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), clientIDs: try r.strings("clientIds"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("documentId", documentID)
    w.strings("clientIds", clientIDs)
    return w.json
  }
}

/// `WatchResponse.Initialization.ChannelInit`.
package struct WireChannelInit: WireMessage {
  package var channelKey: String
  package var sessionCount: Int64
  package var seq: Int64

  package init(channelKey: String = "", sessionCount: Int64 = 0, seq: Int64 = 0) {
    self.channelKey = channelKey
    self.sessionCount = sessionCount
    self.seq = seq
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"), sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("channelKey", channelKey)
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
    return w.json
  }
}

/// `ResourceDescriptor.document`.
package struct WireDocumentResource: WireMessage {
  package var documentID: String

  package init(documentID: String = "") {
    self.documentID = documentID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("documentId", documentID)
    return w.json
  }
}

/// `ResourceDescriptor.channel`.
package struct WireChannelResource: WireMessage {
  package var channelKey: String

  package init(channelKey: String = "") {
    self.channelKey = channelKey
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("channelKey", channelKey)
    return w.json
  }
}

/// `WatchResponse.Event.docEvent`.
package struct WireWatchDocumentEvent: WireMessage {
  package var documentID: String
  package var event: WireDocEvent?

  package init(documentID: String = "", event: WireDocEvent? = nil) {
    self.documentID = documentID
    self.event = event
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), event: try r.message("event"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("documentId", documentID)
    w.message("event", event)
    return w.json
  }
}

/// `WatchResponse.Event.channelEvent`.
package struct WireWatchChannelEvent: WireMessage {
  package var channelKey: String
  package var event: WireChannelEvent?

  package init(channelKey: String = "", event: WireChannelEvent? = nil) {
    self.channelKey = channelKey
    self.event = event
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(channelKey: try r.string("channelKey"), event: try r.message("event"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("channelKey", channelKey)
    w.message("event", event)
    return w.json
  }
}

/// `WatchDocumentResponse.Initialization`.
package struct WireWatchDocumentInitialization: WireMessage {
  package var clientIDs: [String]

  package init(clientIDs: [String] = []) {
    self.clientIDs = clientIDs
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientIDs: try r.strings("clientIds"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.strings("clientIds", clientIDs)
    return w.json
  }
}

/// `WatchChannelResponse.Initialized`.
package struct WireWatchChannelInitialized: WireMessage {
  package var sessionCount: Int64
  package var seq: Int64

  package init(sessionCount: Int64 = 0, seq: Int64 = 0) {
    self.sessionCount = sessionCount
    self.seq = seq
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"), seq: try r.int64("seq"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("sessionCount", sessionCount)
    w.int64("seq", seq)
    return w.json
  }
}

/// A health answer: `{"status":"serving"}` (GET) or `SERVING_STATUS_SERVING` (gRPC health).
package struct PBHealthCheckResponse: WireMessage {
  package var status: String

  package init(status: String = "") {
    self.status = status
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(status: try r.string("status"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("status", status)
    return w.json
  }
}

/// An empty message, `{}` (requests and responses with no fields).
package struct PBEmpty: WireMessage {
  package init() {}

  package init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  package var json: WireJSON { .emptyObject }
}
