import CRDT
import Foundation

// Presence on the wire (yorkie/v1/resources.proto): values are JSON text by key.

/// `Presence`: JSON-encoded values by key.
package struct WirePresence: WireMessage {
  package var data: [String: String]

  package init(data: [String: String] = [:]) { self.data = data }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(data: try ProtoJSONReader(json, path: path).stringMap("data"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.stringMap("data", data)
    return w.json
  }
}

/// `PresenceChange.ChangeType`.
extension WirePresenceChange {
  package enum Kind: Int32, ProtoEnum {
    case unspecified = 0, put = 1, delete = 2, clear = 3

    package var protoName: String {
      switch self {
      case .unspecified: return "CHANGE_TYPE_UNSPECIFIED"
      case .put: return "CHANGE_TYPE_PUT"
      case .delete: return "CHANGE_TYPE_DELETE"
      case .clear: return "CHANGE_TYPE_CLEAR"
      }
    }
  }
}

/// `PresenceChange`.
package struct WirePresenceChange: WireMessage {
  package var type: WirePresenceChange.Kind
  package var presence: WirePresence?

  package init(type: WirePresenceChange.Kind = .unspecified, presence: WirePresence? = nil) {
    self.type = type
    self.presence = presence
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), presence: try r.message("presence"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.enumValue("type", type)
    w.message("presence", presence)
    return w.json
  }
}
