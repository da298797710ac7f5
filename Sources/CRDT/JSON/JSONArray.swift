/// An array in a document, as seen inside ``Document/update(message:_:)``.
///
/// Index-based calls count live elements. ID-based calls name elements by their creation
/// ticket (``id(at:)``), which stays valid while other replicas insert and remove around them.
/// Out-of-range indexes and moves of removed elements throw ``YorkieError`` and change nothing.
public final class JSONArray {
  let context: UpdateContext
  private let target: ProxyTarget<CRDTArray>

  init(context: UpdateContext, array: CRDTArray) {
    self.context = context
    self.target = .element(array)
  }

  init(context: UpdateContext, target: ProxyTarget<CRDTArray>) {
    self.context = context
    self.target = target
  }

  /// Where this proxy's element is (`$.todos.0`), for the paths in errors; `$` for a proxy that
  /// names no element.
  var elementPath: String {
    target.readable(context).flatMap { context.root.path(of: $0.createdAt) } ?? "$"
  }

  /// The number of live elements.
  public var count: Int { target.readable(context)?.count ?? 0 }

  /// The element at `index` as JSON, or nil when out of range.
  public subscript(index: Int) -> JSONValue? { element(at: index)?.kind.toJSONValue() }

  /// The nested object at `index`.
  public func object(at index: Int) -> JSONObject? {
    guard case .object(let child)? = element(at: index)?.kind else { return nil }
    return JSONObject(context: context, object: child)
  }

  /// The nested array at `index`.
  public func array(at index: Int) -> JSONArray? {
    guard case .array(let child)? = element(at: index)?.kind else { return nil }
    return JSONArray(context: context, array: child)
  }

  /// The text at `index`.
  public func text(at index: Int) -> JSONText? {
    guard case .text(let child)? = element(at: index)?.kind else { return nil }
    return JSONText(context: context, text: child)
  }

  /// The tree at `index`.
  public func tree(at index: Int) -> JSONTree? {
    guard case .tree(let child)? = element(at: index)?.kind else { return nil }
    return JSONTree(context: context, tree: child)
  }

  /// Appends a new tree holding `root` (see ``JSONObject/setNewTree(_:_:)``) and returns it.
  @discardableResult
  public func appendNewTree(_ root: TreeNode = .element("root")) -> JSONTree {
    JSONTree(context: context, target: appendNew(as: CRDTTree.self) { [context] meta throws(YorkieError) in
      .tree(try TreeContent(root: root, createdAt: meta.createdAt, issue: context.issueTicket), meta)
    })
  }

  /// The counter at `index`.
  public func counter(at index: Int) -> JSONCounter? {
    guard case .counter(let child)? = element(at: index)?.kind else { return nil }
    return JSONCounter(context: context, counter: child)
  }

  /// The creation ticket of the element at `index`, for the ID-based calls.
  public func id(at index: Int) -> TimeTicket? { element(at: index)?.createdAt }

  /// Appends a new empty text and returns it.
  @discardableResult
  public func appendNewText() -> JSONText {
    JSONText(context: context, target: appendNew(as: CRDTText.self) { .text([], $0) })
  }

  /// Appends a new deduplicating counter (Yorkie's `IntegerDedupCnt`) and returns it; see
  /// ``JSONObject/setNewDedupCounter(_:)``.
  @discardableResult
  public func appendNewDedupCounter() -> JSONCounter {
    JSONCounter(context: context, target: appendNew(as: CRDTCounter.self) { .dedupCounter([], $0) })
  }

  /// Appends a value.
  public func append(_ value: JSONValue) throws {
    let array = try target.editable(context)
    try add(value, to: array, afterPosition: array.lastLivePositionID)
  }

  /// Appends a new empty object and returns it.
  @discardableResult
  public func appendNewObject() -> JSONObject {
    JSONObject(context: context, target: appendNew(as: CRDTObject.self) { .object([], $0) })
  }

  /// Appends a new empty array and returns it.
  @discardableResult
  public func appendNewArray() -> JSONArray {
    JSONArray(context: context, target: appendNew(as: CRDTArray.self) { .array([], $0) })
  }

  /// Appends a new counter and returns it.
  @discardableResult
  public func appendNewCounter(_ value: CounterValue) -> JSONCounter {
    JSONCounter(context: context, target: appendNew(as: CRDTCounter.self) { .counter(value, $0) })
  }

  /// Inserts a value so that it ends up at `index` (0...count).
  public func insert(_ value: JSONValue, at index: Int) throws {
    let array = try target.editable(context)
    guard index >= 0, index <= array.count else {
      throw YorkieError(.indexOutOfBounds, "cannot insert at \(index) into an array of \(array.count)")
    }
    let anchorHandle: Int32
    if index == 0 {
      anchorHandle = CRDTArray.head
    } else if let handle = array.handle(at: index - 1) {
      anchorHandle = handle
    } else {
      throw YorkieError(.indexOutOfBounds, "cannot insert at \(index) into an array of \(array.count)")
    }
    try add(value, to: array, afterPosition: array.nodes[Int(anchorHandle)].id, anchorHint: anchorHandle)
  }

  /// Inserts a value right after the live element created at `id`.
  public func insert(_ value: JSONValue, after id: TimeTicket) throws {
    let array = try target.editable(context)
    let position = try livePosition(of: id, in: array)
    try add(value, to: array, afterPosition: array.nodes[Int(position)].id)
  }

  /// Replaces the element at `index` (Yorkie's ArraySet).
  public func set(_ value: JSONValue, at index: Int) throws {
    let array = try self.target.editable(context)
    guard index >= 0, let target = array.element(at: index) else {
      throw YorkieError(.indexOutOfBounds, "cannot set index \(index) of an array of \(array.count)")
    }
    try UpdateContext.validate(value)
    let position = try livePosition(of: target.createdAt, in: array)
    if array.nodes[Int(position)].id == target.createdAt {
      let created = try context.operationValue(of: value)
      try context.push(.arraySet(parentCreatedAt: array.createdAt, createdAt: target.createdAt, value: created, executedAt: created.createdAt), target: array)
    } else {
      // The target was moved: ArraySet would place the value at its original position on
      // some SDKs and at its current one on others, so say exactly what is meant instead.
      let anchor = array.nodes[Int(position)].id
      try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: target.createdAt, executedAt: context.issueTicket()), target: array)
      try add(value, to: array, afterPosition: anchor)
    }
  }

  /// Removes the element at `index`.
  public func remove(at index: Int) throws {
    let array = try target.editable(context)
    guard index >= 0, let target = array.element(at: index) else {
      throw YorkieError(.indexOutOfBounds, "cannot remove index \(index) of an array of \(array.count)")
    }
    try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: target.createdAt, executedAt: context.issueTicket()), target: array)
  }

  /// Removes the element created at `id`.
  public func remove(id: TimeTicket) throws {
    let array = try target.editable(context)
    guard let target = array.element(createdAt: id), !target.isRemoved else {
      throw YorkieError(.elementNotFound, "the array has no live element \(id)")
    }
    try context.push(.remove(parentCreatedAt: array.createdAt, createdAt: id, executedAt: context.issueTicket()), target: array)
  }

  /// Moves the element at `from` so that afterwards it is at index `to`.
  public func move(from: Int, to: Int) throws {
    let array = try target.editable(context)
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
      guard let handle = array.handle(at: predecessor) else {
        throw YorkieError(.indexOutOfBounds, "cannot move from \(from) to \(to) in an array of \(count)")
      }
      anchor = array.nodes[Int(handle)].id
    }
    try pushMove(element.createdAt, after: anchor, in: array)
  }

  /// Moves the element `id` right before the element `next`.
  public func moveBefore(_ id: TimeTicket, next: TimeTicket) throws {
    let array = try target.editable(context)
    let position = try livePosition(of: id, in: array)
    _ = try livePosition(of: next, in: array)
    guard id != next, let anchor = array.previousLivePositionID(before: next) else { return }
    guard anchor != array.nodes[Int(position)].id else { return }
    try pushMove(id, after: anchor, in: array)
  }

  /// Moves the element `id` right after the live element `previous`.
  public func moveAfter(_ id: TimeTicket, previous: TimeTicket) throws {
    let array = try target.editable(context)
    _ = try livePosition(of: id, in: array)
    let anchor = try livePosition(of: previous, in: array)
    guard id != previous else { return }
    try pushMove(id, after: array.nodes[Int(anchor)].id, in: array)
  }

  /// Moves the element `id` to the front.
  public func moveToFront(_ id: TimeTicket) throws {
    let array = try target.editable(context)
    _ = try livePosition(of: id, in: array)
    try pushMove(id, after: .initial, in: array)
  }

  /// Moves the element `id` to the end.
  public func moveToEnd(_ id: TimeTicket) throws {
    let array = try target.editable(context)
    let position = try livePosition(of: id, in: array)
    let anchor = array.lastLivePositionID
    guard anchor != array.nodes[Int(position)].id else { return }
    try pushMove(id, after: anchor, in: array)
  }

  /// The array as JSON, as ``Document/toJSON()`` prints it.
  public func toJSON() -> String { target.readable(context)?.toJSON() ?? "[]" }

  // MARK: Internals

  /// The live element at `index`, for a read (nil when out of range or the proxy is unusable).
  private func element(at index: Int) -> CRDTElement? {
    guard index >= 0, let array = target.readable(context) else { return nil }
    return array.element(at: index)
  }

  /// The position of the live element `id`; throws when the array has no such element or it
  /// was removed.
  private func livePosition(of id: TimeTicket, in array: CRDTArray) throws(YorkieError) -> Int32 {
    guard let element = array.element(createdAt: id), let position = array.position(ofElement: id) else {
      throw YorkieError(.elementNotFound, "the array has no element \(id)")
    }
    guard !element.isRemoved else {
      throw YorkieError(.elementRemoved, "the element \(id) was removed")
    }
    return position
  }

  private func pushMove(_ id: TimeTicket, after anchor: TimeTicket, in array: CRDTArray) throws(YorkieError) {
    try context.push(.move(parentCreatedAt: array.createdAt, previousCreatedAt: anchor, createdAt: id, executedAt: context.issueTicket()), target: array)
  }

  /// Inserts after the position `anchor`, which is one of this array's positions.
  private func add(_ value: JSONValue, to array: CRDTArray, afterPosition anchor: TimeTicket, anchorHint: Int32 = -1) throws(YorkieError) {
    if let element = try context.primitiveElement(of: value) {
      context.pushAdd(array, element, after: anchor, anchorHint: anchorHint)
      return
    }
    try UpdateContext.validate(value)
    let created = OperationValue(try context.snapshot(of: value))
    try context.push(.add(parentCreatedAt: array.createdAt, previousCreatedAt: anchor, value: created, executedAt: created.createdAt), target: array)
  }

  /// Appends a new container or counter; a failure is recorded (the update will throw it) and
  /// gives a rejected target.
  private func appendNew<Element: CRDTElement>(as kind: Element.Type,
                                               _ make: (ElementSnapshot.Meta) throws(YorkieError) -> ElementSnapshot) -> ProxyTarget<Element> {
    do throws(YorkieError) {
      let array = try target.editable(context)
      let snapshot = try make(ElementSnapshot.Meta(createdAt: context.issueTicket()))
      try context.push(.add(parentCreatedAt: array.createdAt, previousCreatedAt: array.lastLivePositionID, value: snapshot, executedAt: snapshot.createdAt), target: array)
      guard let element = array.element(createdAt: snapshot.createdAt) as? Element else {
        throw YorkieError(.elementNotFound, "the array has no \(Element.self) created at \(snapshot.createdAt) after appending it")
      }
      return .element(element)
    } catch {
      context.record(error)
      return .rejected(error)
    }
  }
}
