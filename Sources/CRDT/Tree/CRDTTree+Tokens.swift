/// The visible tokens between two indexes (Yorkie's `tokensBetween`): an element yields a start
/// token when its opening tag is in the range and an end token when its closing tag is; text
/// yields a text token. `ended` says whether the element's closing tag is in the range.
extension CRDTTree {
  package enum TokenType: Sendable {
    case start
    case end
    case text
  }

  package struct Token {
    package var node: CRDTTreeNode
    package var type: TokenType
    package var ended: Bool
  }

  /// The tokens of `from..<to` in document order, visiting only the nodes that overlap it.
  package func tokens(between from: Int, and to: Int) -> [Token] {
    var result: [Token] = []
    if from < to { collectTokens(root, from, to, into: &result) }
    return result
  }

  private func collectTokens(_ node: CRDTTreeNode, _ from: Int, _ to: Int, into result: inout [Token]) {
    guard from < to, let (first, start) = node.firstLiveChild(reaching: from + 1) else { return }
    var child: CRDTTreeNode? = first
    var position = start
    while let current = child, position < to {
      let padded = current.paddedSize
      if from - padded < position {
        let fromChild = current.isText ? from - position : from - position - 1
        let toChild = current.isText ? to - position : to - position - 1
        let startContained = !current.isText && fromChild < 0
        let endContained = !current.isText && toChild > current.size
        if current.isText || startContained {
          result.append(Token(node: current, type: current.isText ? .text : .start, ended: endContained))
        }
        if !current.isText {
          collectTokens(current, max(0, fromChild), min(toChild, current.size), into: &result)
        }
        if endContained { result.append(Token(node: current, type: .end, ended: true)) }
      }
      position += padded
      child = current.nextLiveSibling
    }
  }
}
