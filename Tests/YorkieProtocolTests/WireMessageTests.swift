@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The hand-written examples of yorkie-protocol.md (exact bytes), round trips of every
/// operation kind through Connect-JSON, and conversion to and from the model.
@Suite("Wire messages")
struct WireMessageTests {
  let client = try! ActorID(hex: "66c1f0a2b7e4d93a1c2e4f10")

  // MARK: Golden examples (yorkie-protocol.md 2.5)

  @Test func pushPullExampleDecodesToTheChangeItDescribes() async throws {
    let body = """
      {"clientId":"66c1f0a2b7e4d93a1c2e4f10",
       "documentId":"66c1f0a2b7e4d93a1c2e4f11",
       "changePack":{
         "documentKey":"my-doc",
         "checkpoint":{"serverSeq":"1","clientSeq":2},
         "changes":[{
           "id":{"clientSeq":2,"lamport":"1","actorId":"ZsHworfk2TocLk8Q",
                 "versionVector":{"vector":{"ZsHworfk2TocLk8Q":"1"}}},
           "operations":[{"set":{
              "parentCreatedAt":{"actorId":"AAAAAAAAAAAAAAAA"},
              "key":"title",
              "value":{"type":"VALUE_TYPE_STRING",
                       "createdAt":{"lamport":"1","delimiter":1,"actorId":"ZsHworfk2TocLk8Q"},
                       "value":"aGVsbG8="},
              "executedAt":{"lamport":"1","delimiter":1,"actorId":"ZsHworfk2TocLk8Q"}}}]}],
         "versionVector":{"vector":{"ZsHworfk2TocLk8Q":"1"}}}}
      """
    let request = try PushPullChangesRequest(jsonText: body)
    #expect(request.clientID == "66c1f0a2b7e4d93a1c2e4f10")
    let pack = try #require(request.changePack).model()
    #expect(pack.key == "my-doc")
    #expect(pack.checkpoint == Checkpoint(serverSeq: 1, clientSeq: 2))
    #expect(pack.versionVector == VersionVector([client: 1]))
    let ticket = TimeTicket(lamport: 1, delimiter: 1, actorID: client)
    let expected = Change(
      id: ChangeID(clientSeq: 2, lamport: 1, actorID: client, versionVector: VersionVector([client: 1])),
      operations: [.set(parentCreatedAt: .initial, key: "title", value: .primitive(.string("hello"), .init(createdAt: ticket)), executedAt: ticket)])
    #expect(pack.changes == [expected])
    // The same change, encoded by this SDK, is the example's change (semantically).
    let encoded = WireChange(expected).json
    let same = semanticallyEqual(encoded, try WireJSON.parse(body)["changePack"]!["changes"]!.arrayValue![0])
    #expect(same, "\(encoded.text)")
    // Applied, it sets the title.
    let doc = Document(key: "my-doc")
    try await doc.applyChangePack(pack)
    #expect(await doc.toJSON() == #"{"title":"hello"}"#)
  }

  @Test func errorExampleCarriesItsErrorInfo() throws {
    let body = """
      {"code":"failed_precondition",
       "message":"ensure attached 66c1f0a2b7e4d93a1c2e4f11 in client(66c1f0a2b7e4d93a1c2e4f10): document not attached",
       "details":[{"type":"google.rpc.ErrorInfo",
         "value":"ChNmYWlsZWRfcHJlY29uZGl0aW9uGh4KBGNvZGUSFkVyckRvY3VtZW50Tm90QXR0YWNoZWQ",
         "debug":{"reason":"failed_precondition","metadata":{"code":"ErrDocumentNotAttached"}}}]}
      """
    let error = try ConnectError(json: try WireJSON.parse(body))
    #expect(error.code == .failedPrecondition)
    #expect(error.code.httpStatus == 400)
    #expect(error.yorkieCode == "ErrDocumentNotAttached")
    let detail = try #require(error.details.first)
    #expect(Array(detail.value) == [0x0a, 0x13] + Array("failed_precondition".utf8) + [0x1a, 0x1e, 0x0a, 0x04] + Array("code".utf8)
      + [0x12, 0x16] + Array("ErrDocumentNotAttached".utf8))
    #expect(detail.errorInfo == ErrorInfo(reason: "failed_precondition", metadata: ["code": "ErrDocumentNotAttached"]))
    // Written back: the value is unpadded base64, byte for byte the example's.
    #expect(error.json["details"]?.arrayValue?.first?["value"] == .string("ChNmYWlsZWRfcHJlY29uZGl0aW9uGh4KBGNvZGUSFkVyckRvY3VtZW50Tm90QXR0YWNoZWQ"))
    #expect(ErrorInfo(reason: "failed_precondition", metadata: ["code": "ErrDocumentNotAttached"]).binary == detail.value)
  }

  @Test func watchExampleEnvelopesHaveTheirExactLengths() throws {
    let request = #"{"clientId":"66c1f0a2b7e4d93a1c2e4f10","resources":[{"document":{"documentId":"66c1f0a2b7e4d93a1c2e4f11"}}]}"#
    let watch = try WatchRequest(jsonText: request)
    #expect(watch.resources == [.document(WireDocumentResource(documentID: "66c1f0a2b7e4d93a1c2e4f11"))])
    #expect(Array(ConnectEnvelope(payload: watch.json.bytes).bytes.prefix(5)) == [0, 0, 0, 0, 0x6c])
    let frames: [(String, [UInt8])] = [
      (#"{"initialization":{"resourceInits":[{"documentInit":{"documentId":"66c1f0a2b7e4d93a1c2e4f11","clientIds":["66c1f0a2b7e4d93a1c2e4f10","66c1f0a2b7e4d93a1c2e4f12"]}}]}}"#, [0, 0, 0, 0, 0xa5]),
      (#"{"event":{"docEvent":{"documentId":"66c1f0a2b7e4d93a1c2e4f11","event":{"publisher":"66c1f0a2b7e4d93a1c2e4f12","body":{}}}}}"#, [0, 0, 0, 0, 0x7b]),
      (#"{"error":{"code":"canceled","message":"context canceled"}}"#, [2, 0, 0, 0, 0x3a]),
    ]
    var stream: [UInt8] = []
    for (json, header) in frames {
      let envelope = ConnectEnvelope(flags: .init(rawValue: header[0]), payload: Array(json.utf8))
      #expect(Array(envelope.bytes.prefix(5)) == header, "\(json)")
      stream += envelope.bytes
    }
    var decoder = ConnectEnvelopeDecoder()
    let envelopes = try decoder.feed(stream)
    try decoder.finish()
    #expect(envelopes.count == 3)
    let initialization = try WatchResponse(jsonData: envelopes[0].payload)
    #expect(initialization == .initialization([.document(WireDocumentInit(documentID: "66c1f0a2b7e4d93a1c2e4f11",
                                                                          clientIDs: ["66c1f0a2b7e4d93a1c2e4f10", "66c1f0a2b7e4d93a1c2e4f12"]))]))
    // The changed-event has no `type`: it reads as DOCUMENT_CHANGED.
    guard case .documentEvent(let event) = try WatchResponse(jsonData: envelopes[1].payload) else {
      Issue.record("expected a document event")
      return
    }
    #expect(event.event?.type == .documentChanged)
    #expect(event.event?.body == WireDocEventBody())
    #expect(envelopes[2].isEndOfStream)
    #expect(try ConnectEndOfStream(json: try WireJSON.parse(envelopes[2].payload)).error?.code == .canceled)
  }

  // MARK: Every operation kind, both ways

  @Test func everyOperationKindRoundTripsThroughJSON() async throws {
    let doc = Document(key: "ops")
    try await doc.setActor(client)
    try await doc.update { root, presence in
      root["s"] = "text \"quoted\" 😀"
      root["i"] = .integer(-5)
      root["l"] = .long(1 << 40)
      root["d"] = .double(0.25)
      root["b"] = true
      root["n"] = .null
      root["bytes"] = .bytes(Data([1, 2, 255]))
      root["date"] = .date(Date(timeIntervalSince1970: 1_755_515_841.123))
      root["nested"] = ["a": [1, 2, ["deep": true]], "o": ["k": "v"]]
      let list = root.setNewArray("list")
      for i in 0..<5 { try list.append(.integer(Int32(i))) }
      root.setNewCounter("c", .int(1)).increase(by: 2)
      root.setNewCounter("lc", .long(5)).increase(by: 1 << 35)
      try root.setNewText("t").edit(0, 0, "hello", attributes: ["bold": true])
      presence.set(["cursor": .integer(1), "name": "alice"])
    }
    try await doc.update { root, _ in
      let list = root.array("list")!
      try list.move(from: 0, to: 3)
      try list.remove(at: 1)
      try list.set(["replaced": 1], at: 0)
      try list.insert("x", at: 2)
      let text = root.text("t")!
      _ = try text.edit(1, 3, "EY")
      try text.setStyle(0, 2, ["italic": true, "color": "red"])
      try text.removeStyle(0, 1, keys: ["bold"])
      root.remove("n")
    }
    let last = await doc.pendingChanges.last!.id
    let clear = Change(id: ChangeID(clientSeq: last.clientSeq + 1, lamport: last.lamport, actorID: client, versionVector: VersionVector()),
                       operations: [], presenceChange: .clear)
    let changes = await doc.pendingChanges + [clear]
    #expect(changes.count == 3)
    var kinds = Set<String>()
    for change in changes {
      let text = WireChange(change).json.text
      let decoded = try WireChange(jsonText: text)
      #expect(decoded == WireChange(change))
      #expect(try decoded.model("change") == change, "\(text)")
      for operation in decoded.operations {
        if case .object(let members) = operation.json { kinds.insert(members[0].key) }
      }
    }
    #expect(kinds == ["set", "add", "move", "remove", "edit", "style", "increase", "arraySet"])
    // A replica that receives the changes through JSON ends equal.
    let peer = Document(key: "ops")
    let pack = WireChangePack(ChangePack(key: "ops", checkpoint: Checkpoint(serverSeq: 3, clientSeq: 0), changes: changes))
    try await peer.applyChangePack(try WireChangePack(jsonText: pack.json.text).model())
    #expect(await peer.toSortedJSON() == doc.toSortedJSON())
    #expect(await peer.presence(of: client) == nil)
  }

  @Test func restoreEditsAndDeduplicatingIncreasesRoundTrip() throws {
    let at = TimeTicket(lamport: 4, delimiter: 1, actorID: client)
    let insertion = TimeTicket(lamport: 1, delimiter: 2, actorID: client)
    let anchor = TextPosition(createdAt: .initial, offset: 0, relativeOffset: 2)
    let operations: [CRDT.Operation] = [
      .restoreEdit(parentCreatedAt: TimeTicket(lamport: 1, delimiter: 1, actorID: client), from: anchor, to: anchor,
                   restoreSpans: [RestoreSpan(createdAt: insertion, start: 2, end: 4, content: "cd", attributes: ["b": "true"])],
                   restoreMode: .restore, retombstoneSpans: [], executedAt: at),
      .restoreEdit(parentCreatedAt: TimeTicket(lamport: 1, delimiter: 1, actorID: client), from: anchor, to: anchor,
                   restoreSpans: [], restoreMode: .retombstone,
                   retombstoneSpans: [RestoreSpan(createdAt: insertion, start: 0, end: 2, content: "😀")], executedAt: at),
      .dedupIncrease(parentCreatedAt: insertion, value: .integer(1), actor: "visitor-1", executedAt: at),
    ]
    for operation in operations {
      let text = PBOperation(operation).json.text
      #expect(try PBOperation(jsonText: text).model("op") == operation, "\(text)")
    }
    // Spans without a mode, a mode without spans, and spans that do not fit their content are refused.
    let spanJSON = #"{"createdAt":{"lamport":"1","delimiter":2,"actorId":"ZsHworfk2TocLk8Q"},"start":2,"end":4,"content":"cd"}"#
    let base = #""parentCreatedAt":{"actorId":"AAAAAAAAAAAAAAAA"},"from":{"createdAt":{"actorId":"AAAAAAAAAAAAAAAA"}},"to":{"createdAt":{"actorId":"AAAAAAAAAAAAAAAA"}},"executedAt":{"lamport":"4","delimiter":1,"actorId":"ZsHworfk2TocLk8Q"}"#
    for edit in [#"{"edit":{\#(base),"restoreSpans":[\#(spanJSON)]}}"#, #"{"edit":{\#(base),"restoreMode":"RESTORE_MODE_RESTORE"}}"#,
                 #"{"edit":{\#(base),"restoreMode":1,"restoreSpans":[{"createdAt":{"actorId":"ZsHworfk2TocLk8Q"},"start":0,"end":5,"content":"cd"}]}}"#] {
      #expect(throws: YorkieError.self, "\(edit)") { try PBOperation(jsonText: edit).model("op") }
    }
  }

  @Test func nestedValuesTravelAsBinaryJSONElements() throws {
    let ticket = TimeTicket(lamport: 3, delimiter: 2, actorID: client)
    let child = TimeTicket(lamport: 3, delimiter: 3, actorID: client)
    let value = ElementSnapshot.object([(key: "k", value: .primitive(.string("v"), .init(createdAt: child)))], .init(createdAt: ticket))
    let simple = PBJSONElementSimple(value)
    #expect(simple.type == .jsonObject)
    #expect(try ElementSnapshot(jsonElementData: simple.value) == value)
    #expect(try simple.model("value") == value)
    // An object value without a body (what Go sends for an empty container) is an empty object.
    let empty = PBJSONElementSimple(createdAt: WireTimeTicket(ticket), type: .jsonObject)
    #expect(try empty.model("value") == .object([], .init(createdAt: ticket)))
    // A value whose binary holds another kind than its type says is refused.
    let lying = PBJSONElementSimple(createdAt: WireTimeTicket(ticket), type: .jsonArray, value: simple.value)
    #expect(throws: YorkieError.self) { try lying.model("value") }
  }

  @Test func versionVectorsUseBase64ActorKeys() throws {
    let vector = VersionVector([client: 7, .initial: 2])
    let wire = WireVersionVector(vector)
    #expect(wire.vector == ["ZsHworfk2TocLk8Q": 7, "AAAAAAAAAAAAAAAA": 2])
    #expect(wire.json.text == #"{"vector":{"AAAAAAAAAAAAAAAA":"2","ZsHworfk2TocLk8Q":"7"}}"#)
    #expect(try wire.model("versionVector") == vector)
    #expect(throws: YorkieError.self) { try WireVersionVector(vector: ["short": 1]).model("versionVector") }
  }
}
