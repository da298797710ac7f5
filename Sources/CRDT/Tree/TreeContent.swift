/// The content of a tree as an operation or a snapshot carries it: a whole tree, already
/// checked, that any number of executions copy.
///
/// It is built only from a node list that ``CRDTTree/buildSubtree(_:)`` accepted, or from a
/// live tree, so building an element from it cannot fail: an ``ElementSnapshot`` stays
/// infallible to materialize, and a malformed tree from the wire is refused where it is
/// decoded, before any operation runs.
///
/// `@unchecked Sendable`: the template nodes are created here and never handed out or
/// mutated; every use goes through ``copyOfRoot()`` or ``records``, which only read them.
package final class TreeContent: @unchecked Sendable, Equatable {
  private let template: CRDTTreeNode

  /// Checks a post-order node list (root last) and keeps the tree it describes.
  ///
  /// - Throws: `invalidTreeContent` when the list does not describe a tree.
  package init(records: [TreeNodeRecord]) throws(YorkieError) {
    let root = try CRDTTree.buildSubtree(records)
    guard !root.isText else { throw YorkieError(.invalidTreeContent, "the root of a tree is an element, not text") }
    template = root
  }

  /// A new tree built from `root` for a local Set or Add: the root takes `createdAt`, every
  /// other node a ticket from `issue`, parents before children (as Yorkie's Go SDK builds one).
  ///
  /// - Throws: `invalidTreeContent` when `root` is text or holds an empty text.
  package init(root: TreeNode, createdAt: TimeTicket, issue: () -> TimeTicket) throws(YorkieError) {
    guard case .element = root else { throw YorkieError(.invalidTreeContent, "the root of a tree is an element, not text") }
    var rootTaken = false
    template = try CRDTTree.buildSubtree(root) {
      guard rootTaken else {
        rootTaken = true
        return createdAt
      }
      return issue()
    }
  }

  /// The content of a live tree, copied.
  package init(copying tree: CRDTTree) {
    template = tree.root.deepCopy()
  }

  private init(template: CRDTTreeNode) {
    self.template = template
  }

  /// The same content with every ticket of `old` re-issued under `new`.
  package func replacingActor(_ old: ActorID, with new: ActorID) -> TreeContent {
    TreeContent(template: template.deepCopy { $0.replacingActor(old, with: new) })
  }

  /// A fresh copy of the root and everything below it, for a new element.
  package func copyOfRoot() -> CRDTTreeNode { template.deepCopy() }

  /// The tree as a post-order node list, root last (what the wire carries).
  package var records: [TreeNodeRecord] { CRDTTree.records(of: template) }

  package static func == (lhs: TreeContent, rhs: TreeContent) -> Bool {
    lhs === rhs || lhs.records == rhs.records
  }
}
