import CRDT
import Foundation

// The Watch stream's messages: resources to watch, the initialization, the events.

extension WireDocEvent {
  /// `DocEvent.type`. `documentChanged` is 0, so a changed-event carries no `type` in JSON.
  public enum Kind: Int32, CaseIterable, Sendable, ProtoEnum {
    /// Someone pushed changes: pull them.
    case documentChanged = 0
    /// A client started watching the document.
    case documentWatched = 1
    /// A client stopped watching the document.
    case documentUnwatched = 2
    /// A client broadcast a message to the document's watchers (see ``WireDocEvent/body``).
    case documentBroadcast = 3

    package var protoName: String {
      switch self {
      case .documentChanged: return "DOC_EVENT_TYPE_DOCUMENT_CHANGED"
      case .documentWatched: return "DOC_EVENT_TYPE_DOCUMENT_WATCHED"
      case .documentUnwatched: return "DOC_EVENT_TYPE_DOCUMENT_UNWATCHED"
      case .documentBroadcast: return "DOC_EVENT_TYPE_DOCUMENT_BROADCAST"
      }
    }
  }
}

extension WireChannelEvent {
  /// `ChannelEvent.Type`.
  public enum Kind: Int32, CaseIterable, Sendable, ProtoEnum {
    /// No type.
    case unspecified = 0
    /// The channel's session count changed (see ``WireChannelEvent/sessionCount``).
    case presence = 1
    /// A client broadcast a message to the channel (see ``WireChannelEvent/topic``).
    case broadcast = 2

    package var protoName: String {
      switch self {
      case .unspecified: return "TYPE_UNSPECIFIED"
      case .presence: return "TYPE_PRESENCE"
      case .broadcast: return "TYPE_BROADCAST"
      }
    }
  }
}

/// Reads a oneof whose members are messages: exactly one must be present.
private func oneofMember(_ r: ProtoJSONReader, _ names: [String], what: String) throws(YorkieError) -> (String, WireJSON, String) {
  guard let name = try r.oneof(names), let value = r.value(name) else {
    throw wireDataError(r.path, "\(what) without any of \(names.joined(separator: ", "))")
  }
  return (name, value, "\(r.path).\(name)")
}

/// `yorkie.v1.ResourceDescriptor`: a document or a channel to watch.
public enum WireResourceDescriptor: WireMessage, ProtoJSONMessage {
  /// A document.
  case document(WireDocumentResource)
  /// A channel.
  case channel(WireChannelResource)

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["document", "channel"], what: "a resource")
    self = name == "document" ? .document(try WireDocumentResource(json: value, path: p)) : .channel(try WireChannelResource(json: value, path: p))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    switch self {
    case .document(let d): w.message("document", d)
    case .channel(let c): w.message("channel", c)
    }
  }
}

/// The request of the `Watch` stream: the documents and channels it follows.
public struct WatchRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The documents and channels to follow.
  public var resources: [WireResourceDescriptor]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", resources: [WireResourceDescriptor] = []) {
    self.clientID = clientID
    self.resources = resources
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), resources: try r.repeated("resources"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.repeated("resources", resources)
  }
}

/// The initial state of one watched resource.
public enum WireResourceInit: WireMessage, ProtoJSONMessage {
  /// The initial state of a watched document.
  case document(WireDocumentInit)
  /// The initial state of a watched channel.
  case channel(WireChannelInit)

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["documentInit", "channelInit"], what: "a resource init")
    self = name == "documentInit" ? .document(try WireDocumentInit(json: value, path: p)) : .channel(try WireChannelInit(json: value, path: p))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    switch self {
    case .document(let d): w.message("documentInit", d)
    case .channel(let c): w.message("channelInit", c)
    }
  }
}

/// A message of the `Watch` stream: the initialization (always first), then events.
public enum WatchResponse: WireMessage {
  /// The first message of the stream: the initial state of each resource.
  case initialization([WireResourceInit])
  /// An event of a watched document.
  case documentEvent(WireWatchDocumentEvent)
  /// An event of a watched channel.
  case channelEvent(WireWatchChannelEvent)

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialization", "event"], what: "a watch response")
    if name == "initialization" {
      self = .initialization(try ProtoJSONReader(value, path: p).repeated("resourceInits"))
      return
    }
    let (kind, body, q) = try oneofMember(try ProtoJSONReader(value, path: p), ["docEvent", "channelEvent"], what: "an event")
    self = kind == "docEvent" ? .documentEvent(try WireWatchDocumentEvent(json: body, path: q))
      : .channelEvent(try WireWatchChannelEvent(json: body, path: q))
  }

  /// The message in canonical JSON.
  public var json: WireJSON {
    switch self {
    case .initialization(let inits):
      var w = ProtoJSONWriter()
      w.repeated("resourceInits", inits)
      return .object([.init("initialization", w.json)])
    case .documentEvent(let e):
      return .object([.init("event", .object([.init("docEvent", e.json)]))])
    case .channelEvent(let e):
      return .object([.init("event", .object([.init("channelEvent", e.json)]))])
    }
  }
}

/// A message of the deprecated `WatchDocument` stream: the watchers, then document events.
public enum WatchDocumentResponse: WireMessage {
  /// The first message: the document's watchers.
  case initialization(WireWatchDocumentInitialization)
  /// An event of the document.
  case event(WireDocEvent)

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialization", "event"], what: "a watch response")
    self = name == "initialization" ? .initialization(try WireWatchDocumentInitialization(json: value, path: p))
      : .event(try WireDocEvent(json: value, path: p))
  }

  /// The message in canonical JSON.
  public var json: WireJSON {
    switch self {
    case .initialization(let i): return .object([.init("initialization", i.json)])
    case .event(let e): return .object([.init("event", e.json)])
    }
  }
}

/// A message of the deprecated `WatchChannel` stream: the session count, then channel events.
public enum WatchChannelResponse: WireMessage {
  /// The first message: the channel's session count.
  case initialized(WireWatchChannelInitialized)
  /// An event of the channel.
  case event(WireChannelEvent)

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialized", "event"], what: "a watch response")
    self = name == "initialized" ? .initialized(try WireWatchChannelInitialized(json: value, path: p))
      : .event(try WireChannelEvent(json: value, path: p))
  }

  /// The message in canonical JSON.
  public var json: WireJSON {
    switch self {
    case .initialized(let i): return .object([.init("initialized", i.json)])
    case .event(let e): return .object([.init("event", e.json)])
    }
  }
}
