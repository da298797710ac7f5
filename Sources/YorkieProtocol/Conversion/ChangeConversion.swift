import CRDT
import Foundation

// Presence changes, changes and change packs between the wire and the CRDT model.

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
      throw wireDataError(path() + ".type", "presence change type \(type) is not applicable (only PUT and CLEAR are)")
    }
  }
}

extension WireChange {
  /// The wire form of `change`: its ID, message, operations and presence change.
  ///
  /// - Complexity: O(*n*) in the size of the change.
  public init(_ change: Change) {
    self.init(id: WireChangeID(change.id), message: change.message ?? "",
              operations: change.operations.map { PBOperation($0) },
              presenceChange: change.presenceChange.map(WirePresenceChange.init))
  }

  /// The change.
  package func model(_ path: @autoclosure () -> String) throws(YorkieError) -> Change {
    guard let id else { throw wireDataError(path() + ".id", "is required") }
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
  /// The wire form of `pack`, such as the one `Document.createChangePack()` returns.
  ///
  /// - Complexity: O(*n*) in the size of the pack.
  public init(_ pack: ChangePack) {
    self.init(documentKey: pack.key, checkpoint: WireCheckpoint(pack.checkpoint), snapshot: pack.snapshot ?? Data(),
              changes: pack.changes.map(WireChange.init), minSyncedTicket: nil, isRemoved: pack.isRemoved,
              versionVector: pack.versionVector.map(WireVersionVector.init))
  }

  /// The pack. A missing checkpoint reads as the initial one (servers always send it; the dev
  /// server checks requests for it separately).
  package func model(_ path: @autoclosure () -> String = "changePack", role: ChangePack.Role = .response) throws(YorkieError) -> ChangePack {
    var changes: [Change] = []
    changes.reserveCapacity(self.changes.count)
    for (index, change) in self.changes.enumerated() {
      changes.append(try change.model("\(path()).changes[\(index)]"))
    }
    return ChangePack(key: documentKey, checkpoint: checkpoint?.model ?? .initial, changes: changes,
                      versionVector: try versionVector?.model(path() + ".versionVector"),
                      snapshot: snapshot.isEmpty ? nil : snapshot, isRemoved: isRemoved, role: role)
  }
}
