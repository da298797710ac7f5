@testable import CRDT
import Foundation

// The part of the fuzzers that runs inside `Document.update`: it picks proxies (fresh ones
// reached from the root, ones handed out earlier in the same update, rejected ones, expired
// ones from earlier updates), makes random editing calls with valid and invalid arguments,
// predicts each call's outcome from the model (FuzzModel.swift), and notes every disagreement.

/// The error an updater throws on purpose, halfway through its edits.
struct FuzzAbort: Error, Equatable {
  let id: Int
}

/// Thrown out of an updater once a problem was noted, to end the step.
struct FuzzStop: Error {}

/// A proxy the fuzzer holds, with the model node it edits (a placeholder for a rejected one).
struct FuzzHandle {
  enum Target {
    case object(JSONObject, ModelObject)
    case array(JSONArray, ModelArray)
    case text(JSONText, ModelText)
    case counter(JSONCounter, ModelCounter)
  }

  let target: Target
  /// The error of the setter that handed out a rejected proxy.
  let rejection: YorkieError.Code?
  /// The update that handed the proxy out.
  let generation: Int
}

/// How a proxy must behave now.
enum FuzzAccess: Equatable {
  case live
  case rejected(YorkieError.Code)
  case expired
}

/// Where an ID given to an ID-based array call comes from, and so what the call must do.
enum FuzzIDState {
  case live(Int)
  case tombstone
  case purged
  case unknown

  /// The error of `insert(after:)` and the moves, which want a live element.
  var positionError: YorkieError.Code? {
    switch self {
    case .live: return nil
    case .tombstone: return .elementRemoved
    case .purged, .unknown: return .elementNotFound
    }
  }

  /// The error of `remove(id:)`.
  var removeError: YorkieError.Code? {
    if case .live = self { return nil }
    return .elementNotFound
  }

  var index: Int {
    if case .live(let index) = self { return index }
    return -1
  }
}

/// The fuzzers' state: random source, model, proxies, and what the current update must end with.
/// One instance per seed; the tests run it sequentially, never from two tasks at once.
final class FuzzSession: @unchecked Sendable {
  let seed: UInt64
  var rng: SeededRandom
  /// The model of the document being edited.
  var model = ModelObject()
  /// Whether each update starts from a model read back from the document (the replica test,
  /// where remote changes arrive between updates), instead of the persistent model.
  let readsModelBack: Bool
  /// An actor no replica uses, for IDs that name nothing.
  let foreignActor: ActorID

  /// Root keys that the replicas share: calls on the root overwrite them only now and then.
  var sharedKeys: Set<String> = []

  private(set) var generation = 0
  private(set) var inUpdate = false
  private(set) var handles: [FuzzHandle] = []
  private(set) var expired: [FuzzHandle] = []
  private var expiredPresences: [Presence] = []
  /// The first error a setter that cannot throw recorded in this update.
  private(set) var firstRecorded: YorkieError.Code?
  /// The error the updater threw (a `FuzzAbort`, or an expected `YorkieError` passed on).
  private(set) var propagated: (any Error)?
  /// Whether a call that records an operation succeeded in this update.
  private(set) var edited = false

  private(set) var problems: [String] = []
  /// How often each kind of outcome happened (calls that succeeded, errors by code, update
  /// outcomes), printed at the end of a seed to show what the run covered.
  var stats: [String: Int] = [:]
  /// The latest calls, for failure reports.
  private(set) var trail: [String] = []
  var label = ""

  init(seed: UInt64, readsModelBack: Bool) {
    self.seed = seed
    self.readsModelBack = readsModelBack
    rng = SeededRandom(seed: seed)
    foreignActor = ActorID.random(using: &rng)
  }

  // MARK: Random helpers

  func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }
  func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
  func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }

  static let keys = ["a", "b", "c", "title", "list", "t", "n", "$", "", "😀", "k k", "q\"", "\n\u{0}", "\u{2028}"]
  static let badKeys = ["a.b", ".", "x.", ".y", "$.x", "😀.😀"]
  static let pieces = ["a", "b", "Z", " ", "😀", "é", "🇯🇵", "\n", "\"", "\\", "中", "e\u{301}", "xyz", "👍🏽", "\u{0}", "\u{1F}\u{7F}", "\u{2028}", "\u{FEFF}"]
  static let attributeKeys = ["b", "i", "color", "size", "$x", "q\"", "😀"]
  static let dedupActors = ["u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7"]

  func randomKey(_ object: ModelObject?) -> String {
    let r = int(0..<100)
    if r < 40, let object, !object.members.isEmpty { return pick(object.keys) }
    if r < 96 { return pick(FuzzSession.keys) }
    return pick(FuzzSession.badKeys)
  }

  func randomString(maxPieces: Int = 4) -> String {
    (0..<int(0...maxPieces)).map { _ in pick(FuzzSession.pieces) }.joined()
  }

  /// A value to write; about one in twelve is invalid (NaN, an infinity, or a key with ".").
  func randomValue(depth: Int = 0) -> JSONValue {
    switch int(0..<(depth < 2 ? 15 : 11)) {
    case 0: return .null
    case 1: return .bool(chance(0.5))
    case 2: return .integer(pick([0, 1, -1, .max, .min, Int32(int(-1000...1000))]))
    case 3: return .long(pick([0, 1, .max, .min, Int64(int(-100_000...100_000)) * 1_000_003]))
    case 4:
      if chance(0.08) { return .double(pick([.nan, .infinity, -.infinity])) }
      return .double(pick([0.5, -2.25, 1e300, -0.0, 3, 1.0 / 3, 123_456.789]))
    case 5, 6: return .string(randomString())
    case 7: return .bytes(Data((0..<int(0...4)).map { _ in UInt8(int(0...255)) }))
    case 8:
      switch int(0..<12) {
      case 0:
        // Past what a JavaScript date holds, or NaN: invalidNumber.
        return .date(pick([Date(timeIntervalSince1970: 1e20), Date(timeIntervalSince1970: -8.64e12 - 1),
                           Date(timeIntervalSinceReferenceDate: .nan)]))
      case 1:
        return .date(Date(timeIntervalSince1970: chance(0.5) ? 8.64e12 : -8.64e12))
      default:
        // Whole milliseconds from 1906 to 2033, sometimes with a fraction to round down.
        let ms = Double(int(-2_000_000_000_000...2_000_000_000_000))
        return .date(Date(timeIntervalSince1970: ms / 1000 + (chance(0.3) ? 0.000_4 : 0)))
      }
    case 9, 10: return .string(pick(["", "x", "😀"]))
    case 11, 12: return .array((0..<int(0...3)).map { _ in randomValue(depth: depth + 1) })
    default:
      var members: [(key: String, value: JSONValue)] = []
      for _ in 0..<int(0...3) {
        let key = chance(0.08) ? pick(FuzzSession.badKeys) : pick(FuzzSession.keys)
        members.append((key: key, value: randomValue(depth: depth + 1)))
      }
      return .object(JSONValue.Object(members))
    }
  }

  func randomAttributes() -> [String: JSONValue] {
    var attributes: [String: JSONValue] = [:]
    for _ in 0..<int(1...2) {
      let value: JSONValue = chance(0.05)
        ? .double(pick([.nan, .infinity]))
        : pick([true, false, .integer(Int32(int(-5...5))), "red", "😀 \"q\"", .null])
      attributes[pick(FuzzSession.attributeKeys)] = value
    }
    return attributes
  }

  // MARK: Bookkeeping

  func count(_ outcome: String) { stats[outcome, default: 0] += 1 }

  var statsLine: String { stats.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }

  /// A map of values as JSON with sorted keys, for the trail.
  static func show(_ values: [String: JSONValue]) -> String {
    JSONValue.object(JSONValue.Object(values.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })).jsonString
  }

  func note(_ call: String) {
    trail.append("\(label)\(call)")
    let limit = Int(ProcessInfo.processInfo.environment["CRDT_FUZZ_TRAIL"] ?? "") ?? 24
    if trail.count > limit { trail.removeFirst(trail.count - limit) }
  }

  func problem(_ message: String) {
    problems.append(message)
  }

  func access(_ handle: FuzzHandle) -> FuzzAccess {
    guard inUpdate, handle.generation == generation else { return .expired }
    if let rejection = handle.rejection { return .rejected(rejection) }
    return .live
  }

  private func record(_ code: YorkieError.Code) {
    if firstRecorded == nil { firstRecorded = code }
  }

  /// What a throwing call through `handle` must throw (nil: it must succeed).
  func expectedError(_ handle: FuzzHandle, _ liveError: @autoclosure () -> YorkieError.Code?) -> YorkieError.Code? {
    switch access(handle) {
    case .expired: return .proxyExpired
    case .rejected(let code): return code
    case .live: return liveError()
    }
  }

  /// For a setter that cannot throw: notes the error it records, and says whether it edits.
  func setterApplies(_ handle: FuzzHandle, _ liveError: YorkieError.Code?) -> Bool {
    switch access(handle) {
    case .expired:
      // It records into its own, finished update: the current one is not affected.
      count("setter on expired proxy")
      return false
    case .rejected(let code):
      count("setter on rejected proxy")
      record(code)
      return false
    case .live:
      if let liveError {
        count("setter recorded \(liveError)")
        record(liveError)
        return false
      }
      count("setter ok")
      edited = true
      return true
    }
  }

  /// Runs a throwing call that must fail with `expected` (or succeed when it is nil); returns
  /// whether it succeeded. Now and then an expected error is passed on, which ends the update.
  func attempt(_ call: String, _ expected: YorkieError.Code?, _ body: () throws -> Void) throws -> Bool {
    note("\(call) → \(expected.map { "\($0)" } ?? "ok")")
    let name = String(call.prefix { $0 != "(" })
    do {
      try body()
    } catch let error as YorkieError {
      guard let expected else {
        problem("valid call \(call) failed: \(error)")
        return false
      }
      if error.code != expected { problem("\(call) threw \(error.code), expected \(expected): \(error.message)") }
      count("threw \(error.code)")
      if inUpdate && chance(0.04) {
        note("  (passing \(error.code) on)")
        propagated = error
        throw error
      }
      return false
    } catch {
      problem("\(call) threw \(error), not a YorkieError")
      return false
    }
    if let expected {
      problem("invalid call \(call) succeeded, expected \(expected)")
      return false
    }
    count("ok \(name)")
    edited = true
    return true
  }

  private func adopt(_ handle: FuzzHandle) {
    if inUpdate && handle.generation == generation { handles.append(handle) } else { expired.append(handle) }
  }

  /// The handle of a proxy a `setNew…`/`appendNew…` call on `parent` returned.
  private func child(of parent: FuzzHandle, _ target: FuzzHandle.Target, liveError: YorkieError.Code?) -> FuzzHandle {
    switch access(parent) {
    case .expired: return FuzzHandle(target: target, rejection: .proxyExpired, generation: parent.generation)
    case .rejected(let code): return FuzzHandle(target: target, rejection: code, generation: parent.generation)
    case .live: return FuzzHandle(target: target, rejection: liveError, generation: parent.generation)
    }
  }

  // MARK: Updates

  func beginUpdate() {
    generation += 1
    inUpdate = true
    handles = []
    firstRecorded = nil
    propagated = nil
    edited = false
  }

  func endUpdate() {
    inUpdate = false
    expired.append(contentsOf: handles.suffix(6))
    if expired.count > 30 { expired.removeFirst(expired.count - 30) }
    handles = []
  }

  /// The updater: a few random calls, sometimes an error thrown on purpose.
  func run(_ root: JSONObject, _ presence: Presence) throws {
    if readsModelBack {
      model = ModelReader.read(root)
    } else if chance(0.1) {
      let read = ModelCompare.describe(.object(ModelReader.read(root)))
      let expected = ModelCompare.describe(.object(model))
      if read != expected { problem("reading the root through proxies gives \(read), the model \(expected)") }
    }
    handles.append(FuzzHandle(target: .object(root, model), rejection: nil, generation: generation))
    defer { expiredPresences.append(presence); if expiredPresences.count > 4 { expiredPresences.removeFirst() } }
    for _ in 0..<int(1...5) {
      try step(presence)
      if !problems.isEmpty { throw FuzzStop() }
      if chance(0.015) { try abort() }
    }
    if chance(0.03) { try abort() }
  }

  private func abort() throws {
    let error = FuzzAbort(id: int(0...1_000_000))
    note("throw \(error)")
    propagated = error
    throw error
  }

  /// Says whether the update ended as the calls it made require; returns whether it had to fail.
  func checkOutcome(_ thrown: (any Error)?) -> Bool {
    if let propagated {
      switch (propagated, thrown) {
      case (let expected as FuzzAbort, let found as FuzzAbort) where expected == found: break
      case (let expected as YorkieError, let found as YorkieError) where expected.code == found.code: break
      default: problem("the updater threw \(propagated), the update \(thrown.map { "threw \($0)" } ?? "succeeded")")
      }
      count("update failed: updater threw")
      return true
    }
    if let firstRecorded {
      if (thrown as? YorkieError)?.code != firstRecorded {
        problem("a setter recorded \(firstRecorded), the update \(thrown.map { "threw \($0)" } ?? "succeeded")")
      }
      count("update failed: setter recorded")
      return true
    }
    if let thrown { problem("the update failed with \(thrown)") }
    count("update ok")
    return false
  }

  /// Uses expired proxies outside any update: edits must throw `proxyExpired` or do nothing,
  /// reads must answer as for an absent element.
  func probeExpired() throws {
    guard !expired.isEmpty else { return }
    for _ in 0..<int(1...3) { try act(on: pick(expired)) }
    if let presence = expiredPresences.last {
      presence.set(["late": true])
      if presence.get("late") != nil || !presence.values.isEmpty { problem("an expired presence still reads values") }
    }
  }

  private func step(_ presence: Presence) throws {
    let r = int(0..<100)
    if r < 58 {
      if let handle = navigate() { try act(on: handle) }
    } else if r < 83 {
      // Rejected proxies are rare and doom the update: use them while there is one.
      let rejected = handles.filter { $0.rejection != nil }
      try act(on: pick(rejected.isEmpty || chance(0.5) ? handles : rejected))
    } else if r < 95 {
      try act(on: expired.isEmpty ? pick(handles) : pick(expired))
    } else {
      presenceStep(presence)
    }
  }

  private func presenceStep(_ presence: Presence) {
    if chance(0.75) || expiredPresences.isEmpty {
      let values: [String: JSONValue] = ["cursor": .integer(Int32(int(0...99))), "name": .string(randomString(maxPieces: 2))]
      note("presence.set \(FuzzSession.show(values))")
      presence.set(values)
      edited = true
      if presence.get("cursor") != values["cursor"] { problem("presence does not read back what was set") }
    } else {
      note("expired presence.set")
      let old = pick(expiredPresences)
      old.set(["stale": true])
      if old.get("stale") != nil || !old.values.isEmpty { problem("an expired presence still reads values") }
    }
  }

  // MARK: Reaching containers

  private enum PathStep {
    case key(String)
    case index(Int)
  }

  private func containers() -> [(path: [PathStep], node: ModelNode)] {
    var found: [(path: [PathStep], node: ModelNode)] = [(path: [], node: .object(model))]
    func walk(_ node: ModelNode, _ path: [PathStep]) {
      switch node {
      case .object(let object):
        for member in object.members { visit(member.node, path + [.key(member.key)]) }
      case .array(let array):
        for (index, item) in array.items.enumerated() { visit(item, path + [.index(index)]) }
      default: break
      }
    }
    func visit(_ node: ModelNode, _ path: [PathStep]) {
      switch node {
      case .primitive, .date: return
      default: break
      }
      found.append((path: path, node: node))
      walk(node, path)
    }
    walk(.object(model), [])
    return found
  }

  /// A fresh proxy for a random container of the model, reached from the root through the
  /// typed getters (each of which must agree with the model).
  private func navigate() -> FuzzHandle? {
    // Calls on objects mostly overwrite whole subtrees, calls on counters change little:
    // prefer arrays and texts, which then grow long enough to be interesting.
    let all = containers()
    let weights = all.map { entry -> Int in
      switch entry.node {
      case .array, .text: return 4
      case .object: return entry.path.isEmpty && sharedKeys.isEmpty ? 2 : 1
      default: return 1
      }
    }
    var ticket = int(0..<weights.reduce(0, +))
    var chosen = 0
    while ticket >= weights[chosen] {
      ticket -= weights[chosen]
      chosen += 1
    }
    let path = all[chosen].path
    var current = handles[0]
    var node = ModelNode.object(model)
    var where_ = "$"
    for step in path {
      let childNode: ModelNode
      switch (node, step) {
      case (.object(let object), .key(let key)): childNode = object.get(key)!
      case (.array(let array), .index(let index)): childNode = array.items[index]
      default: return nil
      }
      guard let next = open(current, step, childNode) else {
        problem("the getter for the \(childNode.kindName) at \(where_) \(step) answered nil or a wrong kind")
        return nil
      }
      switch step {
      case .key(let key): where_ += ".\(key)"
      case .index(let index): where_ += ".\(index)"
      }
      current = next
      node = childNode
    }
    note("at \(where_)")
    handles.append(current)
    return current
  }

  private func open(_ parent: FuzzHandle, _ step: PathStep, _ child: ModelNode) -> FuzzHandle? {
    let target: FuzzHandle.Target?
    switch (parent.target, step, child) {
    case (.object(let p, _), .key(let k), .object(let m)):
      guard p.array(k) == nil, p.text(k) == nil, p.counter(k) == nil else { return nil }
      target = p.object(k).map { .object($0, m) }
    case (.object(let p, _), .key(let k), .array(let m)):
      guard p.object(k) == nil, p.text(k) == nil, p.counter(k) == nil else { return nil }
      target = p.array(k).map { .array($0, m) }
    case (.object(let p, _), .key(let k), .text(let m)):
      guard p.object(k) == nil, p.array(k) == nil, p.counter(k) == nil else { return nil }
      target = p.text(k).map { .text($0, m) }
    case (.object(let p, _), .key(let k), .counter(let m)):
      guard p.object(k) == nil, p.array(k) == nil, p.text(k) == nil else { return nil }
      target = p.counter(k).map { .counter($0, m) }
    case (.array(let p, _), .index(let i), .object(let m)):
      guard p.array(at: i) == nil, p.text(at: i) == nil, p.counter(at: i) == nil else { return nil }
      target = p.object(at: i).map { .object($0, m) }
    case (.array(let p, _), .index(let i), .array(let m)):
      guard p.object(at: i) == nil, p.text(at: i) == nil, p.counter(at: i) == nil else { return nil }
      target = p.array(at: i).map { .array($0, m) }
    case (.array(let p, _), .index(let i), .text(let m)):
      guard p.object(at: i) == nil, p.array(at: i) == nil, p.counter(at: i) == nil else { return nil }
      target = p.text(at: i).map { .text($0, m) }
    case (.array(let p, _), .index(let i), .counter(let m)):
      guard p.object(at: i) == nil, p.array(at: i) == nil, p.text(at: i) == nil else { return nil }
      target = p.counter(at: i).map { .counter($0, m) }
    default:
      target = nil
    }
    return target.map { FuzzHandle(target: $0, rejection: nil, generation: parent.generation) }
  }

  // MARK: Calls

  func act(on handle: FuzzHandle) throws {
    switch handle.target {
    case .object(let proxy, let model): try objectCall(handle, proxy, model)
    case .array(let proxy, let model): try arrayCall(handle, proxy, model)
    case .text(let proxy, let model): try textCall(handle, proxy, model)
    case .counter(let proxy, let model): counterCall(handle, proxy, model)
    }
  }

  /// A key for a call on `m`, which keeps away from the shared keys of the root most of the time.
  private func randomKey(for m: ModelObject, live: Bool) -> String {
    let key = randomKey(live ? m : nil)
    if m === model && sharedKeys.contains(key) && chance(0.9) { return pick(FuzzSession.keys.filter { !sharedKeys.contains($0) }) }
    return key
  }

  private func objectCall(_ h: FuzzHandle, _ p: JSONObject, _ m: ModelObject) throws {
    let live = access(h) == .live
    let r = int(0..<100)
    if r < 30 {
      let key = randomKey(for: m, live: live)
      let value = randomValue()
      note("object[\(key.debugDescription)] = \(value.jsonString) (\(access(h)))")
      if setterApplies(h, ModelRules.keyError(key) ?? ModelRules.valueError(value)) { m.set(key, .from(value)) }
      p[key] = value
    } else if r < 40 {
      let key = randomKey(for: m, live: live)
      note("object.remove(\(key.debugDescription)) (\(access(h)))")
      if setterApplies(h, nil) { m.remove(key) }
      if chance(0.5) { p.remove(key) } else { p[key] = nil }
    } else if r < 65 {
      let key = randomKey(for: m, live: live)
      let error = ModelRules.keyError(key)
      let applies = setterApplies(h, error)
      let handle: FuzzHandle
      switch int(0..<5) {
      case 0:
        note("object.setNewObject(\(key.debugDescription)) (\(access(h)))")
        let node = ModelObject()
        if applies { m.set(key, .object(node)) }
        handle = child(of: h, .object(p.setNewObject(key), node), liveError: error)
      case 1:
        note("object.setNewArray(\(key.debugDescription)) (\(access(h)))")
        let node = ModelArray()
        if applies { m.set(key, .array(node)) }
        handle = child(of: h, .array(p.setNewArray(key), node), liveError: error)
      case 2:
        note("object.setNewText(\(key.debugDescription)) (\(access(h)))")
        let node = ModelText()
        if applies { m.set(key, .text(node)) }
        handle = child(of: h, .text(p.setNewText(key), node), liveError: error)
      case 3:
        let value: CounterValue = chance(0.5) ? .int(Int32(int(-9...9))) : .long(Int64(int(-9...9)) << 33)
        note("object.setNewCounter(\(key.debugDescription), \(value)) (\(access(h)))")
        let node = ModelCounter(value, deduplicating: false)
        if applies { m.set(key, .counter(node)) }
        handle = child(of: h, .counter(p.setNewCounter(key, value), node), liveError: error)
      default:
        note("object.setNewDedupCounter(\(key.debugDescription)) (\(access(h)))")
        let node = ModelCounter(.int(0), deduplicating: true)
        if applies { m.set(key, .counter(node)) }
        handle = child(of: h, .counter(p.setNewDedupCounter(key), node), liveError: error)
      }
      adopt(handle)
    } else if r < 72, live, let source = m.members.isEmpty ? nil : pick(m.members) {
      // A value read back and written again must read back the same.
      guard let value = p[source.key] else { return problem("object[\(source.key.debugDescription)] reads nil") }
      let key = randomKey(for: m, live: live)
      note("object[\(key.debugDescription)] = object[\(source.key.debugDescription)], which reads \(value.jsonString)")
      if setterApplies(h, ModelRules.keyError(key) ?? ModelRules.valueError(value)) { m.set(key, .from(value)) }
      p[key] = value
    } else {
      readObject(h, p, m, live: live)
    }
  }

  private func readObject(_ h: FuzzHandle, _ p: JSONObject, _ m: ModelObject, live: Bool) {
    let key = randomKey(live ? m : nil)
    note("read object[\(key.debugDescription)] (\(access(h)))")
    if live {
      if p.keys != m.keys { problem("object.keys \(p.keys), model \(m.keys)") }
      let value = p[key]
      if let node = m.get(key) {
        if let mismatch = ModelCompare.mismatch(node, value, path: "object[\(key.debugDescription)]") { problem(mismatch) }
      } else if let value {
        problem("object[\(key.debugDescription)] reads \(value), the model has nothing")
      }
    } else {
      if !p.keys.isEmpty || p[key] != nil || p.object(key) != nil || p.array(key) != nil || p.text(key) != nil
        || p.counter(key) != nil || p.toJSON() != "{}" {
        problem("an unusable object proxy (\(access(h))) reads content")
      }
    }
  }

  private func randomIndex(_ count: Int, end: Bool) -> Int {
    switch int(0..<10) {
    case 0: return pick([-1, -2, .min, .max])
    case 1: return count + (end ? 1 : 0) + int(0...2)
    default: return count == 0 && !end ? 0 : int(0...(end ? count : count - 1))
    }
  }

  private func randomID(_ h: FuzzHandle, _ p: JSONArray, _ m: ModelArray) -> (TimeTicket, FuzzIDState) {
    let live = access(h) == .live
    let r = int(0..<100)
    if live && r < 65 && !m.items.isEmpty {
      let index = int(0..<m.items.count)
      if let id = p.id(at: index) { return (id, .live(index)) }
      problem("array.id(at: \(index)) is nil in an array of \(m.items.count)")
    }
    if live && r < 80 && !m.tombstoneIDs.isEmpty { return (pick(m.tombstoneIDs), .tombstone) }
    if live && r < 88 && !m.purgedIDs.isEmpty { return (pick(m.purgedIDs), .purged) }
    return (TimeTicket(lamport: Int64(int(1_000_000...2_000_000)), delimiter: UInt32(int(1...9)), actorID: foreignActor), .unknown)
  }

  /// Moves the item at `from` so that it lands at `to` once removed from `from`.
  private func moveItem(_ m: ModelArray, from: Int, to: Int) {
    let item = m.items.remove(at: from)
    m.items.insert(item, at: to)
  }

  private func arrayCall(_ h: FuzzHandle, _ p: JSONArray, _ m: ModelArray) throws {
    let live = access(h) == .live
    let n = live ? m.items.count : 0
    let state = "(\(access(h)))"
    switch int(0..<100) {
    case 0..<3 where n > 0:
      let index = int(0..<n)
      guard let value = p[index] else { return problem("array[\(index)] reads nil in an array of \(n)") }
      if try attempt("array.append(array[\(index)]), which reads \(value.jsonString) \(state)", expectedError(h, ModelRules.valueError(value)), { try p.append(value) }) {
        m.items.append(.from(value))
      }
    case 0..<14:
      let value = randomValue()
      if try attempt("array.append(\(value.jsonString)) \(state)", expectedError(h, ModelRules.valueError(value)), { try p.append(value) }) {
        m.items.append(.from(value))
      }
    case 14..<26:
      let index = randomIndex(n, end: true)
      let value = randomValue()
      let error = expectedError(h, (0...n).contains(index) ? ModelRules.valueError(value) : .indexOutOfBounds)
      if try attempt("array.insert(\(value.jsonString), at: \(index)) \(state)", error, { try p.insert(value, at: index) }) {
        m.items.insert(.from(value), at: index)
      }
    case 26..<32:
      let (id, idState) = randomID(h, p, m)
      let value = randomValue()
      let error = expectedError(h, idState.positionError ?? ModelRules.valueError(value))
      if try attempt("array.insert(\(value.jsonString), after: \(idState)) \(state)", error, { try p.insert(value, after: id) }) {
        m.items.insert(.from(value), at: idState.index + 1)
      }
    case 32..<42:
      let index = randomIndex(n, end: false)
      let value = randomValue()
      let valid = (0..<n).contains(index)
      let old = valid ? p.id(at: index) : nil
      let error = expectedError(h, valid ? ModelRules.valueError(value) : .indexOutOfBounds)
      if try attempt("array.set(\(value.jsonString), at: \(index)) \(state)", error, { try p.set(value, at: index) }) {
        m.items[index] = .from(value)
        if let old { m.tombstoneIDs.append(old) }
      }
    case 42..<50:
      let index = randomIndex(n, end: false)
      let valid = (0..<n).contains(index)
      let old = valid ? p.id(at: index) : nil
      if try attempt("array.remove(at: \(index)) \(state)", expectedError(h, valid ? nil : .indexOutOfBounds), { try p.remove(at: index) }) {
        m.items.remove(at: index)
        if let old { m.tombstoneIDs.append(old) }
      }
    case 50..<54:
      let (id, idState) = randomID(h, p, m)
      if try attempt("array.remove(id: \(idState)) \(state)", expectedError(h, idState.removeError), { try p.remove(id: id) }) {
        m.items.remove(at: idState.index)
        m.tombstoneIDs.append(id)
      }
    case 54..<64:
      let from = randomIndex(n, end: false), to = randomIndex(n, end: false)
      let valid = (0..<n).contains(from) && (0..<n).contains(to)
      if try attempt("array.move(from: \(from), to: \(to)) \(state)", expectedError(h, valid ? nil : .indexOutOfBounds), { try p.move(from: from, to: to) }) {
        moveItem(m, from: from, to: to)
      }
    case 64..<68:
      let (id, idState) = randomID(h, p, m)
      let (next, nextState) = randomID(h, p, m)
      let error = expectedError(h, idState.positionError ?? nextState.positionError)
      if try attempt("array.moveBefore(\(idState), next: \(nextState)) \(state)", error, { try p.moveBefore(id, next: next) }) {
        let (i, j) = (idState.index, nextState.index)
        if i != j { moveItem(m, from: i, to: j > i ? j - 1 : j) }
      }
    case 68..<72:
      let (id, idState) = randomID(h, p, m)
      let (previous, previousState) = randomID(h, p, m)
      let error = expectedError(h, idState.positionError ?? previousState.positionError)
      if try attempt("array.moveAfter(\(idState), previous: \(previousState)) \(state)", error, { try p.moveAfter(id, previous: previous) }) {
        let (i, j) = (idState.index, previousState.index)
        if i != j { moveItem(m, from: i, to: j > i ? j : j + 1) }
      }
    case 72..<75:
      let (id, idState) = randomID(h, p, m)
      if try attempt("array.moveToFront(\(idState)) \(state)", expectedError(h, idState.positionError), { try p.moveToFront(id) }) {
        moveItem(m, from: idState.index, to: 0)
      }
    case 75..<78:
      let (id, idState) = randomID(h, p, m)
      if try attempt("array.moveToEnd(\(idState)) \(state)", expectedError(h, idState.positionError), { try p.moveToEnd(id) }) {
        moveItem(m, from: idState.index, to: m.items.count - 1)
      }
    case 78..<88:
      let applies = setterApplies(h, nil)
      let handle: FuzzHandle
      switch int(0..<5) {
      case 0:
        note("array.appendNewObject() \(state)")
        let node = ModelObject()
        if applies { m.items.append(.object(node)) }
        handle = child(of: h, .object(p.appendNewObject(), node), liveError: nil)
      case 1:
        note("array.appendNewArray() \(state)")
        let node = ModelArray()
        if applies { m.items.append(.array(node)) }
        handle = child(of: h, .array(p.appendNewArray(), node), liveError: nil)
      case 2:
        note("array.appendNewText() \(state)")
        let node = ModelText()
        if applies { m.items.append(.text(node)) }
        handle = child(of: h, .text(p.appendNewText(), node), liveError: nil)
      case 3:
        let value: CounterValue = chance(0.5) ? .int(Int32(int(-9...9))) : .long(Int64(int(-9...9)))
        note("array.appendNewCounter(\(value)) \(state)")
        let node = ModelCounter(value, deduplicating: false)
        if applies { m.items.append(.counter(node)) }
        handle = child(of: h, .counter(p.appendNewCounter(value), node), liveError: nil)
      default:
        note("array.appendNewDedupCounter() \(state)")
        let node = ModelCounter(.int(0), deduplicating: true)
        if applies { m.items.append(.counter(node)) }
        handle = child(of: h, .counter(p.appendNewDedupCounter(), node), liveError: nil)
      }
      adopt(handle)
    default:
      let index = randomIndex(n, end: false)
      note("read array[\(index)] \(state)")
      if live {
        if p.count != n { problem("array.count \(p.count), model \(n)") }
        if (0..<n).contains(index) {
          if let mismatch = ModelCompare.mismatch(m.items[index], p[index], path: "array[\(index)]") { problem(mismatch) }
          if p.id(at: index) == nil { problem("array.id(at: \(index)) is nil") }
        } else if p[index] != nil || p.id(at: index) != nil || p.object(at: index) != nil || p.text(at: index) != nil {
          problem("array[\(index)] reads something outside an array of \(n)")
        }
      } else if p.count != 0 || p[0] != nil || p.id(at: 0) != nil || p.array(at: 0) != nil || p.counter(at: 0) != nil
        || p.toJSON() != "[]" {
        problem("an unusable array proxy \(state) reads content")
      }
    }
  }

  /// A range of a text: mostly valid, sometimes reversed, out of bounds, or inside a surrogate pair.
  private func randomRange(_ m: ModelText?) -> (Int, Int) {
    let length = m?.units.count ?? 0
    let boundaries = (0...length).filter { !(m?.splitsPair($0) ?? false) }
    switch int(0..<100) {
    case 0..<72:
      let a = pick(boundaries), b = pick(boundaries)
      return (min(a, b), max(a, b))
    case 72..<80:
      let a = pick(boundaries), b = pick(boundaries)
      return a == b ? (a, a + 1) : (max(a, b), min(a, b))
    case 80..<90:
      if let m, let inside = (1..<max(length, 1)).filter({ m.splitsPair($0) }).randomElement(using: &rng) {
        return chance(0.5) ? (inside, min(length, inside + int(0...2))) : (max(0, inside - int(0...2)), inside)
      }
      return (int(-2...0), int(0...length))
    case 90..<94:
      return pick([(Int.min, 0), (0, Int.max), (Int.max, Int.max), (Int.min, Int.max), (Int.max, Int.min), (length, Int.max)])
    default:
      return (int(-2...(length + 2)), int(-2...(length + 2)))
    }
  }

  private func textCall(_ h: FuzzHandle, _ p: JSONText, _ m: ModelText) throws {
    let live = access(h) == .live
    let (from, to) = randomRange(live ? m : nil)
    let rangeError = live ? m.rangeError(from, to) : nil
    let state = "(\(access(h)))"
    switch int(0..<100) {
    case 0..<45:
      let content = randomString()
      let attributes = chance(0.25) ? randomAttributes() : nil
      let error = expectedError(h, rangeError ?? ModelRules.attributesError(attributes))
      var caret = (-1, -1)
      let call = "text.edit(\(from), \(to), \(content.debugDescription), attributes: \(attributes.map(FuzzSession.show) ?? "nil")) \(state)"
      if try attempt(call, error, { caret = try p.edit(from, to, content, attributes: attributes) }) {
        m.edit(from, to, content, attributes)
        let expected = from + content.utf16.count
        if caret != (expected, expected) { problem("\(call) returned the caret \(caret), expected \(expected)") }
      }
    case 45..<55:
      if try attempt("text.delete(\(from), \(to)) \(state)", expectedError(h, rangeError), { try p.delete(from, to) }) {
        m.edit(from, to, "", nil)
      }
    case 55..<70:
      let attributes = randomAttributes()
      let error = expectedError(h, rangeError ?? ModelRules.attributesError(attributes))
      if try attempt("text.setStyle(\(from), \(to), \(FuzzSession.show(attributes))) \(state)", error, { try p.setStyle(from, to, attributes) }) {
        m.style(from, to, set: attributes, remove: [])
      }
    case 70..<80:
      let keys = FuzzSession.attributeKeys.filter { _ in chance(0.4) }
      if try attempt("text.removeStyle(\(from), \(to), keys: \(keys)) \(state)", expectedError(h, rangeError), { try p.removeStyle(from, to, keys: keys) }) {
        m.style(from, to, set: [:], remove: keys)
      }
    case 80..<88:
      var positions: (TextPosition, TextPosition)?
      _ = try attempt("text.indexRangeToPosRange((\(from), \(to))) \(state)", expectedError(h, rangeError)) {
        positions = try p.indexRangeToPosRange((from, to))
      }
      if let positions {
        do {
          let back = try p.posRangeToIndexRange(positions)
          if back != (from, to) { problem("positions of (\(from), \(to)) convert back to \(back)") }
        } catch {
          problem("posRangeToIndexRange of the positions of (\(from), \(to)) threw \(error)")
        }
      }
    default:
      note("read text \(state)")
      if live {
        if p.length != m.units.count || p.string != m.string {
          problem("text reads \(p.string.debugDescription) (length \(p.length)), model \(m.string.debugDescription)")
        }
      } else if p.length != 0 || p.string != "" || p.toJSON() != "[]" || p.element != nil {
        problem("an unusable text proxy \(state) reads content")
      }
    }
  }

  private func counterCall(_ h: FuzzHandle, _ p: JSONCounter, _ m: ModelCounter) {
    let live = access(h) == .live
    let state = "(\(access(h)))"
    // Mostly the call the counter's kind takes; now and then the other (typeMismatch).
    let wrongCall = chance(0.1)
    switch int(0..<100) {
    case 0..<65 where m.isDeduplicating == wrongCall || !live:
      let delta = pick([0, 1, -1, 7, .max, .min, Int64(Int32.max) + 1, Int64(int(-1_000...1_000)) << int(0...40)])
      note("counter.increase(by: \(delta)) \(state)")
      if setterApplies(h, m.isDeduplicating ? .typeMismatch : nil) { m.increase(by: delta) }
      p.increase(by: delta)
    case 0..<65:
      let actor = chance(0.05) ? "" : pick(FuzzSession.dedupActors)
      note("counter.add(\(actor.debugDescription)) \(state)")
      if setterApplies(h, !m.isDeduplicating || actor.isEmpty ? .typeMismatch : nil) { m.counted.insert(actor) }
      p.add(actor)
    default:
      note("read counter \(state)")
      if live {
        let value: JSONValue
        switch p.value {
        case .int(let v): value = .integer(v)
        case .long(let v): value = .long(v)
        }
        if let mismatch = ModelCompare.counterMismatch(m, value, path: "counter") { problem(mismatch) }
        if p.isDeduplicating != m.isDeduplicating { problem("counter.isDeduplicating is \(p.isDeduplicating)") }
      } else if p.value != .int(0) || p.isDeduplicating {
        problem("an unusable counter proxy \(state) reads \(p.value)")
      }
    }
  }
}
