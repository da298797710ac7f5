/// This replica's presence (cursor, name, color, …) as seen inside ``Document/update(message:_:)``.
///
/// Presence is not part of the document's content: it travels with changes and disappears
/// when the client detaches. Every change that touches presence sends the whole merged map,
/// as the JS SDK does.
public final class Presence {
  let context: UpdateContext
  private(set) var data: [String: JSONValue]
  private(set) var change: PresenceChange?

  init(context: UpdateContext, data: [String: JSONValue]) {
    self.context = context
    self.data = data
  }

  /// Sets the given keys, keeping the others.
  public func set(_ values: [String: JSONValue]) {
    guard context.isActive else {
      context.record(YorkieError(.proxyExpired, "presence was set after the update returned"))
      return
    }
    for (key, value) in values { data[key] = value }
    change = .put(data)
  }

  /// The value of `key` (nil once the update returned).
  public func get(_ key: String) -> JSONValue? { context.isActive ? data[key] : nil }

  /// The whole presence (`[:]` once the update returned).
  public var values: [String: JSONValue] { context.isActive ? data : [:] }
}
