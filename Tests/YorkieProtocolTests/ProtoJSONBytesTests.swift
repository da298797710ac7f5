import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// Messages written straight to bytes (``ProtoJSONWriter/init(writingBytes:)``) are byte for byte what the
/// `WireJSON` tree gives: for changes of every operation kind made by real edits, for extreme
/// numbers, escaped strings and maps, and for bytes of every length. (The recorded traffic is
/// checked the same way by every fixture test, through `RPCCodec`.)
@Suite("ProtoJSON bytes")
struct ProtoJSONBytesTests {
  func expectSameBytes<M: WireMessage>(_ message: M, _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = message.jsonBytes
    let tree = message.json.bytes
    #expect(bytes == tree, "\(M.self) \(note):\n\(String(decoding: bytes, as: UTF8.self))\nvs\n\(String(decoding: tree, as: UTF8.self))",
            sourceLocation: sourceLocation)
    #expect(message is any ProtoJSONMessage, "\(M.self) is written through its tree")
  }

  @Test func changesOfEveryKind() async throws {
    let doc = Document(key: "bytes")
    try await doc.setActor(try ActorID(hex: "0123456789abcdef01234567"))
    try await doc.update { root, presence in
      root["n"] = .null
      root["b"] = true
      root["i"] = .integer(-2_147_483_648)
      root["l"] = .long(.min)
      root["L"] = .long(.max)
      root["d"] = .double(-0.000123)
      root["s"] = "quote \" backslash \\ newline \n tab \t control \u{1} é 日本 😀"
      root["bytes"] = .bytes(Data([0, 1, 2, 250, 255]))
      root["date"] = .date(Date(timeIntervalSince1970: 1_700_000_000.5))
      let list = root.setNewArray("list")
      for i in 0..<5 { try list.append(.integer(Int32(i))) }
      try list.move(from: 0, to: 3)
      try list.remove(at: 1)
      try list.set("x", at: 0)
      let text = root.setNewText("text")
      _ = try text.edit(0, 0, "Hello, world", attributes: ["bold": true, "k\"ey": "v\nal"])
      try text.setStyle(0, 4, ["italic": true, "size": .integer(3)])
      try text.removeStyle(1, 2, keys: ["italic"])
      root.setNewCounter("c", .int(7)).increase(by: -9)
      root.setNewCounter("cl", .long(1 << 40)).increase(by: 1 << 33)
      _ = root.setNewObject("o")
      root.remove("n")
      presence.set(["cursor": .integer(3), "name": "ä\"b", "nested": .object(["x": .array([1, 2])])])
    }
    try await doc.update { _, presence in presence.clear() }
    let pack = try await doc.createChangePack()
    #expect(pack.changes.count == 2)
    for change in pack.changes { expectSameBytes(WireChange(change)) }
    expectSameBytes(WireChangePack(pack))
    expectSameBytes(PushPullChangesRequest(clientID: "0123456789abcdef01234567", documentID: "abc", changePack: WireChangePack(pack), pushOnly: true))
    expectSameBytes(AttachDocumentRequest(clientID: "c", changePack: WireChangePack(pack), schemaKey: "s", disableGC: true))
    var withSnapshot = WireChangePack(pack)
    withSnapshot.snapshot = await doc.snapshot()
    withSnapshot.isRemoved = true
    withSnapshot.minSyncedTicket = WireTimeTicket(lamport: .max, delimiter: .max, actorID: Data(repeating: 0xFF, count: 12))
    expectSameBytes(AttachDocumentResponse(documentID: "d", changePack: withSnapshot, maxSizePerDocument: -1, disablePresence: true))
  }

  @Test func extremeNumbersAndMaps() {
    for value in [Int64.min, Int64.min + 1, -1, 1, 9, 10, 99, 100, 1_000_000_007, Int64.max] {
      expectSameBytes(WireCheckpoint(serverSeq: value, clientSeq: UInt32(truncatingIfNeeded: value)), "\(value)")
      expectSameBytes(WireTimeTicket(lamport: value, delimiter: .max, actorID: Data([1, 2, 3])), "\(value)")
    }
    expectSameBytes(WireVersionVector(vector: ["b": 2, "a": -1, "ä": .max, "\"q\"": .min, "": 5]))
    expectSameBytes(ActivateClientRequest(clientKey: "k\u{7f}\u{1f}", metadata: ["z": "1", "a": "\u{0}", "m": "😀"]))
    expectSameBytes(DeactivateClientResponse())
    expectSameBytes(WatchRequest(clientID: "c", resources: [.document(WireDocumentResource(documentID: "d")), .channel(WireChannelResource(channelKey: "k"))]))
  }

  @Test func bytesOfEveryLengthMatchFoundation() {
    var random = Base64Tests.Generator(state: 99)
    for length in 0..<100 {
      let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
      var output: [UInt8] = []
      Base64.encode(data, into: &output)
      #expect(String(decoding: output, as: UTF8.self) == data.base64EncodedString(), "\(length) bytes")
      // A slice that does not start at 0 reads from its own start.
      let slice = (Data([7, 7, 7]) + data).dropFirst(3)
      output = []
      Base64.encode(slice, into: &output)
      #expect(String(decoding: output, as: UTF8.self) == data.base64EncodedString(), "a slice of \(length) bytes")
      expectSameBytes(WireTimeTicket(lamport: 1, actorID: data), "\(length) bytes")
    }
  }
}
