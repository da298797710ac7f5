/// This replica's presence (cursor, name, color, …) as seen inside ``Document/update(message:_:)``.
///
/// Presence is not part of the document's content: it travels with changes and disappears
/// when the client detaches. Every change that touches presence sends the whole merged map,
/// as the JS SDK does: ``set(_:)``, `remove(_:)` and ``clear()`` all record one "put" of the
/// presence as it is when the update returns.
///
/// ```swift
/// try await doc.update { _, presence in
///   presence.set(["name": "ann", "cursor": 3])   // put {"cursor":3,"name":"ann"}
///   presence.remove("cursor")                    // now put {"name":"ann"}
/// }
/// ```
///
/// Like the proxies, a presence is usable only while its update runs: afterwards reads give
/// nothing and writes change nothing.
public final class Presence {
  let context: UpdateContext
  private(set) var data: [String: JSONValue]
  private(set) var change: PresenceChange?
  /// The presence as the update found it: what an undo puts a key back to, however often the
  /// update set it.
  private let before: [String: JSONValue]

  init(context: UpdateContext, data: [String: JSONValue]) {
    self.context = context
    self.data = data
    self.before = data
  }

  /// Sets the given keys, keeping the others.
  public func set(_ values: [String: JSONValue]) {
    set(values, addToHistory: false)
  }

  /// Sets the given keys, keeping the others; with `addToHistory`, the update's undo step also
  /// puts these keys back to what they were before the update (Yorkie's
  /// `presence.set(…, {addToHistory: true})`): a selection or a cursor then travels with
  /// ``Document/undo()`` and ``Document/redo()``. As in Yorkie, the last set of a key in an
  /// update decides: a later set without `addToHistory` takes the key out of the step again.
  /// An update that only sets presence this way is an undo step of its own, and does not clear
  /// the redo stack (as in Yorkie).
  public func set(_ values: [String: JSONValue], addToHistory: Bool) {
    guard isWritable("set") else { return }
    // Presence travels as JSON: a value JSON cannot carry (NaN, an infinite double, a date
    // JavaScript cannot hold) would reach peers differently by each path, so it fails the update.
    for (key, value) in values {
      do {
        try UpdateContext.validate(value)
      } catch {
        context.record(YorkieError(error.code, "presence key \"\(key)\": \(error.message)"))
        return
      }
    }
    if addToHistory { rememberForHistory(values.keys) } else { forgetForHistory(values.keys) }
    for (key, value) in values { data[key] = value }
    change = .put(data)
  }

  /// Puts presence keys back for an undo or redo (nil removes the key), remembering what they
  /// were so that the step can be reversed again.
  func restore(_ values: [String: JSONValue?]) {
    guard isWritable("set") else { return }
    rememberForHistory(values.keys)
    for (key, value) in values { data[key] = value }
    change = .put(data)
  }

  /// Puts `keys` in the update's undo step with the values they had before the update.
  private func rememberForHistory(_ keys: Dictionary<String, some Any>.Keys) {
    var reverse = context.reversePresence ?? [:]
    for key in keys { reverse[key] = .some(before[key]) }
    context.reversePresence = reverse
  }

  /// Takes `keys` out of the update's undo step (a set without `addToHistory` came last).
  private func forgetForHistory(_ keys: Dictionary<String, some Any>.Keys) {
    guard var reverse = context.reversePresence else { return }
    for key in keys { reverse[key] = nil }
    context.reversePresence = reverse.isEmpty ? nil : reverse
  }

  /// Removes the given keys, keeping the others. Removing keys the presence does not have
  /// records nothing.
  public func remove(_ keys: [String]) {
    guard isWritable("removed from") else { return }
    var removed = false
    for key in keys where data.removeValue(forKey: key) != nil { removed = true }
    if removed { change = .put(data) }
  }

  /// Removes the given keys, keeping the others: the variadic form of `remove(_:)`.
  public func remove(_ keys: String...) {
    remove(keys)
  }

  /// Removes every key: peers then see this replica with an empty presence. An empty presence
  /// records nothing.
  ///
  /// Unlike the JS SDK's `clear()`, this does not make the replica leave: it sends a put of
  /// `{}`, not the "clear" presence change that a client sends on detach (on which peers drop
  /// the replica from their online list).
  public func clear() {
    guard isWritable("cleared") else { return }
    guard !data.isEmpty else { return }
    data = [:]
    change = .put(data)
  }

  /// The value of `key` (nil once the update returned).
  public func get(_ key: String) -> JSONValue? { context.isActive ? data[key] : nil }

  /// The whole presence (`[:]` once the update returned).
  public var values: [String: JSONValue] { context.isActive ? data : [:] }

  /// Whether the update is still running; when it is not, records the error that makes it throw.
  private func isWritable(_ verb: String) -> Bool {
    guard context.isActive else {
      context.record(YorkieError(.proxyExpired, "presence was \(verb) after the update returned"))
      return false
    }
    return true
  }
}
