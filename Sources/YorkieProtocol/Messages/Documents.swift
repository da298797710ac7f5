import CRDT
import Foundation

// Document messages of YorkieService (yorkie/v1/yorkie.proto): attach, detach, remove,
// push-pull, and the schema rules an attach answers with.

/// The request of `AttachDocument`: start syncing a document, sending the local changes.
public struct AttachDocumentRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The client's local changes, checkpoint and version vector (``WireChangePack/init(_:)`` makes one from a `ChangePack`).
  public var changePack: WireChangePack?
  /// The key of a schema to attach the document with.
  public var schemaKey: String
  /// Whether the server should skip garbage collection for this client's document.
  public var disableGC: Bool
  /// Whether the document is attached without presence.
  public var disablePresence: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", changePack: WireChangePack? = nil, schemaKey: String = "", disableGC: Bool = false, disablePresence: Bool = false) {
    self.clientID = clientID
    self.changePack = changePack
    self.schemaKey = schemaKey
    self.disableGC = disableGC
    self.disablePresence = disablePresence
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), changePack: try r.message("changePack"), schemaKey: try r.string("schemaKey"), disableGC: try r.bool("disableGc"), disablePresence: try r.bool("disablePresence"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.message("changePack", changePack)
    w.string("schemaKey", schemaKey)
    w.bool("disableGc", disableGC)
    w.bool("disablePresence", disablePresence)
  }
}

/// The response of `AttachDocument`: the document's ID and what the client has not seen.
public struct AttachDocumentResponse: WireMessage, ProtoJSONMessage {
  /// The attached document's ID: 24 hex characters, which later calls name.
  public var documentID: String
  /// What the client has not seen: changes or a snapshot, with the new checkpoint.
  public var changePack: WireChangePack?
  /// The largest size the document may have, in bytes; 0 for no limit.
  public var maxSizePerDocument: Int32
  /// The rules of the document's schema, which the client enforces on local edits.
  public var schemaRules: [WireRule]
  /// Whether the server attached the document without presence.
  public var disablePresence: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(documentID: String = "", changePack: WireChangePack? = nil, maxSizePerDocument: Int32 = 0, schemaRules: [WireRule] = [], disablePresence: Bool = false) {
    self.documentID = documentID
    self.changePack = changePack
    self.maxSizePerDocument = maxSizePerDocument
    self.schemaRules = schemaRules
    self.disablePresence = disablePresence
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), changePack: try r.message("changePack"), maxSizePerDocument: try r.int32("maxSizePerDocument"), schemaRules: try r.repeated("schemaRules"), disablePresence: try r.bool("disablePresence"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.int32("maxSizePerDocument", maxSizePerDocument)
    w.repeated("schemaRules", schemaRules)
    w.bool("disablePresence", disablePresence)
  }
}

/// `yorkie.v1.Rule`: one rule of a document's schema, which the client enforces.
public struct WireRule: WireMessage, ProtoJSONMessage {
  /// The path of the value the rule constrains (`$.title`).
  public var path: String
  /// The type that value must have, as the schema spells it (`string`, `yorkie.Text`, …).
  public var type: String
  /// The node rules, for a Tree value.
  public var treeNodes: [WireTreeNodeRule]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(path: String = "", type: String = "", treeNodes: [WireTreeNodeRule] = []) {
    self.path = path
    self.type = type
    self.treeNodes = treeNodes
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(path: try r.string("path"), type: try r.string("type"), treeNodes: try r.repeated("treeNodes"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("path", path)
    w.string("type", type)
    w.repeated("treeNodes", treeNodes)
  }
}

/// `yorkie.v1.TreeNodeRule`: what a Tree node of one type may hold.
public struct WireTreeNodeRule: WireMessage, ProtoJSONMessage {
  /// The node type the rule is about.
  public var nodeType: String
  /// The content expression allowed inside the node.
  public var content: String
  /// The marks allowed on the node.
  public var marks: String
  /// The groups the node belongs to.
  public var group: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(nodeType: String = "", content: String = "", marks: String = "", group: String = "") {
    self.nodeType = nodeType
    self.content = content
    self.marks = marks
    self.group = group
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(nodeType: try r.string("nodeType"), content: try r.string("content"), marks: try r.string("marks"), group: try r.string("group"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("nodeType", nodeType)
    w.string("content", content)
    w.string("marks", marks)
    w.string("group", group)
  }
}

/// The request of `DetachDocument`: stop syncing a document, sending the last local changes.
public struct DetachDocumentRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The client's local changes, checkpoint and version vector (``WireChangePack/init(_:)`` makes one from a `ChangePack`).
  public var changePack: WireChangePack?
  /// Whether to remove the document when no other client has it attached.
  public var removeIfNotAttached: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil, removeIfNotAttached: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
    self.removeIfNotAttached = removeIfNotAttached
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"), removeIfNotAttached: try r.bool("removeIfNotAttached"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.bool("removeIfNotAttached", removeIfNotAttached)
  }
}

/// The response of `DetachDocument`.
public struct DetachDocumentResponse: WireMessage, ProtoJSONMessage {
  /// The server's answer to the pushed changes: the new checkpoint.
  public var changePack: WireChangePack?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("changePack", changePack)
  }
}

/// The request of `RemoveDocument`: remove a document for every client.
public struct RemoveDocumentRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The client's local changes, checkpoint and version vector (``WireChangePack/init(_:)`` makes one from a `ChangePack`).
  public var changePack: WireChangePack?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
  }
}

/// The response of `RemoveDocument`.
public struct RemoveDocumentResponse: WireMessage, ProtoJSONMessage {
  /// The server's answer: the new checkpoint, with `isRemoved` set.
  public var changePack: WireChangePack?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("changePack", changePack)
  }
}

/// The request of `PushPullChanges`: send local changes and receive the others'.
public struct PushPullChangesRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The client's local changes, checkpoint and version vector (``WireChangePack/init(_:)`` makes one from a `ChangePack`).
  public var changePack: WireChangePack?
  /// Whether to push without pulling.
  public var pushOnly: Bool
  /// Whether the server should skip garbage collection for this client's document.
  public var disableGC: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil, pushOnly: Bool = false, disableGC: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
    self.pushOnly = pushOnly
    self.disableGC = disableGC
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"), pushOnly: try r.bool("pushOnly"), disableGC: try r.bool("disableGc"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.bool("pushOnly", pushOnly)
    w.bool("disableGc", disableGC)
  }
}

/// The response of `PushPullChanges`: the changes the client has not seen.
public struct PushPullChangesResponse: WireMessage, ProtoJSONMessage {
  /// What the client has not seen: changes or a snapshot, with the new checkpoint and the minimum synced version vector.
  public var changePack: WireChangePack?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("changePack", changePack)
  }
}
