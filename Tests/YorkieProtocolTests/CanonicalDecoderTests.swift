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
  /// made by real edits.
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
    for (index, (text, canonicallyRead)) in variants.enumerated() {
      let bytes = Array(text.utf8)
      #expect(text != canonical, "variant \(index) changes nothing")
      #expect(RPCCodec.disagreement(PushPullChangesRequest.self, bytes) == nil, "\(text.prefix(200))")
      #expect(readsCanonically(PushPullChangesRequest.self, bytes) == canonicallyRead, "variant \(index): \(text.prefix(200))")
    }
  }
}
