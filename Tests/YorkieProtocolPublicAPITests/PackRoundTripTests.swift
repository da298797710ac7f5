import CRDT
import Foundation
import Testing
import YorkieProtocol

/// What a custom transport does with a document's changes, through the public API only: a
/// change pack to PushPullChanges JSON and back, applied to another replica.
@Suite("Public API: change packs over the wire")
struct PackRoundTripTests {
  let writerActor = try! ActorID(hex: "66c1f0a2b7e4d93a1c2e4f10")
  let readerActor = try! ActorID(hex: "66c1f0a2b7e4d93a1c2e4f20")

  /// A document with one change of every kind this SDK writes.
  func editedDocument() async throws -> Document {
    let doc = Document(key: "public-api")
    try await doc.setActor(writerActor)
    try await doc.update(message: "first edit") { root, presence in
      root["title"] = "Groceries"
      root["when"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
      root["big"] = .long(9_007_199_254_740_993)
      let items = root.setNewArray("items")
      try items.append(["name": "milk", "done": false])
      try items.append("eggs")
      root.setNewCounter("visits", .int(0)).increase(by: 2)
      let note = root.setNewText("note")
      try note.edit(0, 0, "Buy milk 🥛")
      try note.setStyle(4, 8, ["bold": true])
      presence.set(["cursor": 3])
    }
    try await doc.update { root, _ in
      root["title"] = "Groceries for Sunday"
    }
    return doc
  }

  @Test("a replica's pack decoded with role request acknowledges none of the receiver's changes")
  func requestRoleOverTheWire() async throws {
    let writer = try await editedDocument()
    let reader = Document(key: "public-api")
    try await reader.setActor(readerActor)
    try await reader.update { root, _ in root["mine"] = 1 }
    let body = WireChangePack(try await writer.createChangePack()).jsonData
    let pack = try ChangePack(try WireChangePack(jsonData: body), role: .request)
    #expect(pack.role == .request)
    try await reader.applyChangePack(pack)
    #expect(await reader.pendingChanges.count == 1)
    #expect(try await reader.value(atPath: "$.mine") == 1)
    #expect(try await reader.value(atPath: "$.title") == "Groceries for Sunday")
  }

  @Test("a pack travels as PushPullChanges JSON and rebuilds the document on another replica")
  func packRoundTrip() async throws {
    let writer = try await editedDocument()
    let pack = try await writer.createChangePack()
    #expect(pack.changes.count == 2)

    // Encode: CRDT pack -> wire pack -> request -> JSON bytes.
    let request = PushPullChangesRequest(clientID: writerActor.hex, documentID: "66c1f0a2b7e4d93a1c2e4f11",
                                         changePack: WireChangePack(pack))
    let body = request.jsonData
    #expect(!body.isEmpty)

    // Decode: JSON bytes -> request (equal to what was sent) -> CRDT pack.
    let received = try PushPullChangesRequest(jsonData: body)
    #expect(received == request)
    #expect(received.clientID == writerActor.hex)
    let wirePack = try #require(received.changePack)
    #expect(wirePack.documentKey == "public-api")
    #expect(wirePack.changes.map(\.operationCount) == pack.changes.map(\.operationCount))
    let decoded = try ChangePack(wirePack)
    #expect(decoded.key == pack.key)
    #expect(decoded.checkpoint == pack.checkpoint)
    #expect(decoded.changes == pack.changes)
    #expect(decoded.versionVector == pack.versionVector)

    // Apply to a second replica: the same document, byte for byte.
    let reader = Document(key: "public-api")
    try await reader.setActor(readerActor)
    try await reader.applyChangePack(decoded)
    #expect(await reader.toJSON() == writer.toJSON())
    #expect(await reader.toSortedJSON() == writer.toSortedJSON())
    // (The writer's presence arrives too, but a replica shows it only for peers a Watch stream
    // reported online; the presence test below checks it on the wire.)
  }

  @Test("a server's response pack decodes from JSON text and applies")
  func responseRoundTrip() async throws {
    let writer = try await editedDocument()
    let pack = try await writer.createChangePack()
    // What a server would answer another client: the writer's changes, with server sequences.
    let changes = try pack.changes.enumerated().map { index, change in
      var wire = WireChange(change)
      wire.id?.serverSeq = Int64(index + 1)
      return try Change(wire)
    }
    let response = PushPullChangesResponse(changePack: WireChangePack(
      ChangePack(key: pack.key, checkpoint: Checkpoint(serverSeq: 2, clientSeq: 0), changes: changes, versionVector: pack.versionVector)))
    let text = response.jsonText
    #expect(text.contains(#""serverSeq":"2""#), "int64 travels as a string: \(text)")

    let decoded = try PushPullChangesResponse(jsonText: text)
    let reader = Document(key: pack.key)
    try await reader.setActor(readerActor)
    try await reader.applyChangePack(try ChangePack(try #require(decoded.changePack)))
    #expect(await reader.toJSON() == writer.toJSON())
  }

  @Test("clocks convert both ways")
  func clocks() throws {
    let ticket = TimeTicket(lamport: 7, delimiter: 3, actorID: writerActor)
    #expect(try TimeTicket(WireTimeTicket(ticket)) == ticket)
    #expect(WireTimeTicket(ticket).actorID == writerActor.bytes)

    let vector = VersionVector([writerActor: 7, readerActor: 9_007_199_254_740_993])
    let wireVector = WireVersionVector(vector)
    #expect(wireVector.vector[writerActor.bytes.base64EncodedString()] == 7)
    #expect(try VersionVector(wireVector) == vector)
    #expect(try VersionVector(WireVersionVector(jsonText: wireVector.jsonText)) == vector)

    let id = ChangeID(clientSeq: 4, serverSeq: 12, lamport: 7, actorID: writerActor, versionVector: vector)
    #expect(try ChangeID(WireChangeID(id)) == id)

    let checkpoint = Checkpoint(serverSeq: 12, clientSeq: 4)
    #expect(Checkpoint(WireCheckpoint(checkpoint)) == checkpoint)
    #expect(WireCheckpoint(checkpoint).jsonText == #"{"serverSeq":"12","clientSeq":4}"#)
  }

  @Test("a presence change travels with its change, its values as JSON text")
  func presence() async throws {
    let writer = try await editedDocument()
    let pack = try await writer.createChangePack()
    let wire = WireChange(pack.changes[0])
    let presence = try #require(wire.presenceChange)
    #expect(presence.type == .put)
    #expect(presence.presence?.data == ["cursor": "3"])
    let clear = try WirePresenceChange(jsonText: #"{"type":"CHANGE_TYPE_CLEAR"}"#)
    #expect(clear == WirePresenceChange(type: .clear))
  }
}
