import Foundation
import YorkieProtocol

// Small accessors and transformations of `WireJSON` that the replay harness needs: reading the
// recordings, rewriting ids, building seed requests.

extension WireJSON {
  /// The string, when this is one.
  var replayString: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The integer value of a number or of a numeric string (int64 fields are strings in
  /// protobuf JSON), exact for every Int64.
  var replayInt: Int64? {
    switch self {
    case .number(let literal), .string(let literal): return Int64(literal)
    default: return nil
    }
  }

  /// The items, when this is an array.
  var replayArray: [WireJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// The members, when this is an object.
  var replayMembers: [Member]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// A copy with member `key` set to `value` (replaced in place when present, appended
  /// otherwise), or removed when `value` is nil. Not an object: unchanged.
  func replaySetting(_ key: String, _ value: WireJSON?) -> WireJSON {
    guard case .object(var members) = self else { return self }
    if let index = members.firstIndex(where: { $0.key == key }) {
      if let value { members[index].value = value } else { members.remove(at: index) }
    } else if let value {
      members.append(Member(key, value))
    }
    return .object(members)
  }

  /// The value at a path of member names and array indexes (`["changePack", "changes", 0]`).
  subscript(replayPath path: [ReplayPathComponent]) -> WireJSON? {
    var current: WireJSON? = self
    for component in path {
      switch component {
      case .key(let key): current = current?[key]
      case .index(let index):
        guard let items = current?.replayArray, items.indices.contains(index) else { return nil }
        current = items[index]
      }
    }
    return current
  }

  /// Rewrites every string value and every object member name with `transform`, depth first.
  func replayMappingStrings(_ transform: (String) -> String) -> WireJSON {
    switch self {
    case .string(let text): return .string(transform(text))
    case .array(let items): return .array(items.map { $0.replayMappingStrings(transform) })
    case .object(let members):
      return .object(members.map { Member(transform($0.key), $0.value.replayMappingStrings(transform)) })
    default: return self
    }
  }

  /// Rewrites every object (depth first, children before their parent) with `transform`.
  func replayMappingObjects(_ transform: ([Member]) -> [Member]) -> WireJSON {
    switch self {
    case .array(let items): return .array(items.map { $0.replayMappingObjects(transform) })
    case .object(let members):
      return .object(transform(members.map { Member($0.key, $0.value.replayMappingObjects(transform)) }))
    default: return self
    }
  }

  /// The value as compact JSON text, for failure messages (long values are cut).
  var replayShort: String {
    let text = self.text
    return text.count > 300 ? String(text.prefix(300)) + "…" : text
  }
}

/// One step of a path into a JSON value.
enum ReplayPathComponent: Sendable, Equatable {
  /// A member of an object.
  case key(String)
  /// An item of an array.
  case index(Int)
}
