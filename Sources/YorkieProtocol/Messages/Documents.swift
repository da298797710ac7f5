import CRDT
import Foundation

// Document messages of YorkieService (yorkie/v1/yorkie.proto): attach, detach, remove,
// push-pull, and the schema rules an attach answers with.

/// `AttachDocumentRequest`.
package struct AttachDocumentRequest: WireMessage {
  package var clientID: String
  package var changePack: WireChangePack?
  package var schemaKey: String
  package var disableGc: Bool
  package var disablePresence: Bool

  package init(clientID: String = "", changePack: WireChangePack? = nil, schemaKey: String = "", disableGc: Bool = false, disablePresence: Bool = false) {
    self.clientID = clientID
    self.changePack = changePack
    self.schemaKey = schemaKey
    self.disableGc = disableGc
    self.disablePresence = disablePresence
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), changePack: try r.message("changePack"), schemaKey: try r.string("schemaKey"), disableGc: try r.bool("disableGc"), disablePresence: try r.bool("disablePresence"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.message("changePack", changePack)
    w.string("schemaKey", schemaKey)
    w.bool("disableGc", disableGc)
    w.bool("disablePresence", disablePresence)
    return w.json
  }
}

/// `AttachDocumentResponse`.
package struct AttachDocumentResponse: WireMessage {
  package var documentID: String
  package var changePack: WireChangePack?
  package var maxSizePerDocument: Int32
  package var schemaRules: [WireRule]
  package var disablePresence: Bool

  package init(documentID: String = "", changePack: WireChangePack? = nil, maxSizePerDocument: Int32 = 0, schemaRules: [WireRule] = [], disablePresence: Bool = false) {
    self.documentID = documentID
    self.changePack = changePack
    self.maxSizePerDocument = maxSizePerDocument
    self.schemaRules = schemaRules
    self.disablePresence = disablePresence
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(documentID: try r.string("documentId"), changePack: try r.message("changePack"), maxSizePerDocument: try r.int32("maxSizePerDocument"), schemaRules: try r.repeated("schemaRules"), disablePresence: try r.bool("disablePresence"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.int32("maxSizePerDocument", maxSizePerDocument)
    w.repeated("schemaRules", schemaRules)
    w.bool("disablePresence", disablePresence)
    return w.json
  }
}

/// `Rule`: a schema rule the client validates.
package struct WireRule: WireMessage {
  package var path: String
  package var type: String
  package var treeNodes: [WireTreeNodeRule]

  package init(path: String = "", type: String = "", treeNodes: [WireTreeNodeRule] = []) {
    self.path = path
    self.type = type
    self.treeNodes = treeNodes
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(path: try r.string("path"), type: try r.string("type"), treeNodes: try r.repeated("treeNodes"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("path", path)
    w.string("type", type)
    w.repeated("treeNodes", treeNodes)
    return w.json
  }
}

/// `TreeNodeRule`.
package struct WireTreeNodeRule: WireMessage {
  package var nodeType: String
  package var content: String
  package var marks: String
  package var group: String

  package init(nodeType: String = "", content: String = "", marks: String = "", group: String = "") {
    self.nodeType = nodeType
    self.content = content
    self.marks = marks
    self.group = group
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(nodeType: try r.string("nodeType"), content: try r.string("content"), marks: try r.string("marks"), group: try r.string("group"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("nodeType", nodeType)
    w.string("content", content)
    w.string("marks", marks)
    w.string("group", group)
    return w.json
  }
}

/// `DetachDocumentRequest`.
package struct DetachDocumentRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var changePack: WireChangePack?
  package var removeIfNotAttached: Bool

  package init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil, removeIfNotAttached: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
    self.removeIfNotAttached = removeIfNotAttached
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"), removeIfNotAttached: try r.bool("removeIfNotAttached"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.bool("removeIfNotAttached", removeIfNotAttached)
    return w.json
  }
}

/// `DetachDocumentResponse`.
package struct DetachDocumentResponse: WireMessage {
  package var changePack: WireChangePack?

  package init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("changePack", changePack)
    return w.json
  }
}

/// `RemoveDocumentRequest`.
package struct RemoveDocumentRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var changePack: WireChangePack?

  package init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    return w.json
  }
}

/// `RemoveDocumentResponse`.
package struct RemoveDocumentResponse: WireMessage {
  package var changePack: WireChangePack?

  package init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("changePack", changePack)
    return w.json
  }
}

/// `PushPullChangesRequest`.
package struct PushPullChangesRequest: WireMessage {
  package var clientID: String
  package var documentID: String
  package var changePack: WireChangePack?
  package var pushOnly: Bool
  package var disableGc: Bool

  package init(clientID: String = "", documentID: String = "", changePack: WireChangePack? = nil, pushOnly: Bool = false, disableGc: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.changePack = changePack
    self.pushOnly = pushOnly
    self.disableGc = disableGc
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), changePack: try r.message("changePack"), pushOnly: try r.bool("pushOnly"), disableGc: try r.bool("disableGc"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.message("changePack", changePack)
    w.bool("pushOnly", pushOnly)
    w.bool("disableGc", disableGc)
    return w.json
  }
}

/// `PushPullChangesResponse`.
package struct PushPullChangesResponse: WireMessage {
  package var changePack: WireChangePack?

  package init(changePack: WireChangePack? = nil) {
    self.changePack = changePack
  }

  package init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(changePack: try r.message("changePack"))
  }

  package var json: WireJSON {
    var w = ProtoJSONWriter()
    w.message("changePack", changePack)
    return w.json
  }
}
