/// The operations of a change, in order.
///
/// Stored for the two shapes large changes have:
/// - Text edits are kept as packed records (96 bytes in place, tickets packed against a small
///   actor table) instead of a ``TextEdit`` object each (176 bytes from the allocator, plus a
///   word to point at it): typing a whole session in one update allocates nothing per edit.
///   Reading one back builds its ``TextEdit``.
/// - The other operations grow by chunks of ``chunkSize`` instead of doubling one buffer. Ten
///   thousand Sets would otherwise end in a buffer of almost a megabyte, copied at every
///   doubling and big enough for the allocator to map fresh pages for it on every update.
///
/// A change holding only one kind needs no more than its store; a mixed change also keeps, per
/// operation, which store holds it. A list of one operation holds it inline (no allocation).
package struct OperationList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
  /// Operations per chunk (a power of two).
  package static var chunkSize: Int { Builder.chunkSize }

  /// The only operation of a one-operation list (a keystroke's change allocates nothing for
  /// its list, and copying the change copies one operation); unused otherwise.
  private var single: Operation = .increase(parentCreatedAt: .initial, value: .null, executedAt: .initial)
  /// Every operation of a longer list, shared until a copy appends (copy on write).
  private var storage: Storage?
  private var storedCount = 0

  /// An empty list.
  package init() {}

  /// A list of one operation.
  package init(single operation: Operation) {
    single = operation
    storedCount = 1
  }

  /// The operations a builder collected, without copying them.
  package init(_ builder: consuming Builder) {
    storedCount = builder.count
    if storedCount == 1 {
      single = builder[0]
    } else if storedCount > 1 {
      storage = Storage(builder)
    }
  }

  /// The operations of `sequence`, in order.
  package init<S: Sequence>(_ sequence: S) where S.Element == Operation {
    var builder = Builder()
    for operation in sequence { builder.append(operation) }
    self.init(builder)
  }

  package init(arrayLiteral elements: Operation...) {
    self.init(elements)
  }

  package var startIndex: Int { 0 }
  package var endIndex: Int { storedCount }

  package subscript(position: Int) -> Operation {
    @inline(__always) get {
      precondition(position >= 0 && position < storedCount, "OperationList index \(position) out of range")
      if let storage { return storage.builder[position] }
      return single
    }
  }

  /// Appends an operation (collect many with a ``Builder`` instead).
  package mutating func append(_ operation: Operation) {
    if storedCount == 0 {
      single = operation
    } else {
      var shared = storage.take() ?? Storage(Builder(single))
      if !isKnownUniquelyReferenced(&shared) { shared = Storage(shared.builder) }
      shared.builder.append(operation)
      storage = shared
    }
    storedCount += 1
  }

  package static func == (lhs: OperationList, rhs: OperationList) -> Bool {
    lhs.count == rhs.count && lhs.elementsEqual(rhs)
  }

  /// Collects the operations of a change as they are made (the update's hot path: a plain
  /// append, no sharing checks).
  ///
  /// Text edits are kept as packed records; the other operations grow by chunks of
  /// ``chunkSize`` instead of doubling one buffer. A builder holding both kinds also keeps,
  /// per operation, which store holds it.
  package struct Builder: Sendable {
    static var chunkSize: Int { 1 << chunkShift }
    private static var chunkShift: Int { 9 }
    private static var chunkMask: Int { chunkSize - 1 }

    /// Operations other than text edits: full chunks, then the one being filled.
    private var full: [[Operation]] = []
    private var current: [Operation] = []
    /// Text edits, in order.
    private var edits = PagedArray<EditRecord>()
    /// The actors and the texts the edits name, each stored once.
    private var actors = InternTable<ActorID>()
    private var texts = InternTable<TimeTicket>()
    /// For a builder holding both kinds: per operation, `index << 1 | 1` for the text edit at
    /// `index`, `index << 1` for another operation. Empty while it holds one kind only.
    private var order: [UInt32] = []
    /// Which kinds the builder holds (a one-kind builder appends without touching `order`).
    private var holdsEdits = false
    private var holdsOthers = false

    /// An empty builder.
    package init() {}

    init(_ first: Operation) {
      append(first)
    }

    private var inlineCount: Int { full.count << Builder.chunkShift + current.count }

    /// The number of operations collected.
    package var count: Int { inlineCount + edits.count }

    /// Whether nothing was collected.
    package var isEmpty: Bool { current.isEmpty && edits.count == 0 }

    subscript(position: Int) -> Operation {
      @inline(__always) get {
        if order.isEmpty {
          return edits.count == 0 ? inline(position) : .edit(edit(position))
        }
        let entry = Int(order[position])
        return entry & 1 == 1 ? .edit(edit(entry >> 1)) : inline(entry >> 1)
      }
    }

    /// The text edit stored at `index` of the edit store, rebuilt.
    private func edit(_ index: Int) -> TextEdit {
      let record = edits[index]
      return TextEdit(parentCreatedAt: texts[record.text],
                      from: TextPosition(id: TextNodeID(createdAt: unpack(record.from), offset: record.fromOffset),
                                         relativeOffset: record.fromRelative),
                      to: TextPosition(id: TextNodeID(createdAt: unpack(record.to), offset: record.toOffset),
                                       relativeOffset: record.toRelative),
                      content: record.content, attributes: record.attributes, executedAt: unpack(record.executedAt))
    }

    @inline(__always) private func unpack(_ ticket: PackedTicket) -> TimeTicket {
      TimeTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actorID: actors[ticket.actor])
    }

    @inline(__always) private mutating func pack(_ ticket: TimeTicket) -> PackedTicket {
      PackedTicket(lamport: ticket.lamport, delimiter: ticket.delimiter, actor: actors.intern(ticket.actorID))
    }

    @inline(__always) private func inline(_ index: Int) -> Operation {
      let chunk = index >> Builder.chunkShift
      if chunk < full.count { return full[chunk][index & Builder.chunkMask] }
      return current[index & Builder.chunkMask]
    }

    /// Appends an operation.
    @inline(__always) package mutating func append(_ operation: consuming Operation) {
      if case .edit(let edit) = operation {
        append(edit: edit)
      } else {
        append(other: operation)
      }
    }

    /// Appends a text edit (what ``append(_:)`` does when the caller knows the kind).
    @inline(__always) package mutating func append(edit: TextEdit) {
      appendEdit(parentCreatedAt: edit.parentCreatedAt, from: edit.from, to: edit.to, content: edit.content,
                 attributes: edit.attributes, executedAt: edit.executedAt)
    }

    /// Appends the text edit made of these parts (without building its ``TextEdit``).
    @inline(__always) package mutating func appendEdit(parentCreatedAt: TimeTicket, from: TextPosition, to: TextPosition,
                                                       content: String, attributes: [String: String]?,
                                                       executedAt: TimeTicket) {
      if holdsOthers {
        if order.isEmpty { startOrder() }
        order.append(UInt32(edits.count) << 1 | 1)
      }
      holdsEdits = true
      let record = EditRecord(executedAt: pack(executedAt), from: pack(from.id.createdAt), to: pack(to.id.createdAt),
                              fromOffset: from.id.offset, fromRelative: from.relativeOffset,
                              toOffset: to.id.offset, toRelative: to.relativeOffset,
                              text: texts.intern(parentCreatedAt), content: content, attributes: attributes)
      edits.append(record)
    }

    /// Appends an operation that is not a text edit.
    @inline(__always) package mutating func append(other operation: consuming Operation) {
      holdsOthers = true
      if holdsEdits {
        if order.isEmpty { startOrder() }
        order.append(UInt32(inlineCount) << 1)
      }
      if current.count == Builder.chunkSize { startChunk() }
      current.append(operation)
    }

    /// The first operation of the second kind arrived: every operation so far is of the other.
    private mutating func startOrder() {
      let inline = inlineCount
      precondition(inline + edits.count < 1 << 31, "a change holds at most 2^31 operations")
      order.reserveCapacity(inline + edits.count + 1)
      for index in 0..<inline { order.append(UInt32(index) << 1) }
      for index in 0..<edits.count { order.append(UInt32(index) << 1 | 1) }
    }

    private mutating func startChunk() {
      full.append(current)
      current = []
      current.reserveCapacity(Builder.chunkSize)
    }
  }
}

/// A text edit as a builder stores it: tickets packed against the builder's actor table, the
/// text as its index in the builder's table of texts.
private struct EditRecord: Sendable {
  var executedAt: PackedTicket
  var from: PackedTicket
  var to: PackedTicket
  var fromOffset: Int32
  var fromRelative: Int32
  var toOffset: Int32
  var toRelative: Int32
  var text: UInt32
  var content: String
  var attributes: [String: String]?
}

/// Distinct values, each numbered by its first appearance. A change names few actors and few
/// texts, so a lookup compares with the last value numbered, then scans; past 16 values a
/// dictionary answers instead.
private struct InternTable<Key: Hashable & Sendable>: Sendable {
  private var keys: [Key] = []
  private var numbers: [Key: UInt32]?
  private var last: UInt32 = 0

  /// The value numbered `number`.
  @inline(__always) subscript(number: UInt32) -> Key { keys[Int(number)] }

  /// The number of `key`, numbering it if it is new.
  @inline(__always) mutating func intern(_ key: Key) -> UInt32 {
    if Int(last) < keys.count && keys[Int(last)] == key { return last }
    last = lookUp(key)
    return last
  }

  private mutating func lookUp(_ key: Key) -> UInt32 {
    if let numbers {
      if let number = numbers[key] { return number }
    } else if let index = keys.firstIndex(of: key) {
      return UInt32(index)
    }
    let number = UInt32(keys.count)
    keys.append(key)
    if numbers != nil {
      numbers![key] = number
    } else if keys.count > 16 {
      numbers = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, UInt32($0)) })
    }
    return number
  }
}

/// The shared operations of an ``OperationList`` of two or more.
///
/// Unchecked Sendable: an ``OperationList`` changes its storage only while it holds the only
/// reference, so a storage shared between values (or isolation domains) is never written.
private final class Storage: @unchecked Sendable {
  var builder: OperationList.Builder

  init(_ builder: consuming OperationList.Builder) {
    self.builder = builder
  }
}
