import Foundation
import YorkieProtocol

/// One difference between a recorded value and the server's: where, and both sides.
struct ReplayDifference: Sendable, CustomStringConvertible {
  /// JSON path (`changePack.changes[2].id.serverSeq`).
  let path: String
  /// The recorded value (`(absent)` when the recording has none).
  let expected: String
  /// The server's value.
  let actual: String

  var description: String { "\(path): expected \(expected) got \(actual)" }
}

/// Semantic equality of protobuf JSON as the fixture README defines it, reporting every
/// difference with its path: a missing member equals its default (0, `""`, `false`, `[]`, `{}`,
/// enum value 0); int64 values compare equal whether written as strings or numbers; strings that
/// differ are equal when both are base64 of the same bytes (padding and URL-safe alphabet do not
/// matter); member order is ignored. A map entry is never a default, even with value 0
/// (`{"vector":{"X":"0"}}` is not `{}`).
///
/// Two arrays are compared as multisets because their order carries no meaning in Yorkie's
/// protocol: `clientIds` of a watch initialization (order of a server-side set) and the `nodes`
/// of a binary `JSONObject` (Yorkie's encoder walks a hash map). Everything else is ordered.
enum ReplayComparator {
  /// Member names whose object value is a protobuf map (an entry is meaningful even if zero).
  static let mapMembers: Set<String> = ["vector", "data", "metadata", "attributes", "presences", "createdAtMapByActor"]

  /// Enum names whose number is 0 (left out by canonical protobuf JSON).
  static let zeroEnumNames: Set<String> = [
    "VALUE_TYPE_NULL", "CHANGE_TYPE_UNSPECIFIED", "RESTORE_MODE_UNSPECIFIED", "DOC_EVENT_TYPE_DOCUMENT_CHANGED",
    "TYPE_UNSPECIFIED", "SERVING_STATUS_UNKNOWN",
  ]

  /// Every difference between `expected` and `actual` below `path`.
  static func differences(expected: WireJSON, actual: WireJSON, path: String = "") -> [ReplayDifference] {
    var result: [ReplayDifference] = []
    compare(expected, actual, path: path, key: nil, into: &result)
    return result
  }

  /// Appends the differences below `path`; `key` is the member name the values sit under.
  private static func compare(_ expected: WireJSON, _ actual: WireJSON, path: String, key: String?, into result: inout [ReplayDifference]) {
    switch (expected, actual) {
    case let (.object(x), .object(y)):
      let isMap = key.map(mapMembers.contains) ?? false
      var keys = x.map(\.key)
      for member in y where !keys.contains(member.key) { keys.append(member.key) }
      for name in keys {
        let left = x.first { $0.key == name }?.value
        let right = y.first { $0.key == name }?.value
        let childPath = path.isEmpty ? name : "\(path).\(name)"
        switch (left, right) {
        case let (l?, r?): compare(l, r, path: childPath, key: name, into: &result)
        case let (l?, nil) where isMap || !isDefault(l, key: name):
          result.append(ReplayDifference(path: childPath, expected: l.replayShort, actual: "(absent)"))
        case let (nil, r?) where isMap || !isDefault(r, key: name):
          result.append(ReplayDifference(path: childPath, expected: "(absent)", actual: r.replayShort))
        default: break
        }
      }
    case let (.array(x), .array(y)):
      if let key, unorderedArrays(key: key, path: path) {
        compareUnordered(x, y, path: path, key: key, into: &result)
        return
      }
      for index in 0..<min(x.count, y.count) {
        compare(x[index], y[index], path: "\(path)[\(index)]", key: key, into: &result)
      }
      if x.count != y.count {
        let extra = x.count > y.count ? x[y.count...] : y[x.count...]
        let listed = extra.prefix(3).map(\.replayShort).joined(separator: ", ")
        result.append(ReplayDifference(
          path: "\(path).count", expected: String(x.count),
          actual: "\(y.count) (\(x.count > y.count ? "missing" : "extra") from index \(min(x.count, y.count)): \(listed)\(extra.count > 3 ? ", …" : ""))"))
      }
    default:
      if !scalarsEqual(expected, actual, key: key) {
        result.append(ReplayDifference(path: path.isEmpty ? "(body)" : path, expected: expected.replayShort, actual: actual.replayShort))
      }
    }
  }

  /// Whether the array at `path` (member `key`) is compared as a multiset.
  private static func unorderedArrays(key: String, path: String) -> Bool {
    key == "clientIds" || (key == "nodes" && path.hasSuffix("jsonObject.nodes"))
  }

  /// Multiset comparison: both sides sorted by their canonical text, then compared in order.
  private static func compareUnordered(_ x: [WireJSON], _ y: [WireJSON], path: String, key: String, into result: inout [ReplayDifference]) {
    let sortedX = x.sorted { canonical($0).text < canonical($1).text }
    let sortedY = y.sorted { canonical($0).text < canonical($1).text }
    var inner: [ReplayDifference] = []
    if sortedX.count == sortedY.count {
      for (index, pair) in zip(sortedX, sortedY).enumerated() {
        compare(pair.0, pair.1, path: "\(path){sorted \(index)}", key: key, into: &inner)
      }
    }
    if sortedX.count != sortedY.count || !inner.isEmpty {
      // A multiset difference is easiest to read as the elements one side lacks.
      let textsY = sortedY.map { canonical($0).text }
      var remainingY = textsY
      var missing: [WireJSON] = []
      for element in sortedX {
        if let index = remainingY.firstIndex(of: canonical(element).text) { remainingY.remove(at: index) } else { missing.append(element) }
      }
      let extra = sortedY.filter { remainingY.contains(canonical($0).text) }
      if missing.isEmpty && extra.isEmpty {
        result += inner
      } else {
        result.append(ReplayDifference(
          path: "\(path) (unordered)", expected: "\(x.count) elements, missing here: " + missing.prefix(3).map(\.replayShort).joined(separator: ", "),
          actual: "\(y.count) elements, extra here: " + extra.prefix(3).map(\.replayShort).joined(separator: ", ")))
        result += inner.prefix(5)
      }
    }
  }

  /// Scalars (and mixed kinds) under the README's rules.
  private static func scalarsEqual(_ a: WireJSON, _ b: WireJSON, key: String?) -> Bool {
    switch (a, b) {
    case let (.number(x), .number(y)):
      if x == y { return true }
      if let ix = Int64(x), let iy = Int64(y) { return ix == iy }
      return Double(x) == Double(y)
    case let (.number(n), .string(s)), let (.string(s), .number(n)):
      if let i = Int64(n) { return Int64(s) == i }
      return Double(n) != nil && Double(n) == Double(s)
    case let (.string(x), .string(y)):
      if x == y { return true }
      if let ix = Int64(x), let iy = Int64(y) { return ix == iy }
      if let bx = ReplayBytes.fromBase64(x), let by = ReplayBytes.fromBase64(y) { return bx == by }
      return false
    case (.null, _): return isDefault(b, key: key ?? "")
    case (_, .null): return isDefault(a, key: key ?? "")
    default:
      // A default on one side and a different kind of default on the other (`0` and `""`).
      if isDefault(a, key: key ?? ""), isDefault(b, key: key ?? "") { return true }
      return a == b
    }
  }

  /// Whether `value` (of member `key`) is what protobuf JSON leaves out.
  static func isDefault(_ value: WireJSON, key: String) -> Bool {
    switch value {
    case .null: return true
    case .bool(let b): return !b
    case .number(let n): return Double(n) == 0
    case .string(let s): return s.isEmpty || s == "0" || zeroEnumNames.contains(s)
    case .array(let items): return items.isEmpty
    case .object(let members):
      if mapMembers.contains(key) { return members.isEmpty }
      return members.allSatisfy { isDefault($0.value, key: $0.key) }
    }
  }

  /// A canonical form for sorting: defaults dropped, members sorted, int64 strings as numbers.
  static func canonical(_ value: WireJSON, key: String = "") -> WireJSON {
    switch value {
    case .object(let members):
      let isMap = mapMembers.contains(key)
      let kept = members.filter { isMap || !isDefault($0.value, key: $0.key) }
      return .object(kept.map { WireJSON.Member($0.key, canonical($0.value, key: $0.key)) }.sorted { $0.key < $1.key })
    case .array(let items): return .array(items.map { canonical($0, key: key) })
    case .string(let s): return Int64(s).map { .number(String($0)) } ?? value
    case .number(let n): return Int64(n).map { .number(String($0)) } ?? value
    default: return value
    }
  }
}
