import CRDT
import Foundation

// The Watch stream's messages: resources to watch, the initialization, the events.

/// `DocEvent.type`. DOCUMENT_CHANGED is 0, so a changed-event carries no `type` in JSON.
extension WireDocEvent {
  package enum Kind: Int32, ProtoEnum {
    case documentChanged = 0, documentWatched = 1, documentUnwatched = 2, documentBroadcast = 3

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

/// `ChannelEvent.Type`.
extension WireChannelEvent {
  package enum Kind: Int32, ProtoEnum {
    case unspecified = 0, presence = 1, broadcast = 2

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

/// `ResourceDescriptor`: a document or a channel to watch.
package enum WireResourceDescriptor: WireMessage {
  case document(WireDocumentResource)
  case channel(WireChannelResource)

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["document", "channel"], what: "a resource")
    self = name == "document" ? .document(try WireDocumentResource(json: value, path: p)) : .channel(try WireChannelResource(json: value, path: p))
  }

  package var json: WireJSON {
    switch self {
    case .document(let d): return .object([.init("document", d.json)])
    case .channel(let c): return .object([.init("channel", c.json)])
    }
  }
}

/// `WatchRequest`: the documents and channels one stream follows.
package struct WatchRequest: WireMessage {
  package var clientID: String
  package var resources: [WireResourceDescriptor]

  package init(clientID: String = "", resources: [WireResourceDescriptor] = []) {
    self.clientID = clientID
    self.resources = resources
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), resources: try r.repeated("resources"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.repeated("resources", resources)
    return w.json
  }
}

/// `WatchResponse.Initialization.ResourceInit`.
package enum WireResourceInit: WireMessage {
  case document(WireDocumentInit)
  case channel(WireChannelInit)

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["documentInit", "channelInit"], what: "a resource init")
    self = name == "documentInit" ? .document(try WireDocumentInit(json: value, path: p)) : .channel(try WireChannelInit(json: value, path: p))
  }

  package var json: WireJSON {
    switch self {
    case .document(let d): return .object([.init("documentInit", d.json)])
    case .channel(let c): return .object([.init("channelInit", c.json)])
    }
  }
}

/// `WatchResponse`: the initialization (always first), then events.
package enum WatchResponse: WireMessage {
  case initialization([WireResourceInit])
  case documentEvent(WireWatchDocumentEvent)
  case channelEvent(WireWatchChannelEvent)

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialization", "event"], what: "a watch response")
    if name == "initialization" {
      self = .initialization(try ProtoJSONReader(value, path: p).repeated("resourceInits"))
      return
    }
    let (kind, body, q) = try oneofMember(try ProtoJSONReader(value, path: p), ["docEvent", "channelEvent"], what: "an event")
    self = kind == "docEvent" ? .documentEvent(try WireWatchDocumentEvent(json: body, path: q))
      : .channelEvent(try WireWatchChannelEvent(json: body, path: q))
  }

  package var json: WireJSON {
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

/// `WatchDocumentResponse` (deprecated shim): the watchers, then document events.
package enum WatchDocumentResponse: WireMessage {
  case initialization(WireWatchDocumentInitialization)
  case event(WireDocEvent)

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialization", "event"], what: "a watch response")
    self = name == "initialization" ? .initialization(try WireWatchDocumentInitialization(json: value, path: p))
      : .event(try WireDocEvent(json: value, path: p))
  }

  package var json: WireJSON {
    switch self {
    case .initialization(let i): return .object([.init("initialization", i.json)])
    case .event(let e): return .object([.init("event", e.json)])
    }
  }
}

/// `WatchChannelResponse` (deprecated shim): the session count, then channel events.
package enum WatchChannelResponse: WireMessage {
  case initialized(WireWatchChannelInitialized)
  case event(WireChannelEvent)

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let (name, value, p) = try oneofMember(try ProtoJSONReader(json, path: path), ["initialized", "event"], what: "a watch response")
    self = name == "initialized" ? .initialized(try WireWatchChannelInitialized(json: value, path: p))
      : .event(try WireChannelEvent(json: value, path: p))
  }

  package var json: WireJSON {
    switch self {
    case .initialized(let i): return .object([.init("initialized", i.json)])
    case .event(let e): return .object([.init("event", e.json)])
    }
  }
}
