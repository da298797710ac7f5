import Foundation
import YorkieProtocol

/// The changes a recording pulls that nobody pushed inside it, and how to push them so that the
/// server under test holds the same history before the recorded calls need it.
///
/// Scenarios 02–11 attach to documents that a Go SDK writer filled before the recording, and
/// some recordings pull the presence changes of a Go client that attached between two calls
/// (`notes`: `after exchange 7: a Go SDK client (ids.goDump) …`). A change is *foreign* when its
/// actor is not a client the recording activated itself. Every foreign change is pushed
/// verbatim (its original actor id — the server, like Yorkie, does not check it against the
/// pushing client — without `serverSeq`) by a seed client per actor, in the order of the
/// recorded `serverSeq`s, one change per call, as the Go SDK does: the actor's first change in
/// an AttachDocument (the SDK's initial presence PUT), the next ones in PushPullChanges, and its
/// last change in DetachDocument when it is a presence CLEAR (what the SDK sends on detach).
/// An actor whose last change is not a CLEAR stays attached, as in the recording (bob in
/// `09-presence.json`), so that the server's minimum version vector keeps its row.
///
/// Each push carries the version vector a Go client would report: the element-wise maximum of
/// the vectors of every change of the document up to this one (as pulled in the recording),
/// plus the actor's own highest lamport. The server returns it in later minimum version
/// vectors while that seed client stays attached.
struct ReplaySeedPlan: Sendable {
  /// The pushes that happen at one point of the replay for one document.
  struct Episode: Sendable {
    /// The exchange the pushes follow; nil before the first exchange.
    let afterExchange: Int?
    /// The document key.
    let documentKey: String
    /// The pushes, in `serverSeq` order.
    let steps: [Step]
  }

  /// One push of one foreign change.
  struct Step: Sendable {
    /// How the change travels.
    enum Call: Sendable, Equatable { case attach, pushPull, detach }
    /// The actor (hex) whose seed client pushes it.
    let actorHex: String
    let call: Call
    /// The change as pulled, without `serverSeq`.
    let change: WireJSON
    /// The `serverSeq` the recording shows for it.
    let recordedServerSeq: Int64
    /// The change's `clientSeq`.
    let clientSeq: Int64
    /// The pack's version vector (base64 actor → lamport).
    let versionVector: [(actor: String, lamport: Int64)]
  }

  /// Every episode, in replay order (before the first exchange first).
  let episodes: [Episode]

  /// The plan for `recording`.
  ///
  /// - Throws: ``ReplayError`` when a foreign actor's client sequences do not run 1, 2, 3, …
  ///   without gaps (the server would refuse them), or when the recording pulls the same
  ///   `serverSeq` of one document twice with different changes.
  init(_ recording: ReplayRecording) throws {
    let own = recording.activatedClientIDs
    let zeroActor = String(repeating: "0", count: 24)
    var injection: [String: Int] = [:]  // actor hex → exchange it follows
    for note in recording.notes {
      if case .foreignClient(let role) = note.event, let id = recording.id(role: role), let after = note.afterExchange {
        injection[id.hex] = after
      }
    }
    // Every pulled change, per document key and serverSeq.
    var pulled: [String: [Int64: WireJSON]] = [:]
    for exchange in recording.exchanges {
      guard case .json(let body) = exchange.response, let pack = body["changePack"],
            let key = pack["documentKey"]?.replayString else { continue }
      for change in pack["changes"]?.replayArray ?? [] {
        guard let serverSeq = change["id"]?["serverSeq"]?.replayInt else { continue }
        if let known = pulled[key]?[serverSeq], !ReplayComparator.differences(expected: known, actual: change).isEmpty {
          throw ReplayError("\(recording.name): serverSeq \(serverSeq) of \(key) is pulled twice with different content")
        }
        pulled[key, default: [:]][serverSeq] = change
      }
    }
    var episodes: [Episode] = []
    for key in pulled.keys.sorted() {
      let changes = pulled[key]!.sorted { $0.key < $1.key }
      var foreign: [(serverSeq: Int64, actor: String, change: WireJSON)] = []
      for (serverSeq, change) in changes {
        guard let actor = change["id"]?["actorId"]?.replayString.flatMap(ReplayBytes.fromBase64).map(ReplayBytes.hex),
              actor != zeroActor, !own.contains(actor) else { continue }
        foreign.append((serverSeq, actor, change))
      }
      // Client sequences per actor must be 1, 2, 3, … for the server to accept them.
      for actor in Set(foreign.map(\.actor)) {
        let seqs = foreign.filter { $0.actor == actor }.map { $0.change["id"]?["clientSeq"]?.replayInt ?? 0 }
        guard seqs == Array(1...Int64(seqs.count)) else {
          throw ReplayError("\(recording.name): the pulled changes of actor \(actor) in \(key) have client sequences \(seqs), not 1…n: they cannot be pushed again")
        }
      }
      var steps: [(after: Int?, step: Step)] = []
      var maxVector: [String: Int64] = [:]
      var ownLamport: [String: Int64] = [:]
      var seen: Set<String> = []
      var allChanges = changes[...]
      for entry in foreign {
        // The vector of everything the document held up to this change.
        while let next = allChanges.first, next.key <= entry.serverSeq {
          for member in next.value["id"]?["versionVector"]?["vector"]?.replayMembers ?? [] {
            maxVector[member.key] = max(maxVector[member.key] ?? 0, member.value.replayInt ?? 0)
          }
          allChanges.removeFirst()
        }
        let base64 = ReplayBytes.base64(ReplayBytes.fromHex(entry.actor)!)
        ownLamport[entry.actor] = max(ownLamport[entry.actor] ?? 0, entry.change["id"]?["lamport"]?.replayInt ?? 0)
        var vector = maxVector
        vector[base64] = max(vector[base64] ?? 0, ownLamport[entry.actor]!)
        let isLast = foreign.last { $0.actor == entry.actor }?.serverSeq == entry.serverSeq
        let isClear = entry.change["presenceChange"]?["type"] == .string("CHANGE_TYPE_CLEAR")
        let call: Step.Call = !seen.contains(entry.actor) ? .attach : (isLast && isClear ? .detach : .pushPull)
        seen.insert(entry.actor)
        let id = entry.change["id"]!.replaySetting("serverSeq", nil)
        steps.append((injection[entry.actor], Step(
          actorHex: entry.actor, call: call, change: entry.change.replaySetting("id", id), recordedServerSeq: entry.serverSeq,
          clientSeq: entry.change["id"]?["clientSeq"]?.replayInt ?? 0,
          versionVector: vector.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
      }
      // One episode per injection point, steps in serverSeq order.
      let points = Set(steps.map { $0.after ?? -1 }).sorted()
      for point in points {
        episodes.append(Episode(afterExchange: point < 0 ? nil : point, documentKey: key,
                                steps: steps.filter { ($0.after ?? -1) == point }.map(\.step)))
      }
    }
    // A document whose first attach is answered with a snapshot: rebuild it from the snapshot.
    for exchange in recording.exchanges {
      guard case .json(let body) = exchange.response, let pack = body["changePack"], let key = pack["documentKey"]?.replayString,
            let text = pack["snapshot"]?.replayString, !text.isEmpty,
            ReplaySeedPlan.firstExchange(naming: key, in: recording) == exchange.index,
            !episodes.contains(where: { $0.documentKey == key && $0.afterExchange == nil }) else { continue }
      guard let bytes = ReplayBytes.fromBase64(text) else { throw ReplayError("\(recording.name): exchange \(exchange.index): snapshot is not base64") }
      let snapshot = try ReplayProtoDecoder.decode(bytes, as: "Snapshot")
      let steps = try ReplaySnapshotSeed.steps(snapshot: snapshot, serverSeq: pack["checkpoint"]?["serverSeq"]?.replayInt ?? 0)
      episodes.append(Episode(afterExchange: nil, documentKey: key, steps: steps))
    }
    self.episodes = episodes.sorted { ($0.afterExchange ?? -1) < ($1.afterExchange ?? -1) }
  }

  /// The index of the first exchange whose request names document `key`.
  static func firstExchange(naming key: String, in recording: ReplayRecording) -> Int? {
    recording.exchanges.first { exchange in
      if case .json(let request) = exchange.request { return request["changePack"]?["documentKey"]?.replayString == key }
      return false
    }?.index
  }

  /// The episodes that happen right after exchange `index` (nil: before the first exchange).
  func episodes(after index: Int?) -> [Episode] { episodes.filter { $0.afterExchange == index } }
}
