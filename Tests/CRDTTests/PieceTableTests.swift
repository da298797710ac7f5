import Testing
@testable import CRDT

/// The text's insertion table against a dictionary model: random sets, replacements, removals
/// and lookups across the split into 64 shards, with the keys read back from an arena as the
/// text reads them from its pieces.
@Suite("PieceTable")
struct PieceTableTests {
  @Test("matches a dictionary under random inserts, replacements and removals", arguments: SeededRandom.seeds(3, base: 5))
  func modelBased(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var table = PieceTable<TimeTicket>()
    var model: [TimeTicket: Int32] = [:]
    // The arena: handle → key, as pieces carry their insertion ticket.
    var arena: [TimeTicket] = []
    let actors = (1...3).map { try! ActorID(hex: String(format: "%024x", $0)) }
    func keyOf(_ handle: Int32) -> TimeTicket { arena[Int(handle)] }
    for step in 0..<12_000 {
      let action = Int.random(in: 0..<10, using: &random)
      if action < 6 || model.isEmpty {
        // A new insertion (tickets collide on purpose: small lamports, few actors).
        let key = TimeTicket(lamport: Int64.random(in: 0..<4_000, using: &random), delimiter: UInt32.random(in: 0..<3, using: &random),
                             actorID: actors.randomElement(using: &random)!)
        let handle = Int32(arena.count)
        arena.append(key)
        if Bool.random(using: &random) {
          let previous = table.insertIfAbsent(key, handle) { keyOf($0) }
          #expect(previous == model[key], "seed \(seed), step \(step)")
          if model[key] == nil { model[key] = handle }
        } else {
          table.set(key, handle) { keyOf($0) }
          model[key] = handle
        }
      } else if action < 8 {
        let key = model.keys.randomElement(using: &random)!
        table.remove(key) { keyOf($0) }
        model[key] = nil
      } else {
        let key = model.keys.randomElement(using: &random)!
        #expect(table.value(key) { keyOf($0) } == model[key], "seed \(seed), step \(step)")
      }
      #expect(table.count == model.count, "seed \(seed), step \(step)")
    }
    for (key, handle) in model {
      #expect(table.value(key) { keyOf($0) } == handle, "seed \(seed)")
    }
    // Keys never inserted are absent.
    let absent = TimeTicket(lamport: 10_000, delimiter: 9, actorID: actors[0])
    #expect(table.value(absent) { keyOf($0) } == nil)
    #expect(table.count > 4_096, "seed \(seed): the table should have split into shards")
  }
}
