import CRDT
import Foundation
import Testing

// Helpers of the JSONTree test files (JSONTreeTests, JSONTreeStyleTests, JSONTreePositionTests,
// JSONTreeDocumentTests, JSONTreeInvalidInputTests). Everything goes through the public API:
// `Document.update`, the proxies, `Document.tree(atPath:)`.

/// A detached document whose `$.t` holds a tree of `root`.
func treeDocument(_ root: TreeNode, key: String = "tree") async throws -> Document {
  let doc = Document(key: key)
  try await doc.update { root0, _ in _ = root0.setNewTree("t", root) }
  return doc
}

/// The XML of the tree at `$.t`, read outside updates ("" when there is none).
func treeXML(_ doc: Document, _ path: String = "$.t") async throws -> String {
  try await doc.tree(atPath: path)?.xml ?? ""
}

/// `<doc><p>ab</p></doc>`, the tree most of Yorkie's tests start from. Built per use: a global
/// holding an indirect enum keeps its boxes in pointer spare bits, which LeakSanitizer reports
/// as leaked at exit.
var docWithAB: TreeNode { .element("doc", children: [.element("p", children: [.text("ab")])]) }

/// Everything an invalid update must leave as it was: the JSON, the snapshot bytes, the
/// pending changes and the tree's XML.
struct DocumentState: Equatable {
  var json: String
  var snapshot: Data
  var pending: Int
  var xml: String

  static func of(_ doc: Document) async throws -> DocumentState {
    DocumentState(json: await doc.toJSON(), snapshot: await doc.snapshot(),
                  pending: await doc.pendingChanges.count, xml: try await treeXML(doc))
  }
}

/// Runs `edit` on the tree at `$.t` in an update that must fail with `code`, and checks that
/// the document is exactly as it was.
func expectTreeRejected(_ doc: Document, _ code: YorkieError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                        _ edit: @escaping @Sendable (JSONTree) throws -> Void) async throws {
  let before = try await DocumentState.of(doc)
  do {
    try await doc.update { root, _ in
      guard let tree = root.tree("t") else { throw YorkieError(.elementNotFound, "no tree at $.t") }
      try edit(tree)
    }
    Issue.record("the update should have failed with \(code)", sourceLocation: sourceLocation)
  } catch let error as YorkieError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  }
  #expect(try await DocumentState.of(doc) == before, sourceLocation: sourceLocation)
}
