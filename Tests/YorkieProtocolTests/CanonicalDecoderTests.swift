import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The canonical decoder (CanonicalDecoder.swift) reads pushes and pulls straight from their
/// text: it must take canonical text (what the writer makes) and give the message back, and
/// for any other spelling either give what the tree gives or leave the text to the tree.
@Suite("Canonical decoder")
struct CanonicalDecoderTests {
  /// A pack with changes of every operation kind the decoder reads (and a presence change),
  /// made by real edits, tree edits and styles among them.
  func richPack() async throws -> WireChangePack {
    let doc = Document(key: "canonical")
    try await doc.setActor(try ActorID(hex: "0123456789abcdef01234567"))
    try await doc.update { root, presence in
      root["s"] = "quote \" backslash \\ newline \n tab \t é 日本 😀 \u{1}"
      root["n"] = .long(.min)
      root["b"] = .bytes(Data([0, 255]))
      let list = root.setNewArray("list")
      for i in 0..<4 { try list.append(.integer(Int32(i))) }
      try list.move(from: 0, to: 2)
      try list.remove(at: 1)
      try list.set("x", at: 0)
      let text = root.setNewText("text")
      _ = try text.edit(0, 0, "Hello, world", attributes: ["bold": true])
      _ = try text.edit(2, 5, "y\"z")
      try text.setStyle(0, 4, ["italic": true])
      try text.removeStyle(1, 2, keys: ["italic"])
      root.setNewCounter("c", .int(7)).increase(by: -9)
      root.remove("b")
      // <root><p align="left">ab</p></root>: insert text and an element, delete, split, style.
      let tree = root.setNewTree("tree", .element("root", children: [.element("p", attributes: ["align": "left"], children: [.text("ab")])]))
      try tree.edit(2, 2, [.text("c\"😀")])
      try tree.edit(0, 0, [.element("p", attributes: ["id": "x"], children: [.text("new")])])
      try tree.edit(1, 2, [])
      try tree.edit(6, 6, [], splitLevel: 1)
      try tree.style(0, 1, ["bold": true, "class": "\"lead\""])
      try tree.removeStyle(0, 1, keys: ["bold"])
      presence.set(["cursor": .integer(3), "name": "ä\"b"])
    }
    try await doc.update { root, _ in _ = try root.text("text")!.edit(0, 1, "") }
    try await doc.update { _, presence in presence.clear() }
    return WireChangePack(try await doc.createChangePack())
  }

  /// Whether `text` is read by the canonical decoder (rather than left to the tree).
  func readsCanonically<M: WireMessage>(_ type: M.Type, _ text: [UInt8]) -> Bool {
    WireJSONParser.decodeCanonical(type, text) != nil
  }

  @Test func canonicalTextIsReadBackExactly() async throws {
    let pack = try await richPack()
    var snapshotPack = pack
    snapshotPack.snapshot = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    snapshotPack.isRemoved = true
    snapshotPack.minSyncedTicket = WireTimeTicket(lamport: 3, delimiter: 1, actorID: Data(repeating: 1, count: 12))
    let request = PushPullChangesRequest(clientID: "c", documentID: "d", changePack: pack, pushOnly: true, disableGC: true)
    let attach = AttachDocumentRequest(clientID: "c", changePack: pack, schemaKey: "k", disableGC: true, disablePresence: true)
    let response = PushPullChangesResponse(changePack: snapshotPack)
    let attached = AttachDocumentResponse(documentID: "d", changePack: snapshotPack, maxSizePerDocument: -5, disablePresence: true)
    #expect(readsCanonically(PushPullChangesRequest.self, request.jsonBytes))
    #expect(try PushPullChangesRequest(jsonData: request.jsonBytes) == request)
    #expect(readsCanonically(AttachDocumentRequest.self, attach.jsonBytes))
    #expect(try AttachDocumentRequest(jsonData: attach.jsonBytes) == attach)
    #expect(readsCanonically(PushPullChangesResponse.self, response.jsonBytes))
    #expect(try PushPullChangesResponse(jsonData: response.jsonBytes) == response)
    #expect(readsCanonically(AttachDocumentResponse.self, attached.jsonBytes))
    #expect(try AttachDocumentResponse(jsonData: attached.jsonBytes) == attached)
    #expect(readsCanonically(PushPullChangesRequest.self, Array("{}".utf8)))
    // A client's stored entries: a change alone, a pack alone.
    for change in pack.changes {
      #expect(readsCanonically(WireChange.self, change.jsonBytes))
      #expect(try WireChange(jsonData: change.jsonBytes) == change)
      #expect(RPCCodec.disagreement(WireChange.self, change.jsonBytes) == nil)
    }
    #expect(readsCanonically(WireChangePack.self, snapshotPack.jsonBytes))
    #expect(try WireChangePack(jsonData: snapshotPack.jsonBytes) == snapshotPack)
    #expect(RPCCodec.disagreement(WireChangePack.self, snapshotPack.jsonBytes) == nil)
    // Other messages always go through the tree.
    #expect(!readsCanonically(ActivateClientRequest.self, Array("{}".utf8)))
  }

  @Test func otherSpellingsAgreeWithTheTree() async throws {
    let canonical = String(decoding: PushPullChangesRequest(clientID: "c", documentID: "d", changePack: try await richPack(), pushOnly: true).jsonBytes, as: UTF8.self)
    // Each variant is read by the decoder or left to the tree; both ways give the same
    // message or the same error.
    var variants: [(String, Bool)] = [  // (text, whether the decoder reads it)
      (canonical.replacingOccurrences(of: "{\"", with: "{ \"").replacingOccurrences(of: ",\"", with: " ,\n\t\"").replacingOccurrences(of: "\":", with: "\" :\r "), true),
      (canonical.replacingOccurrences(of: "\"lamport\":\"", with: "\"lamport\":\"+"), true),
      (canonical.replacingOccurrences(of: "\"clientSeq\":", with: "\"client_seq\":"), false),
      (canonical.replacingOccurrences(of: "\"documentId\":\"d\"", with: "\"documentId\":\"d\",\"documentId\":\"e\""), false),
      (canonical.replacingOccurrences(of: "\"documentId\":\"d\"", with: "\"documentId\":null"), false),
      (canonical.replacingOccurrences(of: "\"documentId\":\"d\"", with: "\"documentId\":\"d\",\"unknown\":[1,{\"a\":null}]"), false),
      (canonical.replacingOccurrences(of: "\"delimiter\":1,", with: "\"delimiter\":\"1\","), true),
      (canonical.replacingOccurrences(of: "\"delimiter\":1,", with: "\"delimiter\":1.0,"), false),
      (canonical.replacingOccurrences(of: "\"lamport\":\"1\"", with: "\"lamport\":1e0"), false),
      (canonical.replacingOccurrences(of: "CHANGE_TYPE_PUT", with: "1"), false),
      (canonical.replacingOccurrences(of: "VALUE_TYPE_", with: "VALUE_TYPO_"), false),
      (canonical.replacingOccurrences(of: "\"actorId\":\"ASNFZ4mrze8BI0Vn\"", with: "\"actorId\":\"ASNFZ4mrze8BI0Vn\\/\""), false),
      (canonical.replacingOccurrences(of: "\"actorId\":\"ASNFZ4mrze8BI0Vn\"", with: "\"actorId\":\"ASNFZ4mrze8BI0Vn=\""), false),
      (canonical.replacingOccurrences(of: "\"changes\":[", with: "\"changes\":[null,"), false),
      (canonical.replacingOccurrences(of: "\"pushOnly\":true", with: "\"pushOnly\":\"true\""), false),
      (canonical + " ", true),
      (canonical + "x", false),
      (String(canonical.dropLast()), false),
      ("", false),
      ("[]", false),
    ]
    variants.append((canonical.replacingOccurrences(of: "\"edit\":{", with: "\"edit\":{\"restoreMode\":\"RESTORE_MODE_RESTORE\","), false))
    // The tree edits and styles of the pack.
    variants += [
      (canonical.replacingOccurrences(of: "\"splitLevel\":1", with: "\"splitLevel\":\"1\""), true),
      (canonical.replacingOccurrences(of: "\"splitLevel\":1", with: "\"splitLevel\":1.0"), false),
      (canonical.replacingOccurrences(of: "\"parentId\":", with: "\"parent_id\":"), false),
      (canonical.replacingOccurrences(of: "\"treeEdit\":{", with: "\"treeEdit\":{\"restoreMode\":\"RESTORE_MODE_RESTORE\","), false),
      (canonical.replacingOccurrences(of: "\"treeStyle\":{", with: "\"treeStyle\":{\"attributesToRemove\":[\"a\"],"), false),
      (canonical.replacingOccurrences(of: "\"treeStyle\":{", with: "\"treeEdit\":{},\"treeStyle\":{"), false),
    ]
    expectVariants(PushPullChangesRequest.self, canonical, variants)
  }

  /// Checks that each variant of `canonical` differs from it, is read by the decoder exactly
  /// when its flag says so, and decodes both ways to the same message or the same error.
  func expectVariants<M: WireMessage>(_ type: M.Type, _ canonical: String, _ variants: [(String, Bool)],
                                      sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, (text, canonicallyRead)) in variants.enumerated() {
      let bytes = Array(text.utf8)
      #expect(text != canonical, "variant \(index) changes nothing", sourceLocation: sourceLocation)
      #expect(RPCCodec.disagreement(M.self, bytes) == nil, "\(text.prefix(200))", sourceLocation: sourceLocation)
      #expect(readsCanonically(M.self, bytes) == canonicallyRead, "variant \(index): \(text.prefix(200))", sourceLocation: sourceLocation)
    }
  }

  // MARK: Tree operations

  func ticket(_ lamport: Int64, _ delimiter: UInt32) -> WireTimeTicket {
    WireTimeTicket(lamport: lamport, delimiter: delimiter, actorID: Data(repeating: 7, count: 12))
  }

  func nodeID(_ lamport: Int64, _ offset: Int32) -> PBTreeNodeID {
    PBTreeNodeID(createdAt: ticket(lamport, 1), offset: offset)
  }

  /// A change with a tree edit and a tree style that set every field the decoder reads (the
  /// undo fields excepted), none to its default.
  func everyTreeField() -> WireChange {
    let node = PBTreeNode(
      id: nodeID(3, 2), type: "text", value: "a\"😀\\", removedAt: ticket(4, 1), insPrevID: nodeID(3, 1), insNextID: nodeID(3, 5), depth: 2,
      attributes: ["b": PBNodeAttr(value: "true", updatedAt: ticket(5, 1), isRemoved: true), "c": PBNodeAttr(value: "\"x\"", updatedAt: ticket(5, 2))],
      mergedFrom: nodeID(2, 4), mergedAt: ticket(6, 1))
    let from = PBTreePos(parentID: nodeID(1, 0), leftSiblingID: nodeID(1, 3))
    let to = PBTreePos(parentID: nodeID(1, 0), leftSiblingID: nodeID(2, 4))
    let edit = PBOperation.TreeEdit(
      parentCreatedAt: ticket(1, 1), from: from, to: to, createdAtMapByActor: ["AAAAAAAAAAAAAAAA": ticket(7, 1), "BwcH": ticket(7, 2)],
      contents: [PBTreeNodes(content: [node, PBTreeNode(id: nodeID(3, 0), type: "p", depth: 1)]), PBTreeNodes(content: [node])],
      executedAt: ticket(8, 1), splitLevel: 2, splitTickets: [ticket(8, 2), ticket(8, 3)])
    let style = PBOperation.TreeStyle(
      parentCreatedAt: ticket(1, 1), from: from, to: to, attributes: ["bold": "true", "k": "\"v\""], executedAt: ticket(9, 1),
      attributesToRemove: ["i", "u"], createdAtMapByActor: ["AAAAAAAAAAAAAAAA": ticket(9, 2)])
    return WireChange(message: "tree", operations: [.treeEdit(edit), .treeStyle(style)])
  }

  @Test func everyTreeOperationFieldIsReadBackExactly() throws {
    let change = everyTreeField()
    let text = String(decoding: change.jsonBytes, as: UTF8.self)
    // The text carries every field, so that each is read (not left to its default).
    let names = [
      "treeEdit", "treeStyle", "parentCreatedAt", "from", "to", "parentId", "leftSiblingId", "createdAt", "offset", "createdAtMapByActor",
      "contents", "content", "id", "type", "value", "removedAt", "insPrevId", "insNextId", "depth", "attributes", "updatedAt", "isRemoved",
      "mergedFrom", "mergedAt", "executedAt", "splitLevel", "splitTickets", "attributesToRemove",
    ]
    for name in names { #expect(text.contains("\"\(name)\":"), "\(name) is not written") }
    #expect(readsCanonically(WireChange.self, change.jsonBytes))
    #expect(try WireChange(jsonData: change.jsonBytes) == change)
    #expect(RPCCodec.disagreement(WireChange.self, change.jsonBytes) == nil)
    let pack = WireChangePack(documentKey: "k", changes: [change])
    let request = PushPullChangesRequest(clientID: "c", documentID: "d", changePack: pack)
    #expect(readsCanonically(PushPullChangesRequest.self, request.jsonBytes))
    #expect(try PushPullChangesRequest(jsonData: request.jsonBytes) == request)
  }

  @Test func otherSpellingsOfTreeOperationsAgreeWithTheTree() {
    let canonical = String(decoding: everyTreeField().jsonBytes, as: UTF8.self)
    let variants: [(String, Bool)] = [  // (text, whether the decoder reads it)
      (canonical.replacingOccurrences(of: "{\"", with: "{ \"").replacingOccurrences(of: ",\"", with: " ,\n\t\"").replacingOccurrences(of: "\":", with: "\" :\r "), true),
      (canonical.replacingOccurrences(of: "\"splitLevel\":2", with: "\"splitLevel\":\"2\""), true),
      (canonical.replacingOccurrences(of: "\"depth\":2", with: "\"depth\":\"-2\""), true),
      (canonical.replacingOccurrences(of: "\"offset\":3", with: "\"offset\":-3"), true),
      (canonical.replacingOccurrences(of: "\"contents\":[", with: "\"contents\":[{},{\"content\":[]},"), true),
      (canonical.replacingOccurrences(of: "\"attributes\":{\"b\"", with: "\"attributes\":{\"a\":{},\"b\""), true),
      (canonical.replacingOccurrences(of: "\"splitLevel\":2", with: "\"splitLevel\":2e0"), false),
      (canonical.replacingOccurrences(of: "\"splitLevel\":2", with: "\"splitLevel\":2147483648"), false),
      (canonical.replacingOccurrences(of: "\"depth\":2", with: "\"depth\":2,\"depth\":3"), false),
      (canonical.replacingOccurrences(of: "\"isRemoved\":true", with: "\"isRemoved\":\"true\""), false),
      (canonical.replacingOccurrences(of: "\"attributes\":{\"b\"", with: "\"attributes\":{\"c\":{},\"b\""), false),
      (canonical.replacingOccurrences(of: "\"insPrevId\":", with: "\"ins_prev_id\":"), false),
      (canonical.replacingOccurrences(of: "\"mergedAt\":", with: "\"mergedAt\":null,\"x\":"), false),
      (canonical.replacingOccurrences(of: "\"splitTickets\":[", with: "\"splitTickets\":[null,"), false),
      (canonical.replacingOccurrences(of: "\"content\":[", with: "\"content\":[null,"), false),
      (canonical.replacingOccurrences(of: "\"mergedFrom\":{", with: "\"mergedFrom\":{\"offset\":1,"), false),
      (canonical.replacingOccurrences(of: "\"treeEdit\":{", with: "\"treeEdit\":{\"restoreSpans\":[],"), false),
      (canonical.replacingOccurrences(of: "\"treeEdit\":{", with: "\"treeEdit\":{\"retombstoneSpans\":[{}],"), false),
      (canonical.replacingOccurrences(of: "\"treeEdit\":{", with: "\"treeEdit\":{\"restoreMode\":\"RESTORE_MODE_RETOMBSTONE\","), false),
      (canonical.replacingOccurrences(of: "\"treeStyle\":{", with: "\"treeStyle\":{\"createdAtMapByActor\":{},"), false),
      (canonical.replacingOccurrences(of: "\"attributesToRemove\":[\"i\"", with: "\"attributesToRemove\":[1"), false),
    ]
    expectVariants(WireChange.self, canonical, variants)
  }

  /// Mutates the change of ``everyTreeField()`` (a digit changed, which keeps the text
  /// canonical, or a byte changed, inserted, deleted, or a fragment repeated) and decodes each
  /// mutant both ways: the same message or the same error. Seeded; the seed is printed.
  @Test func mutatedTreeOperationsAgreeWithTheTree() {
    let seed: UInt64 = 20_261_127
    print("mutatedTreeOperationsAgreeWithTheTree: seed \(seed)")
    var random = SplitMix(seed: seed)
    let original = everyTreeField().jsonBytes
    let digits = Array("0123456789".utf8)
    let alphabet = Array("{}[]\",:0-e\\u ".utf8)
    var read = 0
    var bailed = 0
    for iteration in 0..<3000 {
      var bytes = original
      for _ in 0..<(1 + Int(random.next() % 3)) where !bytes.isEmpty {
        let at = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 5 {
        case 0, 1:
          guard let digit = bytes[at...].firstIndex(where: { digits.contains($0) }) else { break }
          bytes[digit] = digits[Int(random.next() % 10)]
        case 2: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        case 3: bytes.remove(at: at)
        default:
          let end = min(bytes.count, at + Int(random.next() % 40))
          bytes.insert(contentsOf: bytes[at..<end], at: at)
        }
      }
      if readsCanonically(WireChange.self, bytes) { read += 1 } else { bailed += 1 }
      if let difference = RPCCodec.disagreement(WireChange.self, bytes) {
        Issue.record("seed \(seed), iteration \(iteration): \(difference): \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    // Both ways were taken, often.
    #expect(read > 300, "seed \(seed)")
    #expect(bailed > 300, "seed \(seed)")
  }

  /// Whether `body`, one side of a recorded exchange, is read by the canonical decoder and
  /// decodes to what the tree gives; nil for a message the decoder does not read.
  func readsRecordedCanonically(_ rpc: String, request: Bool, _ body: [UInt8]) -> Bool? {
    func check<M: WireMessage>(_ type: M.Type) -> Bool {
      readsCanonically(M.self, body) && RPCCodec.disagreement(M.self, body) == nil
    }
    switch (rpc, request) {
    case ("PushPullChanges", true): return check(PushPullChangesRequest.self)
    case ("PushPullChanges", false): return check(PushPullChangesResponse.self)
    case ("AttachDocument", true): return check(AttachDocumentRequest.self)
    case ("AttachDocument", false): return check(AttachDocumentResponse.self)
    default: return nil
    }
  }

  @Test func recordedTreeTrafficIsReadCanonically() throws {
    var messages = 0
    var operations = 0
    for name in ["08-attach-tree.json", "12-pushpull-handmade.json"] {
      for (index, exchange) in try Fixture.named(name).exchanges.enumerated() {
        for (side, isRequest) in [("request", true), ("response", false)] {
          guard let body = exchange[side], case .object = body else { continue }
          let bytes = body.bytes
          let text = String(decoding: bytes, as: UTF8.self)
          guard text.contains("\"treeEdit\":") || text.contains("\"treeStyle\":") else { continue }
          let rpc = exchange["rpc"]?.stringValue ?? "?"
          #expect(readsRecordedCanonically(rpc, request: isRequest, bytes) == true, "\(name)#\(index) \(side) is left to the tree")
          messages += 1
          operations += text.components(separatedBy: "\"treeEdit\":").count - 1 + text.components(separatedBy: "\"treeStyle\":").count - 1
        }
      }
    }
    // 08's attach response, 12's push and its attach response; their edits and styles.
    #expect(messages == 3)
    #expect(operations == 15)
  }
}
