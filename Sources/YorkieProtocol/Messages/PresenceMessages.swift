import CRDT
import Foundation

// Presence on the wire (yorkie/v1/resources.proto): values are JSON text by key.

/// `yorkie.v1.Presence`: a client's presence, each value as JSON text.
public struct WirePresence: WireMessage, ProtoJSONMessage {
  /// Each presence key with its value as JSON text.
  public var data: [String: String]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(data: [String: String] = [:]) { self.data = data }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    self.init(data: try ProtoJSONReader(json, path: path).stringMap("data"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.stringMap("data", data)
  }
}

extension WirePresenceChange {
  /// `PresenceChange.ChangeType`: what a presence change does.
  public enum Kind: Int32, CaseIterable, Sendable, ProtoEnum {
    /// No type; refused when converted to the model.
    case unspecified = 0
    /// Replace the client's whole presence with ``WirePresenceChange/presence``.
    case put = 1
    /// Defined by the proto but never sent by Yorkie; refused when converted to the model.
    case delete = 2
    /// Remove the client's presence (it detached).
    case clear = 3

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

/// `yorkie.v1.PresenceChange`: a change of the author's presence, carried by a change.
public struct WirePresenceChange: WireMessage, ProtoJSONMessage {
  /// What the change does.
  public var type: WirePresenceChange.Kind
  /// The new presence, for ``Kind-swift.enum/put``.
  public var presence: WirePresence?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(type: WirePresenceChange.Kind = .unspecified, presence: WirePresence? = nil) {
    self.type = type
    self.presence = presence
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(type: try r.enumValue("type"), presence: try r.message("presence"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.enumValue("type", type)
    w.message("presence", presence)
  }
}
