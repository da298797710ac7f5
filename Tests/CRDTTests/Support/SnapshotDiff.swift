@testable import CRDT
import Foundation

/// The first difference between two encoded document snapshots, as a path and the two
/// differing parts, or nil when they decode to the same content (for failure messages).
func snapshotDifference(_ a: Data, _ b: Data) -> String? {
  guard let left = try? DocumentSnapshot(data: a), let right = try? DocumentSnapshot(data: b) else {
    return "a snapshot does not decode"
  }
  if left.presences != right.presences { return "presences \(left.presences) vs \(right.presences)" }
  return elementDifference(ElementSnapshot(left.root), ElementSnapshot(right.root), path: "$")
}

private func elementDifference(_ a: ElementSnapshot, _ b: ElementSnapshot, path: String) -> String? {
  if a == b { return nil }
  if a.meta != b.meta { return "\(path): meta \(describeMeta(a.meta)) vs \(describeMeta(b.meta))" }
  switch (a, b) {
  case let (.object(x, _), .object(y, _)):
    guard x.map(\.key) == y.map(\.key) else { return "\(path): members \(x.map(\.key)) vs \(y.map(\.key))" }
    for (m, n) in zip(x, y) {
      if let found = elementDifference(m.value, n.value, path: "\(path).\(m.key)") { return found }
    }
    return "\(path): objects differ"
  case let (.array(x, _), .array(y, _)):
    for (index, (m, n)) in zip(x, y).enumerated() where m != n {
      if let e = m.element, let f = n.element, m.positionID == n.positionID, m.positionMovedAt == n.positionMovedAt,
        m.positionRemovedAt == n.positionRemovedAt, let found = elementDifference(e, f, path: "\(path)[\(index)]") {
        return found
      }
      return "\(path): position \(index): \(describeNode(m)) vs \(describeNode(n))"
    }
    return "\(path): \(x.count) positions vs \(y.count)"
  case let (.text(x, _), .text(y, _)):
    func dump(_ pieces: [ElementSnapshot.TextNode]) -> String {
      pieces.map { "[\($0.id) \($0.value.debugDescription)\($0.removedAt.map { " r\($0)" } ?? "") \($0.attributes.map { "\($0.key)=\($0.value)@\($0.updatedAt)\($0.isRemoved ? "x" : "")" })]" }
        .joined(separator: " ")
    }
    return "\(path): text pieces\n  \(dump(x))\nvs\n  \(dump(y))"
  default:
    return "\(path): \(a) vs \(b)"
  }
}

private func describeMeta(_ meta: ElementSnapshot.Meta) -> String {
  "created \(meta.createdAt) moved \(meta.movedAt.map { "\($0)" } ?? "-") removed \(meta.removedAt.map { "\($0)" } ?? "-")"
}

private func describeNode(_ node: ElementSnapshot.ArrayNode) -> String {
  "element \(node.element.map { describeMeta($0.meta) } ?? "none") id \(node.positionID.map { "\($0)" } ?? "-") moved \(node.positionMovedAt.map { "\($0)" } ?? "-") removed \(node.positionRemovedAt.map { "\($0)" } ?? "-")"
}
