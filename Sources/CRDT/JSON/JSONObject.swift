/// An object in a document, as seen inside ``Document/update(message:_:)``.
///
/// Proxies are valid only inside the update that handed them out. Setters that cannot throw
/// (the subscript, `setNew…`, ``remove(_:)``) record an invalid input and make the update throw
/// it, rolling everything back.
public final class JSONObject {
  let context: UpdateContext
  private let target: ProxyTarget<CRDTObject>

  init(context: UpdateContext, object: CRDTObject) {
    self.context = context
    self.target = .element(object)
  }

  init(context: UpdateContext, target: ProxyTarget<CRDTObject>) {
    self.context = context
    self.target = target
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
    get { target.readable(context)?.get(key)?.kind.toJSONValue() }
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
    guard case .object(let child)? = target.readable(context)?.get(key)?.kind else { return nil }
    return JSONObject(context: context, object: child)
  }

  /// The nested array at `key`.
  public func array(_ key: String) -> JSONArray? {
    guard case .array(let child)? = target.readable(context)?.get(key)?.kind else { return nil }
    return JSONArray(context: context, array: child)
  }

  /// The text at `key`.
  public func text(_ key: String) -> JSONText? {
    guard case .text(let child)? = target.readable(context)?.get(key)?.kind else { return nil }
    return JSONText(context: context, text: child)
  }

  /// The tree at `key`.
  public func tree(_ key: String) -> JSONTree? {
    guard case .tree(let child)? = target.readable(context)?.get(key)?.kind else { return nil }
    return JSONTree(context: context, tree: child)
  }

  /// Sets a new tree at `key` holding `root` and everything below it (an element; the default
  /// is an empty `<root>`), and returns it. A root that is text, or an empty text node, makes
  /// the update fail with `invalidTreeContent`.
  @discardableResult
  public func setNewTree(_ key: String, _ root: TreeNode = .element("root")) -> JSONTree {
    JSONTree(context: context, target: setNew(key, as: CRDTTree.self) { [context] meta throws(YorkieError) in
      .tree(try TreeContent(root: root, createdAt: meta.createdAt, issue: context.issueTicket), meta)
    })
  }

  /// The counter at `key`.
  public func counter(_ key: String) -> JSONCounter? {
    guard case .counter(let child)? = target.readable(context)?.get(key)?.kind else { return nil }
    return JSONCounter(context: context, counter: child)
  }

  /// Sets a new empty text at `key` and returns it.
  @discardableResult
  public func setNewText(_ key: String) -> JSONText {
    JSONText(context: context, target: setNew(key, as: CRDTText.self) { .text([], $0) })
  }

  /// Sets a new empty object at `key` and returns it.
  @discardableResult
  public func setNewObject(_ key: String) -> JSONObject {
    JSONObject(context: context, target: setNew(key, as: CRDTObject.self) { .object([], $0) })
  }

  /// Sets a new empty array at `key` and returns it.
  @discardableResult
  public func setNewArray(_ key: String) -> JSONArray {
    JSONArray(context: context, target: setNew(key, as: CRDTArray.self) { .array([], $0) })
  }

  /// Sets a new counter at `key` and returns it.
  @discardableResult
  public func setNewCounter(_ key: String, _ value: CounterValue) -> JSONCounter {
    JSONCounter(context: context, target: setNew(key, as: CRDTCounter.self) { .counter(value, $0) })
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
    JSONCounter(context: context, target: setNew(key, as: CRDTCounter.self) { .dedupCounter([], $0) })
  }

  /// Removes the member `key`. Removing a key that does not exist records nothing.
  public func remove(_ key: String) {
    do throws(YorkieError) {
      let object = try target.editable(context)
      guard let element = object.get(key) else { return }
      try context.push(.remove(parentCreatedAt: object.createdAt, createdAt: element.createdAt, executedAt: context.issueTicket()), target: object)
    } catch {
      context.record(error)
    }
  }

  /// The keys of the live members, in print order.
  public var keys: [String] { target.readable(context)?.keys ?? [] }

  /// The object as JSON, as ``Document/toJSON()`` prints it.
  public func toJSON() -> String { target.readable(context)?.toJSON() ?? "{}" }

  // MARK: Internals

  /// Where this proxy's element is (`$.todos.0`), for the paths in errors; `$` for a proxy that
  /// names no element.
  var elementPath: String {
    target.readable(context).flatMap { context.root.path(of: $0.createdAt) } ?? "$"
  }

  /// Whether the object has a live member `key` (without building its value).
  func has(_ key: String) -> Bool { target.readable(context)?.get(key) != nil }

  func set(_ key: String, _ value: JSONValue) throws(YorkieError) {
    let object = try target.editable(context)
    try JSONObject.validate(key: key)
    if let element = try context.primitiveElement(of: value) {
      try context.pushSet(object, key, element)
      return
    }
    try UpdateContext.validate(value)
    let created = OperationValue(try context.snapshot(of: value))
    try context.push(.set(parentCreatedAt: object.createdAt, key: key, value: created, executedAt: created.createdAt), target: object)
  }

  /// Sets a new container or counter under `key`; a failure is recorded (the update will throw
  /// it) and gives a rejected target.
  private func setNew<Element: CRDTElement>(_ key: String, as kind: Element.Type,
                                            _ make: (ElementSnapshot.Meta) throws(YorkieError) -> ElementSnapshot) -> ProxyTarget<Element> {
    do throws(YorkieError) {
      let object = try target.editable(context)
      try JSONObject.validate(key: key)
      let snapshot = try make(ElementSnapshot.Meta(createdAt: context.issueTicket()))
      try context.push(.set(parentCreatedAt: object.createdAt, key: key, value: snapshot, executedAt: snapshot.createdAt), target: object)
      guard let element = object.element(createdAt: snapshot.createdAt) as? Element else {
        throw YorkieError(.elementNotFound, "the object has no \(Element.self) created at \(snapshot.createdAt) after setting it")
      }
      return .element(element)
    } catch {
      context.record(error)
      return .rejected(error)
    }
  }
}

/// A counter in a document, as seen inside ``Document/update(message:_:)``.
public final class JSONCounter {
  let context: UpdateContext
  private let target: ProxyTarget<CRDTCounter>

  init(context: UpdateContext, counter: CRDTCounter) {
    self.context = context
    self.target = .element(counter)
  }

  init(context: UpdateContext, target: ProxyTarget<CRDTCounter>) {
    self.context = context
    self.target = target
  }

  /// The current value (`.int(0)` once the update returned, or for the counter of a rejected
  /// setter).
  public var value: CounterValue { target.readable(context)?.value ?? .int(0) }

  /// Whether this counter counts distinct actors (made with
  /// ``JSONObject/setNewDedupCounter(_:)``).
  public var isDeduplicating: Bool { target.readable(context)?.isDeduplicating ?? false }

  /// Counts `actor` (any string naming who is counted, such as a user ID) in a deduplicating
  /// counter: the value grows only the first time an actor is counted. On any other counter, or
  /// with an empty actor, the update fails with `typeMismatch`.
  public func add(_ actor: String) {
    do throws(YorkieError) {
      let counter = try target.editable(context)
      guard counter.isDeduplicating else {
        throw YorkieError(.typeMismatch, "the counter at \(path(of: counter)) is not a deduplicating counter: increase it by an amount")
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
      let counter = try target.editable(context)
      guard !counter.isDeduplicating else {
        throw YorkieError(.typeMismatch, "the counter at \(path(of: counter)) counts distinct actors: use add(_:), not increase(by: \(delta))")
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

  /// The counter's path for messages, such as `$.visits`.
  private func path(of counter: CRDTCounter) -> String {
    context.root.path(of: counter.createdAt) ?? "(no path)"
  }
}
