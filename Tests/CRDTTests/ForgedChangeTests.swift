@testable import CRDT
import Foundation
import Testing

@Test("a remote Set whose value repeats a member's creation ticket is refused and changes nothing")
func forgedSetWithRepeatedTicketIsRefused() async throws {
  let author = actor(7)
  let doc = Document(key: "forged")
  try await doc.setActor(actor(1))
  let first = TimeTicket(lamport: 1, delimiter: 1, actorID: author)
  let set1 = Change(id: ChangeID(clientSeq: 1, lamport: 1, actorID: author, versionVector: VersionVector([author: 1])),
                    operations: [.set(parentCreatedAt: .initial, key: "a", value: OperationValue(.primitive(.integer(1), ElementSnapshot.Meta(createdAt: first))), executedAt: first)])
  try await doc.applyChanges([set1])
  let before = await doc.snapshot()
  // The same value ticket under another key, in a later change of the author.
  let second = TimeTicket(lamport: 2, delimiter: 1, actorID: author)
  let set2 = Change(id: ChangeID(clientSeq: 2, lamport: 2, actorID: author, versionVector: VersionVector([author: 2])),
                    operations: [.set(parentCreatedAt: .initial, key: "b", value: OperationValue(.primitive(.integer(2), ElementSnapshot.Meta(createdAt: first))), executedAt: second)])
  do {
    try await doc.applyChanges([set2])
    Issue.record("a Set repeating a member's ticket was applied")
  } catch let error as YorkieError {
    #expect(error.code == .invalidChangePack)
  }
  #expect(await doc.snapshot() == before)
  #expect(await doc.toJSON() == #"{"a":1}"#)
  #expect(await doc.checkInvariants() == nil)
}

@Test("a remote Add whose element repeats a position's creation ticket is refused and changes nothing")
func forgedAddWithRepeatedTicketIsRefused() async throws {
  let author = actor(7)
  let doc = Document(key: "forged")
  try await doc.setActor(actor(1))
  let list = TimeTicket(lamport: 1, delimiter: 1, actorID: author)
  let item = TimeTicket(lamport: 1, delimiter: 2, actorID: author)
  let create = Change(id: ChangeID(clientSeq: 1, lamport: 1, actorID: author, versionVector: VersionVector([author: 1])), operations: [
    .set(parentCreatedAt: .initial, key: "list", value: OperationValue(.array([], ElementSnapshot.Meta(createdAt: list))), executedAt: list),
    .add(parentCreatedAt: list, previousCreatedAt: .initial, value: OperationValue(.primitive(.integer(1), ElementSnapshot.Meta(createdAt: item))), executedAt: item),
  ])
  try await doc.applyChanges([create])
  let before = await doc.snapshot()
  let again = TimeTicket(lamport: 2, delimiter: 1, actorID: author)
  let forged = Change(id: ChangeID(clientSeq: 2, lamport: 2, actorID: author, versionVector: VersionVector([author: 2])), operations: [
    .add(parentCreatedAt: list, previousCreatedAt: item, value: OperationValue(.primitive(.integer(2), ElementSnapshot.Meta(createdAt: item))), executedAt: again),
  ])
  do {
    try await doc.applyChanges([forged])
    Issue.record("an Add repeating a position's ticket was applied")
  } catch let error as YorkieError {
    #expect(error.code == .invalidChangePack)
  }
  #expect(await doc.snapshot() == before)
  #expect(await doc.toJSON() == #"{"list":[1]}"#)
  #expect(await doc.checkInvariants() == nil)
}
