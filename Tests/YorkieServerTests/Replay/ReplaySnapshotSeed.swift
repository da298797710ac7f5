import Foundation
import YorkieProtocol

/// Rebuilds, from a recorded snapshot, a history that produces the same live document, for
/// recordings that attach to a document answered with a snapshot (`11-snapshot.json`): the Go
/// writer's changes are not in the recording, only their materialized result.
///
/// One change per Lamport timestamp of the snapshot's live elements, each operation issued at
/// the ticket the element carries (so identities match): a Set per root member (primitives and
/// counters with their final value, texts empty), then one Edit per live text insertion after
/// the previous one. The writer's presence PUT comes first, padding presence PUTs make the
/// number of changes equal to the recorded checkpoint (so `serverSeq`s and the snapshot
/// threshold behave as recorded), and a presence CLEAR ends it when the snapshot holds no
/// presence for the writer (it had detached).
///
/// What it cannot rebuild it refuses (``ReplayError``): several actors, nested objects or
/// arrays, trees at the root, text insertions that do not follow each other in Lamport order,
/// or more changes than the recorded checkpoint.
enum ReplaySnapshotSeed {
  /// The seed steps for a document whose snapshot (decoded) is `snapshot` at `serverSeq`.
  static func steps(snapshot: WireJSON, serverSeq: Int64) throws -> [ReplaySeedPlan.Step] {
    guard let root = snapshot["root"]?["jsonObject"] else { throw ReplayError("snapshot without a root object") }
    let live = ReplaySnapshotContent.element(snapshot["root"]!)
    var actors: Set<String> = []
    collectActors(live, into: &actors)
    actors.remove("AAAAAAAAAAAAAAAA")
    guard actors.count == 1, let writer = actors.first, let writerBytes = ReplayBytes.fromBase64(writer) else {
      throw ReplayError("the snapshot reconstruction needs exactly one writer actor, found \(actors.sorted())")
    }
    let rootTicket = WireJSON.object([.init("actorId", .string("AAAAAAAAAAAAAAAA"))])
    var operations: [Int64: [(delimiter: Int64, operation: WireJSON)]] = [:]
    func add(_ ticket: WireJSON, _ operation: WireJSON) {
      operations[ticket["lamport"]?.replayInt ?? 0, default: []].append((ticket["delimiter"]?.replayInt ?? 0, operation))
    }
    // The live root members, with their original elements (for text nodes).
    var originals: [String: WireJSON] = [:]
    for node in root["nodes"]?.replayArray ?? [] {
      guard let key = node["key"]?.replayString, let element = node["element"],
            element.replayMembers?.first?.value["removedAt"] == nil else { continue }
      originals[key] = element
    }
    for member in live["object"]?.replayMembers ?? [] {
      let key = member.key
      let createdAt = member.value["createdAt"] ?? .emptyObject
      func set(_ value: WireJSON) -> WireJSON {
        .object([.init("set", .object([.init("parentCreatedAt", rootTicket), .init("key", .string(key)),
                                       .init("value", value), .init("executedAt", createdAt)]))])
      }
      if let scalar = member.value["primitive"] ?? member.value["counter"] {
        add(createdAt, set(.object([.init("createdAt", createdAt), .init("type", scalar["type"] ?? .null), .init("value", scalar["value"] ?? .string(""))])))
      } else if member.value["text"] != nil, let text = originals[key]?["text"] {
        add(createdAt, set(.object([.init("createdAt", createdAt), .init("type", .string("VALUE_TYPE_TEXT"))])))
        var previous = WireJSON.object([.init("createdAt", rootTicket), .init("offset", .number("0")), .init("relativeOffset", .number("0"))])
        var previousLamport: Int64 = -1
        // Live pieces of one insertion (same creation ticket) travel as one Edit.
        var groups: [(ticket: WireJSON, content: String)] = []
        for node in text["nodes"]?.replayArray ?? [] where node["removedAt"] == nil {
          let ticket = node["id"]?["createdAt"] ?? .emptyObject
          let value = node["value"]?.replayString ?? ""
          if let last = groups.last, last.ticket == ticket { groups[groups.count - 1].content += value } else { groups.append((ticket, value)) }
        }
        for group in groups {
          let lamport = group.ticket["lamport"]?.replayInt ?? 0
          guard lamport > previousLamport else {
            throw ReplayError("text \(key): insertions out of Lamport order cannot be rebuilt one after the other")
          }
          previousLamport = lamport
          add(group.ticket, .object([.init("edit", .object([
            .init("parentCreatedAt", createdAt), .init("from", previous), .init("to", previous),
            .init("content", .string(group.content)), .init("executedAt", group.ticket),
          ]))]))
          previous = .object([.init("createdAt", group.ticket), .init("offset", .number("0")),
                              .init("relativeOffset", .number(String(group.content.utf16.count)))])
        }
      } else {
        throw ReplayError("the snapshot reconstruction handles primitives, counters and texts at the root, not \(key): \(member.value.replayShort)")
      }
    }
    // The changes: PUT, one per lamport, padding PUTs, CLEAR.
    let writerHex = ReplayBytes.hex(writerBytes)
    let presence = snapshot["presences"]?[writerHex]
    let put = WireJSON.object([.init("type", .string("CHANGE_TYPE_PUT")), .init("presence", presence ?? .object([.init("data", .emptyObject)]))])
    var changes: [WireJSON] = []
    func presenceChange(_ body: WireJSON) -> WireJSON {
      .object([.init("id", .object([.init("clientSeq", .number(String(changes.count + 1))), .init("actorId", .string(writer))])),
               .init("presenceChange", body)])
    }
    changes.append(presenceChange(put))
    var lamports: [Int64] = []
    for lamport in operations.keys.sorted() {
      let vector = WireJSON.object([.init("vector", .object([.init(writer, .string(String(lamport)))]))])
      let id = WireJSON.object([.init("clientSeq", .number(String(changes.count + 1))), .init("lamport", .string(String(lamport))),
                                .init("actorId", .string(writer)), .init("versionVector", vector)])
      changes.append(.object([.init("id", id), .init("operations", .array(operations[lamport]!.sorted { $0.delimiter < $1.delimiter }.map(\.operation)))]))
      lamports.append(lamport)
    }
    let clears = presence == nil
    guard Int64(changes.count + (clears ? 1 : 0)) <= serverSeq else {
      throw ReplayError("the reconstruction needs \(changes.count) changes, more than the recorded checkpoint \(serverSeq)")
    }
    while Int64(changes.count + (clears ? 1 : 0)) < serverSeq { changes.append(presenceChange(put)) }
    if clears { changes.append(presenceChange(.object([.init("type", .string("CHANGE_TYPE_CLEAR"))]))) }
    // One step per change, with the writer's own lamport as its version vector.
    var highest: Int64 = 0
    return changes.enumerated().map { index, change in
      highest = max(highest, change["id"]?["lamport"]?.replayInt ?? 0)
      let call: ReplaySeedPlan.Step.Call = index == 0 ? .attach : (clears && index == changes.count - 1 ? .detach : .pushPull)
      return ReplaySeedPlan.Step(actorHex: writerHex, call: call, change: change, recordedServerSeq: Int64(index + 1),
                                 clientSeq: Int64(index + 1), versionVector: [(writer, highest)])
    }
  }

  /// Every `actorId` in `json`.
  private static func collectActors(_ json: WireJSON, into actors: inout Set<String>) {
    switch json {
    case .object(let members):
      for member in members {
        if member.key == "actorId", let actor = member.value.replayString { actors.insert(actor) }
        collectActors(member.value, into: &actors)
      }
    case .array(let items): items.forEach { collectActors($0, into: &actors) }
    default: break
    }
  }
}
