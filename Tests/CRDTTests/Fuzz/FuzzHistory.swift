@testable import CRDT
import Foundation

// Undo and redo in the fuzzers (issue 24). Each replica keeps a model of its undo and redo
// stacks: per step, its content before and after the update the step undoes, compared keys
// sorted (an undone removal sets the key again, at the end of the print order), with the
// number of peer deliveries the replica had applied when it made the update.
//
// The model: when no peer change was applied since the update, an undo gives the content
// before it and a redo the content after it. Every update with operations pushes a step and
// empties the redo stack; an undo whose change records something pushes its step on the redo
// stack, a redo on the undo stack; at most 50 steps each, the oldest dropped first; the
// depths must always be the model's. Replicas must still converge after a full exchange (the
// replica fuzzer checks it as for any change).

/// A replica's undo and redo stacks, as the fuzzers expect them.
final class HistoryModel {
  struct Step {
    var before: String
    var after: String
    /// How many peer deliveries the replica had applied when it made the update.
    var epoch: Int
  }

  var undo: [Step] = []
  var redo: [Step] = []

  var depths: (undo: Int, redo: Int) { (undo.count, redo.count) }

  func recordUpdate(_ step: Step) {
    redo.removeAll()
    HistoryModel.push(step, on: &undo)
  }

  func clear() {
    undo = []
    redo = []
  }

  static func push(_ step: Step, on stack: inout [Step]) {
    stack.append(step)
    if stack.count > History.maxDepth { stack.removeFirst() }
  }
}

enum FuzzHistory {
  /// The model's content with object keys sorted: what an undo must give back.
  static func canonical(_ node: ModelNode) -> String {
    switch node {
    case .object(let object):
      let members = object.members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(canonical($0.node))" }
      return "{" + members.joined(separator: ",") + "}"
    case .array(let array):
      return "[" + array.items.map(canonical).joined(separator: ",") + "]"
    case .primitive, .date, .text, .counter:
      return ModelCompare.describe(node)
    }
  }

  /// The document's content read back through the proxies, keys sorted.
  static func content(of doc: Document, _ session: FuzzSession) async -> String {
    do {
      return try await doc.update { root, _ in canonical(.object(ModelReader.read(root))) }
    } catch {
      session.problem("reading the content back threw \(error)")
      return ""
    }
  }

  enum Kind: String {
    case undo, redo
  }

  /// Undoes or redoes on `doc` and checks the outcome against `model`: the error when there
  /// is nothing to replay, the content when no peer change was applied since the update
  /// (`epoch` counts the replica's peer deliveries), the stacks' depths. Returns whether the
  /// replay recorded a change.
  static func replay(_ kind: Kind, _ doc: Document, _ model: HistoryModel, _ session: FuzzSession, epoch: Int,
                     label: String = "") async -> Bool {
    let pending = await doc.pendingChanges.count
    let stackIsEmpty = kind == .undo ? model.undo.isEmpty : model.redo.isEmpty
    session.note("\(label)\(kind.rawValue)() with stacks \(model.depths)")
    do {
      if kind == .undo { try await doc.undo() } else { try await doc.redo() }
    } catch {
      let expected: YorkieError.Code = kind == .undo ? .nothingToUndo : .nothingToRedo
      if !stackIsEmpty || (error as? YorkieError)?.code != expected {
        session.problem("\(label)\(kind.rawValue)() with stacks \(model.depths) threw \(error)")
      }
      session.count("\(kind.rawValue) with nothing to replay")
      return false
    }
    if stackIsEmpty {
      session.problem("\(label)\(kind.rawValue)() succeeded with an empty model stack")
      return false
    }
    let step = kind == .undo ? model.undo.removeLast() : model.redo.removeLast()
    let recorded = await doc.pendingChanges.count == pending + 1
    if step.epoch == epoch {
      let expected = kind == .undo ? step.before : step.after
      let found = await content(of: doc, session)
      if found != expected {
        session.problem("\(label)\(kind.rawValue)() with no peer change since the update gives \(found), expected \(expected)")
        if ProcessInfo.processInfo.environment["CRDT_FUZZ_DEBUG"] != nil {
          let changes = await doc.pendingChanges
          for change in changes.suffix(5) { for op in change.operations {
            print("DEBUG \(change.id.clientSeq): \(op)")
            if let value = op.createdValue { print("DEBUG   value \(describeSnapshot(value.snapshot))") }
          } }
        }
      }
      session.count("\(kind.rawValue) checked against the model")
    } else {
      session.count("\(kind.rawValue) after peer changes")
    }
    if recorded {
      if kind == .undo { HistoryModel.push(step, on: &model.redo) } else { HistoryModel.push(step, on: &model.undo) }
    }
    checkDepths(await doc.historyDepths, model, session, label: label)
    return recorded
  }

  static func checkDepths(_ depths: (undo: Int, redo: Int), _ model: HistoryModel, _ session: FuzzSession, label: String = "") {
    if depths != model.depths {
      session.problem("\(label)history depths \(depths), the model's \(model.depths)")
    }
  }
}

/// A snapshot's elements with their tickets (debugging output).
func describeSnapshot(_ snapshot: ElementSnapshot) -> String {
  let meta = snapshot.meta
  let tickets = "@\(meta.createdAt)\(meta.movedAt.map { " m\($0)" } ?? "")\(meta.removedAt.map { " r\($0)" } ?? "")"
  switch snapshot {
  case .object(let members, _): return "{" + members.map { "\($0.key.debugDescription): \(describeSnapshot($0.value))" }.joined(separator: ", ") + "}" + tickets
  case .array(let nodes, _): return "[" + nodes.map { $0.element.map(describeSnapshot) ?? "dead \($0.positionID.map { "\($0)" } ?? "")" }.joined(separator: ", ") + "]" + tickets
  case .primitive(let value, _): return "\(value)" + tickets
  default: return "elem" + tickets
  }
}
