import CRDT
import Foundation

// Conversion between the wire messages and the CRDT model, both ways. Decoding checks
// everything the model relies on (12-byte actors, required tickets, payload sizes) and names
// the field that was wrong; encoding cannot fail.

/// A wire-to-model conversion error at `path`.
private func invalid(_ path: String, _ what: String) -> YorkieError {
  wireDataError(path, what)
}

// MARK: - Clocks

extension WireTimeTicket {
  /// The wire form of a ticket.
  package init(_ ticket: TimeTicket) {
    self.init(lamport: ticket.lamport, delimiter: ticket.delimiter, actorID: ticket.actorID.bytes)
  }

  /// The ticket; its actor must be 12 bytes.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> TimeTicket {
    guard actorID.count == 12, let actor = try? ActorID(bytes: actorID) else {
      throw invalid(path() + ".actorId", "an actor id has \(actorID.count) bytes, not 12")
    }
    return TimeTicket(lamport: lamport, delimiter: delimiter, actorID: actor)
  }
}

extension Optional where Wrapped == WireTimeTicket {
  /// The ticket, which must be present.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> TimeTicket {
    guard let ticket = self else { throw invalid(path(), "is required") }
    return try ticket.model(path())
  }
}

extension WireVersionVector {
  /// The wire form of a vector: base64 actor keys, lamport values.
  package init(_ vector: VersionVector) {
    var entries: [String: Int64] = [:]
    for (actor, lamport) in vector.entries { entries[actor.bytes.base64EncodedString()] = lamport }
    self.init(vector: entries)
  }

  /// The vector; every key must be the base64 of a 12-byte actor.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> VersionVector {
    var entries: [ActorID: Int64] = [:]
    for (key, lamport) in vector {
      guard let bytes = decodeBase64Leniently(key), bytes.count == 12, let actor = try? ActorID(bytes: bytes) else {
        throw invalid(path() + ".vector", "key \"\(key)\" is not the base64 of a 12-byte actor id")
      }
      entries[actor] = lamport
    }
    return VersionVector(entries)
  }
}

extension WireChangeID {
  /// The wire form of a change ID.
  package init(_ id: ChangeID) {
    self.init(clientSeq: id.clientSeq, serverSeq: id.serverSeq, lamport: id.lamport, actorID: id.actorID.bytes,
              versionVector: WireVersionVector(id.versionVector))
  }

  /// The change ID.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> ChangeID {
    guard actorID.count == 12, let actor = try? ActorID(bytes: actorID) else {
      throw invalid(path() + ".actorId", "an actor id has \(actorID.count) bytes, not 12")
    }
    return ChangeID(clientSeq: clientSeq, serverSeq: serverSeq, lamport: lamport, actorID: actor,
                    versionVector: try versionVector?.model(path() + ".versionVector") ?? VersionVector())
  }
}

extension WireCheckpoint {
  /// The wire form of a checkpoint.
  package init(_ checkpoint: Checkpoint) {
    self.init(serverSeq: checkpoint.serverSeq, clientSeq: checkpoint.clientSeq)
  }

  /// The checkpoint.
  package var model: Checkpoint { Checkpoint(serverSeq: serverSeq, clientSeq: clientSeq) }
}

// MARK: - Values

extension PBJSONElementSimple {
  /// The wire form of an element that an operation creates. Containers travel whole, as binary
  /// `JSONElement` (what the JS SDK requires); a text travels empty (its content comes by Edit).
  package init(_ element: ElementSnapshot) {
    let meta = element.meta
    var type: PBValueType
    var value = Data()
    switch element {
    case .primitive(let primitive, _):
      type = PBValueType(rawValue: primitive.wireType.rawValue) ?? .null
      value = Data(primitive.wireBytes)
    case .object:
      type = .jsonObject
      value = element.jsonElementData
    case .array:
      type = .jsonArray
      value = element.jsonElementData
    case .text:
      type = .text
    case .counter(let counter, _):
      type = PBValueType(rawValue: counter.wireType.rawValue) ?? .integerCnt
      value = Data(counter.wireBytes)
    case .dedupCounter:
      // The value is the count; the registers travel only inside binary elements.
      type = .integerDedupCnt
      value = Data(((element.materialize() as? CRDTCounter)?.value ?? .int(0)).wireBytes)
    }
    self.init(createdAt: WireTimeTicket(meta.createdAt), movedAt: meta.movedAt.map(WireTimeTicket.init),
              removedAt: meta.removedAt.map(WireTimeTicket.init), type: type, value: value)
  }

  /// The element this value describes.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> ElementSnapshot {
    let createdAt = try self.createdAt.required(path() + ".createdAt")
    let meta = ElementSnapshot.Meta(createdAt: createdAt, movedAt: try movedAt?.model(path() + ".movedAt"),
                                    removedAt: try removedAt?.model(path() + ".removedAt"))
    guard let wireType = WireValueType(rawValue: type.rawValue) else { throw invalid(path() + ".type", "unknown value type") }
    do {
      switch wireType {
      case .null, .boolean, .integer, .long, .double, .string, .bytes, .date:
        return .primitive(try PrimitiveValue(wireType: wireType, bytes: value), meta)
      case .integerCounter, .longCounter:
        return .counter(try CounterValue(wireType: wireType, bytes: value), meta)
      case .integerDedupCounter:
        // A Set carries a new counter: its registers start empty (the count is checked only for
        // its size; a non-zero count without registers cannot be rebuilt).
        _ = try CounterValue(wireType: wireType, bytes: value)
        return .dedupCounter([], meta)
      case .text:
        return .text([], meta)
      case .jsonObject, .jsonArray:
        guard !value.isEmpty else {
          // Go SDKs send an empty container without a body; the server accepts it.
          return wireType == .jsonObject ? .object([], meta) : .array([], meta)
        }
        let element = try ElementSnapshot(jsonElementData: value)
        switch (wireType, element) {
        case (.jsonObject, .object), (.jsonArray, .array): return element
        default: throw invalid(path() + ".value", "a \(wireType) value holds another kind of element")
        }
      case .tree:
        throw YorkieError(.unsupported, "\(path()): Tree elements are not supported by this SDK yet", field: path())
      }
    } catch {
      // The model's decoders (primitive payloads, binary elements) do not know where their
      // input sits, so their errors get this value's path; errors raised here already name
      // their field and pass through unchanged.
      guard let error = error as? YorkieError else { throw wireDataError(path(), "\(error)") }
      guard error.code == .invalidWireData, error.field == nil else { throw error }
      throw YorkieError(.invalidWireData, "\(path()): \(error.message)", field: path(), underlying: error)
    }
  }
}

extension PBTextNodePos {
  /// The wire form of a text position.
  package init(_ position: TextPosition) {
    self.init(createdAt: WireTimeTicket(position.createdAt), offset: position.offset, relativeOffset: position.relativeOffset)
  }
}

extension Optional where Wrapped == PBTextNodePos {
  /// The position, which must be present.
  package func required(_ path: @autoclosure () -> String) throws(YorkieError) -> TextPosition {
    guard let position = self else { throw invalid(path(), "is required") }
    guard position.offset >= 0, position.relativeOffset >= 0 else { throw invalid(path(), "offsets must not be negative") }
    return TextPosition(createdAt: try position.createdAt.required(path() + ".createdAt"), offset: position.offset,
                        relativeOffset: position.relativeOffset)
  }
}

// MARK: - Operations

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
    }
  }

  /// The operation. Tree operations, deduplicating increases and undo restores are refused
  /// with `unsupported`.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> CRDT.Operation {
    switch self {
    case .set(let op):
      func p() -> String { path() + ".set" }
      guard let value = op.value else { throw invalid(p() + ".value", "is required") }
      return .set(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"), key: op.key,
                  value: try value.model(p() + ".value"), executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .add(let op):
      func p() -> String { path() + ".add" }
      guard let value = op.value else { throw invalid(p() + ".value", "is required") }
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
      guard let value = op.value else { throw invalid(p() + ".value", "is required") }
      return .arraySet(parentCreatedAt: try op.parentCreatedAt.required(p() + ".parentCreatedAt"),
                       createdAt: try op.createdAt.required(p() + ".createdAt"), value: try value.model(p() + ".value"),
                       executedAt: try op.executedAt.required(p() + ".executedAt"))
    case .increase(let op):
      func p() -> String { path() + ".increase" }
      guard let value = op.value else { throw invalid(p() + ".value", "is required") }
      guard case .primitive(let operand, _) = try value.model(p() + ".value") else {
        throw invalid(p() + ".value", "the operand of an increase must be a primitive")
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
          throw invalid(p() + ".restoreMode", "restore spans and a restore mode must come together")
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
    case .treeEdit:
      throw YorkieError(.unsupported, "\(path()).treeEdit: Tree operations are not supported by this SDK yet", field: path() + ".treeEdit")
    case .treeStyle:
      throw YorkieError(.unsupported, "\(path()).treeStyle: Tree operations are not supported by this SDK yet", field: path() + ".treeStyle")
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
      throw invalid(path(), "offsets \(start)..<\(end) do not fit the content's \(content.utf16.count) UTF-16 units")
    }
    return RestoreSpan(createdAt: try createdAt.required(path() + ".createdAt"), start: start, end: end, content: content,
                       attributes: attributes)
  }
}

// MARK: - Changes and packs

extension WirePresenceChange {
  /// The wire form of a presence change: values as JSON text, as every Yorkie SDK writes them.
  package init(_ change: PresenceChange) {
    switch change {
    case .put(let data):
      self.init(type: .put, presence: WirePresence(data: data.mapValues(\.jsonString)))
    case .clear:
      self.init(type: .clear, presence: nil)
    }
  }

  /// The presence change. A value that is not JSON text is kept as a string.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> PresenceChange {
    switch type {
    case .put:
      let data = presence?.data ?? [:]
      return .put(data.mapValues { JSONValueParser.parse($0) ?? .string($0) })
    case .clear:
      return .clear
    case .delete, .unspecified:
      throw invalid(path() + ".type", "presence change type \(type) is not applicable (only PUT and CLEAR are)")
    }
  }
}

extension WireChange {
  /// The wire form of a change.
  package init(_ change: Change) {
    self.init(id: WireChangeID(change.id), message: change.message ?? "",
              operations: change.operations.map { PBOperation($0) },
              presenceChange: change.presenceChange.map(WirePresenceChange.init))
  }

  /// The change.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> Change {
    guard let id else { throw invalid(path() + ".id", "is required") }
    var operations: [CRDT.Operation] = []
    operations.reserveCapacity(self.operations.count)
    for (index, operation) in self.operations.enumerated() {
      operations.append(try operation.model("\(path()).operations[\(index)]"))
    }
    return Change(id: try id.model(path() + ".id"), operations: operations, message: message.isEmpty ? nil : message,
                  presenceChange: try presenceChange?.model(path() + ".presenceChange"))
  }
}

extension WireChangePack {
  /// The wire form of a pack.
  package init(_ pack: ChangePack) {
    self.init(documentKey: pack.key, checkpoint: WireCheckpoint(pack.checkpoint), snapshot: pack.snapshot ?? Data(),
              changes: pack.changes.map(WireChange.init), minSyncedTicket: nil, isRemoved: pack.isRemoved,
              versionVector: pack.versionVector.map(WireVersionVector.init))
  }

  /// The pack. A missing checkpoint reads as the initial one (servers always send it; the dev
  /// server checks requests for it separately).
  package func model(_ path: @autoclosure () -> String = "changePack") throws(YorkieError) -> ChangePack {
    var changes: [Change] = []
    changes.reserveCapacity(self.changes.count)
    for (index, change) in self.changes.enumerated() {
      changes.append(try change.model("\(path()).changes[\(index)]"))
    }
    return ChangePack(key: documentKey, checkpoint: checkpoint?.model ?? .initial, changes: changes,
                      versionVector: try versionVector?.model(path() + ".versionVector"),
                      snapshot: snapshot.isEmpty ? nil : snapshot, isRemoved: isRemoved)
  }
}
