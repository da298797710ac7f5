import CRDT
import Foundation
import YorkieProtocol

/// The bytes of ``JournalRecord``s in the data directory's log: one log record per service step,
/// holding that step's records as JSON, so that a step is replayed whole or (cut off by a crash
/// before it was acknowledged) not at all.
///
/// ```
/// {"records":[{"t":"changes","doc":"<hex>","changes":[<WireChange JSON>…]},
///             {"t":"view","client":"<hex>","doc":"<hex>","status":"attached","serverSeq":"7","clientSeq":3,"vv":{"set":{…}}}]}
/// ```
///
/// Changes are stored in Yorkie's protobuf JSON (what clients pull), ids as hex, snapshots as
/// base64. A record the codec cannot read stops the start with the step's position. Members it
/// does not know are skipped: journals of older builds carry an `"unmaterializable"` member in
/// their `changes` records (from when the server could not read trees), which means nothing now.
enum JournalCodec {
  /// The payload of one step.
  static func encode(_ records: [JournalRecord]) -> [UInt8] {
    WireJSON.object([.init("records", .array(records.map(encode)))]).bytes
  }

  /// The records of one step's payload.
  static func decode(_ payload: [UInt8]) throws(YorkieError) -> [JournalRecord] {
    let json = try WireJSON.parse(payload)
    guard case .array(let items)? = json["records"] else {
      throw YorkieError(.invalidWireData, "a journal entry has no records")
    }
    var records: [JournalRecord] = []
    records.reserveCapacity(items.count)
    for (index, item) in items.enumerated() { records.append(try decode(item, path: "records[\(index)]")) }
    return records
  }

  /// One record as JSON.
  private static func encode(_ record: JournalRecord) -> WireJSON {
    var w = ProtoJSONWriter()
    switch record {
    case .clientActivated(let id, let key, let project, let metadata):
      w.string("t", "client+")
      w.string("id", id.hex)
      w.string("key", key)
      w.string("project", project)
      w.stringMap("metadata", metadata)
    case .clientDeactivated(let id):
      w.string("t", "client-")
      w.string("id", id.hex)
    case .documentCreated(let id, let key, let project, let disablePresence):
      w.string("t", "doc+")
      w.string("id", id.hex)
      w.string("key", key)
      w.string("project", project)
      w.bool("disablePresence", disablePresence)
    case .documentRemoved(let id):
      w.string("t", "doc-")
      w.string("id", id.hex)
    case .changesStored(let document, let changes):
      w.string("t", "changes")
      w.string("doc", document.hex)
      w.repeated("changes", changes)
    case .clientDocumentUpdated(let client, let document, let info, let vector):
      w.string("t", "view")
      w.string("client", client.hex)
      w.string("doc", document.hex)
      w.string("status", info.status.rawValue)
      w.int64("serverSeq", info.serverSeq)
      w.uint32("clientSeq", info.clientSeq)
      switch vector {
      case .unchanged: break
      case .deleted: w.raw("vv", .string("deleted"))
      case .set(let entries):
        var inner = ProtoJSONWriter()
        inner.int64Map("set", entries)
        w.raw("vv", inner.json)
      }
    case .snapshotStored(let document, let serverSeq, let data, let vector):
      w.string("t", "snapshot")
      w.string("doc", document.hex)
      w.int64("serverSeq", serverSeq)
      w.bytes("data", Data(data))
      w.int64Map("vv", vector)
    }
    return w.json
  }

  /// One record from JSON.
  private static func decode(_ json: WireJSON, path: String) throws(YorkieError) -> JournalRecord {
    let r = try ProtoJSONReader(json, path: path)
    func id(_ name: String) throws(YorkieError) -> ResourceID {
      let text = try r.string(name)
      guard let id = ResourceID(hex: text) else { throw YorkieError(.invalidWireData, "\(path).\(name): not an id: \(text)") }
      return id
    }
    switch try r.string("t") {
    case "client+":
      return .clientActivated(id: try id("id"), key: try r.string("key"), project: try r.string("project"), metadata: try r.stringMap("metadata"))
    case "client-":
      return .clientDeactivated(id: try id("id"))
    case "doc+":
      return .documentCreated(id: try id("id"), key: try r.string("key"), project: try r.string("project"), disablePresence: try r.bool("disablePresence"))
    case "doc-":
      return .documentRemoved(id: try id("id"))
    case "changes":
      return .changesStored(document: try id("doc"), changes: try r.repeated("changes", WireChange.self))
    case "view":
      let statusText = try r.string("status")
      guard let status = AttachmentStatus(rawValue: statusText) else {
        throw YorkieError(.invalidWireData, "\(path).status: unknown status \(statusText)")
      }
      let info = ClientDocumentInfo(status: status, serverSeq: try r.int64("serverSeq"), clientSeq: try r.uint32("clientSeq"))
      var vector = VersionVectorRowChange.unchanged
      switch r.value("vv") {
      case nil: break
      case .string("deleted"): vector = .deleted
      case let nested?: vector = .set(try ProtoJSONReader(nested, path: path + ".vv").int64Map("set"))
      }
      return .clientDocumentUpdated(client: try id("client"), document: try id("doc"), info: info, versionVector: vector)
    case "snapshot":
      return .snapshotStored(document: try id("doc"), serverSeq: try r.int64("serverSeq"), data: Array(try r.bytes("data")), versionVector: try r.int64Map("vv"))
    case let other:
      throw YorkieError(.invalidWireData, "\(path).t: unknown record type \(other)")
    }
  }
}
