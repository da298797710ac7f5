import CRDT
import Foundation

// Operations between the wire and the CRDT model, every kind both ways (the Tree's in
// TreeConversion.swift).

extension PBOperation {
  /// The wire form of an operation.
  package init(_ operation: CRDT.Operation) {
    switch operation {
    case let .set(parent, key, value, executedAt):
      self = .set(Set(parentCreatedAt: WireTimeTicket(parent), key: key, value: PBJSONElementSimple(value.snapshot),
                      executedAt: WireTimeTicket(executedAt)))
    case let .add(parent, previous, value, executedAt):
      self = .add(Add(parentCreatedAt: WireTimeTicket(parent), prevCreatedAt: WireTimeTicket(previous),
                      value: PBJSONElementSimple(value.snapshot), executedAt: WireTimeTicket(executedAt)))
    case let .move(parent, previous, createdAt, executedAt):
      self = .move(Move(parentCreatedAt: WireTimeTicket(parent), prevCreatedAt: WireTimeTicket(previous),
                        createdAt: WireTimeTicket(createdAt), executedAt: WireTimeTicket(executedAt)))
    case let .remove(parent, createdAt, executedAt):
      self = .remove(Remove(parentCreatedAt: WireTimeTicket(parent), createdAt: WireTimeTicket(createdAt),
                            executedAt: WireTimeTicket(executedAt)))
    case let .arraySet(parent, createdAt, value, executedAt):
      self = .arraySet(ArraySet(parentCreatedAt: WireTimeTicket(parent), createdAt: WireTimeTicket(createdAt),
                                value: PBJSONElementSimple(value.snapshot), executedAt: WireTimeTicket(executedAt)))
    case let .increase(parent, value, executedAt):
      let operand = ElementSnapshot.primitive(value, .init(createdAt: executedAt))
      self = .increase(Increase(parentCreatedAt: WireTimeTicket(parent), value: PBJSONElementSimple(operand),
                                executedAt: WireTimeTicket(executedAt)))
    case .edit(let edit):
      self = .edit(Edit(parentCreatedAt: WireTimeTicket(edit.parentCreatedAt), from: PBTextNodePos(edit.from), to: PBTextNodePos(edit.to),
                        content: edit.content, executedAt: WireTimeTicket(edit.executedAt), attributes: edit.attributes ?? [:]))
    case let .style(parent, from, to, attributes, attributesToRemove, executedAt):
      self = .style(Style(parentCreatedAt: WireTimeTicket(parent), from: PBTextNodePos(from), to: PBTextNodePos(to),
                          attributes: attributes, executedAt: WireTimeTicket(executedAt), attributesToRemove: attributesToRemove))
    case let .restoreEdit(parent, from, to, restoreSpans, restoreMode, retombstoneSpans, executedAt):
      self = .edit(Edit(parentCreatedAt: WireTimeTicket(parent), from: PBTextNodePos(from), to: PBTextNodePos(to),
                        executedAt: WireTimeTicket(executedAt), restoreSpans: restoreSpans.map(PBRestoreSpan.init),
                        restoreMode: PBRestoreMode(rawValue: restoreMode.rawValue) ?? .unspecified,
                        retombstoneSpans: retombstoneSpans.map(PBRestoreSpan.init)))
    case let .dedupIncrease(parent, value, actor, executedAt):
      let operand = ElementSnapshot.primitive(value, .init(createdAt: executedAt))
      self = .increase(Increase(parentCreatedAt: WireTimeTicket(parent), value: PBJSONElementSimple(operand),
                                executedAt: WireTimeTicket(executedAt), actor: actor))
    case .treeEdit(let edit):
      self = .treeEdit(TreeEdit(edit))
    case .treeStyle(let style):
      self = .treeStyle(TreeStyle(style))
    }
  }

  /// The operation.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> CRDT.Operation {
    switch self {
    case .set(let op):
      func p() -> String { path() + ".set" }
      guard let value = op.value else { throw wireDataError(p() + ".value", "is required") }
      return .set(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"), key: op.key,
                  value: try value.model(p() + ".value"), executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .add(let op):
      func p() -> String { path() + ".add" }
      guard let value = op.value else { throw wireDataError(p() + ".value", "is required") }
      return .add(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                  previousCreatedAt: try op.prevCreatedAt.required(p() + ".prevCreatedAt"),
                  value: try value.model(p() + ".value"), executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .move(let op):
      func p() -> String { path() + ".move" }
      return .move(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                   previousCreatedAt: try op.prevCreatedAt.required(p() + ".prevCreatedAt"),
                   createdAt: try op.createdAt.required(p() + ".createdAt"), executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .remove(let op):
      func p() -> String { path() + ".remove" }
      return .remove(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                     createdAt: try op.createdAt.required(p() + ".createdAt"), executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .arraySet(let op):
      func p() -> String { path() + ".arraySet" }
      guard let value = op.value else { throw wireDataError(p() + ".value", "is required") }
      return .arraySet(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                       createdAt: try op.createdAt.required(p() + ".createdAt"), value: try value.model(p() + ".value"),
                       executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .increase(let op):
      func p() -> String { path() + ".increase" }
      guard let value = op.value else { throw wireDataError(p() + ".value", "is required") }
      guard case .primitive(let operand, _) = try value.model(p() + ".value") else {
        throw wireDataError(p() + ".value", "the operand of an increase must be a primitive")
      }
      if !op.actor.isEmpty {
        return .dedupIncrease(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"), value: operand,
                              actor: op.actor, executedAt: try op.executedAt.required(p() + ".executedAt"))
      }
      return .increase(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"), value: operand,
                       executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .edit(let op):
      func p() -> String { path() + ".edit" }
      if op.restoreMode != .unspecified || !op.restoreSpans.isEmpty || !op.retombstoneSpans.isEmpty {
        // Yorkie's server refuses spans without a mode and a mode without spans.
        guard op.restoreMode != .unspecified, !(op.restoreSpans.isEmpty && op.retombstoneSpans.isEmpty) else {
          throw wireDataError(p() + ".restoreMode", "restore spans and a restore mode must come together")
        }
        return .restoreEdit(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                            from: try op.from.required(p() + ".from"), to: try op.to.required(p() + ".to"),
                            restoreSpans: try op.restoreSpans.enumerated().map { (i, s) throws(YorkieError) in try s.model("\(p()).restoreSpans[\(i)]") },
                            restoreMode: RestoreMode(rawValue: op.restoreMode.rawValue) ?? .unspecified,
                            retombstoneSpans: try op.retombstoneSpans.enumerated().map { (i, s) throws(YorkieError) in try s.model("\(p()).retombstoneSpans[\(i)]") },
                            executedAt: try op.executedAt.required(p() + ".executedAt"))
      }
      return .edit(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                   from: try op.from.required(p() + ".from"), to: try op.to.required(p() + ".to"), content: op.content,
                   attributes: op.attributes.isEmpty ? nil : op.attributes, executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .style(let op):
      func p() -> String { path() + ".style" }
      return .style(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                    from: try op.from.required(p() + ".from"), to: try op.to.required(p() + ".to"), attributes: op.attributes,
                    attributesToRemove: op.attributesToRemove, executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .treeEdit(let op):
      return .treeEdit(try op.model(path() + ".treeEdit"))
    case .treeStyle(let op):
      return .treeStyle(try op.model(path() + ".treeStyle"))
    }
  }
}

extension PBRestoreSpan {
  /// The wire form of a restore span.
  package init(_ span: RestoreSpan) {
    self.init(createdAt: WireTimeTicket(span.createdAt), start: span.start, end: span.end, content: span.content,
              attributes: span.attributes)
  }

  /// The span; offsets must be ordered and match the content's UTF-16 length, as Yorkie checks.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> RestoreSpan {
    guard start >= 0, end >= start, Int(end - start) == content.utf16.count else {
      throw wireDataError(path(), "offsets \(start)..<\(end) do not fit the content's \(content.utf16.count) UTF-16 units")
    }
    return RestoreSpan(createdAt: try createdAt.required(path() + ".createdAt"), start: start, end: end, content: content,
                       attributes: attributes)
  }
}
