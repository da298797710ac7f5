/// The style attributes of a piece of text: Yorkie's `RHT`, a last-writer-wins map from keys to
/// JSON-encoded values. A removed attribute stays as a tombstone until garbage collection.
package struct TextAttributes: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var key: String
    /// The value as JSON text (`"true"`, `"\"red\""`), as every Yorkie SDK stores it.
    package var value: String
    package var updatedAt: TimeTicket
    package var isRemoved: Bool
  }

  package private(set) var entries: [Entry] = []

  package init(_ entries: [Entry] = []) { self.entries = entries }

  package var isEmpty: Bool { entries.isEmpty }

  /// Whether some attribute is live.
  package var hasLive: Bool { entries.contains { !$0.isRemoved } }

  /// Sets `key` if `executedAt` is newer than its current value, or if `overrides` accepts the
  /// current value's ticket (a revival's reset of what its author had not seen).
  ///
  /// - Returns: the entry this replaced (garbage when it was a tombstone) and whether the set applied.
  @discardableResult
  package mutating func set(_ key: String, _ value: String, executedAt: TimeTicket,
                            overriding overrides: ((TimeTicket) -> Bool)? = nil) -> (applied: Bool, replacedTombstone: Entry?) {
    if let index = entries.firstIndex(where: { $0.key == key }) {
      guard executedAt.isAfter(entries[index].updatedAt) || overrides?(entries[index].updatedAt) == true else { return (false, nil) }
      let old = entries[index]
      entries[index] = Entry(key: key, value: value, updatedAt: executedAt, isRemoved: false)
      return (true, old.isRemoved ? old : nil)
    }
    entries.append(Entry(key: key, value: value, updatedAt: executedAt, isRemoved: false))
    return (true, nil)
  }

  /// Removes `key` if `executedAt` is newer than its current value, leaving a tombstone stamped
  /// `executedAt` (a removal is a write like any other: removing again later moves the stamp,
  /// so a concurrent older set cannot bring the value back).
  ///
  /// `overrides`, when given, accepts current values to replace even when newer (see ``set(_:_:executedAt:overriding:)``).
  ///
  /// - Returns: whether the tombstone was written.
  @discardableResult
  package mutating func remove(_ key: String, executedAt: TimeTicket, overriding overrides: ((TimeTicket) -> Bool)? = nil) -> Bool {
    if let index = entries.firstIndex(where: { $0.key == key }) {
      guard executedAt.isAfter(entries[index].updatedAt) || overrides?(entries[index].updatedAt) == true else { return false }
      entries[index].isRemoved = true
      entries[index].updatedAt = executedAt
      return true
    }
    entries.append(Entry(key: key, value: "null", updatedAt: executedAt, isRemoved: true))
    return true
  }

  /// Deletes the tombstone of `key` removed at `removedAt` (garbage collection).
  package mutating func purge(_ key: String, removedAt: TimeTicket) -> Bool {
    guard let index = entries.firstIndex(where: { $0.key == key && $0.isRemoved && $0.updatedAt == removedAt }) else { return false }
    entries.remove(at: index)
    return true
  }

  /// `{"k":v,…}` with the items sorted, values decoded from their JSON text: a string prints as a
  /// string, anything else as its JSON text (`true`, `1`, `null`), as the JS SDK prints.
  package func writeJSON(into writer: inout JSONWriter) {
    var items: [String] = []
    for entry in entries where !entry.isRemoved {
      var item = JSONWriter()
      item.string(entry.key)
      item.raw(":")
      if let decoded = TextAttributes.decodeString(entry.value) {
        item.string(decoded)
      } else {
        item.raw(entry.value)
      }
      items.append(item.output)
    }
    items.sort()
    writer.raw("{")
    writer.raw(items.joined(separator: ","))
    writer.raw("}")
  }

  /// The live attributes as values.
  package var values: [String: JSONValue] {
    var result: [String: JSONValue] = [:]
    for entry in entries where !entry.isRemoved {
      result[entry.key] = JSONValueParser.parse(entry.value) ?? .string(entry.value)
    }
    return result
  }

  /// The string a JSON string literal encodes, or nil when `text` is not one.
  static func decodeString(_ text: String) -> String? {
    guard text.utf8.first == UInt8(ascii: "\""), case .string(let s)? = JSONValueParser.parse(text) else { return nil }
    return s
  }
}
