@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The wire side of Yorkie's Tree: the binary `JSONElement.Tree` of recorded traffic decoded to
/// exact records and written back byte for byte, TreeEdit/TreeStyle through their payloads, and
/// malformed input refused with the failing field named.
@Suite("Tree on the wire")
struct TreeWireTests {
  /// The Go writer of `08-attach-tree.json`.
  static let writer = try! ActorID(bytes: Data(base64Encoded: "awJjSX63Cjb0rDvN")!)

  func ticket(_ lamport: Int64, _ delimiter: UInt32) -> TimeTicket {
    TimeTicket(lamport: lamport, delimiter: delimiter, actorID: Self.writer)
  }

  func id(_ lamport: Int64, _ delimiter: UInt32, _ offset: Int32 = 0) -> TreeNodeID {
    TreeNodeID(createdAt: ticket(lamport, delimiter), offset: offset)
  }

  /// Every object member named `key` below `json`.
  func members(named key: String, in json: WireJSON) -> [WireJSON] {
    switch json {
    case .object(let members):
      return members.flatMap { $0.key == key ? [$0.value] : self.members(named: key, in: $0.value) }
    case .array(let items):
      return items.flatMap { members(named: key, in: $0) }
    default:
      return []
    }
  }

  /// Every JSONElementSimple of type VALUE_TYPE_TREE below `json`.
  func treeValues(in json: WireJSON) -> [WireJSON] {
    members(named: "value", in: json).filter { $0["type"]?.stringValue == "VALUE_TYPE_TREE" }
  }

  /// The tree the Go SDK set in `08-attach-tree.json`, as a JSONElementSimple.
  func recordedTreeValue() throws -> PBJSONElementSimple {
    let fixture = try Fixture.named("08-attach-tree.json")
    let values = treeValues(in: fixture.root)
    try #require(values.count == 1)
    return try PBJSONElementSimple(json: values[0], path: "value")
  }

  /// The field of the error `body` throws, failing when it does not throw `code`.
  func refusedField(_ code: YorkieError.Code = .invalidWireData, _ body: () throws -> Void) -> String? {
    do {
      try body()
      Issue.record("accepted")
      return nil
    } catch let error as YorkieError {
      #expect(error.code == code, "\(error)")
      return error.field
    } catch {
      Issue.record("not a YorkieError: \(error)")
      return nil
    }
  }

  // MARK: Binary

  @Test func recordedTreeDecodesToItsExactNodes() throws {
    let value = try recordedTreeValue()
    let tree = try TreeCodec.decodeTree(jsonElementData: value.value)
    let expected = [
      TreeNodeRecord(id: id(1, 3), type: "text", value: "Hello", depth: 2),
      TreeNodeRecord(id: id(1, 2), type: "p", depth: 1),
      TreeNodeRecord(id: id(1, 5), type: "text", value: "World", depth: 2),
      TreeNodeRecord(id: id(1, 4), type: "p", depth: 1,
                     attributes: [TreeAttributeRecord(key: "align", value: "\"left\"", updatedAt: ticket(1, 4))]),
      TreeNodeRecord(id: id(1, 1), type: "root", depth: 0),
    ]
    #expect(tree.records == expected)
    #expect(tree.meta == ElementSnapshot.Meta(createdAt: ticket(1, 1)))
    // The same through the value conversion the integrator plugs into ValueConversion.
    #expect(try value.treeModel("value") == tree)
  }

  @Test func everyRecordedTreeValueIsWrittenBackByteForByte() throws {
    var count = 0
    for fixture in try Fixture.all() {
      for json in treeValues(in: fixture.root) {
        let value = try PBJSONElementSimple(json: json, path: fixture.name)
        let tree = try value.treeModel(fixture.name)
        #expect(TreeCodec.jsonElementData(tree) == value.value, "\(fixture.name)")
        #expect(semanticallyEqual(PBJSONElementSimple(tree: tree).json, json), "\(fixture.name)")
        count += 1
      }
    }
    // 08's Set, and 12's Set as pushed and as pulled back.
    #expect(count == 3)
  }

  @Test func removedNodesSplitLinksMergesAndRemovedAttributesRoundTrip() throws {
    let tree = DecodedTree(records: [
      TreeNodeRecord(id: id(2, 1), type: "text", value: "ab", removedAt: ticket(5, 1), insNextID: id(2, 1, 2), depth: 2),
      TreeNodeRecord(id: id(2, 1, 2), type: "text", value: "c😀", insPrevID: id(2, 1), depth: 2, mergedFrom: id(3, 1), mergedAt: ticket(6, 1)),
      TreeNodeRecord(id: id(1, 2), type: "p", depth: 1, attributes: [
        TreeAttributeRecord(key: "z", value: "1", updatedAt: ticket(4, 1), isRemoved: true),
        TreeAttributeRecord(key: "a", value: "\"x\"", updatedAt: ticket(4, 2)),
      ]),
      TreeNodeRecord(id: id(1, 1), type: "root"),
    ], meta: ElementSnapshot.Meta(createdAt: ticket(1, 1), movedAt: ticket(7, 1), removedAt: ticket(8, 1)))
    let data = TreeCodec.jsonElementData(tree)
    let decoded = try TreeCodec.decodeTree(jsonElementData: data)
    #expect(decoded == tree)
    #expect(TreeCodec.jsonElementData(decoded) == data)
    // And through Connect JSON: attributes come back in key order (a map has none).
    var seen = Set<TreeNodeID>()
    let viaJSON = try PBTreeNodes(json: PBTreeNodes(tree.records).json, path: "nodes").model("nodes", seen: &seen)
    var sorted = tree.records
    sorted[2].attributes.reverse()
    #expect(viaJSON == sorted)
  }

  /// The recorded tree's records with `change` applied, encoded, then decoded as a Set value's
  /// tree (a list of records) and as a snapshot's tree (`ElementCodec`, straight into a
  /// `TreeLoader`), which must refuse it naming the same field.
  func decodeChanged(_ change: (inout [TreeNodeRecord]) -> Void) throws -> String? {
    var tree = try TreeCodec.decodeTree(jsonElementData: try recordedTreeValue().value)
    change(&tree.records)
    let data = TreeCodec.jsonElementData(tree)
    let field = refusedField { _ = try TreeCodec.decodeTree(jsonElementData: data) }
    #expect(refusedField { _ = try ElementCodec.decode(data) } == field)
    return field
  }

  @Test func malformedBinaryTreesAreRefusedNamingTheField() throws {
    #expect(try decodeChanged { $0.removeAll() } == "tree.nodes")
    #expect(try decodeChanged { $0[4].depth = 1 } == "tree.nodes[4].depth")  // no root at depth 0
    #expect(try decodeChanged { $0[0].depth = 0 } == "tree.nodes[0].depth")  // a second root
    #expect(try decodeChanged { $0[0].depth = 3 } == "tree.nodes[0].depth")  // two levels below its parent
    #expect(try decodeChanged { $0[0].depth = -1 } == "tree.nodes[0].depth")
    #expect(try decodeChanged { $0[1].depth = .max } == "tree.nodes[1].depth")  // not an overflow
    #expect(try decodeChanged { $0[1].type = "text" } == "tree.nodes[1].type")  // a text node with a child
    #expect(try decodeChanged { $0[3].type = "" } == "tree.nodes[3].type")
    #expect(try decodeChanged { $0[3].value = "x" } == "tree.nodes[3].value")  // an element with text
    #expect(try decodeChanged { $0[2].attributes = $0[3].attributes } == "tree.nodes[2].attributes")  // text with attributes
    #expect(try decodeChanged { $0[3].attributes += $0[3].attributes } == "tree.nodes[3].attributes")
    #expect(try decodeChanged { $0[2].id = $0[0].id } == "tree.nodes[2].id")
    #expect(try decodeChanged { $0[2].id.offset = -2 } == "tree.nodes[2].id")
    // The recorded tree itself passes, so each failure above is its own change's.
    _ = try TreeCodec.decodeTree(jsonElementData: try recordedTreeValue().value)
    _ = try ElementCodec.decode(try recordedTreeValue().value)
  }

  @Test func missingTicketsAndIDsInBinaryAreRefusedNamingTheField() {
    let created = ticket(1, 1)
    func element(_ body: (inout ProtoWriter) -> Void) -> Data {
      var w = ProtoWriter()
      w.message(7, body)
      return w.data
    }
    let noID = element { w in
      w.message(1) { $0.string(2, "root") }
      w.ticket(2, created)
    }
    #expect(refusedField { _ = try TreeCodec.decodeTree(jsonElementData: noID) } == "tree.nodes[0].id")
    let noCreatedAt = element { w in
      w.message(1) { w in
        w.message(1) { TreeNodeID(createdAt: created).encode(into: &$0) }
        w.string(2, "root")
      }
    }
    #expect(refusedField { _ = try TreeCodec.decodeTree(jsonElementData: noCreatedAt) } == "tree.createdAt")
    let undatedAttribute = element { w in
      w.message(1) { w in
        w.message(1) { TreeNodeID(createdAt: created).encode(into: &$0) }
        w.string(2, "root")
        w.message(8) { w in
          w.string(1, "a")
          w.message(2) { $0.string(1, "1") }
        }
      }
      w.ticket(2, created)
    }
    #expect(refusedField { _ = try TreeCodec.decodeTree(jsonElementData: undatedAttribute) } == "tree.nodes[0].attributes[0].updatedAt")
    let badActor = element { w in
      w.message(1) { w in
        w.message(1) { $0.message(1) { $0.bytes(3, [1, 2, 3]) } }
        w.string(2, "root")
      }
      w.ticket(2, created)
    }
    #expect(refusedField(.invalidActorID) { _ = try TreeCodec.decodeTree(jsonElementData: badActor) } == "tree.nodes[0].id")
    var text = ProtoWriter()
    text.message(5) { $0.ticket(2, created) }
    #expect(refusedField { _ = try TreeCodec.decodeTree(jsonElementData: text.data) } == "tree")
  }

  @Test func treeValuesAreCheckedAgainstTheirJSONElementSimple() throws {
    var value = try recordedTreeValue()
    value.createdAt = WireTimeTicket(ticket(9, 9))
    #expect(refusedField { _ = try value.treeModel("set.value") } == "set.value.value.tree.createdAt")
    value = try recordedTreeValue()
    value.value = Data()
    #expect(refusedField { _ = try value.treeModel("set.value") } == "set.value.value")
    var tree = try TreeCodec.decodeTree(jsonElementData: try recordedTreeValue().value)
    tree.records[0].depth = 5
    value = PBJSONElementSimple(tree: tree)
    #expect(refusedField { _ = try value.treeModel("set.value") } == "set.value.value.tree.nodes[0].depth")
  }

  // MARK: Connect JSON operations

  /// The recorded TreeEdit and TreeStyle messages of every fixture.
  func recordedOperations() throws -> (edits: [(String, WireJSON)], styles: [(String, WireJSON)]) {
    var edits: [(String, WireJSON)] = []
    var styles: [(String, WireJSON)] = []
    for fixture in try Fixture.all() {
      edits += members(named: "treeEdit", in: fixture.root).map { (fixture.name, $0) }
      styles += members(named: "treeStyle", in: fixture.root).map { (fixture.name, $0) }
    }
    return (edits, styles)
  }

  @Test func everyRecordedTreeOperationRoundTripsThroughItsPayload() throws {
    let (edits, styles) = try recordedOperations()
    #expect(edits.filter { $0.0 == "08-attach-tree.json" }.count == 5)
    #expect(styles.filter { $0.0 == "08-attach-tree.json" }.count == 2)
    #expect(edits.count == 9)
    #expect(styles.count == 6)
    for (name, json) in edits {
      let payload = try PBOperation.TreeEdit(json: json, path: name).model(name)
      let again = PBOperation.TreeEdit(payload)
      #expect(semanticallyEqual(again.json, json), "\(name): \(again.json.text)\nvs\n\(json.text)")
      #expect(try again.model(name) == payload)
      // Through the operation oneof as the wire carries it.
      guard case .treeEdit(let op) = try PBOperation(json: .object([.init("treeEdit", json)]), path: name) else {
        Issue.record("\(name): not a treeEdit")
        continue
      }
      #expect(try op.model(name) == payload)
    }
    for (name, json) in styles {
      let payload = try PBOperation.TreeStyle(json: json, path: name).model(name)
      let again = PBOperation.TreeStyle(payload)
      #expect(semanticallyEqual(again.json, json), "\(name): \(again.json.text)\nvs\n\(json.text)")
      #expect(try again.model(name) == payload)
    }
  }

  @Test func recordedEditsAndStylesHaveTheirExactPayloads() throws {
    let (edits, styles) = try recordedOperations()
    let tree = edits.filter { $0.0 == "08-attach-tree.json" }.map(\.1)
    let payloads = try tree.map { try PBOperation.TreeEdit(json: $0, path: "edit").model("edit") }
    // "insert element": <h1>Title</h1> at the start of the root.
    let insert = payloads[1]
    #expect(insert.from == CRDTTreePos(parentID: id(1, 1), leftSiblingID: id(1, 1)))
    #expect(insert.contents == [[
      TreeNodeRecord(id: id(3, 2), type: "text", value: "Title", depth: 1),
      TreeNodeRecord(id: id(3, 1), type: "h1"),
    ]])
    #expect(insert.executedAt == ticket(3, 2))
    // "split paragraph": one level, with the ticket the split issued.
    let split = payloads[3]
    #expect(split.splitLevel == 1)
    #expect(split.splitTickets == [ticket(7, 2)])
    #expect(split.from == CRDTTreePos(parentID: id(1, 2), leftSiblingID: id(1, 3, 4)))
    #expect(split.contents.isEmpty && split.restoreMode == .unspecified)
    let ownStyles = try styles.filter { $0.0 == "08-attach-tree.json" }.map { try PBOperation.TreeStyle(json: $0.1, path: "s").model("s") }
    #expect(ownStyles[0].attributes == ["align": "\"center\"", "bold": "true"])
    #expect(ownStyles[0].attributesToRemove.isEmpty)
    #expect(ownStyles[1].attributes.isEmpty && ownStyles[1].attributesToRemove == ["bold"])
    #expect(ownStyles[1].executedAt == ticket(6, 1))
  }

  @Test func restoreSpansRoundTrip() throws {
    let span = TreeRestoreSpanRecord(id: id(2, 1, 1), nodeType: "text", isText: true, length: 3, value: "a😀",
                                     attributes: [TreeAttributeRecord(key: "b", value: "true", updatedAt: ticket(3, 1))],
                                     parentID: id(1, 2), leftSiblingID: id(2, 1), rightSiblingID: nil)
    let element = TreeRestoreSpanRecord(id: id(4, 1), nodeType: "p", isText: false, length: 2)
    let edit = TreeEditPayload(parentCreatedAt: ticket(1, 1), from: CRDTTreePos(parentID: id(1, 1), leftSiblingID: id(1, 1)),
                               to: CRDTTreePos(parentID: id(1, 1), leftSiblingID: id(1, 2)), executedAt: ticket(9, 1),
                               restoreSpans: [span], restoreMode: .retombstone, retombstoneSpans: [element])
    let json = PBOperation.TreeEdit(edit).json
    #expect(json["restoreMode"]?.stringValue == "RESTORE_MODE_RETOMBSTONE")
    #expect(try PBOperation.TreeEdit(json: json, path: "e").model("e") == edit)
  }

  /// The recorded "insert element" edit (`<h1>Title</h1>`), to break.
  func insertElement() throws -> PBOperation.TreeEdit {
    let (edits, _) = try recordedOperations()
    return try PBOperation.TreeEdit(json: edits.filter { $0.0 == "08-attach-tree.json" }[1].1, path: "e")
  }

  func editField(code: YorkieError.Code = .invalidWireData, _ change: (inout PBOperation.TreeEdit) -> Void) throws -> String? {
    var edit = try insertElement()
    change(&edit)
    return refusedField(code) { _ = try edit.model("op.treeEdit") }
  }

  @Test func malformedTreeEditsAreRefusedNamingTheField() throws {
    let attribute = PBNodeAttr(value: "1", updatedAt: nil)
    let text = PBTreeNode(id: PBTreeNodeID(createdAt: WireTimeTicket(ticket(3, 5))), type: "text", value: "x", depth: 2)
    let cases: [(String, (inout PBOperation.TreeEdit) -> Void)] = [
      ("op.treeEdit.parentCreatedAt", { $0.parentCreatedAt = nil }),
      ("op.treeEdit.executedAt", { $0.executedAt = nil }),
      ("op.treeEdit.from", { $0.from = nil }),
      ("op.treeEdit.to.leftSiblingId", { $0.to?.leftSiblingID = nil }),
      ("op.treeEdit.from.parentId.createdAt", { $0.from?.parentID?.createdAt = nil }),
      ("op.treeEdit.from.parentId.offset", { $0.from?.parentID?.offset = -1 }),
      ("op.treeEdit.contents[0].content[0].id", { $0.contents[0].content[0].id = nil }),
      ("op.treeEdit.contents[0].content[1].depth", { $0.contents[0].content[1].depth = 1 }),
      ("op.treeEdit.contents[0].content[0].depth", { $0.contents[0].content[0].depth = 2 }),
      ("op.treeEdit.contents[0].content[0].depth", { $0.contents[0].content[0].depth = 0 }),
      ("op.treeEdit.contents[0].content[1].type", { $0.contents[0].content.insert(text, at: 0) }),
      ("op.treeEdit.contents[0].content[1].value", { $0.contents[0].content[1].value = "x" }),
      ("op.treeEdit.contents[0].content[0].attributes", {
        $0.contents[0].content[0].attributes = ["a": PBNodeAttr(value: "1", updatedAt: WireTimeTicket(self.ticket(3, 3)))]
      }),
      ("op.treeEdit.contents[0].content[1].attributes[\"a\"].updatedAt", { $0.contents[0].content[1].attributes = ["a": attribute] }),
      ("op.treeEdit.contents[0].content", { $0.contents[0].content = [] }),
      ("op.treeEdit.contents[1].content[0].id", { $0.contents.append($0.contents[0]) }),
      ("op.treeEdit.restoreMode", { $0.restoreMode = .restore }),
      ("op.treeEdit.restoreMode", { $0.restoreSpans = [PBTreeRestoreSpan(self.restoreSpan())] }),
      ("op.treeEdit.restoreSpans[0].id", {
        $0.restoreMode = .restore
        $0.restoreSpans = [PBTreeRestoreSpan(self.restoreSpan())]
        $0.restoreSpans[0].id = nil
      }),
      ("op.treeEdit.restoreSpans[0].length", {
        $0.restoreMode = .restore
        $0.restoreSpans = [PBTreeRestoreSpan(self.restoreSpan())]
        $0.restoreSpans[0].length = 4
      }),
      ("op.treeEdit.retombstoneSpans[0].isText", {
        $0.restoreMode = .retombstone
        $0.retombstoneSpans = [PBTreeRestoreSpan(self.restoreSpan())]
        $0.retombstoneSpans[0].nodeType = "p"
      }),
      ("op.treeEdit.restoreSpans[0].value", {
        $0.restoreMode = .restore
        $0.restoreSpans = [PBTreeRestoreSpan(TreeRestoreSpanRecord(id: self.id(4, 1), nodeType: "p", isText: false))]
        $0.restoreSpans[0].value = "x"
      }),
      ("op.treeEdit.restoreSpans[0].attributes[\"a\"].updatedAt", {
        $0.restoreMode = .restore
        $0.restoreSpans = [PBTreeRestoreSpan(self.restoreSpan())]
        $0.restoreSpans[0].attributes = ["a": attribute]
      }),
    ]
    for (field, change) in cases {
      #expect(try editField(change) == field, "case \(field)")
    }
    // Yorkie's server answers these two with codes of their own (ErrInvalidSplitLevel,
    // ErrInvalidActorID), so the model's errors carry distinct codes too.
    #expect(try editField(code: .invalidSplitLevel) { $0.splitLevel = -1 } == "op.treeEdit.splitLevel")
    #expect(try editField(code: .invalidActorID) { $0.splitTickets = [WireTimeTicket(lamport: 1, delimiter: 0, actorID: Data([1]))] }
      == "op.treeEdit.splitTickets[0].actorId")
    // The unbroken edit is accepted, so each failure above is its own change's.
    _ = try insertElement().model("op.treeEdit")
  }

  func restoreSpan() -> TreeRestoreSpanRecord {
    TreeRestoreSpanRecord(id: id(2, 1), nodeType: "text", isText: true, length: 2, value: "ab")
  }

  @Test func malformedTreeStylesAreRefusedNamingTheField() throws {
    let (_, styles) = try recordedOperations()
    let style = try PBOperation.TreeStyle(json: styles[0].1, path: "s")
    let cases: [(String, YorkieError.Code, (inout PBOperation.TreeStyle) -> Void)] = [
      ("op.treeStyle.parentCreatedAt", .invalidWireData, { $0.parentCreatedAt = nil }),
      ("op.treeStyle.executedAt.actorId", .invalidActorID, { $0.executedAt?.actorID = Data() }),
      ("op.treeStyle.from.leftSiblingId", .invalidWireData, { $0.from?.leftSiblingID = nil }),
      ("op.treeStyle.to", .invalidWireData, { $0.to = nil }),
    ]
    for (field, code, change) in cases {
      var broken = style
      change(&broken)
      #expect(refusedField(code) { _ = try broken.model("op.treeStyle") } == field)
    }
    _ = try style.model("op.treeStyle")
  }
}
