import CRDT
import Foundation
import Testing
import YorkieProtocol

/// The recorded server traffic, decoded through the public API only: every successful unary
/// response as its message type, every error body as a ``ConnectError``, every stream body cut
/// into envelopes and decoded, and the pulled packs applied to fresh documents.
@Suite("Public API: recorded server traffic")
struct RecordedTrafficTests {
  /// Decodes a successful unary response of `rpc`; false when `rpc` is not a YorkieService unary call.
  func decodeResponse(_ rpc: String, _ json: WireJSON) throws -> Bool {
    switch rpc {
    case "ActivateClient":
      let response = try roundTrip(ActivateClientResponse.self, json)
      #expect(response.clientID.utf8.count == 24)
    case "DeactivateClient": _ = try roundTrip(DeactivateClientResponse.self, json)
    case "AttachDocument":
      let response = try roundTrip(AttachDocumentResponse.self, json)
      #expect(response.documentID.utf8.count == 24)
      #expect(response.changePack != nil)
    case "DetachDocument": _ = try roundTrip(DetachDocumentResponse.self, json)
    case "RemoveDocument":
      let response = try roundTrip(RemoveDocumentResponse.self, json)
      #expect(response.changePack?.isRemoved == true)
    case "PushPullChanges": _ = try roundTrip(PushPullChangesResponse.self, json)
    case "Broadcast": _ = try roundTrip(BroadcastResponse.self, json)
    case "AttachChannel":
      let response = try roundTrip(AttachChannelResponse.self, json)
      #expect(!response.sessionID.isEmpty)
    case "DetachChannel": _ = try roundTrip(DetachChannelResponse.self, json)
    case "RefreshChannel": _ = try roundTrip(RefreshChannelResponse.self, json)
    case "PeekChannel": _ = try roundTrip(PeekChannelResponse.self, json)
    case "CreateRevision": _ = try roundTrip(CreateRevisionResponse.self, json)
    case "GetRevision": _ = try roundTrip(GetRevisionResponse.self, json)
    case "ListRevisions": _ = try roundTrip(ListRevisionsResponse.self, json)
    case "RestoreRevision": _ = try roundTrip(RestoreRevisionResponse.self, json)
    default: return false
    }
    return true
  }

  @Test("every recorded unary response and error body decodes", arguments: RecordedScenario.names)
  func unaryResponses(name: String) throws {
    var decoded = 0
    for exchange in try RecordedScenario.named(name).exchanges {
      guard let rpc = exchange.rpc, case .object? = exchange.response else { continue }
      let response = exchange.response!
      if exchange.status == 200 {
        if try decodeResponse(rpc, response) { decoded += 1 }
        continue
      }
      let error = try ConnectError(json: response)
      #expect(error.code.httpStatus == exchange.status, "\(exchange.id): \(error)")
      #expect(try ConnectError(jsonData: error.jsonData) == error, "\(exchange.id)")
      if let recorded = response["details"]?.array?.first?["debug"]?["metadata"]?["code"]?.string, !recorded.isEmpty {
        #expect(error.yorkieCode == recorded, "\(exchange.id)")
      }
    }
    #expect(decoded > 0 || name.hasPrefix("16-"), "\(name): no unary response decoded")
  }

  @Test("every recorded stream body splits into envelopes that decode", arguments: RecordedScenario.names)
  func streams(name: String) throws {
    var frames = 0
    for exchange in try RecordedScenario.named(name).exchanges {
      guard let body = exchange.streamBody, let recorded = exchange.response?.array else { continue }
      // Feed the body in awkward chunks, as a network would deliver it.
      var decoder = ConnectEnvelopeDecoder()
      var envelopes: [ConnectEnvelope] = []
      var offset = 0
      while offset < body.count {
        let end = min(body.count, offset + 7)
        envelopes += try decoder.feed(body[offset..<end])
        offset = end
      }
      try decoder.finish()
      #expect(envelopes.count == recorded.count, "\(exchange.id)")
      frames += envelopes.count
      for (envelope, frame) in zip(envelopes, recorded) {
        #expect(Int(envelope.flags.rawValue) == frame["flags"]?.integer, "\(exchange.id)")
        #expect(envelope.bytes.count == envelope.payload.count + 5)
        if envelope.isEndOfStream {
          let end = try envelope.decodeEndOfStream()
          if let error = end.error { #expect(error.code == ConnectCode(rawValue: frame["json"]?["error"]?["code"]?.string ?? "")) }
          continue
        }
        switch exchange.rpc {
        case "Watch":
          let message = try envelope.decode(WatchResponse.self)
          #expect(try roundTrip(WatchResponse.self, try #require(frame["json"])) == message, "\(exchange.id)")
        case "WatchDocument": _ = try envelope.decode(WatchDocumentResponse.self)
        case "WatchChannel": _ = try envelope.decode(WatchChannelResponse.self)
        default: Issue.record("\(exchange.id): a stream of \(exchange.rpc ?? "?")")
        }
      }
    }
    // The scenarios with streams: Watch, channels, and streams that end in an error.
    if ["13-watch.json", "14-channel-broadcast.json", "16-errors.json"].contains(name) {
      #expect(frames > 0, "\(name): no stream decoded")
    }
  }

  @Test("the Watch stream reports the initialization first, then typed events")
  func watchEvents() throws {
    var kinds: Set<String> = []
    for exchange in try RecordedScenario.named("13-watch.json").exchanges where exchange.rpc == "Watch" {
      guard let body = exchange.streamBody else { continue }
      var decoder = ConnectEnvelopeDecoder()
      let messages = try decoder.feed(body).filter { !$0.isEndOfStream }.map { try $0.decode(WatchResponse.self) }
      guard let first = messages.first else { continue }
      guard case .initialization = first else {
        Issue.record("\(exchange.id): the first message is not the initialization")
        continue
      }
      for message in messages.dropFirst() {
        guard case .documentEvent(let event) = message else { continue }
        #expect(event.documentID.utf8.count == 24)
        switch event.event?.type {
        case .documentChanged?: kinds.insert("changed")
        case .documentWatched?: kinds.insert("watched")
        case .documentUnwatched?: kinds.insert("unwatched")
        case .documentBroadcast?: kinds.insert("broadcast")
        case nil: Issue.record("\(exchange.id): an event without a body")
        }
      }
    }
    #expect(kinds.isSuperset(of: ["changed", "watched", "unwatched"]), "\(kinds)")
  }

  /// Scenarios whose first attach answers every stored change (or a snapshot) of a document
  /// made by Yorkie's Go SDK, with the texts it computed.
  static let documentScenarios = ["03-attach-nested.json", "04-attach-array.json", "05-attach-text.json",
                                  "06-attach-text-undo.json", "07-attach-counter.json", "10-concurrent.json", "11-snapshot.json"]

  @Test("a pulled pack rebuilds the document Yorkie's Go SDK computed", arguments: documentScenarios)
  func pulledDocuments(name: String) async throws {
    let scenario = try RecordedScenario.named(name)
    let attach = try #require(scenario.exchanges.first { $0.rpc == "AttachDocument" && $0.status == 200 })
    let response = try AttachDocumentResponse(json: try #require(attach.response))
    let pack = try ChangePack(try #require(response.changePack))
    let doc = Document(key: pack.key)
    try await doc.applyChangePack(pack)

    let expected = try #require(scenario.expected)
    #expect(expected["texts"] != nil || name == "07-attach-counter.json", "\(name): nothing to compare")
    if case .object(let texts)? = expected["texts"] {
      for text in texts {
        let value = try await doc.value(atPath: text.key.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: ""))
        #expect(plainText(value) == text.value.string, "\(name): \(text.key)")
      }
    }
    if name == "07-attach-counter.json" {
      // Counters print the same in every SDK: compare the whole document.
      let ours = try WireJSON.parse(await doc.toSortedJSON())
      #expect(ours == expected["json"], "\(name): \(ours.text)")
    }
  }

  @Test("a Tree in a pulled pack converts and shows what the Yorkie server's replica showed")
  func treesConvert() async throws {
    let scenario = try RecordedScenario.named("08-attach-tree.json")
    let attach = try #require(scenario.exchanges.first { $0.rpc == "AttachDocument" && $0.status == 200 })
    let body = try #require(attach.response)
    let wire = try #require(try AttachDocumentResponse(json: body).changePack)
    let pack = try ChangePack(wire)
    let doc = Document(key: pack.key)
    try await doc.applyChangePack(pack)
    let tree = try #require(try await doc.tree(atPath: "$.doc"))
    #expect(tree.xml == #"<root><h1>Title</h1><p align="center">ll</p><p align="center">o!World</p></root>"#)
    #expect(tree.size == 20)  // <h1> 2 + 5, <p> 2 + 2, <p> 2 + 7
  }
}

/// The characters of a text value (`[{"val":"a"},{"attrs":…,"val":"b"}]` -> `ab`).
func plainText(_ value: JSONValue?) -> String? {
  guard case .array(let nodes)? = value else { return nil }
  var result = ""
  for node in nodes {
    guard case .object(let object) = node, case .string(let piece)? = object["val"] else { return nil }
    result += piece
  }
  return result
}
