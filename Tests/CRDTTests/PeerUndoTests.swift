@testable import CRDT
import Foundation
import Testing

/// What a Yorkie JS or Go peer's undo sends, applied here: their undo of an object Remove is a
/// Set whose value is a copy of the removed element under its own tickets, and their undo of
/// an array Remove an Add whose copy has a new ticket but keeps its descendants' tickets. The
/// changes are written by hand, as a peer's SDK builds them.
@Suite("A Yorkie peer's undo, applied here")
struct PeerUndoTests {
  let peer = actor(7)

  func ticket(_ lamport: Int64, _ delimiter: UInt32 = 1) -> TimeTicket {
    TimeTicket(lamport: lamport, delimiter: delimiter, actorID: peer)
  }

  func change(_ seq: UInt32, _ lamport: Int64, _ operations: [CRDT.Operation]) -> Change {
    Change(id: ChangeID(clientSeq: seq, lamport: lamport, actorID: peer, versionVector: VersionVector([peer: lamport])),
           operations: OperationList(operations))
  }

  /// `{"inner": {"b": 1}}` created at `top`, with the inner object at `inner` and its member at
  /// `member`.
  func nested(top: TimeTicket, inner: TimeTicket, member: TimeTicket) -> ElementSnapshot {
    .object([(key: "inner", value: .object([(key: "b", value: .primitive(.integer(1), .init(createdAt: member, movedAt: member)))],
                                         .init(createdAt: inner, movedAt: inner)))], .init(createdAt: top))
  }

  /// Gives `doc` (as actor 1) the peer's array `l` holding `{"inner": {"b": 1}}`, its removal
  /// and the peer's undo of it: an Add with a new ticket for the element, the old ones below
  /// it. Returns the inner object's ticket.
  func applyArrayRemovalUndoneByPeer(to doc: Document) async throws -> TimeTicket {
    try await doc.setActor(actor(1))
    let list = ticket(1, 1)
    let (item, inner, b) = (ticket(1, 2), ticket(1, 3), ticket(1, 4))
    try await doc.applyChanges([
      change(1, 1, [
        .set(parentCreatedAt: .initial, key: "l", value: OperationValue(.array([], .init(createdAt: list))), executedAt: list),
        .add(parentCreatedAt: list, previousCreatedAt: .initial, value: OperationValue(nested(top: item, inner: inner, member: b)), executedAt: item),
      ]),
      change(2, 2, [.remove(parentCreatedAt: list, createdAt: item, executedAt: ticket(2))]),
      change(3, 3, [.add(parentCreatedAt: list, previousCreatedAt: .initial, value: OperationValue(nested(top: ticket(3), inner: inner, member: b)), executedAt: ticket(3))]),
    ])
    return inner
  }

  @Test("an object Remove undone by a Set under the removed value's own tickets restores it, and its inner elements stay addressable after garbage collection")
  func objectRestoreUnderOriginalTickets() async throws {
    let doc = Document(key: "peer-undo")
    try await doc.setActor(actor(1))
    let (k, inner, b) = (ticket(1, 1), ticket(1, 2), ticket(1, 3))
    try await doc.applyChanges([
      change(1, 1, [.set(parentCreatedAt: .initial, key: "k", value: OperationValue(nested(top: k, inner: inner, member: b)), executedAt: k)]),
      change(2, 2, [.remove(parentCreatedAt: .initial, createdAt: k, executedAt: ticket(2))]),
    ])
    #expect(await doc.toSortedJSON() == "{}")
    let removedSize = await doc.size
    // The peer's undo: the value as it was, under the same tickets, set with a new ticket.
    try await doc.applyChanges([
      change(3, 3, [.set(parentCreatedAt: .initial, key: "k", value: OperationValue(nested(top: k, inner: inner, member: b)), executedAt: ticket(3))]),
    ])
    #expect(await doc.toSortedJSON() == #"{"k":{"inner":{"b":1}}}"#)
    #expect(await doc.checkInvariants() == nil)
    // The tombstone is gone, not garbage: nothing is left to collect.
    #expect(await doc.garbageLength == 0)
    #expect(await doc.size.gc == DataSize(data: 0, meta: 0))
    #expect(await doc.size.live.meta == removedSize.gc.meta - DataSize.ticket + DataSize.ticket)
    // An edit of the inner object names it by its ticket, before and after a collection.
    try await doc.applyChanges([change(4, 4, [.set(parentCreatedAt: inner, key: "c", value: OperationValue(.primitive(.integer(2), .init(createdAt: ticket(4)))), executedAt: ticket(4))])])
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) == 0)
    try await doc.applyChanges([change(5, 5, [.set(parentCreatedAt: inner, key: "d", value: OperationValue(.primitive(.integer(3), .init(createdAt: ticket(5)))), executedAt: ticket(5))])])
    #expect(await doc.toSortedJSON() == #"{"k":{"inner":{"b":1,"c":2,"d":3}}}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("an array Remove undone by an Add whose copy keeps its descendants' tickets: collecting the old tombstone leaves the copy's inner elements addressable")
  func arrayRestoreKeepingDescendantTickets() async throws {
    let doc = Document(key: "peer-undo")
    let inner = try await applyArrayRemovalUndoneByPeer(to: doc)
    #expect(await doc.toSortedJSON() == #"{"l":[{"inner":{"b":1}}]}"#)
    #expect(await doc.checkInvariants() == nil)
    // Collecting the removed element must not take the copy's inner object out of reach.
    #expect(await doc.garbageCollect(minSyncedVersionVector: maxVectorOfDetached()) > 0)
    try await doc.applyChanges([change(4, 4, [.set(parentCreatedAt: inner, key: "c", value: OperationValue(.primitive(.integer(2), .init(createdAt: ticket(4)))), executedAt: ticket(4))])])
    #expect(await doc.toSortedJSON() == #"{"l":[{"inner":{"b":1,"c":2}}]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("a snapshot of a document where a Yorkie peer's undo copied an array element under its descendants' tickets loads, and names the copy")
  func snapshotWithTicketsSharedByATombstone() async throws {
    // A Yorkie server's snapshot of this document holds the tombstone and the copy, both with
    // the inner object's ticket. The decoder refused it ("two elements are created at").
    let doc = Document(key: "peer-undo")
    let inner = try await applyArrayRemovalUndoneByPeer(to: doc)
    let loaded = Document(key: "peer-undo")
    try await loaded.setActor(actor(2))
    try await loaded.applyChangePack(ChangePack(key: "peer-undo", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                                                versionVector: await doc.versionVector, snapshot: await doc.snapshot()))
    #expect(await loaded.snapshot() == doc.snapshot())
    #expect(await loaded.checkInvariants() == nil)
    // The inner object's ticket names the copy's, the live one, on both.
    let edit = change(4, 4, [.set(parentCreatedAt: inner, key: "c", value: OperationValue(.primitive(.integer(2), .init(createdAt: ticket(4)))), executedAt: ticket(4))])
    for replica in [doc, loaded] {
      try await replica.applyChanges([edit])
      #expect(await replica.toSortedJSON() == #"{"l":[{"inner":{"b":1,"c":2}}]}"#)
      #expect(await replica.checkInvariants() == nil)
    }
  }

  @Test("a snapshot in which two live elements share a ticket is refused")
  func snapshotWithTwoLiveElementsSharingATicketIsRefused() throws {
    let root = CRDTObject(createdAt: .initial)
    for (key, lamport) in [("a", Int64(5)), ("b", 6)] {
      let holder = CRDTObject(createdAt: ticket(lamport))
      _ = try holder.set("x", CRDTObject(createdAt: ticket(9)), executedAt: ticket(9))
      _ = try root.set(key, holder, executedAt: ticket(lamport))
    }
    var writer = ProtoWriter()
    writer.message(1) { ElementCodec.encode(root, into: &$0) }
    let error = try #require(throws: YorkieError.self) { try DocumentSnapshot(data: writer.data) }
    #expect(error.code == .invalidWireData)
    #expect(error.message == "two live elements are created at \(ticket(9))")
  }
}
