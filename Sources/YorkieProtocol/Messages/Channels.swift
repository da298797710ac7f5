import CRDT
import Foundation

// Channel and broadcast messages of YorkieService (yorkie/v1/yorkie.proto).

/// `BroadcastRequest`: a message to every other watcher of a channel.
package struct BroadcastRequest: WireMessage {
  package var clientID: String
  package var channelKey: String
  package var topic: String
  package var payload: Data

  package init(clientID: String = "", channelKey: String = "", topic: String = "", payload: Data = Data()) {
    self.clientID = clientID
    self.channelKey = channelKey
    self.topic = topic
    self.payload = payload
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), topic: try r.string("topic"), payload: try r.bytes("payload"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("topic", topic)
    w.bytes("payload", payload)
    return w.json
  }
}

/// `BroadcastResponse` (empty).
package struct BroadcastResponse: WireMessage {
  package init() {}

  package init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  package var json: WireJSON { .emptyObject }
}

/// `AttachChannelRequest`.
package struct AttachChannelRequest: WireMessage {
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

/// `AttachChannelResponse`.
package struct AttachChannelResponse: WireMessage {
  package var sessionID: String
  package var sessionCount: Int64

  package init(sessionID: String = "", sessionCount: Int64 = 0) {
    self.sessionID = sessionID
    self.sessionCount = sessionCount
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionID: try r.string("sessionId"), sessionCount: try r.int64("sessionCount"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("sessionId", sessionID)
    w.int64("sessionCount", sessionCount)
    return w.json
  }
}

/// `DetachChannelRequest`.
package struct DetachChannelRequest: WireMessage {
  package var clientID: String
  package var channelKey: String
  package var sessionID: String

  package init(clientID: String = "", channelKey: String = "", sessionID: String = "") {
    self.clientID = clientID
    self.channelKey = channelKey
    self.sessionID = sessionID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), sessionID: try r.string("sessionId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("sessionId", sessionID)
    return w.json
  }
}

/// `DetachChannelResponse`.
package struct DetachChannelResponse: WireMessage {
  package var sessionCount: Int64

  package init(sessionCount: Int64 = 0) {
    self.sessionCount = sessionCount
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("sessionCount", sessionCount)
    return w.json
  }
}

/// `RefreshChannelRequest`: heartbeat, or a first call that activates and attaches at once.
package struct RefreshChannelRequest: WireMessage {
  package var clientID: String
  package var channelKey: String
  package var sessionID: String
  package var clientKey: String
  package var metadata: [String: String]

  package init(clientID: String = "", channelKey: String = "", sessionID: String = "", clientKey: String = "", metadata: [String: String] = [:]) {
    self.clientID = clientID
    self.channelKey = channelKey
    self.sessionID = sessionID
    self.clientKey = clientKey
    self.metadata = metadata
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), channelKey: try r.string("channelKey"), sessionID: try r.string("sessionId"), clientKey: try r.string("clientKey"), metadata: try r.stringMap("metadata"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("channelKey", channelKey)
    w.string("sessionId", sessionID)
    w.string("clientKey", clientKey)
    w.stringMap("metadata", metadata)
    return w.json
  }
}

/// `RefreshChannelResponse`.
package struct RefreshChannelResponse: WireMessage {
  package var sessionCount: Int64
  package var clientID: String
  package var sessionID: String

  package init(sessionCount: Int64 = 0, clientID: String = "", sessionID: String = "") {
    self.sessionCount = sessionCount
    self.clientID = clientID
    self.sessionID = sessionID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"), clientID: try r.string("clientId"), sessionID: try r.string("sessionId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("sessionCount", sessionCount)
    w.string("clientId", clientID)
    w.string("sessionId", sessionID)
    return w.json
  }
}

/// `PeekChannelRequest`.
package struct PeekChannelRequest: WireMessage {
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

/// `PeekChannelResponse`.
package struct PeekChannelResponse: WireMessage {
  package var sessionCount: Int64

  package init(sessionCount: Int64 = 0) {
    self.sessionCount = sessionCount
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(sessionCount: try r.int64("sessionCount"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.int64("sessionCount", sessionCount)
    return w.json
  }
}
