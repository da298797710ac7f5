/// A logical timestamp that also names what it created: an element, a text node, an operation.
///
/// Every change issues tickets `(lamport, delimiter, actor)`: the change's Lamport clock, a
/// sequence number within the change (1, 2, 3, …) and the author. Tickets are totally ordered
/// by lamport, then actor, then delimiter; that order decides every last-writer-wins race and
/// the order of concurrent insertions. A ticket cannot tell whether two events were concurrent
/// or causally related: version vectors do that.
public struct TimeTicket: Hashable, Comparable, Sendable, CustomStringConvertible {
  // Declared in this order so that the ticket packs into 24 bytes.
  /// The Lamport clock of the change that issued this ticket.
  public let lamport: Int64
  /// The replica that issued this ticket.
  public let actorID: ActorID
  /// The position of this ticket among those its change issued, starting at 1.
  public let delimiter: UInt32

  /// Creates a ticket from its three parts.
  @inlinable public init(lamport: Int64, delimiter: UInt32, actorID: ActorID) {
    self.lamport = lamport
    self.delimiter = delimiter
    self.actorID = actorID
  }

  /// The ticket of everything that exists before any change: the document root, the head of
  /// every array and text. Lamport 0, delimiter 0, actor ``ActorID/initial``.
  public static let initial = TimeTicket(lamport: 0, delimiter: 0, actorID: .initial)

  /// The greatest ticket. Removing with it (or collecting with a vector that holds it) treats
  /// everything as known.
  public static let max = TimeTicket(lamport: .max, delimiter: .max, actorID: .max)

  /// The greatest Lamport value, as Yorkie's `MaxLamport`.
  public static let maxLamport: Int64 = .max

  /// Orders by lamport, then actor (byte-wise), then delimiter.
  @inlinable public static func < (lhs: TimeTicket, rhs: TimeTicket) -> Bool {
    if lhs.lamport != rhs.lamport { return lhs.lamport < rhs.lamport }
    if lhs.actorID != rhs.actorID { return lhs.actorID < rhs.actorID }
    return lhs.delimiter < rhs.delimiter
  }

  /// Whether this ticket comes strictly after `other`.
  @inlinable func isAfter(_ other: TimeTicket) -> Bool { other < self }

  /// Yorkie's compact test notation: `lamport:last two hex digits of the actor:delimiter`.
  public var description: String {
    let hex = actorID.hex
    return "\(lamport):\(hex.suffix(2)):\(delimiter)"
  }
}
