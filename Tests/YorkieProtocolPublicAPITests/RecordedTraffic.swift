import CRDT
import Foundation
import YorkieProtocol

/// The recorded Yorkie v0.7.17 traffic of `Tests/YorkieProtocolTests/Fixtures/wire` (see its
/// README), read from the source tree and parsed with the public ``WireJSON`` parser.
struct RecordedScenario: CustomStringConvertible {
  let name: String
  let root: WireJSON

  var description: String { name }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("YorkieProtocolTests/Fixtures/wire")

  /// The scenario file names, sorted.
  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".json") }.sorted()
  }

  static func named(_ name: String) throws -> RecordedScenario {
    RecordedScenario(name: name, root: try WireJSON.parse(Data(contentsOf: folder.appendingPathComponent(name))))
  }

  var exchanges: [RecordedExchange] {
    guard case .array(let items)? = root["exchanges"] else { return [] }
    return items.enumerated().map { RecordedExchange(id: "\(name)#\($0)", json: $1) }
  }

  var expected: WireJSON? { root["expected"] }
}

/// One recorded HTTP call.
struct RecordedExchange {
  let id: String
  let json: WireJSON

  var rpc: String? { json["rpc"]?.string }
  var status: Int { json["status"]?.integer ?? 0 }
  var request: WireJSON? { json["request"] }
  var response: WireJSON? { json["response"] }

  /// The exact bytes of a stream's response body.
  var streamBody: Data? { json["responseBodyBase64"]?.string.flatMap { Data(base64Encoded: $0) } }
}

extension WireJSON {
  var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  var integer: Int? {
    switch self {
    case .number(let literal), .string(let literal): return Int(literal)
    default: return nil
    }
  }

  var array: [WireJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }
}

/// Decodes a recorded JSON value as `M` and re-encodes it; the second decode must be equal.
func roundTrip<M: WireMessage>(_ type: M.Type, _ json: WireJSON) throws -> M {
  let message = try M(json: json)
  let again = try M(jsonData: message.jsonData)
  guard again == message else {
    throw YorkieError(.invalidWireData, "\(M.self) does not survive its own encoding: \(message.jsonText)")
  }
  return message
}
