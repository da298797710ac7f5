import CRDT
import Foundation

// Client messages of YorkieService (yorkie/v1/yorkie.proto): activation and deactivation.

/// `ActivateClientRequest`: register a client.
package struct ActivateClientRequest: WireMessage {
  package var clientKey: String
  package var metadata: [String: String]

  package init(clientKey: String = "", metadata: [String: String] = [:]) {
    self.clientKey = clientKey
    self.metadata = metadata
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientKey: try r.string("clientKey"), metadata: try r.stringMap("metadata"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientKey", clientKey)
    w.stringMap("metadata", metadata)
    return w.json
  }
}

/// `ActivateClientResponse`: the new client's ID (hex).
package struct ActivateClientResponse: WireMessage {
  package var clientID: String

  package init(clientID: String = "") {
    self.clientID = clientID
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    return w.json
  }
}

/// `DeactivateClientRequest`.
package struct DeactivateClientRequest: WireMessage {
  package var clientID: String
  package var synchronous: Bool

  package init(clientID: String = "", synchronous: Bool = false) {
    self.clientID = clientID
    self.synchronous = synchronous
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), synchronous: try r.bool("synchronous"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.bool("synchronous", synchronous)
    return w.json
  }
}

/// `DeactivateClientResponse` (empty).
package struct DeactivateClientResponse: WireMessage {
  package init() {}

  package init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  package var json: WireJSON { .emptyObject }
}
