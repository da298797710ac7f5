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
