import Foundation
import YorkieProtocol

/// The live content of a decoded `Snapshot` (protobuf-JSON form, as ``ReplayProtoDecoder``
/// gives it): what a replica materializes, without Yorkie's history. For each object member the
/// winning live value; array elements and text in document order, removed ones left out; every
/// live element with its creation ticket, so that identities are still compared. Trees are kept
/// whole. Presences are kept.
///
/// Used for `11-snapshot.json`, whose document the replay rebuilds from the recorded snapshot
/// (``ReplaySnapshotSeed``): the rebuilt history is not Yorkie's, so tombstones and the
/// tickets that removed them legitimately differ.
enum ReplaySnapshotContent {
  /// The live content of `snapshot`.
  static func live(_ snapshot: WireJSON) -> WireJSON {
    var members: [WireJSON.Member] = []
    if let root = snapshot["root"] { members.append(WireJSON.Member("root", element(root))) }
    if let presences = snapshot["presences"] { members.append(WireJSON.Member("presences", presences)) }
    return .object(members)
  }

  /// The live form of a `JSONElement`.
  static func element(_ element: WireJSON) -> WireJSON {
    if let object = element["jsonObject"] {
      var live: [WireJSON.Member] = []
      var winners: [String: WireJSON] = [:]
      var order: [String] = []
      for node in object["nodes"]?.replayArray ?? [] {
        guard let key = node["key"]?.replayString, let child = node["element"], !isRemoved(child) else { continue }
        if let current = winners[key] {
          if ticketLess(position(current), position(child)) { winners[key] = child }
        } else {
          winners[key] = child
          order.append(key)
        }
      }
      for key in order.sorted() { live.append(WireJSON.Member(key, self.element(winners[key]!))) }
      return .object([.init("object", .object(live)), .init("createdAt", meta(object, "createdAt"))])
    }
    if let array = element["jsonArray"] {
      let items = (array["nodes"]?.replayArray ?? []).compactMap { node -> WireJSON? in
        guard let child = node["element"], !isRemoved(child) else { return nil }
        return self.element(child)
      }
      return .object([.init("array", .array(items)), .init("createdAt", meta(array, "createdAt"))])
    }
    if let text = element["text"] {
      let content = (text["nodes"]?.replayArray ?? []).filter { $0["removedAt"] == nil }.compactMap { $0["value"]?.replayString }.joined()
      return .object([.init("text", .string(content)), .init("createdAt", meta(text, "createdAt"))])
    }
    for kind in ["primitive", "counter"] {
      if let scalar = element[kind] {
        return .object([.init(kind, .object([.init("type", scalar["type"] ?? .null), .init("value", scalar["value"] ?? .string(""))])),
                        .init("createdAt", meta(scalar, "createdAt"))])
      }
    }
    return element
  }

  /// Whether a `JSONElement` is a tombstone.
  private static func isRemoved(_ element: WireJSON) -> Bool {
    guard let body = element.replayMembers?.first?.value else { return false }
    return body["removedAt"] != nil
  }

  /// The ticket that orders an object member: moved-at if set, else created-at.
  private static func position(_ element: WireJSON) -> WireJSON {
    guard let body = element.replayMembers?.first?.value else { return .null }
    return body["movedAt"] ?? body["createdAt"] ?? .null
  }

  /// A ticket member, `{}` when absent.
  private static func meta(_ body: WireJSON, _ key: String) -> WireJSON { body[key] ?? .emptyObject }

  /// Yorkie's ticket order: lamport, then actor bytes, then delimiter.
  static func ticketLess(_ a: WireJSON, _ b: WireJSON) -> Bool {
    let la = a["lamport"]?.replayInt ?? 0, lb = b["lamport"]?.replayInt ?? 0
    if la != lb { return la < lb }
    let aa = ReplayBytes.fromBase64(a["actorId"]?.replayString ?? "") ?? []
    let ab = ReplayBytes.fromBase64(b["actorId"]?.replayString ?? "") ?? []
    if aa != ab { return aa.lexicographicallyPrecedes(ab) }
    return (a["delimiter"]?.replayInt ?? 0) < (b["delimiter"]?.replayInt ?? 0)
  }
}
