import Foundation
import YorkieProtocol

/// The correspondence between the ids of a recording and the ids the server under test
/// assigned, built as the server answers (the first ActivateClient answer gives the recording's
/// first client id its counterpart, and so on).
///
/// Ids are 12 random bytes, written as hex in string fields and as base64 in `actorId` fields and
/// version-vector keys; both spellings are mapped. Requests are rewritten recorded → ours by
/// exact string match (values and member names) and inside binary `JSONElement` values by byte
/// match; responses are rewritten ours → recorded the same way after their binary values were
/// decoded. Ids that were never bound (the Go writers' actors seeded verbatim, deliberately
/// unknown ids such as `0123456789abcdef01234567`) pass through unchanged.
struct ReplayIDMap: Sendable {
  /// Recorded spelling → our spelling (hex and base64).
  private(set) var toOurs: [String: String] = [:]
  /// Our spelling → recorded spelling.
  private(set) var toRecorded: [String: String] = [:]
  /// Recorded 12 bytes → our 12 bytes.
  private var bytesToOurs: [[UInt8]: [UInt8]] = [:]

  /// Binds recorded id `recordedHex` to `ourHex`. Returns a description of the conflict when
  /// either side is already bound to something else (the server reused an id, or answered one
  /// recorded id with two of its own), nil otherwise.
  mutating func bind(recordedHex: String, ourHex: String) -> String? {
    if let bound = toOurs[recordedHex] {
      return bound == ourHex ? nil : "recorded id \(recordedHex) is already bound to \(bound), the server now answered \(ourHex)"
    }
    if let bound = toRecorded[ourHex] {
      return "the server answered \(ourHex) for recorded id \(recordedHex), but it already stands for recorded id \(bound)"
    }
    guard let recordedBytes = ReplayBytes.fromHex(recordedHex), let ourBytes = ReplayBytes.fromHex(ourHex),
          recordedBytes.count == 12, ourBytes.count == 12 else {
      return "cannot bind \(recordedHex) to \(ourHex): ids are 12 bytes of hex"
    }
    let recordedBase64 = ReplayBytes.base64(recordedBytes)
    let ourBase64 = ReplayBytes.base64(ourBytes)
    toOurs[recordedHex] = ourHex
    toOurs[recordedBase64] = ourBase64
    toRecorded[ourHex] = recordedHex
    toRecorded[ourBase64] = recordedBase64
    bytesToOurs[recordedBytes] = ourBytes
    return nil
  }

  /// Whether `recordedHex` is bound.
  func isBound(_ recordedHex: String) -> Bool { toOurs[recordedHex] != nil }

  /// Our id for recorded id `recordedHex` (itself when unbound).
  func ours(_ recordedHex: String) -> String { toOurs[recordedHex] ?? recordedHex }

  /// A recorded request body with every bound id replaced by ours, including the actor ids
  /// inside binary `JSONElement` values.
  func mapRequest(_ json: WireJSON) -> WireJSON {
    let strings = json.replayMappingStrings { toOurs[$0] ?? $0 }
    guard !bytesToOurs.isEmpty else { return strings }
    return strings.replayMappingObjects { members in
      guard let type = members.first(where: { $0.key == "type" })?.value, ReplayIDMap.carriesBinaryElement(type),
            let index = members.firstIndex(where: { $0.key == "value" }), let text = members[index].value.replayString,
            let bytes = ReplayBytes.fromBase64(text) else { return members }
      let mapped = ReplayBytes.replacing(bytesToOurs, in: bytes)
      guard mapped != bytes else { return members }
      var result = members
      result[index].value = .string(ReplayBytes.base64(mapped))
      return result
    }
  }

  /// One of our responses (binary values already decoded) with every bound id replaced by the
  /// recorded one.
  func mapResponse(_ json: WireJSON) -> WireJSON {
    json.replayMappingStrings { toRecorded[$0] ?? $0 }
  }

  /// Whether a `JSONElementSimple.type` (name or number) says that `value` is a binary
  /// `JSONElement`: object, array or tree.
  static func carriesBinaryElement(_ type: WireJSON) -> Bool {
    switch type {
    case .string(let name):
      return ["VALUE_TYPE_JSON_OBJECT", "VALUE_TYPE_JSON_ARRAY", "VALUE_TYPE_TREE", "8", "9", "13"].contains(name)
    case .number(let number): return ["8", "9", "13"].contains(number)
    default: return false
    }
  }
}
