import Foundation

/// A tree as Yorkie's binary `JSONElement.Tree` carries it: its nodes in post order (root last)
/// and the element's own tickets.
package struct DecodedTree: Equatable, Sendable {
  /// The nodes, checked by ``TreeNodeRecord/checkPostOrder(_:seen:)``.
  package var records: [TreeNodeRecord]
  /// The tree element's created, moved and removed tickets.
  package var meta: ElementSnapshot.Meta

  /// Creates a tree description.
  package init(records: [TreeNodeRecord], meta: ElementSnapshot.Meta) {
    self.records = records
    self.meta = meta
  }
}

/// Yorkie's binary `JSONElement.Tree` (JSONElement field 7) and its `TreeNode`s, written as the
/// Go SDK writes them: fields in number order, defaults omitted, attributes in record order.
///
/// Decoding checks everything the tree relies on and names the failing field in
/// ``YorkieError/field`` as a path below the JSONElement (`tree.nodes[3].depth`), with code
/// ``YorkieError/Code/invalidWireData`` like the rest of ``ElementCodec``.
package enum TreeCodec {
  /// The JSONElement oneof member that holds a tree.
  package static let jsonElementField = 7

  // MARK: Encoding

  /// Writes the `tree` member of a JSONElement (the body of a JSONElement message).
  package static func encodeTree(_ tree: DecodedTree, into w: inout ProtoWriter) {
    w.message(jsonElementField) { w in
      for record in tree.records { w.message(1) { encodeNode(record, into: &$0) } }
      w.ticket(2, tree.meta.createdAt)
      w.ticket(3, tree.meta.movedAt)
      w.ticket(4, tree.meta.removedAt)
    }
  }

  /// A whole JSONElement holding `tree`: the payload of a `VALUE_TYPE_TREE` value.
  package static func jsonElementData(_ tree: DecodedTree) -> Data {
    var writer = ProtoWriter(capacity: 64 + 48 * tree.records.count)
    encodeTree(tree, into: &writer)
    return writer.data
  }

  /// Writes one `TreeNode` message body.
  package static func encodeNode(_ record: TreeNodeRecord, into w: inout ProtoWriter) {
    w.message(1) { record.id.encode(into: &$0) }
    w.string(2, record.type)
    w.string(3, record.value)
    w.ticket(4, record.removedAt)
    if let insPrev = record.insPrevID { w.message(5) { insPrev.encode(into: &$0) } }
    if let insNext = record.insNextID { w.message(6) { insNext.encode(into: &$0) } }
    w.int32(7, record.depth)
    for attribute in record.attributes {
      // A map entry: key #1, NodeAttr #2 (value, updated_at, is_removed).
      w.message(8) { w in
        w.string(1, attribute.key)
        w.message(2) { w in
          w.string(1, attribute.value)
          w.ticket(2, attribute.updatedAt)
          w.bool(3, attribute.isRemoved)
        }
      }
    }
    if let mergedFrom = record.mergedFrom { w.message(9) { mergedFrom.encode(into: &$0) } }
    w.ticket(10, record.mergedAt)
  }

  // MARK: Decoding

  /// Decodes a whole JSONElement that must hold a tree (a `VALUE_TYPE_TREE` payload).
  package static func decodeTree(jsonElementData data: Data) throws -> DecodedTree {
    try ProtoReader.withReader(data, context: "JSONElement") { r in
      var tree: DecodedTree?
      while let (field, type) = try r.nextField() {
        guard (1...7).contains(field), field != 4 else {
          try r.skip(type)
          continue
        }
        guard field == jsonElementField else { throw invalid("tree", "the JSONElement holds another kind of element (field \(field))") }
        guard tree == nil else { throw invalid("tree", "the JSONElement sets its tree twice") }
        try r.expect(type, .lengthDelimited, field: field)
        var body = try r.message()
        tree = try decodeTreeBody(&body)
      }
      guard let tree else { throw invalid("tree", "is required") }
      return tree
    }
  }

  /// Reads a `JSONElement.Tree` message body (what ``ElementCodec`` finds in field 7).
  package static func decodeTreeBody(_ r: inout ProtoReader) throws -> DecodedTree {
    var records: [TreeNodeRecord] = []
    let meta = try readTree(&r) { record in records.append(record) }
    var seen = Set<TreeNodeID>(minimumCapacity: records.count)
    do {
      try TreeNodeRecord.checkPostOrder(records, seen: &seen)
    } catch {
      throw invalid(error.path(in: "tree.nodes"), error.reason)
    }
    return DecodedTree(records: records, meta: meta)
  }

  /// Reads a `JSONElement.Tree` message body straight into a tree (a snapshot's tree), with
  /// its garbage (``CRDTTree/gcPairs()``): each node goes to a ``TreeLoader`` as it is decoded,
  /// which checks the list rules of ``decodeTreeBody(_:)`` (the same defects, named by the same
  /// fields) while building, so no list of records is kept and no identity is hashed twice.
  ///
  /// - Throws: `invalidWireData` naming the field as ``decodeTreeBody(_:)`` does;
  ///   `invalidTreeContent` for an empty text or a text root.
  package static func decodeTreeElement(_ r: inout ProtoReader) throws -> (tree: CRDTTree, garbage: [TreeGCPair]) {
    var loader = TreeLoader(expectedCount: nodeCount(in: r))
    let meta = try readTree(&r) { record in
      do throws(TreeLoader.Failure) { try loader.add(record) } catch { throw wireError(error) }
    }
    let nodes: TreeLoader.Nodes
    do throws(TreeLoader.Failure) { nodes = try loader.finish() } catch { throw wireError(error) }
    let tree = CRDTTree(loaded: nodes, createdAt: meta.createdAt)
    tree.movedAt = meta.movedAt
    tree.removedAt = meta.removedAt
    return (tree, nodes.garbage)
  }

  /// The fields of a `JSONElement.Tree` body: each node (field 1) decoded and handed to `node`
  /// in order, the tickets returned. Shared by both decoders, so they name the same fields.
  ///
  /// - Throws: `invalidWireData` naming the field; what `node` throws.
  private static func readTree(_ r: inout ProtoReader, node: (TreeNodeRecord) throws -> Void) throws -> ElementSnapshot.Meta {
    var index = 0
    var createdAt: TimeTicket?
    var movedAt: TimeTicket?
    var removedAt: TimeTicket?
    while let (field, type) = try r.nextField() {
      switch field {
      case 1:
        let record = try located(nodePath(index)) {
          try r.expect(type, .lengthDelimited, field: field)
          var body = try r.message("TreeNode")
          return try decodeNode(&body, index: index)
        }
        try node(record)
        index += 1
      case 2: createdAt = try located("tree.createdAt") { try r.ticketField(type, field) }
      case 3: movedAt = try located("tree.movedAt") { try r.ticketField(type, field) }
      case 4: removedAt = try located("tree.removedAt") { try r.ticketField(type, field) }
      default: try r.skip(type)
      }
    }
    guard let createdAt else { throw invalid("tree.createdAt", "is required") }
    return ElementSnapshot.Meta(createdAt: createdAt, movedAt: movedAt, removedAt: removedAt)
  }

  /// A loader's refusal as the wire reports it: a list defect names its record's field (as
  /// ``decodeTreeBody(_:)`` does); a content error stays `invalidTreeContent`.
  private static func wireError(_ failure: TreeLoader.Failure) -> YorkieError {
    switch failure {
    case .list(let defect): invalid(defect.path(in: "tree.nodes"), defect.reason)
    case .content(let error): error
    }
  }

  /// The number of nodes (field 1) in a `JSONElement.Tree` body, for sizing; a malformed body
  /// counts what precedes the damage (decoding reports it).
  private static func nodeCount(in body: ProtoReader) -> Int {
    var scan = body
    var count = 0
    while let (field, type) = try? scan.nextField() {
      if field == 1 { count += 1 }
      guard (try? scan.skip(type)) != nil else { break }
    }
    return count
  }

  /// The path of node `index` in errors (built only for an error: a snapshot has many nodes).
  private static func nodePath(_ index: Int) -> String { "tree.nodes[\(index)]" }

  /// Reads one `TreeNode` message body; `index` (its place in the list) names it in errors.
  package static func decodeNode(_ r: inout ProtoReader, index: Int) throws -> TreeNodeRecord {
    func path() -> String { nodePath(index) }
    var id: TreeNodeID?
    var record = TreeNodeRecord(id: TreeNodeID(createdAt: .initial), type: "")
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: id = try located(path() + ".id") { try r.treeNodeIDField(type, field) }
      case 2: record.type = try located(path() + ".type") { try r.expect(type, .lengthDelimited, field: field); return try r.string() }
      case 3: record.value = try located(path() + ".value") { try r.expect(type, .lengthDelimited, field: field); return try r.string() }
      case 4: record.removedAt = try located(path() + ".removedAt") { try r.ticketField(type, field) }
      case 5: record.insPrevID = try located(path() + ".insPrevId") { try r.treeNodeIDField(type, field) }
      case 6: record.insNextID = try located(path() + ".insNextId") { try r.treeNodeIDField(type, field) }
      case 7: record.depth = try located(path() + ".depth") { try r.expect(type, .varint, field: field); return try r.int32() }
      case 8:
        let attributeIndex = record.attributes.count
        func attributePath() -> String { "\(path()).attributes[\(attributeIndex)]" }
        let attribute = try located(attributePath()) {
          try r.expect(type, .lengthDelimited, field: field)
          var entry = try r.message()
          return try decodeAttribute(&entry, path: attributePath)
        }
        record.attributes.append(attribute)
      case 9: record.mergedFrom = try located(path() + ".mergedFrom") { try r.treeNodeIDField(type, field) }
      case 10: record.mergedAt = try located(path() + ".mergedAt") { try r.ticketField(type, field) }
      default: try r.skip(type)
      }
    }
    guard let id else { throw invalid(path() + ".id", "is required") }
    record.id = id
    return record
  }

  /// A `map<string, NodeAttr>` entry; the NodeAttr must carry its `updatedAt`.
  private static func decodeAttribute(_ r: inout ProtoReader, path: () -> String) throws -> TreeAttributeRecord {
    var key = ""
    var value = ""
    var updatedAt: TimeTicket?
    var isRemoved = false
    var hasValue = false
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: try r.expect(type, .lengthDelimited, field: field); key = try r.string()
      case 2:
        try r.expect(type, .lengthDelimited, field: field)
        hasValue = true
        var attr = try r.message()
        while let (field, type) = try attr.nextField() {
          switch field {
          case 1: try attr.expect(type, .lengthDelimited, field: field); value = try attr.string()
          case 2: updatedAt = try attr.ticketField(type, field)
          case 3: try attr.expect(type, .varint, field: field); isRemoved = try attr.bool()
          default: try attr.skip(type)
          }
        }
      default: try r.skip(type)
      }
    }
    guard hasValue else { throw invalid(path(), "attribute \"\(key)\" has no NodeAttr") }
    guard let updatedAt else { throw invalid(path() + ".updatedAt", "attribute \"\(key)\" has no updatedAt") }
    return TreeAttributeRecord(key: key, value: value, updatedAt: updatedAt, isRemoved: isRemoved)
  }

  /// An `invalidWireData` error about `field` (a path below the JSONElement).
  private static func invalid(_ field: String, _ what: String) -> YorkieError {
    YorkieError(.invalidWireData, "JSONElement.\(field): \(what)", field: field)
  }

  /// Runs `body`; a reader error that names no field (a truncated varint, a bad actor) gets
  /// `field`, so every refusal says where it happened.
  private static func located<R>(_ field: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch let error as YorkieError where error.field == nil {
      let field = field()
      throw YorkieError(error.code, "JSONElement.\(field): \(error.message)", field: field, underlying: error)
    }
  }
}

extension TreeNodeID {
  /// Writes the ID as a `TreeNodeID` message body (offset omitted when 0).
  package func encode(into w: inout ProtoWriter) {
    w.ticket(1, createdAt)
    w.int32(2, offset)
  }

  /// Reads a `TreeNodeID` message body: `createdAt` is required, the offset must not be negative.
  package static func decode(_ r: inout ProtoReader) throws -> TreeNodeID {
    var createdAt: TimeTicket?
    var offset: Int32 = 0
    while let (field, type) = try r.nextField() {
      switch field {
      case 1: createdAt = try r.ticketField(type, field)
      case 2: try r.expect(type, .varint, field: field); offset = try r.int32()
      default: try r.skip(type)
      }
    }
    guard let createdAt else { throw r.error("a tree node id without createdAt") }
    guard offset >= 0 else { throw r.error("a tree node id with a negative offset (\(offset))") }
    return TreeNodeID(createdAt: createdAt, offset: offset)
  }
}

extension ProtoReader {
  /// A `TreeNodeID`-valued field.
  fileprivate mutating func treeNodeIDField(_ type: ProtoWireType, _ field: Int) throws -> TreeNodeID {
    try expect(type, .lengthDelimited, field: field)
    var body = try message("TreeNodeID")
    return try TreeNodeID.decode(&body)
  }
}
