/// An array in a document, as seen inside ``Document/update(message:_:)``.
///
/// Index-based calls count live elements. ID-based calls name elements by their creation
/// ticket (``id(at:)``), which stays valid while other replicas insert and remove around them.
/// Out-of-range indexes and moves of removed elements throw ``YorkieError`` and change nothing.
public final class JSONArray {
  let context: UpdateContext
  let array: CRDTArray

  init(context: UpdateContext, array: CRDTArray) {
    self.context = context
    self.array = array
  }

  /// The number of live elements.
  public var count: Int { context.isActive ? array.count : 0 }

  /// The element at `index` as JSON, or nil when out of range.
  public subscript(index: Int) -> JSONValue? {
    guard context.isActive, index >= 0, let element = array.element(at: index) else { return nil }
    return element.toJSONValue()
  }

  /// The nested object at `index`.
  public func object(at index: Int) -> JSONObject? {
    guard context.isActive, index >= 0, let child = array.element(at: index) as? CRDTObject else { return nil }
    return JSONObject(context: context, object: child)
  }

  /// The nested array at `index`.
  public func array(at index: Int) -> JSONArray? {
    guard context.isActive, index >= 0, let child = array.element(at: index) as? CRDTArray else { return nil }
    return JSONArray(context: context, array: child)
  }

  /// The text at `index`.
  public func text(at index: Int) -> JSONText? {
    guard context.isActive, index >= 0, let child = array.element(at: index) as? CRDTText else { return nil }
    return JSONText(context: context, text: child)
  }

  /// Appends a new empty text and returns it.
  @discardableResult
  public func appendNewText() -> JSONText {
    let element = appendNew { .text([], $0) }
    return JSONText(context: context, text: element as? CRDTText ?? CRDTText(createdAt: .initial))
  }

  /// Appends a new deduplicating counter (Yorkie's `IntegerDedupCnt`) and returns it; see
  /// ``JSONObject/setNewDedupCounter(_:)``.
  @discardableResult
  public func appendNewDedupCounter() -> JSONCounter {
    let element = appendNew { .dedupCounter([], $0) }
    return JSONCounter(context: context, counter: element as? CRDTCounter ?? CRDTCounter(deduplicatingWith: [], createdAt: .initial))
  }

  /// The counter at `index`.
  public func counter(at index: Int) -> JSONCounter? {
    guard context.isActive, index >= 0, let child = array.element(at: index) as? CRDTCounter else { return nil }
    return JSONCounter(context: context, counter: child)
  }

  /// The creation ticket of the element at `index`, for the ID-based calls.
  public func id(at index: Int) -> TimeTicket? {
    guard context.isActive, index >= 0 else { return nil }
    return array.element(at: index)?.createdAt
  }

  /// Appends a value.
  public func append(_ value: JSONValue) throws {
    try context.ensureActive()
    try add(value, afterPosition: array.lastLivePositionID)
  }

  /// Appends a new empty object and returns it.
  @discardableResult
  public func appendNewObject() -> JSONObject {
    let element = appendNew { .object([], $0) }
    return JSONObject(context: context, object: element as? CRDTObject ?? CRDTObject(createdAt: .initial))
  }

  /// Appends a new empty array and returns it.
  @discardableResult
  public func appendNewArray() -> JSONArray {
    let element = appendNew { .array([], $0) }
    return JSONArray(context: context, array: element as? CRDTArray ?? CRDTArray(createdAt: .initial))
  }

  /// Appends a new counter and returns it.
  @discardableResult
  public func appendNewCounter(_ value: CounterValue) -> JSONCounter {
    let element = appendNew { .counter(value, $0) }
    return JSONCounter(context: context, counter: element as? CRDTCounter ?? CRDTCounter(value, createdAt: .initial))
  }

  /// Inserts a value so that it ends up at `index` (0...count).
  public func insert(_ value: JSONValue, at index: Int) throws {
    try context.ensureActive()
    guard index >= 0, index <= array.count else {
      throw YorkieError(.indexOutOfBounds, "cannot insert at \(index) into an array of \(array.count)")
    }
    let anchorHandle = index == 0 ? CRDTArray.head : array.handle(at: index - 1)!
    try add(value, afterPosition: array.nodes[Int(anchorHandle)].id, anchorHint: anchorHandle)
  }

  /// Inserts a value right after the live element created at `id`.
  public func insert(_ value: JSONValue, after id: TimeTicket) throws {
    try context.ensureActive()
    try requireLive(id)
    try add(value, afterPosition: array.nodes[Int(array.position(ofElement: id)!)].id)
  }

  /// Replaces the element at `index` (Yorkie's ArraySet).
  public func set(_ value: JSONValue, at index: Int) throws {
    try context.ensureActive()
    guard index >= 0, let target = array.element(at: index) else {
      throw YorkieError(.indexOutOfBounds, "cannot set index \(index) of an array of \(array.count)")
    }
    try UpdateContext.validate(value)
    let position = array.position(ofElement: target.createdAt)!
    if array.nodes[Int(position)].id == target.createdAt {
      let created = try context.operationValue(of: value)
      try context.push(.arraySet(parentCreatedAt: array.createdAt, createdAt: target.createdAt, value: created, executedAt: created.createdAt), target: array)
    } else {
      // The target was moved: ArraySet would place the value at its original position on
      // some SDKs and at its current one on others, so say exactly what is meant instead.
      let anchor = array.nodes[Int(position)].id
      try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: target.createdAt, executedAt: context.issueTicket()), target: array)
      try add(value, afterPosition: anchor)
    }
  }

  /// Removes the element at `index`.
  public func remove(at index: Int) throws {
    try context.ensureActive()
    guard index >= 0, let target = array.element(at: index) else {
      throw YorkieError(.indexOutOfBounds, "cannot remove index \(index) of an array of \(array.count)")
    }
    try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: target.createdAt, executedAt: context.issueTicket()), target: array)
  }

  /// Removes the element created at `id`.
  public func remove(id: TimeTicket) throws {
    try context.ensureActive()
    guard let target = array.element(createdAt: id), !target.isRemoved else {
      throw YorkieError(.elementNotFound, "the array has no live element \(id)")
    }
    try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: id, executedAt: context.issueTicket()), target: array)
  }

  /// Moves the element at `from` so that afterwards it is at index `to`.
  public func move(from: Int, to: Int) throws {
    try context.ensureActive()
    let count = array.count
    guard from >= 0, from < count, to >= 0, to < count else {
      throw YorkieError(.indexOutOfBounds, "cannot move from \(from) to \(to) in an array of \(count)")
    }
    guard from != to, let element = array.element(at: from) else { return }
    let anchor: TimeTicket
    if to == 0 {
      anchor = .initial
    } else {
      // Indexes before the move: moving right, the new predecessor is the element now at `to`.
      let predecessor = from < to ? to : to - 1
      anchor = array.nodes[Int(array.handle(at: predecessor)!)].id
    }
    try pushMove(element.createdAt, after: anchor)
  }

  /// Moves the element `id` right before the element `next`.
  public func moveBefore(_ id: TimeTicket, next: TimeTicket) throws {
    try context.ensureActive()
    try requireLive(id)
    try requireLive(next)
    guard id != next, let anchor = array.previousLivePositionID(before: next) else { return }
    guard anchor != array.nodes[Int(array.position(ofElement: id)!)].id else { return }
    try pushMove(id, after: anchor)
  }

  /// Moves the element `id` right after the live element `previous`.
  public func moveAfter(_ id: TimeTicket, previous: TimeTicket) throws {
    try context.ensureActive()
    try requireLive(id)
    try requireLive(previous)
    guard id != previous else { return }
    try pushMove(id, after: array.nodes[Int(array.position(ofElement: previous)!)].id)
  }

  /// Moves the element `id` to the front.
  public func moveToFront(_ id: TimeTicket) throws {
    try context.ensureActive()
    try requireLive(id)
    try pushMove(id, after: .initial)
  }

  /// Moves the element `id` to the end.
  public func moveToEnd(_ id: TimeTicket) throws {
    try context.ensureActive()
    try requireLive(id)
    let anchor = array.lastLivePositionID
    guard anchor != array.nodes[Int(array.position(ofElement: id)!)].id else { return }
    try pushMove(id, after: anchor)
  }

  /// The array as JSON, as ``Document/toJSON()`` prints it.
  public func toJSON() -> String { array.toJSON() }

  // MARK: Internals

  private func requireLive(_ id: TimeTicket) throws(YorkieError) {
    guard let element = array.element(createdAt: id) else {
      throw YorkieError(.elementNotFound, "the array has no element \(id)")
    }
    guard !element.isRemoved else {
      throw YorkieError(.elementRemoved, "the element \(id) was removed")
    }
  }

  private func pushMove(_ id: TimeTicket, after anchor: TimeTicket) throws(YorkieError) {
    try context.push(.move(parentCreatedAt: array.createdAt, previousCreatedAt: anchor, createdAt: id, executedAt: context.issueTicket()), target: array)
  }

  /// Inserts after the position `anchor`, which is one of this array's positions.
  private func add(_ value: JSONValue, afterPosition anchor: TimeTicket, anchorHint: Int32 = -1) throws(YorkieError) {
    if let element = try context.primitiveElement(of: value) {
      context.pushAdd(array, element, after: anchor, anchorHint: anchorHint)
      return
    }
    try UpdateContext.validate(value)
    let created = OperationValue(try context.snapshot(of: value))
    try context.push(.add(parentCreatedAt: array.createdAt, previousCreatedAt: anchor, value: created, executedAt: created.createdAt), target: array)
  }

  private func appendNew(_ make: (ElementSnapshot.Meta) -> ElementSnapshot) -> CRDTElement? {
    do throws(YorkieError) {
      try context.ensureActive()
      let snapshot = make(ElementSnapshot.Meta(createdAt: context.issueTicket()))
      try context.push(.add(parentCreatedAt: array.createdAt, previousCreatedAt: array.lastLivePositionID, value: snapshot, executedAt: snapshot.createdAt), target: array)
      return array.element(createdAt: snapshot.createdAt)
    } catch {
      context.record(error)
      return nil
    }
  }
}
