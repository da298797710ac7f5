/// The operations of a change, in order.
///
/// An array, except that past ``chunkSize`` operations it grows by whole chunks instead of
/// doubling one buffer. A large update (ten thousand Sets) would otherwise end in a buffer of
/// almost a megabyte, big enough for the allocator to map fresh pages for it on every update
/// and copy everything into it at each doubling; chunks of a few tens of kilobytes come from
/// the heap and are reused. A change of a few operations is one array, as before.
package struct OperationList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
  /// Operations per chunk (a power of two).
  package static var chunkSize: Int { 1 << chunkShift }
  private static var chunkShift: Int { 9 }
  private static var chunkMask: Int { chunkSize - 1 }

  /// The full chunks.
  private var full: [[Operation]] = []
  /// The chunk being filled: all there is for most changes.
  private var current: [Operation] = []

  /// An empty list.
  package init() {}

  /// The operations of `sequence`, in order.
  package init<S: Sequence>(_ sequence: S) where S.Element == Operation {
    for operation in sequence { append(operation) }
  }

  package init(arrayLiteral elements: Operation...) {
    self.init(elements)
  }

  package var startIndex: Int { 0 }
  package var endIndex: Int { full.count << OperationList.chunkShift + current.count }

  package subscript(position: Int) -> Operation {
    @inline(__always) get {
      let chunk = position >> OperationList.chunkShift
      if chunk < full.count { return full[chunk][position & OperationList.chunkMask] }
      return current[position & OperationList.chunkMask]
    }
  }

  /// Appends an operation.
  @inline(__always) package mutating func append(_ operation: consuming Operation) {
    if current.count == OperationList.chunkSize { startChunk() }
    current.append(operation)
  }

  private mutating func startChunk() {
    full.append(current)
    current = []
    current.reserveCapacity(OperationList.chunkSize)
  }

  package static func == (lhs: OperationList, rhs: OperationList) -> Bool {
    lhs.count == rhs.count && lhs.elementsEqual(rhs)
  }
}
