/// An object in a document, as seen inside ``Document/update(message:_:)``.
///
/// Proxies are valid only inside the update that handed them out. Setters that cannot throw
/// (the subscript, `setNew…`, ``remove(_:)``) record an invalid input and make the update throw
/// it, rolling everything back.
public final class JSONObject {
  let context: UpdateContext
  let object: CRDTObject

  init(context: UpdateContext, object: CRDTObject) {
    self.context = context
    self.object = object
  }

  /// Yorkie's only key rule: a key cannot contain `.` (empty and `$`-prefixed keys are fine).
  static func validate(key: String) throws(YorkieError) {
    let dot = UInt8(ascii: ".")
    let hasDot = key.utf8.withContiguousStorageIfAvailable { $0.contains(dot) } ?? key.utf8.contains(dot)
    if hasDot {
      throw YorkieError(.invalidKey, "an object key cannot contain \".\": \"\(key)\"")
    }
  }

  /// The value of `key` as JSON (a text, counter, … gives its JSON value); nil when absent.
  /// Setting a value replaces the member; setting nil removes it.
  public subscript(key: String) -> JSONValue? {
    get {
      guard context.isActive else { return nil }
      return object.get(key)?.toJSONValue()
    }
    set {
      if let newValue {
        do throws(YorkieError) { try set(key, newValue) } catch { context.record(error) }
      } else {
        remove(key)
      }
    }
  }

  /// The nested object at `key`.
  public func object(_ key: String) -> JSONObject? {
    guard context.isActive, let child = object.get(key) as? CRDTObject else { return nil }
    return JSONObject(context: context, object: child)
  }

  /// The nested array at `key`.
  public func array(_ key: String) -> JSONArray? {
    guard context.isActive, let child = object.get(key) as? CRDTArray else { return nil }
    return JSONArray(context: context, array: child)
  }

  /// The text at `key`.
  public func text(_ key: String) -> JSONText? {
    guard context.isActive, let child = object.get(key) as? CRDTText else { return nil }
    return JSONText(context: context, text: child)
  }

  /// Sets a new empty text at `key` and returns it.
  @discardableResult
  public func setNewText(_ key: String) -> JSONText {
    let element = setNew(key) { .text([], $0) }
    return JSONText(context: context, text: element as? CRDTText ?? CRDTText(createdAt: .initial))
  }

  /// The counter at `key`.
  public func counter(_ key: String) -> JSONCounter? {
    guard context.isActive, let child = object.get(key) as? CRDTCounter else { return nil }
    return JSONCounter(context: context, counter: child)
  }

  /// Sets a new empty object at `key` and returns it.
  @discardableResult
  public func setNewObject(_ key: String) -> JSONObject {
    let element = setNew(key) { .object([], $0) }
    return JSONObject(context: context, object: element as? CRDTObject ?? CRDTObject(createdAt: .initial))
  }

  /// Sets a new empty array at `key` and returns it.
  @discardableResult
  public func setNewArray(_ key: String) -> JSONArray {
    let element = setNew(key) { .array([], $0) }
    return JSONArray(context: context, array: element as? CRDTArray ?? CRDTArray(createdAt: .initial))
  }

  /// Sets a new counter at `key` and returns it.
  @discardableResult
  public func setNewCounter(_ key: String, _ value: CounterValue) -> JSONCounter {
    let element = setNew(key) { .counter(value, $0) }
    return JSONCounter(context: context, counter: element as? CRDTCounter ?? CRDTCounter(value, createdAt: .initial))
  }

  /// Sets a new deduplicating counter at `key` and returns it: a counter of distinct actors
  /// (Yorkie's `IntegerDedupCnt`, v0.7.5+), such as unique visitors. Count an actor with
  /// ``JSONCounter/add(_:)``; counting the same actor again changes nothing. The value
  /// is a HyperLogLog estimate (exact for small counts in practice, about 1% off for large ones),
  /// printed as an integer.
  ///
  /// ```swift
  /// try await doc.update { root, _ in
  ///   let visitors = root.setNewDedupCounter("visitors")
  ///   visitors.add("user-a")
  ///   visitors.add("user-a")   // already counted
  /// }
  /// await doc.toJSON()   // {"visitors":1}
  /// ```
  @discardableResult
  public func setNewDedupCounter(_ key: String) -> JSONCounter {
    let element = setNew(key) { .dedupCounter([], $0) }
    return JSONCounter(context: context, counter: element as? CRDTCounter ?? CRDTCounter(deduplicatingWith: [], createdAt: .initial))
  }

  /// Removes the member `key`. Removing a key that does not exist records nothing.
  public func remove(_ key: String) {
    do throws(YorkieError) {
      try context.ensureActive()
      guard let element = object.get(key) else { return }
      try context.push(.remove(parentCreatedAt: object.createdAt, createdAt: element.createdAt, executedAt: context.issueTicket()), target: object)
    } catch {
      context.record(error)
    }
  }

  /// The keys of the live members, in print order.
  public var keys: [String] {
    guard context.isActive else { return [] }
    return object.keys
  }

  /// The object as JSON, as ``Document/toJSON()`` prints it.
  public func toJSON() -> String { object.toJSON() }

  // MARK: Internals

  func set(_ key: String, _ value: JSONValue) throws(YorkieError) {
    try context.ensureActive()
    try JSONObject.validate(key: key)
    if let element = try context.primitiveElement(of: value) {
      context.pushSet(object, key, element)
      return
    }
    try UpdateContext.validate(value)
    let created = OperationValue(try context.snapshot(of: value))
    try context.push(.set(parentCreatedAt: object.createdAt, key: key, value: created, executedAt: created.createdAt), target: object)
  }

  private func setNew(_ key: String, _ make: (ElementSnapshot.Meta) -> ElementSnapshot) -> CRDTElement? {
    do throws(YorkieError) {
      try context.ensureActive()
      try JSONObject.validate(key: key)
      let snapshot = make(ElementSnapshot.Meta(createdAt: context.issueTicket()))
      try context.push(.set(parentCreatedAt: object.createdAt, key: key, value: snapshot, executedAt: snapshot.createdAt), target: object)
      return object.element(createdAt: snapshot.createdAt)
    } catch {
      context.record(error)
      return nil
    }
  }
}

/// A counter in a document, as seen inside ``Document/update(message:_:)``.
public final class JSONCounter {
  let context: UpdateContext
  let counter: CRDTCounter

  init(context: UpdateContext, counter: CRDTCounter) {
    self.context = context
    self.counter = counter
  }

  /// The current value.
  public var value: CounterValue { counter.value }

  /// Whether this counter counts distinct actors (made with
  /// ``JSONObject/setNewDedupCounter(_:)``).
  public var isDeduplicating: Bool { counter.isDeduplicating }

  /// Counts `actor` (any string naming who is counted, such as a user ID) in a deduplicating
  /// counter: the value grows only the first time an actor is counted. On any other counter, or
  /// with an empty actor, the update fails with `typeMismatch`.
  public func add(_ actor: String) {
    do throws(YorkieError) {
      try context.ensureActive()
      guard counter.isDeduplicating else {
        throw YorkieError(.typeMismatch, "counter \(counter.createdAt) is not a deduplicating counter; increase it by an amount")
      }
      guard !actor.isEmpty else {
        throw YorkieError(.typeMismatch, "a deduplicating counter needs a non-empty actor to count")
      }
      try context.push(.dedupIncrease(parentCreatedAt: counter.createdAt, value: .integer(1), actor: actor,
                                      executedAt: context.issueTicket()), target: counter)
    } catch {
      context.record(error)
    }
  }

  /// Adds `delta` (negative to decrease). An Int counter adds the low 32 bits and wraps as
  /// int32; a Long counter wraps as int64. A deduplicating counter refuses it (the update
  /// fails with `typeMismatch`): use ``add(_:)``.
  public func increase(by delta: Int64) {
    do throws(YorkieError) {
      try context.ensureActive()
      guard !counter.isDeduplicating else {
        throw YorkieError(.typeMismatch, "a deduplicating counter \(counter.createdAt) is increased by an actor, not by \(delta)")
      }
      switch counter.value {
      case .int:
        let low = Int32(truncatingIfNeeded: delta)
        context.pushIncrease(counter, by: Int64(low), operand: .integer(low))
      case .long:
        context.pushIncrease(counter, by: delta, operand: .long(delta))
      }
    } catch {
      context.record(error)
    }
  }
}
