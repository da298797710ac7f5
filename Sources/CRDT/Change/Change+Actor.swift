/// Re-issuing tickets under a new actor: pending local changes made before attach carry the
/// initial actor, and the client replaces it with its real ID.
extension TimeTicket {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> TimeTicket {
    guard actorID == old, lamport > 0 else { return self }
    return TimeTicket(lamport: lamport, delimiter: delimiter, actorID: new)
  }
}

extension ChangeID {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> ChangeID {
    var vector = versionVector
    if let lamport = vector[old] {
      vector.remove(old)
      vector.set(new, Swift.max(lamport, vector[new] ?? 0))
    }
    return ChangeID(clientSeq: clientSeq, serverSeq: serverSeq, lamport: lamport, actorID: actorID == old ? new : actorID, versionVector: vector)
  }
}

extension ElementSnapshot.Meta {
  func replacingActor(_ old: ActorID, with new: ActorID) -> ElementSnapshot.Meta {
    ElementSnapshot.Meta(
      createdAt: createdAt.replacingActor(old, with: new),
      movedAt: movedAt?.replacingActor(old, with: new),
      removedAt: removedAt?.replacingActor(old, with: new))
  }
}

extension ElementSnapshot {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> ElementSnapshot {
    let meta = self.meta.replacingActor(old, with: new)
    switch self {
    case .primitive(let value, _): return .primitive(value, meta)
    case .counter(let value, _): return .counter(value, meta)
    case .dedupCounter(let registers, _): return .dedupCounter(registers, meta)
    case .text(let pieces, _):
      return .text(pieces.map { piece in
        TextNode(id: TextNodeID(createdAt: piece.id.createdAt.replacingActor(old, with: new), offset: piece.id.offset),
                 value: piece.value, removedAt: piece.removedAt?.replacingActor(old, with: new),
                 attributes: piece.attributes.map { entry in
                   var entry = entry
                   entry.updatedAt = entry.updatedAt.replacingActor(old, with: new)
                   return entry
                 })
      }, meta)
    case .tree(let content, _):
      return .tree(content.replacingActor(old, with: new), meta)
    case .object(let members, _):
      return .object(members.map { (key: $0.key, value: $0.value.replacingActor(old, with: new)) }, meta)
    case .array(let nodes, _):
      return .array(nodes.map { node in
        ArrayNode(
          element: node.element?.replacingActor(old, with: new),
          positionID: node.positionID?.replacingActor(old, with: new),
          positionMovedAt: node.positionMovedAt?.replacingActor(old, with: new),
          positionRemovedAt: node.positionRemovedAt?.replacingActor(old, with: new))
      }, meta)
    }
  }
}

extension Operation {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> Operation {
    func t(_ ticket: TimeTicket) -> TimeTicket { ticket.replacingActor(old, with: new) }
    func p(_ position: TextPosition) -> TextPosition {
      TextPosition(id: TextNodeID(createdAt: t(position.id.createdAt), offset: position.id.offset), relativeOffset: position.relativeOffset)
    }
    switch self {
    case .set(let parent, let key, let value, let at):
      return .set(parentCreatedAt: t(parent), key: key, value: value.snapshot.replacingActor(old, with: new), executedAt: t(at))
    case .add(let parent, let previous, let value, let at):
      return .add(parentCreatedAt: t(parent), previousCreatedAt: t(previous), value: value.snapshot.replacingActor(old, with: new), executedAt: t(at))
    case .move(let parent, let previous, let createdAt, let at):
      return .move(parentCreatedAt: t(parent), previousCreatedAt: t(previous), createdAt: t(createdAt), executedAt: t(at))
    case .remove(let parent, let createdAt, let at):
      return .remove(parentCreatedAt: t(parent), createdAt: t(createdAt), executedAt: t(at))
    case .arraySet(let parent, let createdAt, let value, let at):
      return .arraySet(parentCreatedAt: t(parent), createdAt: t(createdAt), value: value.snapshot.replacingActor(old, with: new), executedAt: t(at))
    case .increase(let parent, let value, let at):
      return .increase(parentCreatedAt: t(parent), value: value, executedAt: t(at))
    case .edit(let edit):
      return .edit(parentCreatedAt: t(edit.parentCreatedAt), from: p(edit.from), to: p(edit.to), content: edit.content,
                   attributes: edit.attributes, executedAt: t(edit.executedAt))
    case .style(let parent, let from, let to, let attributes, let removing, let at):
      return .style(parentCreatedAt: t(parent), from: p(from), to: p(to), attributes: attributes, attributesToRemove: removing, executedAt: t(at))
    case .restoreEdit(let parent, let from, let to, let restoring, let mode, let removing, let at):
      func spans(_ list: [RestoreSpan]) -> [RestoreSpan] {
        list.map { RestoreSpan(createdAt: t($0.createdAt), start: $0.start, end: $0.end, content: $0.content, attributes: $0.attributes) }
      }
      return .restoreEdit(parentCreatedAt: t(parent), from: p(from), to: p(to), restoreSpans: spans(restoring),
                          restoreMode: mode, retombstoneSpans: spans(removing), executedAt: t(at))
    case .dedupIncrease(let parent, let value, let actorName, let at):
      return .dedupIncrease(parentCreatedAt: t(parent), value: value, actor: actorName, executedAt: t(at))
    case .treeEdit(let edit):
      return .treeEdit(edit.replacingActor(old, with: new))
    case .treeStyle(let style):
      return .treeStyle(TreeStylePayload(
        parentCreatedAt: t(style.parentCreatedAt), from: style.from.replacingActor(old, with: new),
        to: style.to.replacingActor(old, with: new), attributes: style.attributes,
        attributesToRemove: style.attributesToRemove, executedAt: t(style.executedAt)))
    }
  }
}

extension TreeNodeID {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> TreeNodeID {
    TreeNodeID(createdAt: createdAt.replacingActor(old, with: new), offset: offset)
  }
}

extension CRDTTreePos {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> CRDTTreePos {
    CRDTTreePos(parentID: parentID.replacingActor(old, with: new), leftSiblingID: leftSiblingID.replacingActor(old, with: new))
  }
}

extension TreeNodeRecord {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> TreeNodeRecord {
    var record = self
    record.id = id.replacingActor(old, with: new)
    record.removedAt = removedAt?.replacingActor(old, with: new)
    record.insPrevID = insPrevID?.replacingActor(old, with: new)
    record.insNextID = insNextID?.replacingActor(old, with: new)
    record.mergedFrom = mergedFrom?.replacingActor(old, with: new)
    record.mergedAt = mergedAt?.replacingActor(old, with: new)
    record.attributes = attributes.map { attribute in
      var attribute = attribute
      attribute.updatedAt = attribute.updatedAt.replacingActor(old, with: new)
      return attribute
    }
    return record
  }
}

extension TreeEditPayload {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> TreeEditPayload {
    func spans(_ list: [TreeRestoreSpanRecord]) -> [TreeRestoreSpanRecord] {
      list.map { span in
        var span = span
        span.id = span.id.replacingActor(old, with: new)
        span.parentID = span.parentID?.replacingActor(old, with: new)
        span.leftSiblingID = span.leftSiblingID?.replacingActor(old, with: new)
        span.rightSiblingID = span.rightSiblingID?.replacingActor(old, with: new)
        span.attributes = span.attributes.map { attribute in
          var attribute = attribute
          attribute.updatedAt = attribute.updatedAt.replacingActor(old, with: new)
          return attribute
        }
        return span
      }
    }
    return TreeEditPayload(
      parentCreatedAt: parentCreatedAt.replacingActor(old, with: new), from: from.replacingActor(old, with: new),
      to: to.replacingActor(old, with: new), contents: contents.map { $0.map { $0.replacingActor(old, with: new) } },
      splitLevel: splitLevel, executedAt: executedAt.replacingActor(old, with: new),
      splitTickets: splitTickets.map { $0.replacingActor(old, with: new) }, restoreSpans: spans(restoreSpans),
      restoreMode: restoreMode, retombstoneSpans: spans(retombstoneSpans))
  }
}

extension Change {
  package func replacingActor(_ old: ActorID, with new: ActorID) -> Change {
    Change(id: id.replacingActor(old, with: new), operations: operations.map { $0.replacingActor(old, with: new) },
           message: message, presenceChange: presenceChange)
  }
}
