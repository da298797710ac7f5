/// An append-only array stored in fixed-size pages, so that growing it never copies or
/// re-faults what it already holds: appending allocates at most one new page. Arenas of nodes
/// use it to keep every single edit's cost flat, whatever the document's size.
package struct PagedArray<Element> {
  private static var pageShift: Int { 12 }
  private static var pageSize: Int { 1 << pageShift }
  private static var pageMask: Int { pageSize - 1 }

  private var pages: [[Element]] = []
  /// The number of elements.
  package private(set) var count = 0

  package init() {}

  /// The element at `index`.
  package subscript(index: Int) -> Element {
    @inline(__always) get { pages[index >> PagedArray.pageShift][index & PagedArray.pageMask] }
    @inline(__always) _modify { yield &pages[index >> PagedArray.pageShift][index & PagedArray.pageMask] }
  }

  /// Appends an element.
  @inline(__always) package mutating func append(_ element: consuming Element) {
    if count & PagedArray.pageMask == 0 { addPage() }
    pages[pages.count - 1].append(element)
    count += 1
  }

  private mutating func addPage() {
    var page: [Element] = []
    page.reserveCapacity(PagedArray.pageSize)
    pages.append(page)
  }

  /// Bytes reserved by the pages.
  package var memoryFootprint: Int {
    pages.count * PagedArray.pageSize * MemoryLayout<Element>.stride + pages.capacity * 8
  }
}

extension PagedArray: Sendable where Element: Sendable {}
