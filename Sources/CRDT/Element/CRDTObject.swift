/// A JSON object: Yorkie's `ElementRHT`, a last-writer-wins map from keys to elements.
///
/// Every value ever set stays in the map as a member node until garbage collection purges it.
/// For each key the member with the greatest ticket wins; a value that loses (overwritten, or
/// arriving late after a newer concurrent set) becomes a tombstone at once.
///
/// Members print in the order of their creation tickets. On one replica that is the order in
/// which keys were last set (what the JS SDK prints); unlike the JS SDK, it is also the same on
/// every replica, because tickets are.
///
/// Invariants:
/// 1. `members` is sorted by `element.createdAt` and holds each element once.
/// 2. `winner[key]` is the member with the greatest `positionedAt` among the members of `key`.
package final class CRDTObject: CRDTElement {
  package struct Member {
    package let key: String
    package let element: CRDTElement
  }

  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  @exclusivity(unchecked) package private(set) var members: [Member] = []
  @exclusivity(unchecked) private var winner = KeyTable<CRDTElement>()

  package init(createdAt: TimeTicket) {
    super.init(createdAt: createdAt, tag: Self.tag)
  }

  // MARK: Reading

  /// The live value of `key`.
  package func get(_ key: String) -> CRDTElement? {
    guard let element = winner[key], !element.isRemoved else { return nil }
    return element
  }

  /// The winning member of `key`, live or removed.
  package func winningElement(_ key: String) -> CRDTElement? { winner[key] }

  /// The member with this creation ticket, live or removed.
  package func element(createdAt: TimeTicket) -> CRDTElement? {
    guard let index = memberIndex(createdAt) else { return nil }
    return members[index].element
  }

  /// The key under which the element created at `createdAt` was set.
  package func key(of createdAt: TimeTicket) -> String? { memberIndex(createdAt).map { members[$0].key } }

  /// The keys of live members, in print order.
  package var keys: [String] {
    members.compactMap { $0.element.isRemoved ? nil : $0.key }
  }

  /// Live members in print order.
  package var liveMembers: [Member] { members.filter { !$0.element.isRemoved } }

  // MARK: Writing

  /// What a set changed.
  package struct SetResult {
    /// The occupant of the key before the set.
    package let previous: CRDTElement?
    /// The element that became a tombstone because of this set: the previous occupant when the
    /// new element wins, or the new element itself when it arrives late and loses.
    package let tombstone: CRDTElement?
  }

  /// Sets `element` under `key` with Yorkie's LWW rule: the set wins when its ticket is newer
  /// than the time the current occupant was positioned. (The JS SDK leaves a late loser visible
  /// when the occupant is already a tombstone, yorkie-js-sdk#1376; here it is always a
  /// tombstone, as in Go.)
  ///
  /// - Throws: `invalidChangePack` when a member already has `element`'s creation ticket (a
  ///   forged or corrupted change: members are found by that ticket). Nothing changes then.
  package func set(_ key: String, _ element: CRDTElement, executedAt: TimeTicket) throws(YorkieError) -> SetResult {
    guard insertMember(Member(key: key, element: element)) else {
      throw YorkieError(.invalidChangePack, "object \(createdAt) already has a member created at \(element.createdAt)")
    }
    // One lookup of the key: find the slot once, then read and replace in place.
    guard let slot = winner.slot(of: key) else {
      winner.add(key, element)
      element.movedAt = executedAt
      return SetResult(previous: nil, tombstone: nil)
    }
    let previous = winner.value(at: slot)
    if executedAt.isAfter(previous.positionedAt) {
      winner.setValue(element, at: slot)
      element.movedAt = executedAt
      let evicted = !previous.isRemoved && previous.remove(at: executedAt)
      return SetResult(previous: previous, tombstone: evicted ? previous : nil)
    }
    let lost = !element.isRemoved && element.remove(at: previous.positionedAt)
    return SetResult(previous: previous, tombstone: lost ? element : nil)
  }

  /// Adds a member exactly as a snapshot describes it: the greatest `positionedAt` wins the key,
  /// and no tombstone is created or changed.
  package func insertDecoded(_ key: String, _ element: CRDTElement) {
    insertMember(Member(key: key, element: element))
    if let previous = winner[key], !element.positionedAt.isAfter(previous.positionedAt) { return }
    winner[key] = element
  }

  /// Puts back a member that a Set restoring its identity took out (rollback only), and makes
  /// it the winner of its key again when it was.
  package func reinsert(_ element: CRDTElement, key: String, asWinner: Bool) {
    insertMember(Member(key: key, element: element))
    if asWinner { winner[key] = element }
  }

  /// Removes the element created at `createdAt` at `executedAt`.
  ///
  /// - Returns: the element when it became a tombstone now, nil when it was unknown or the
  ///   removal did not apply.
  package func remove(createdAt: TimeTicket, executedAt: TimeTicket) -> CRDTElement? {
    guard let index = memberIndex(createdAt) else { return nil }
    let element = members[index].element
    let wasRemoved = element.isRemoved
    guard element.remove(at: executedAt), !wasRemoved else { return nil }
    return element
  }

  /// Physically deletes a member (garbage collection and rollback).
  package func purge(_ element: CRDTElement) {
    guard let index = memberIndex(element.createdAt) else { return }
    let member = members.remove(at: index)
    if winner[member.key] === element {
      // Fall back to the best remaining member of that key, if any (only rollback needs it).
      var best: CRDTElement? = nil
      for other in members where other.key == member.key {
        if best == nil || other.element.positionedAt.isAfter(best!.positionedAt) { best = other.element }
      }
      winner[member.key] = best
    }
  }

  /// Makes `element` the winner of `key` again (rollback of a local set).
  package func restoreWinner(_ key: String, _ element: CRDTElement?) {
    winner[key] = element
  }

  /// Inserts `member` in creation order; false (and nothing inserted) when a member already
  /// has its creation ticket. Appending a newer ticket, the common case, costs no search.
  @discardableResult
  private func insertMember(_ member: Member) -> Bool {
    if let last = members.last, !member.element.createdAt.isAfter(last.element.createdAt) {
      var low = 0
      var high = members.count
      while low < high {
        let mid = (low + high) / 2
        if members[mid].element.createdAt < member.element.createdAt { low = mid + 1 } else { high = mid }
      }
      if low < members.count && members[low].element.createdAt == member.element.createdAt { return false }
      members.insert(member, at: low)
    } else {
      members.append(member)
    }
    return true
  }

  /// Where the member created at `createdAt` sits (binary search: members are sorted by it).
  private func memberIndex(_ createdAt: TimeTicket) -> Int? {
    var low = 0
    var high = members.count
    while low < high {
      let mid = (low + high) / 2
      if members[mid].element.createdAt < createdAt { low = mid + 1 } else { high = mid }
    }
    return low < members.count && members[low].element.createdAt == createdAt ? low : nil
  }

  /// Checks invariants 1 and 2 and the key table; returns the first violation.
  package func checkInvariants() -> String? {
    if let problem = winner.checkInvariants() { return problem }
    for index in members.indices.dropFirst() where !(members[index - 1].element.createdAt < members[index].element.createdAt) {
      return "members \(index - 1) and \(index) are out of creation order"
    }
    var best: [String: CRDTElement] = [:]
    for member in members {
      if let current = best[member.key], !member.element.positionedAt.isAfter(current.positionedAt) { continue }
      best[member.key] = member.element
    }
    guard best.count == winner.count else { return "\(winner.count) keys have a winner, members have \(best.count) keys" }
    for (key, element) in best where winner[key] !== element {
      return "the winner of \"\(key)\" is not its member with the greatest positionedAt"
    }
    return nil
  }

}

extension CRDTObject: ElementCapabilities {
  package static var tag: ElementKind.Tag { .object }

  package func forEachChild(_ body: (CRDTElement) -> Void) {
    for member in members { body(member.element) }
  }

  package func deepCopy() -> CRDTObject {
    let copy = CRDTObject(createdAt: createdAt)
    copy.movedAt = movedAt
    copy.removedAt = removedAt
    for member in members {
      let child = member.element.kind.deepCopy()
      copy.members.append(Member(key: member.key, element: child))
      if winner[member.key] === member.element { copy.winner.add(member.key, child) }
    }
    return copy
  }

  package func writeJSON(into writer: inout JSONWriter, sorted: Bool) {
    writer.raw("{")
    var first = true
    if sorted {
      let live = members.filter { !$0.element.isRemoved }
        .sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
      for member in live {
        if !first { writer.raw(",") }
        first = false
        writer.string(member.key)
        writer.raw(":")
        member.element.kind.writeJSON(into: &writer, sorted: true)
      }
    } else {
      for member in members where !member.element.isRemoved {
        if !first { writer.raw(",") }
        first = false
        writer.string(member.key)
        writer.raw(":")
        member.element.kind.writeJSON(into: &writer, sorted: false)
      }
    }
    writer.raw("}")
  }

  package func toJSONValue() -> JSONValue {
    .object(JSONValue.Object(liveMembers.map { (key: $0.key, value: $0.element.kind.toJSONValue()) }))
  }
}
