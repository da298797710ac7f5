@testable import CRDT
import Foundation

// The fuzzers' model of a document's content: plain Swift values, edited by the rules the
// public API documents, and compared with what the document shows. See EditingFuzzTests.swift
// for what the fuzzers generate and check.
//
// Containers are classes so that a proxy handed out during an update and the model node it
// stands for stay paired while the model tree changes around them: a node that is removed
// from the tree (its key overwritten, its array slot removed) stays editable through a proxy
// the update already holds, and those edits are invisible, as they are in the document.

/// An object: members in print order (on one replica, the order in which keys were last set).
final class ModelObject {
  var members: [(key: String, node: ModelNode)] = []

  var keys: [String] { members.map(\.key) }

  func get(_ key: String) -> ModelNode? { members.first { $0.key == key }?.node }

  /// Sets `key`: a key set again moves to the end, as its new element has the newest ticket.
  func set(_ key: String, _ node: ModelNode) {
    members.removeAll { $0.key == key }
    members.append((key: key, node: node))
  }

  func remove(_ key: String) { members.removeAll { $0.key == key } }

  func copy() -> ModelObject {
    let copy = ModelObject()
    copy.members = members.map { (key: $0.key, node: $0.node.copy()) }
    return copy
  }
}

/// An array, and the IDs of elements removed from it (which ID-based calls must refuse).
final class ModelArray {
  var items: [ModelNode] = []
  /// Removed elements still held as tombstones: ID-based calls answer `elementRemoved`.
  var tombstoneIDs: [TimeTicket] = []
  /// Removed elements that garbage collection purged: ID-based calls answer `elementNotFound`.
  var purgedIDs: [TimeTicket] = []

  func copy() -> ModelArray {
    let copy = ModelArray()
    copy.items = items.map { $0.copy() }
    copy.tombstoneIDs = tombstoneIDs
    copy.purgedIDs = purgedIDs
    return copy
  }
}

/// A text: its UTF-16 code units, and the attributes of each unit.
final class ModelText {
  var units: [UInt16] = []
  var attributes: [[String: JSONValue]] = []

  var string: String { String(decoding: units, as: UTF16.self) }

  /// Whether `offset` falls between the two halves of a surrogate pair.
  func splitsPair(_ offset: Int) -> Bool {
    offset > 0 && offset < units.count && UTF16.isTrailSurrogate(units[offset]) && UTF16.isLeadSurrogate(units[offset - 1])
  }

  /// What `JSONText` throws for the range `from..<to`, or nil when it is valid.
  func rangeError(_ from: Int, _ to: Int) -> YorkieError.Code? {
    if from > to || from < 0 || to > units.count || splitsPair(from) || splitsPair(to) { return .indexOutOfBounds }
    return nil
  }

  func edit(_ from: Int, _ to: Int, _ content: String, _ attributes: [String: JSONValue]?) {
    let inserted = Array(content.utf16)
    units.replaceSubrange(from..<to, with: inserted)
    self.attributes.replaceSubrange(from..<to, with: Array(repeating: attributes ?? [:], count: inserted.count))
  }

  func style(_ from: Int, _ to: Int, set: [String: JSONValue], remove: [String]) {
    for index in from..<to {
      for (key, value) in set { attributes[index][key] = value }
      for key in remove { attributes[index][key] = nil }
    }
  }

  func copy() -> ModelText {
    let copy = ModelText()
    copy.units = units
    copy.attributes = attributes
    return copy
  }
}

/// A counter. A deduplicating counter's value is a HyperLogLog estimate: the model knows the
/// actors it counted, and, when it was read from a document, the estimate it started from.
final class ModelCounter {
  var value: CounterValue
  let isDeduplicating: Bool
  /// The estimate read from the document (0 for a counter the model made).
  var base: Int32 = 0
  /// Whether `counted` holds every actor counted (the model made the counter).
  var exact: Bool = true
  var counted: Set<String> = []

  init(_ value: CounterValue, deduplicating: Bool) {
    self.value = value
    self.isDeduplicating = deduplicating
  }

  func increase(by delta: Int64) {
    switch value {
    case .int(let v): value = .int(v &+ Int32(truncatingIfNeeded: delta))
    case .long(let v): value = .long(v &+ delta)
    }
  }

  func copy() -> ModelCounter {
    let copy = ModelCounter(value, deduplicating: isDeduplicating)
    copy.base = base
    copy.exact = exact
    copy.counted = counted
    return copy
  }
}

enum ModelNode {
  case primitive(JSONValue)
  /// A date, as the whole milliseconds from 1970 the document stores.
  case date(Int64)
  case object(ModelObject)
  case array(ModelArray)
  case text(ModelText)
  case counter(ModelCounter)

  func copy() -> ModelNode {
    switch self {
    case .primitive, .date: return self
    case .object(let object): return .object(object.copy())
    case .array(let array): return .array(array.copy())
    case .text(let text): return .text(text.copy())
    case .counter(let counter): return .counter(counter.copy())
    }
  }

  /// The node a successful set of `value` creates.
  static func from(_ value: JSONValue) -> ModelNode {
    switch value {
    case .array(let items):
      let array = ModelArray()
      array.items = items.map(ModelNode.from)
      return .array(array)
    case .object(let members):
      let object = ModelObject()
      for member in members { object.set(member.key, ModelNode.from(member.value)) }
      return .object(object)
    case .date(let date):
      // A document keeps whole milliseconds, rounded down (valueError refused the others).
      return .date(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    default:
      return .primitive(value)
    }
  }

  var kindName: String {
    switch self {
    case .primitive, .date: return "primitive"
    case .object: return "object"
    case .array: return "array"
    case .text: return "text"
    case .counter: return "counter"
    }
  }
}

// MARK: - Validation rules of the setters

enum ModelRules {
  /// Yorkie's key rule.
  static func keyError(_ key: String) -> YorkieError.Code? { key.contains(".") ? .invalidKey : nil }

  /// What writing `value` throws, in the order the SDK checks (depth first, a member's key
  /// before its value).
  static func valueError(_ value: JSONValue) -> YorkieError.Code? {
    switch value {
    case .double(let d): return d.isFinite ? nil : .invalidNumber
    case .date(let date):
      // What a JavaScript date holds: up to 8.64e15 ms either side of 1970 (NaN fails).
      let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
      return ms >= -8.64e15 && ms <= 8.64e15 ? nil : .invalidNumber
    case .array(let items):
      for item in items { if let error = valueError(item) { return error } }
      return nil
    case .object(let object):
      for member in object.members {
        if let error = keyError(member.key) ?? valueError(member.value) { return error }
      }
      return nil
    default: return nil
    }
  }

  static func attributesError(_ attributes: [String: JSONValue]?) -> YorkieError.Code? {
    guard let attributes else { return nil }
    for value in attributes.values { if let error = valueError(value) { return error } }
    return nil
  }
}

// MARK: - Comparison with the document

enum ModelCompare {
  /// The first difference between the model and a value the document shows (`Document.value`,
  /// or a proxy's subscript), or nil when they agree. Objects must list their keys in the
  /// same order; texts are compared unit by unit (the document may cut them into pieces anywhere).
  static func mismatch(_ node: ModelNode, _ value: JSONValue?, path: String) -> String? {
    guard let value else { return "\(path): the model has a \(node.kindName), the document nothing" }
    switch node {
    case .primitive(let expected):
      return expected == value ? nil : "\(path): expected \(expected), found \(value)"
    case .date(let ms):
      // Read at millisecond precision (rounded down, as written), the date is the stored one.
      guard case .date(let date) = value, Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.down)) == ms else {
        return "\(path): expected the date \(ms) ms, found \(value)\(Self.dateDetail(value))"
      }
      return nil
    case .object(let object):
      guard case .object(let found) = value else { return "\(path): expected an object, found \(value)" }
      return mismatch(object, found, path: path)
    case .array(let array):
      guard case .array(let found) = value else { return "\(path): expected an array, found \(value)" }
      guard found.count == array.items.count else {
        return "\(path): expected \(array.items.count) elements, found \(found.count): \(value.jsonString)"
      }
      for (index, item) in array.items.enumerated() {
        if let problem = mismatch(item, found[index], path: "\(path).\(index)") { return problem }
      }
      return nil
    case .text(let text):
      guard let (units, attributes) = expandText(value) else { return "\(path): expected a text, found \(value)" }
      if units != text.units {
        return "\(path): expected text \(text.string.debugDescription), found \(String(decoding: units, as: UTF16.self).debugDescription)"
      }
      for index in units.indices where attributes[index] != text.attributes[index] {
        return "\(path): unit \(index) has attributes \(attributes[index]), expected \(text.attributes[index]) (text \(value.jsonString))"
      }
      return nil
    case .counter(let counter):
      return counterMismatch(counter, value, path: path)
    }
  }

  static func mismatch(_ object: ModelObject, _ found: JSONValue.Object, path: String) -> String? {
    guard found.keys == object.keys else { return "\(path): expected keys \(object.keys), found \(found.keys)" }
    for member in object.members {
      if let problem = mismatch(member.node, found[member.key], path: "\(path).\(member.key)") { return problem }
    }
    return nil
  }

  static func counterMismatch(_ counter: ModelCounter, _ value: JSONValue, path: String) -> String? {
    if counter.isDeduplicating {
      guard case .integer(let estimate) = value else { return "\(path): expected a deduplicating counter, found \(value)" }
      if counter.exact {
        // A handful of distinct actors: HyperLogLog's small-range estimate is exact.
        return Int(estimate) == counter.counted.count ? nil : "\(path): counted \(counter.counted.count) actors, estimate \(estimate)"
      }
      let low = Int(counter.base), high = Int(counter.base) + counter.counted.count
      return (low...high).contains(Int(estimate)) ? nil : "\(path): estimate \(estimate) outside \(low)...\(high)"
    }
    switch (counter.value, value) {
    case (.int(let expected), .integer(let found)) where expected == found: return nil
    case (.long(let expected), .long(let found)) where expected == found: return nil
    default: return "\(path): expected counter \(counter.value), found \(value)"
    }
  }

  private static func dateDetail(_ value: JSONValue) -> String {
    guard case .date(let date) = value else { return "" }
    return " (\((date.timeIntervalSince1970 * 1000).rounded(.down)) ms rounded down)"
  }

  /// The first difference between the model and the document's `toJSON()`, parsed: key order,
  /// numbers as JavaScript prints them, bytes in base64, dates in ISO-8601 with milliseconds.
  static func jsonMismatch(_ node: ModelNode, _ value: JSONValue?, path: String) -> String? {
    guard let value else { return "\(path): the model has a \(node.kindName), toJSON nothing" }
    func number(_ value: JSONValue) -> Double? {
      switch value {
      case .integer(let i): return Double(i)
      case .long(let l): return Double(l)
      case .double(let d): return d
      default: return nil
      }
    }
    func integer(_ expected: Int64) -> String? {
      let exact: JSONValue = Int32(exactly: expected).map { .integer($0) } ?? .long(expected)
      return value == exact ? nil : "\(path): toJSON shows \(value), expected \(expected)"
    }
    switch node {
    case .date(let ms):
      return value == .string(iso8601(ms)) ? nil : "\(path): toJSON shows \(value), expected \(iso8601(ms))"
    case .primitive(let expected):
      switch expected {
      case .integer(let i): return integer(Int64(i))
      case .long(let l): return integer(l)
      case .double(let d): return number(value) == d ? nil : "\(path): toJSON shows \(value), expected \(d)"
      case .bytes(let b): return value == .string(b.base64EncodedString()) ? nil : "\(path): toJSON shows \(value), expected bytes \(b.base64EncodedString())"
      default: return value == expected ? nil : "\(path): toJSON shows \(value), expected \(expected)"
      }
    case .object(let object):
      guard case .object(let found) = value, found.keys == object.keys else { return "\(path): toJSON shows \(value), expected keys \(object.keys)" }
      for member in object.members {
        if let problem = jsonMismatch(member.node, found[member.key], path: "\(path).\(member.key)") { return problem }
      }
      return nil
    case .array(let array):
      guard case .array(let found) = value, found.count == array.items.count else {
        return "\(path): toJSON shows \(value), expected \(array.items.count) elements"
      }
      for (index, item) in array.items.enumerated() {
        if let problem = jsonMismatch(item, found[index], path: "\(path).\(index)") { return problem }
      }
      return nil
    case .text:
      return mismatch(node, value, path: path)
    case .counter(let counter):
      if counter.isDeduplicating { return counterMismatch(counter, value, path: path) }
      switch counter.value {
      case .int(let v): return integer(Int64(v))
      case .long(let v): return integer(v)
      }
    }
  }

  /// `ms` as JavaScript's `Date#toISOString` prints it, computed from whole seconds (which a
  /// `Double` holds exactly) and the milliseconds apart.
  static func iso8601(_ ms: Int64) -> String {
    if ms == 8_640_000_000_000_000 { return "+275760-09-13T00:00:00.000Z" }
    if ms == -8_640_000_000_000_000 { return "-271821-04-20T00:00:00.000Z" }
    let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
    let millis = Int(ms - seconds * 1000)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    func pad(_ value: Int?, _ width: Int) -> String {
      let text = String(value ?? -1)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)).\(pad(millis, 3))Z"
  }

  /// A text's JSON value (`[{"attrs":{…},"val":"…"},…]`) as units and per-unit attributes.
  static func expandText(_ value: JSONValue) -> ([UInt16], [[String: JSONValue]])? {
    guard case .array(let pieces) = value else { return nil }
    var units: [UInt16] = []
    var attributes: [[String: JSONValue]] = []
    for piece in pieces {
      guard case .object(let object) = piece, case .string(let content)? = object["val"] else { return nil }
      var attrs: [String: JSONValue] = [:]
      switch object["attrs"] {
      case .object(let found)?:
        for member in found { attrs[member.key] = member.value }
        guard object.count == 2 else { return nil }
      case nil:
        guard object.count == 1 else { return nil }
      default:
        return nil
      }
      for unit in content.utf16 {
        units.append(unit)
        attributes.append(attrs)
      }
    }
    return (units, attributes)
  }

  /// The model as a string that two models agree on exactly when they hold the same content
  /// (for comparing the model with one read back through proxies).
  static func describe(_ node: ModelNode) -> String {
    switch node {
    case .primitive(let value): return value.jsonString
    case .date(let ms): return "date(\(ms))"
    case .object(let object):
      return "{" + object.members.map { "\($0.key.debugDescription):\(describe($0.node))" }.joined(separator: ",") + "}"
    case .array(let array): return "[" + array.items.map(describe).joined(separator: ",") + "]"
    case .text(let text):
      let attributes = text.attributes.map { attrs in attrs.keys.sorted().map { "\($0)=\(attrs[$0]!.jsonString)" }.joined(separator: "&") }
      return "text(\(text.string.debugDescription) \(attributes))"
    case .counter(let counter):
      if counter.isDeduplicating { return "dedup" }
      return "counter(\(counter.value))"
    }
  }
}

// MARK: - Reading a model back through proxies

enum ModelReader {
  /// The content of `object` read through the proxies' read API only (keys, typed getters,
  /// subscripts, `text.toJSON()`, `counter.value`).
  static func read(_ object: JSONObject) -> ModelObject {
    let model = ModelObject()
    for key in object.keys {
      if let child = object.object(key) {
        model.set(key, .object(read(child)))
      } else if let child = object.array(key) {
        model.set(key, .array(read(child)))
      } else if let child = object.text(key) {
        model.set(key, .text(read(child)))
      } else if let child = object.counter(key) {
        model.set(key, .counter(read(child)))
      } else {
        model.set(key, ModelNode.from(object[key] ?? .string("<missing \(key)>")))
      }
    }
    return model
  }

  static func read(_ array: JSONArray) -> ModelArray {
    let model = ModelArray()
    for index in 0..<array.count {
      if let child = array.object(at: index) {
        model.items.append(.object(read(child)))
      } else if let child = array.array(at: index) {
        model.items.append(.array(read(child)))
      } else if let child = array.text(at: index) {
        model.items.append(.text(read(child)))
      } else if let child = array.counter(at: index) {
        model.items.append(.counter(read(child)))
      } else {
        model.items.append(ModelNode.from(array[index] ?? .string("<missing \(index)>")))
      }
    }
    return model
  }

  static func read(_ text: JSONText) -> ModelText {
    let model = ModelText()
    if let value = JSONValueParser.parse(text.toJSON()), let (units, attributes) = ModelCompare.expandText(value) {
      model.units = units
      model.attributes = attributes
    }
    return model
  }

  static func read(_ counter: JSONCounter) -> ModelCounter {
    let model = ModelCounter(counter.value, deduplicating: counter.isDeduplicating)
    if counter.isDeduplicating {
      model.exact = false
      if case .int(let estimate) = counter.value { model.base = estimate }
    }
    return model
  }
}
