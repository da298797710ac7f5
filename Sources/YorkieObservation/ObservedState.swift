import CRDT
import YorkieClient

/// What one refresh reads of a document, in one visit to it (so the parts agree with each
/// other): only the parts a refresh needs, the rest nil.
struct ObservedState: Sendable {
  var value: JSONValue?
  var presences: [PeerPresence]?
  var actorID: ActorID
  var status: DocumentStatus
  var hasLocalChanges: Bool
  /// Read with every refresh, as the status is: two flags.
  var canUndo: Bool
  var canRedo: Bool
}

extension Document {
  /// The parts of the document's state that `needs` names: an isolated method of the document
  /// (an extension may add one), so the model reads everything in one hop.
  func observedState(_ needs: RefreshNeeds) -> ObservedState {
    // `Optional(value)`, not `value`: JSONValue is ExpressibleByNilLiteral, so `cond ? value :
    // nil` type-checks as a JSONValue whose `nil` is `.null`, and a refresh that read no content
    // would show an empty document (the sample's empty to-do list after an acknowledgement).
    ObservedState(
      value: needs.contains(.content) ? Optional(value) : nil,
      presences: needs.contains(.presence) ? presences.map { PeerPresence(actorID: $0.actorID, presence: $0.presence) } : nil,
      actorID: actorID,
      status: status,
      hasLocalChanges: hasLocalChanges,
      canUndo: canUndo,
      canRedo: canRedo)
  }
}

extension JSONValue {
  /// The value at a path in Yorkie's dot notation (`$`, `$.todos.2.title`), as
  /// ``Document/value(atPath:)`` reads a document: nil when there is none.
  ///
  /// - Throws: ``YorkieError`` `invalidPath` when the path does not start at `$`.
  func descendant(atPath path: String) throws(YorkieError) -> JSONValue? {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.first == "$" else {
      throw YorkieError(.invalidPath, "a path starts at the root, \"$\" (as in \"$.todos.0\"): \"\(path)\"")
    }
    var current = self
    for part in parts.dropFirst() {
      switch current {
      case .object(let object):
        guard let member = object[String(part)] else { return nil }
        current = member
      case .array(let elements):
        guard let index = Int(part), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
