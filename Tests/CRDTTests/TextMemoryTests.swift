import Testing
@testable import CRDT

/// The compact piece layout of texts: packed tickets (actors interned per text), removal
/// tickets in a side table, no backward link.
@Suite("Text piece layout")
struct TextMemoryTests {
  @Test("a piece is 48 bytes and a packed ticket 16")
  func layout() {
    #expect(MemoryLayout<CRDTText.Piece>.stride == 48)
    #expect(MemoryLayout<PackedTicket>.stride == 16)
  }

  @Test("packed tickets keep lamports past 32 bits, actors, their order and removal tickets")
  func packedTicketsRoundTrip() throws {
    let text = CRDTText(createdAt: TimeTicket(lamport: 1, delimiter: 1, actorID: .initial))
    let journal = Journal()
    let actors = try [0x0300, 0x0100, 0x0200].map { try ActorID(hex: String(format: "%024x", $0)) }
    let lamport: Int64 = 1 << 33 | 5
    // Three concurrent insertions at the head with one Lamport clock: the greater actor's goes first.
    for (i, actor) in actors.enumerated() {
      let head = try #require(text.position(at: 0))
      _ = try text.edit(from: head, to: head, content: ["a", "b", "c"][i], attributes: nil,
                        editedAt: TimeTicket(lamport: lamport, delimiter: 1, actorID: actor), mode: .remote(versionVector: VersionVector(), describing: true), journal: journal)
    }
    #expect(text.string == "acb")
    journal.commit()
    let removedAt = TimeTicket(lamport: Int64.max - 3, delimiter: 9, actorID: try ActorID(hex: "ffffffffffffffffffffffff"))
    let from = try #require(text.position(at: 1))
    let to = try #require(text.position(at: 2))
    let result = try text.edit(from: from, to: to, content: "", attributes: nil, editedAt: removedAt, mode: .remote(versionVector: VersionVector(), describing: true), journal: journal)
    #expect(text.string == "ab")
    #expect(result.removedCount == 1)
    let pieces = text.pieces
    #expect(pieces.map { text.id(of: $0).createdAt.actorID } == [actors[0], actors[2], actors[1]])
    #expect(pieces.allSatisfy { text.id(of: $0).createdAt.lamport == lamport })
    #expect(pieces.map { text.node($0).removedAt } == [nil, removedAt, nil])
    #expect(text.checkInvariants() == nil)
    // A copy rebuilds its own actor table and keeps every ticket.
    let copy = text.deepCopy()
    #expect(copy.pieces.map { copy.node($0).id } == pieces.map { text.node($0).id })
    #expect(copy.pieces.map { copy.node($0).removedAt } == [nil, removedAt, nil])
    #expect(copy.checkInvariants() == nil)
    // Undoing the deletion frees the removal slot; the next removal reuses it.
    journal.rollBack(CRDTRoot())
    #expect(text.string == "acb")
    #expect(text.checkInvariants() == nil)
    let all = try #require(text.position(at: 3))
    _ = try text.edit(from: try #require(text.position(at: 0)), to: all, content: "", attributes: nil,
                      editedAt: removedAt, mode: .remote(versionVector: VersionVector(), describing: true), journal: journal)
    #expect(text.string == "")
    #expect(text.removals.count == 3)
    #expect(text.checkInvariants() == nil)
  }
}
