import CRDT
import Foundation

// Revision messages of YorkieService (yorkie/v1/yorkie.proto): labelled snapshots of a document.

/// `yorkie.v1.RevisionSummary`: a labelled snapshot of a document.
public struct WireRevisionSummary: WireMessage, ProtoJSONMessage {
  /// The revision's ID.
  public var id: String
  /// The revision's label.
  public var label: String
  /// What the revision is about.
  public var description: String
  /// The document's content at the revision, as YSON text.
  public var snapshot: String
  /// When the revision was made, as an RFC 3339 timestamp.
  public var createdAt: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(id: String = "", label: String = "", description: String = "", snapshot: String = "", createdAt: String = "") {
    self.id = id
    self.label = label
    self.description = description
    self.snapshot = snapshot
    self.createdAt = createdAt
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(id: try r.string("id"), label: try r.string("label"), description: try r.string("description"), snapshot: try r.string("snapshot"), createdAt: try r.string("createdAt"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("id", id)
    w.string("label", label)
    w.string("description", description)
    w.string("snapshot", snapshot)
    w.string("createdAt", createdAt)
  }
}

/// The request of `CreateRevision`: label the document's current state.
public struct CreateRevisionRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The revision's label.
  public var label: String
  /// What the revision is about.
  public var description: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", label: String = "", description: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.label = label
    self.description = description
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), label: try r.string("label"), description: try r.string("description"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("label", label)
    w.string("description", description)
  }
}

/// The response of `CreateRevision`.
public struct CreateRevisionResponse: WireMessage, ProtoJSONMessage {
  /// The revision.
  public var revision: WireRevisionSummary?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(revision: WireRevisionSummary? = nil) {
    self.revision = revision
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revision: try r.message("revision"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("revision", revision)
  }
}

/// The request of `GetRevision`.
public struct GetRevisionRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The revision's ID.
  public var revisionID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", revisionID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.revisionID = revisionID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), revisionID: try r.string("revisionId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("revisionId", revisionID)
  }
}

/// The response of `GetRevision`.
public struct GetRevisionResponse: WireMessage, ProtoJSONMessage {
  /// The revision.
  public var revision: WireRevisionSummary?

  /// Creates the message; an omitted field takes its protobuf default.
  public init(revision: WireRevisionSummary? = nil) {
    self.revision = revision
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revision: try r.message("revision"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.message("revision", revision)
  }
}

/// The request of `ListRevisions`: a page of a document's revisions.
public struct ListRevisionsRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// How many revisions to return at most; 0 for the server's default.
  public var pageSize: Int32
  /// How many revisions to skip.
  public var offset: Int32
  /// Whether to list oldest first.
  public var isForward: Bool

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", pageSize: Int32 = 0, offset: Int32 = 0, isForward: Bool = false) {
    self.clientID = clientID
    self.documentID = documentID
    self.pageSize = pageSize
    self.offset = offset
    self.isForward = isForward
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), pageSize: try r.int32("pageSize"), offset: try r.int32("offset"), isForward: try r.bool("isForward"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.int32("pageSize", pageSize)
    w.int32("offset", offset)
    w.bool("isForward", isForward)
  }
}

/// The response of `ListRevisions`.
public struct ListRevisionsResponse: WireMessage, ProtoJSONMessage {
  /// The revisions, in the requested order.
  public var revisions: [WireRevisionSummary]

  /// Creates the message; an omitted field takes its protobuf default.
  public init(revisions: [WireRevisionSummary] = []) {
    self.revisions = revisions
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(revisions: try r.repeated("revisions"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.repeated("revisions", revisions)
  }
}

/// The request of `RestoreRevision`: bring a document back to a revision.
public struct RestoreRevisionRequest: WireMessage, ProtoJSONMessage {
  /// The client's ID: 24 hex characters, from ``ActivateClientResponse/clientID``.
  public var clientID: String
  /// The document's ID: 24 hex characters, from ``AttachDocumentResponse/documentID``.
  public var documentID: String
  /// The revision's ID.
  public var revisionID: String

  /// Creates the message; an omitted field takes its protobuf default.
  public init(clientID: String = "", documentID: String = "", revisionID: String = "") {
    self.clientID = clientID
    self.documentID = documentID
    self.revisionID = revisionID
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    self.init(clientID: try r.string("clientId"), documentID: try r.string("documentId"), revisionID: try r.string("revisionId"))
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {
    w.string("clientId", clientID)
    w.string("documentId", documentID)
    w.string("revisionId", revisionID)
  }
}

/// The response of `RestoreRevision` (empty).
public struct RestoreRevisionResponse: WireMessage, ProtoJSONMessage {
  /// Creates the message; an omitted field takes its protobuf default.
  public init() {}

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    _ = try ProtoJSONReader(json, path: path)
  }

  /// The message in canonical JSON.
  public var json: WireJSON { protoJSON }

  package func writeFields(to w: inout ProtoJSONWriter) {}
}
