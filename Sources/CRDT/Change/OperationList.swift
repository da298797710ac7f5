/// The operations of a change, in order.
///
/// Stored for the two shapes large changes have:
/// - Text edits are kept as their ``TextEdit`` references, a word each, instead of a full
///   ``Operation`` slot (88 bytes, sized for the inline Set and Add): typing a whole session
///   in one update stores a third less per edit.
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
  /// Text edits are kept as their ``TextEdit`` references, a word each, instead of a full
  /// ``Operation`` slot; the other operations grow by chunks of ``chunkSize`` instead of
  /// doubling one buffer. A builder holding both kinds also keeps, per operation, which store
  /// holds it.
  package struct Builder: Sendable {
    static var chunkSize: Int { 1 << chunkShift }
    private static var chunkShift: Int { 9 }
    private static var chunkMask: Int { chunkSize - 1 }

    /// Operations other than text edits: full chunks, then the one being filled.
    private var full: [[Operation]] = []
    private var current: [Operation] = []
    /// Text edits, in order.
    private var edits = PagedArray<TextEdit>()
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
          return edits.count == 0 ? inline(position) : .edit(edits[position])
        }
        let entry = Int(order[position])
        return entry & 1 == 1 ? .edit(edits[entry >> 1]) : inline(entry >> 1)
      }
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
      if holdsOthers {
        if order.isEmpty { startOrder() }
        order.append(UInt32(edits.count) << 1 | 1)
      }
      holdsEdits = true
      edits.append(edit)
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
