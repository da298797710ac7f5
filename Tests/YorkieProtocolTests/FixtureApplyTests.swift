@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The documents the recorded traffic describes, rebuilt by this SDK: an observer replica
/// applies every change the recording carries for the scenario's document (pushed in requests
/// and pulled in responses, each once, in the order they appear, which is causal) and every
/// snapshot, then must show exactly the state Yorkie's Go SDK computed (`expected.goYSON`,
/// `texts`, `presences`).
@Suite("Wire fixtures: documents")
struct FixtureApplyTests {
  /// Members where the Go replica that computed `goYSON` shows a result that depends on garbage
  /// collection, replaced by what Yorkie's JS SDK (and the Go SDK once it has collected) shows,
  /// which is this SDK's rule (Convergence article, ArraySet). In 04 a Go writer moved "d" to the
  /// front and then set it to "D"; the fresh Go client applied the whole pack before collecting,
  /// so "d"'s first position still existed and Go placed "D" there (b,e,42,D,a).
  static let collectionIndependent: [String: [String: String]] = [
    "04-attach-array.json": ["items": #"["D","b","e",Int(42),"a"]"#],
  ]

  @Test("the recorded changes rebuild the expected document", arguments: Fixture.names)
  func rebuild(name: String) async throws {
    let fixture = try Fixture.named(name)
    guard let expected = fixture.expected, let ysonText = expected["goYSON"]?.stringValue, let key = fixture.documentKey else { return }
    let observer = Document(key: key)
    var presenceStates: [[ActorID: [String: JSONValue]]] = []
    presenceStates = try await replay(fixture, into: observer, key: key)
    let actual = await observer.rootYSON()
    var wanted = try YSON.parse(ysonText)
    if let replacements = FixtureApplyTests.collectionIndependent[name], case .object(var members) = wanted {
      for (key, text) in replacements { members[key] = try YSON.parse(text) }
      wanted = .object(members)
    }
    #expect(actual == wanted, "\(name):\n ours \(actual)\n Go   \(wanted)")
    if case .object(let texts)? = expected["texts"] {
      for member in texts {
        let text = await observer.textString(atPath: member.key)
        #expect(text == member.value.stringValue, "\(name): text at \(member.key)")
      }
    }
    if case .object(let presences)? = expected["presences"] {
      var wantedPresences: [ActorID: [String: JSONValue]] = [:]
      for member in presences {
        var data: [String: JSONValue] = [:]
        if case .object(let entries) = member.value {
          for entry in entries { data[entry.key] = JSONValueParser.parse(entry.value.stringValue ?? "") }
        }
        wantedPresences[try ActorID(hex: member.key)] = data
      }
      // The Go client read the presences at some moment of the scenario (before or after the
      // detaches, as each fixture's notes say): the observer must have passed through that state.
      #expect(presenceStates.contains(wantedPresences), "\(name): presences \(wantedPresences) never seen in \(presenceStates)")
    }
    #expect(await observer.checkInvariants() == nil, "\(name)")
    // The rebuilt document survives its own snapshot.
    let copy = Document(key: key)
    try await copy.applyChangePack(ChangePack(key: key, checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                              versionVector: await observer.versionVector, snapshot: await observer.snapshot()))
    #expect(await copy.rootYSON() == actual, "\(name): snapshot round trip")
  }

  /// Applies the scenario's document to `doc` as the server ordered it: the first snapshot a
  /// response carried, then every change the responses pulled, once each, in server-sequence
  /// order (pulls of different clients overlap and interleave; the server sequence is the one
  /// causal order they share). Returns the presences after each step, since the recordings'
  /// presence expectations were taken at different moments of their scenarios.
  @discardableResult
  private func replay(_ fixture: Fixture, into doc: Document, key: String) async throws -> [[ActorID: [String: JSONValue]]] {
    var documentID: String?
    var pulled: [Int64: Change] = [:]
    var snapshot: ChangePack?
    for (index, exchange) in fixture.exchanges.enumerated() where exchange["status"]?.intValue == 200 {
      let response = exchange["response"] ?? .null
      guard case .object = response else { continue }
      let request = try ProtoJSONReader(exchange["request"] ?? .null, path: "request")
      let fields = try ProtoJSONReader(response, path: "response")
      guard let packJSON = fields.value("changePack") else { continue }
      let wirePack = try WireChangePack(json: packJSON, path: "\(fixture.name)#\(index).changePack")
      let pack = try wirePack.model()
      guard pack.key == key else { continue }
      // Follow the first document attached under the key (a later one is a new document).
      let id = try request.string("documentId").nonEmpty ?? (try fields.string("documentId")).nonEmpty
      if documentID == nil { documentID = id }
      guard id == documentID else { continue }
      if pack.snapshot != nil && snapshot == nil { snapshot = pack }
      for change in pack.changes where change.id.serverSeq > 0 { pulled[change.id.serverSeq] = change }
    }
    var states: [[ActorID: [String: JSONValue]]] = [await doc.presenceMap]
    var after: Int64 = 0
    if let snapshot {
      try await doc.applyChangePack(ChangePack(key: key, checkpoint: Checkpoint(serverSeq: snapshot.checkpoint.serverSeq, clientSeq: 0),
                                               changes: [], versionVector: snapshot.versionVector, snapshot: snapshot.snapshot))
      after = snapshot.checkpoint.serverSeq
      states.append(await doc.presenceMap)
    }
    for serverSeq in pulled.keys.sorted() where serverSeq > after {
      try await doc.applyChangePack(ChangePack(key: key, checkpoint: .initial, changes: [pulled[serverSeq]!]))
      states.append(await doc.presenceMap)
    }
    return states
  }
}

extension String {
  var nonEmpty: String? { isEmpty ? nil : self }
}

extension Document {
  /// The typed rendering of the whole document.
  func rootYSON() -> YSON { YSON(root.object) }

  /// The plain string of the text at a path such as `$.content` or `$.mixed[9]`.
  func textString(atPath path: String) -> String? {
    var current: CRDTElement = root.object
    let parts = path.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "").split(separator: ".").dropFirst()
    for part in parts {
      if let object = current as? CRDTObject, let child = object.get(String(part)) {
        current = child
      } else if let array = current as? CRDTArray, let index = Int(part) {
        let live = array.allNodes.compactMap { $0.element }.filter { !$0.isRemoved }
        guard index < live.count else { return nil }
        current = live[index]
      } else {
        return nil
      }
    }
    return (current as? CRDTText)?.string
  }
}

/// Every binary value the recordings carry (`binaryDecoded`: JSONElement values of Set/Add and
/// change-pack snapshots) decodes with this SDK's protobuf decoder — Trees excepted, which are
/// reported as unsupported — and re-encodes to bytes that decode to the same element.
@Suite("Wire fixtures: binary values")
struct FixtureBinaryTests {
  @Test("every recorded binary value decodes", arguments: Fixture.names)
  func binaryValues(name: String) throws {
    let fixture = try Fixture.named(name)
    guard case .array(let items)? = fixture.root["binaryDecoded"]?["items"] else { return }
    for item in items {
      let message = item["message"]?.stringValue ?? ""
      let location = item["where"]?.stringValue ?? "?"
      guard let base64 = value(at: location, in: fixture.root)?.stringValue, let data = decodeBase64Leniently(base64) else {
        Issue.record("\(name): cannot find \(location)")
        continue
      }
      switch message {
      case "yorkie.v1.Snapshot":
        let snapshot = try DocumentSnapshot(data: data)
        let again = try DocumentSnapshot(data: snapshot.encoded)
        #expect(YSON(again.root) == YSON(snapshot.root), "\(name) \(location)")
        #expect(again.presences == snapshot.presences)
      case "yorkie.v1.JSONElement":
        let element = try ElementCodec.decode(data)
        var writer = ProtoWriter()
        ElementCodec.encode(element, into: &writer)
        #expect(YSON(try ElementCodec.decode(writer.data)) == YSON(element), "\(name) \(location)")
        if case .tree = element.kind {
          // A tree is written back exactly as Yorkie wrote it (field order, omitted defaults).
          #expect(writer.data == data, "\(name) \(location): the tree's bytes differ")
        }
      default:
        Issue.record("\(name): unknown binary message \(message)")
      }
    }
  }

  /// The value at a path such as `exchanges[1].response.changePack.snapshot`.
  private func value(at path: String, in root: WireJSON) -> WireJSON? {
    var current: WireJSON? = root
    for part in path.split(separator: ".") {
      var name = Substring(part)
      var indexes: [Int] = []
      while let open = name.lastIndex(of: "["), let close = name.lastIndex(of: "]"), open < close {
        indexes.insert(Int(name[name.index(after: open)..<close]) ?? -1, at: 0)
        name = name[..<open]
      }
      if !name.isEmpty { current = current?[String(name)] }
      for index in indexes {
        guard let items = current?.arrayValue, index >= 0, index < items.count else { return nil }
        current = items[index]
      }
    }
    return current
  }
}
