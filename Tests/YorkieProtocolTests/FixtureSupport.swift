import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// One recorded scenario of `Fixtures/wire` (see its README): real traffic of a Yorkie v0.7.17
/// server, parsed with this SDK's own JSON parser so that large integers stay exact.
struct Fixture: CustomStringConvertible {
  let name: String
  let root: WireJSON

  var description: String { name }

  var exchanges: [WireJSON] {
    guard case .array(let items)? = root["exchanges"] else { return [] }
    return items
  }

  var expected: WireJSON? { root["expected"] }

  var documentKey: String? {
    if case .string(let key)? = root["documentKey"] { return key }
    return nil
  }

  /// Every `*.json` file of the fixture folder, so that a new recording is tested by dropping it in.
  static func all() throws -> [Fixture] {
    guard let folder = Bundle.module.url(forResource: "wire", withExtension: nil) else {
      throw YorkieError(.invalidPath, "the wire fixture folder is missing from the test bundle")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      return Fixture(name: name, root: try WireJSON.parse(data))
    }
  }

  /// The fixture names, for parameterized tests.
  static var names: [String] { ((try? all()) ?? []).map(\.name) }

  static func named(_ name: String) throws -> Fixture {
    guard let fixture = try all().first(where: { $0.name == name }) else { throw YorkieError(.invalidPath, "no fixture \(name)") }
    return fixture
  }
}

extension WireJSON {
  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  var intValue: Int? {
    switch self {
    case .number(let literal), .string(let literal): return Int(literal)
    default: return nil
    }
  }

  var arrayValue: [WireJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }
}

/// Semantic equality of protobuf JSON (the fixtures README): a missing member equals its
/// default, int64 written as a string equals the number, bytes compare decoded, member order
/// does not matter.
func semanticallyEqual(_ a: WireJSON, _ b: WireJSON) -> Bool {
  switch (a, b) {
  case let (.object(x), .object(y)):
    var keys = x.map(\.key)
    for key in y.map(\.key) where !keys.contains(key) { keys.append(key) }
    for key in keys {
      let left = x.first { $0.key == key }?.value
      let right = y.first { $0.key == key }?.value
      switch (left, right) {
      case let (l?, r?): if !semanticallyEqual(l, r) { return false }
      case let (l?, nil): if !isDefault(l) { return false }
      case let (nil, r?): if !isDefault(r) { return false }
      case (nil, nil): break
      }
    }
    return true
  case let (.array(x), .array(y)):
    return x.count == y.count && zip(x, y).allSatisfy(semanticallyEqual)
  case let (.number(x), .number(y)):
    return x == y || Double(x) == Double(y)
  case let (.number(n), .string(s)), let (.string(s), .number(n)):
    return Int64(n) != nil && Int64(n) == Int64(s)
  case let (.string(x), .string(y)):
    if x == y { return true }
    if let dx = decodeBase64Leniently(x), let dy = decodeBase64Leniently(y) { return dx == dy }
    return false
  case (.null, _): return isDefault(b)
  case (_, .null): return isDefault(a)
  default:
    return a == b
  }
}

/// Enum names whose value is 0 (what canonical protobuf JSON leaves out).
private let zeroEnumNames: Set<String> = [
  "VALUE_TYPE_NULL", "CHANGE_TYPE_UNSPECIFIED", "RESTORE_MODE_UNSPECIFIED", "DOC_EVENT_TYPE_DOCUMENT_CHANGED", "TYPE_UNSPECIFIED",
]

func isDefault(_ value: WireJSON) -> Bool {
  switch value {
  case .null: return true
  case .bool(let b): return !b
  case .number(let n): return Double(n) == 0
  case .string(let s): return s.isEmpty || s == "0" || zeroEnumNames.contains(s)
  case .array(let items): return items.isEmpty
  case .object(let members): return members.allSatisfy { isDefault($0.value) }
  }
}

/// The request and response codecs of an RPC, as closures over the message types.
struct RPCCodec: Sendable {
  let request: @Sendable (WireJSON) throws -> WireJSON
  let response: @Sendable (WireJSON) throws -> WireJSON
  /// For request text, a description of how decoding it from its index and from its tree
  /// disagree, or nil when they agree (see ``disagreement(_:_:)``).
  let requestDisagreement: @Sendable ([UInt8]) -> String?
  /// The same for response text.
  let responseDisagreement: @Sendable ([UInt8]) -> String?

  static func of<Request: WireMessage, Response: WireMessage>(_ request: Request.Type, _ response: Response.Type) -> RPCCodec {
    RPCCodec(
      request: { checkedJSON(try Request(json: $0, path: "request")) }, response: { checkedJSON(try Response(json: $0, path: "response")) },
      requestDisagreement: { disagreement(Request.self, $0) }, responseDisagreement: { disagreement(Response.self, $0) })
  }

  /// How decoding `text` as `M` through its index (``WireMessage/init(jsonData:)``) and
  /// through its `WireJSON` tree disagree: a different message, or a different error (code,
  /// message, field); nil when they agree.
  static func disagreement<M: WireMessage>(_ type: M.Type, _ text: [UInt8]) -> String? {
    let indexed = Result { () throws(YorkieError) in try M(jsonData: text) }
    let viaTree = Result { () throws(YorkieError) in try M(json: try WireJSON.parse(text)) }
    switch (indexed, viaTree) {
    case (.success(let a), .success(let b)):
      return a == b ? nil : "\(M.self): the messages differ"
    case (.failure(let a), .failure(let b)):
      return a.code == b.code && a.message == b.message && a.field == b.field ? nil
        : "\(M.self): errors differ: \(a.message) | \(b.message)"
    case (.success, .failure(let b)):
      return "\(M.self): only the tree refuses it: \(b.message)"
    case (.failure(let a), .success):
      return "\(M.self): only the index refuses it: \(a.message)"
    }
  }

  /// The message's JSON tree, after checking that the bytes written straight from its fields
  /// (``WireMessage/jsonBytes``) are the tree's, byte for byte.
  static func checkedJSON<M: WireMessage>(_ message: M) -> WireJSON {
    let tree = message.json
    #expect(message.jsonBytes == tree.bytes, "\(M.self): the bytes written from the fields differ from the tree's:\n\(String(decoding: message.jsonBytes, as: UTF8.self))\nvs\n\(tree.text)")
    return tree
  }

  static let byName: [String: RPCCodec] = [
    "ActivateClient": .of(ActivateClientRequest.self, ActivateClientResponse.self),
    "DeactivateClient": .of(DeactivateClientRequest.self, DeactivateClientResponse.self),
    "AttachDocument": .of(AttachDocumentRequest.self, AttachDocumentResponse.self),
    "DetachDocument": .of(DetachDocumentRequest.self, DetachDocumentResponse.self),
    "RemoveDocument": .of(RemoveDocumentRequest.self, RemoveDocumentResponse.self),
    "PushPullChanges": .of(PushPullChangesRequest.self, PushPullChangesResponse.self),
    "Watch": .of(WatchRequest.self, WatchResponse.self),
    "WatchDocument": .of(WatchDocumentRequest.self, WatchDocumentResponse.self),
    "WatchChannel": .of(WatchChannelRequest.self, WatchChannelResponse.self),
    "Broadcast": .of(BroadcastRequest.self, BroadcastResponse.self),
    "AttachChannel": .of(AttachChannelRequest.self, AttachChannelResponse.self),
    "DetachChannel": .of(DetachChannelRequest.self, DetachChannelResponse.self),
    "RefreshChannel": .of(RefreshChannelRequest.self, RefreshChannelResponse.self),
    "PeekChannel": .of(PeekChannelRequest.self, PeekChannelResponse.self),
    "CreateRevision": .of(CreateRevisionRequest.self, CreateRevisionResponse.self),
    "GetRevision": .of(GetRevisionRequest.self, GetRevisionResponse.self),
    "ListRevisions": .of(ListRevisionsRequest.self, ListRevisionsResponse.self),
    "RestoreRevision": .of(RestoreRevisionRequest.self, RestoreRevisionResponse.self),
    "grpc.health.v1.Health/Check": .of(PBEmpty.self, PBHealthCheckResponse.self),
    "health": .of(PBEmpty.self, PBHealthCheckResponse.self),
    "NoSuchMethod": .of(PBEmpty.self, PBEmpty.self),
  ]
}
