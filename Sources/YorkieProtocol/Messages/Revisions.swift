import CRDT
import Foundation

// Revision messages of YorkieService (yorkie/v1/yorkie.proto): labelled snapshots of a document.

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
