import CRDT
import Foundation

// Flat messages of YorkieService (yorkie/v1/yorkie.proto) and its events, in the JSON form.
// Written from a field table (see yorkie-protocol.md sections 3 and 4.11).

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

/// `RevisionSummary`: `snapshot` is YSON text; `createdAt` an RFC 3339 timestamp.
package struct WireRevisionSummary: WireMessage {
  package var id: String
  package var label: String
  package var description: String
  package var snapshot: String
  package var createdAt: String

  package init(id: String = "", label: String = "", description: String = "", snapshot: String = "", createdAt: String = "") {
    self.id = id
    self.label = label
    self.description = description
    self.snapshot = snapshot
    self.createdAt = createdAt
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.string("id"), label: try r.string("label"), description: try r.string("description"), snapshot: try r.string("snapshot"), createdAt: try r.string("createdAt"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("id", id)
    w.string("label", label)
    w.string("description", description)
    w.string("snapshot", snapshot)
    w.string("createdAt", createdAt)
    return w.json
  }
}

/// `CreateRevisionRequest`.
package struct CreateRevisionRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var label: String
  package var description: String

  package init(clientID: String = "", documentID: String = "", label: String = "", description: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.label = label
    self.description = description
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), label: try r.string("label"), description: try r.string("description"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("label", label)
    w.string("description", description)
    return w.json
  }
}

/// `CreateRevisionResponse`.
package struct CreateRevisionResponse: WireMessage {
  package var revision: WireRevisionSummary?

  package init(revision: WireRevisionSummary? = nil) {
    self.revision = revision
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revision: try r.message("revision"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("revision", revision)
    return w.json
  }
}

/// `GetRevisionRequest`.
package struct GetRevisionRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var revisionID: String

  package init(clientID: String = "", documentID: String = "", revisionID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.revisionID = revisionID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), revisionID: try r.string("revisionId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("revisionId", revisionID)
    return w.json
  }
}

/// `GetRevisionResponse`.
package struct GetRevisionResponse: WireMessage {
  package var revision: WireRevisionSummary?

  package init(revision: WireRevisionSummary? = nil) {
    self.revision = revision
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revision: try r.message("revision"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("revision", revision)
    return w.json
  }
}

/// `ListRevisionsRequest`.
package struct ListRevisionsRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var pageSize: Int32
  package var offset: Int32
  package var isForward: Bool

  package init(clientID: String = "", documentID: String = "", pageSize: Int32 = 0, offset: Int32 = 0, isForward: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.pageSize = pageSize
    self.offset = offset
    self.isForward = isForward
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), pageSize: try r.int32("pageSize"), offset: try r.int32("offset"), isForward: try r.bool("isForward"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.int32("pageSize", pageSize)
    w.int32("offset", offset)
    w.bool("isForward", isForward)
    return w.json
  }
}

/// `ListRevisionsResponse`.
package struct ListRevisionsResponse: WireMessage {
  package var revisions: [WireRevisionSummary]

  package init(revisions: [WireRevisionSummary] = []) {
    self.revisions = revisions
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revisions: try r.repeated("revisions"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.repeated("revisions", revisions)
    return w.json
  }
}

/// `RestoreRevisionRequest`.
package struct RestoreRevisionRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var revisionID: String

  package init(clientID: String = "", documentID: String = "", revisionID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.revisionID = revisionID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), revisionID: try r.string("revisionId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("revisionId", revisionID)
    return w.json
  }
}

/// `RestoreRevisionResponse` (empty).
package struct RestoreRevisionResponse: WireMessage {
  package init() {}

  package init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  package var json: WireJSON { .emptyObject }
}
