import Foundation

/// The base of every element in a document tree: primitives, objects, arrays, counters, texts.
///
/// An element is named by the ticket that created it. It is never deleted while other replicas
/// may still refer to it: removing it sets `removedAt` (a tombstone), and garbage collection
/// purges it once every replica has seen the removal.
///
/// Elements are reference types owned by exactly one ``Document`` (an actor), so they are
/// never shared across isolation domains.
///
/// Stored properties that every operation touches are marked `@exclusivity(unchecked)`, here
/// and in the containers, the root and the update context. The invariant that makes this safe:
/// 1. every element, container and context is confined to its document's actor (a
///    transaction runs start to finish on it, never across a suspension point);
/// 2. no method holds a modifying access to one of these properties while calling code that
///    could reach the same property again: elements never call out (no callbacks, no user
///    code), and proxies call into them, never the reverse.
/// What would break it is a closure handed to a mutating method that touches the same storage;
/// the code has none. The runtime's dynamic check (a thread-local set lookup on every access)
/// would only re-verify this, at a high price: with every such attribute removed,
/// `automerge_paper_batched` takes 140 ms instead of 73 ms, `array_10000` 3.7 ms instead of
/// 2.5 ms (`swift run -c release crdt-bench automerge_paper_batched array_10000`, best of three
/// alternating rounds of the two builds, on the 2-core CI machine). The document actor's own state
/// and the journal carry the attribute too, each with its reason and measurement.
package class CRDTElement {
  /// The ticket that created this element; its identity.
  package let createdAt: TimeTicket
  /// Which class this element is, for ``kind``: set once by the class's initializer.
  private let tag: ElementKind.Tag
  /// The ticket of the last move or LWW placement (kept for the wire; arrays decide moves by
  /// their own position register).
  @exclusivity(unchecked) package var movedAt: TimeTicket?
  /// The ticket of the removal, when the element is a tombstone.
  @exclusivity(unchecked) package var removedAt: TimeTicket?

  /// Only for the element classes' initializers, each with its own tag (``ElementCapabilities/tag``).
  package init(createdAt: TimeTicket, tag: ElementKind.Tag) {
    self.createdAt = createdAt
    self.tag = tag
  }

  /// The element with its class: what code that depends on the kind switches over, exhaustively
  /// (see ``ElementKind``). A byte compare and an unchecked cast, no dynamic cast.
  @inline(__always) package final var kind: ElementKind {
    switch tag {
    case .primitive: return .primitive(unsafeDowncast(self, to: CRDTPrimitive.self))
    case .object: return .object(unsafeDowncast(self, to: CRDTObject.self))
    case .array: return .array(unsafeDowncast(self, to: CRDTArray.self))
    case .text: return .text(unsafeDowncast(self, to: CRDTText.self))
    case .counter: return .counter(unsafeDowncast(self, to: CRDTCounter.self))
    case .tree: return .tree(unsafeDowncast(self, to: CRDTTree.self))
    }
  }

  /// Whether the element is a tombstone.
  @inline(__always) package var isRemoved: Bool { removedAt != nil }

  /// `movedAt` when set, else `createdAt`.
  @inline(__always) package var positionedAt: TimeTicket { movedAt ?? createdAt }

  /// Marks the element removed at `ticket`: a removal applies when it comes after the element's
  /// creation and after any earlier removal, so concurrent removals converge on the latest.
  ///
  /// Yorkie compares with the time the element was last *positioned* (moved) instead; then a
  /// removal concurrent with a newer move is kept on replicas that apply the removal first and
  /// dropped on the others, and they diverge. Comparing with the creation keeps removal
  /// independent of moves, so every replica ends with the element removed.
  ///
  /// - Returns: whether `removedAt` changed.
  package func remove(at ticket: TimeTicket) -> Bool {
    guard ticket.isAfter(createdAt) else { return false }
    if let removedAt, !ticket.isAfter(removedAt) { return false }
    removedAt = ticket
    return true
  }

  /// What the element's tickets cost (``DataSize``): its creation, and its last move and its
  /// removal when it has them.
  @inline(__always) package final var ticketsSize: DataSize {
    DataSize(meta: DataSize.ticket * (1 + (movedAt == nil ? 0 : 1) + (removedAt == nil ? 0 : 1)))
  }

  /// Every element below this one, depth first.
  package final func forEachDescendant(_ body: (CRDTElement) -> Void) {
    kind.forEachChild { child in
      body(child)
      child.forEachDescendant(body)
    }
  }

  /// The JSON text of this element.
  package func toJSON() -> String {
    var writer = JSONWriter()
    kind.writeJSON(into: &writer, sorted: false)
    return writer.output
  }
}

/// A primitive value as Yorkie stores it: null, boolean, Integer (int32), Long (int64), Double,
/// String, Bytes or Date (milliseconds since the epoch).
package enum PrimitiveValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int32)
  case long(Int64)
  case double(Double)
  case string(String)
  case bytes(Data)
  /// Milliseconds since 1970-01-01T00:00:00Z.
  case date(Int64)

  /// What the value costs as Yorkie counts it: null 8, a boolean 4, an Integer 4, a Long, Double
  /// or Date 8, a string 2 bytes per UTF-16 code unit, bytes their count.
  package var dataSize: Int {
    switch self {
    case .null: return 8
    case .bool: return 4
    case .integer: return 4
    case .long, .double, .date: return 8
    case .string(let s): return s.utf16.count * 2
    case .bytes(let b): return b.count
    }
  }

  package var jsonValue: JSONValue {
    switch self {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .integer(let i): return .integer(i)
    case .long(let l): return .long(l)
    case .double(let d): return .double(d)
    case .string(let s): return .string(s)
    case .bytes(let b): return .bytes(b)
    case .date(let ms): return .date(PrimitiveValue.date(milliseconds: ms))
    }
  }

  package func write(into writer: inout JSONWriter) {
    switch self {
    case .null: writer.raw("null")
    case .bool(let b): writer.raw(b ? "true" : "false")
    case .integer(let i): writer.raw(String(i))
    case .long(let l): writer.raw(String(l))
    case .double(let d): writer.double(d)
    case .string(let s): writer.string(s)
    case .bytes(let b): writer.string(b.base64EncodedString())
    case .date(let ms):
      // A snapshot or change from the wire may carry any 64-bit count; JavaScript holds dates
      // up to 8.64e15 ms either way and JSON.stringify prints the others as null.
      if PrimitiveValue.javaScriptDateRange.contains(ms) {
        writer.string(JSONWriter.formatDate(PrimitiveValue.date(milliseconds: ms)))
      } else {
        writer.raw("null")
      }
    }
  }

  /// The milliseconds from 1970 a JavaScript date can hold: 100,000,000 days either way.
  package static let javaScriptDateRange: ClosedRange<Int64> = -8_640_000_000_000_000...8_640_000_000_000_000

  /// Converts a Foundation date to whole milliseconds (rounded down, as JS dates hold).
  ///
  /// - Throws: `invalidNumber` for a date no JavaScript date can hold: NaN, or more than
  ///   100,000,000 days (8.64e15 ms) from 1970.
  package static func milliseconds(_ date: Date) throws(YorkieError) -> Int64 {
    let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
    // NaN fails both comparisons.
    guard ms >= Double(javaScriptDateRange.lowerBound) && ms <= Double(javaScriptDateRange.upperBound) else {
      throw YorkieError(.invalidNumber, "a document cannot hold the date \(date.timeIntervalSince1970) s from 1970: JavaScript dates reach 8.64e15 ms either way")
    }
    return Int64(ms)
  }

  /// The date `ms` milliseconds from 1970 that rounds down to `ms` again. A `Date` counts
  /// seconds from 2001 in a `Double`, so `Date(timeIntervalSince1970: ms / 1000)` can fall a
  /// hair short of its millisecond (about one date in 25 after 1970, one in 5 before), which
  /// then printed, and was written back, as the millisecond before.
  package static func date(milliseconds ms: Int64) -> Date {
    var date = Date(timeIntervalSince1970: Double(ms) / 1000)
    while (date.timeIntervalSince1970 * 1000).rounded(.down) < Double(ms) {
      date = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.nextUp)
    }
    return date
  }
}

/// A leaf element holding one ``PrimitiveValue``.
package final class CRDTPrimitive: CRDTElement {
  package let value: PrimitiveValue

  package init(_ value: PrimitiveValue, createdAt: TimeTicket) {
    self.value = value
    super.init(createdAt: createdAt, tag: Self.tag)
  }
}

extension CRDTPrimitive: ElementCapabilities {
  package static var tag: ElementKind.Tag { .primitive }

  package func deepCopy() -> CRDTPrimitive {
    let copy = CRDTPrimitive(value, createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    value.write(into: &writer)
  }

  package func toJSONValue() -> JSONValue { value.jsonValue }

  /// A primitive holds no element.
  package func forEachChild(_ body: (CRDTElement) -> Void) {}

  /// The value and the tickets.
  package func ownSize() -> DocSize {
    var size = ticketsSize
    size.data = value.dataSize
    return DocSize(live: size)
  }

  /// A primitive has no invariant of its own.
  package func checkInvariants() -> String? { nil }
}

/// A counter: Int counters wrap as int32, Long counters as int64.
///
/// A deduplicating counter (Yorkie's `IntegerDedupCnt`, v0.7.5+) counts distinct actors with a
/// ``HyperLogLog``: it holds the registers, and its value is `.int` of their estimate.
package final class CRDTCounter: CRDTElement {
  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  @exclusivity(unchecked) package private(set) var value: CounterValue
  /// The HyperLogLog registers of a deduplicating counter (``HyperLogLog/registerCount``
  /// bytes); nil for an Int or Long counter.
  @exclusivity(unchecked) package private(set) var registers: [UInt8]?

  package init(_ value: CounterValue, createdAt: TimeTicket) {
    self.value = value
    super.init(createdAt: createdAt, tag: Self.tag)
  }

  /// Creates a deduplicating counter from its registers (empty: no actor counted yet). Its
  /// value is their estimate, as Yorkie recomputes it on load.
  package init(deduplicatingWith registers: [UInt8], createdAt: TimeTicket) {
    let registers = HyperLogLog.registers(from: registers)
    self.registers = registers
    self.value = .int(Int32(truncatingIfNeeded: HyperLogLog.estimate(registers)))
    super.init(createdAt: createdAt, tag: Self.tag)
  }

  /// Whether this is a deduplicating counter.
  @inline(__always) package var isDeduplicating: Bool { registers != nil }

  /// Adds `delta`, wrapping at the counter's width.
  package func increase(by delta: Int64) {
    switch value {
    case .int(let v): value = .int(v &+ Int32(truncatingIfNeeded: delta))
    case .long(let v): value = .long(v &+ delta)
    }
  }

  /// Counts `actor` in a deduplicating counter: its register takes the larger rank, and the
  /// value is estimated again when the register changed.
  ///
  /// - Returns: what changed, to undo it; nil when nothing did (the actor was likely counted).
  package func count(_ actor: String) -> (index: Int, oldRegister: UInt8, oldValue: CounterValue)? {
    guard registers != nil else { return nil }
    let (index, rank) = HyperLogLog.slot(of: actor)
    let old = registers![index]
    guard rank > old else { return nil }
    let oldValue = value
    registers![index] = rank
    value = .int(Int32(truncatingIfNeeded: HyperLogLog.estimate(registers!)))
    return (index, old, oldValue)
  }

  /// Undo records of a counter, kept by ``Journal``.
  package enum Undo {
    /// Restores an earlier value.
    case value(CounterValue)
    /// Restores a register of a deduplicating counter, and the value.
    case register(index: Int, register: UInt8, value: CounterValue)
  }

  /// Applies one undo record (rollback only).
  package func undo(_ record: Undo) {
    switch record {
    case .value(let old):
      value = old
    case .register(let index, let register, let old):
      registers?[index] = register
      value = old
    }
  }

}

extension CRDTCounter: ElementCapabilities {
  package static var tag: ElementKind.Tag { .counter }

  package func deepCopy() -> CRDTCounter {
    let copy = registers.map { CRDTCounter(deduplicatingWith: $0, createdAt: createdAt) } ?? CRDTCounter(value, createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    switch value {
    case .int(let v): writer.raw(String(v))
    case .long(let v): writer.raw(String(v))
    }
  }

  package func toJSONValue() -> JSONValue {
    switch value {
    case .int(let v): return .integer(v)
    case .long(let v): return .long(v)
    }
  }

  /// A counter holds no element.
  package func forEachChild(_ body: (CRDTElement) -> Void) {}

  /// A counter has no invariant of its own (its registers are checked on load).
  package func checkInvariants() -> String? { nil }
}

/// The value of a counter: Yorkie's Int (32-bit) or Long (64-bit) counter. Both wrap on overflow.
public enum CounterValue: Hashable, Sendable {
  /// A 32-bit counter.
  case int(Int32)
  /// A 64-bit counter.
  case long(Int64)

  /// The value widened to 64 bits.
  public var int64Value: Int64 {
    switch self {
    case .int(let v): return Int64(v)
    case .long(let v): return v
    }
  }
}
