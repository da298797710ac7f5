import Testing
import CRDT

/// `OperationList` keeps text edits and other operations in separate stores; reading it back
/// must give every operation in append order, whatever the mix and across chunk boundaries.
@Suite("OperationList")
struct OperationListTests {
  private static func ticket(_ n: Int) -> TimeTicket {
    TimeTicket(lamport: Int64(n), delimiter: UInt32(n % 7), actorID: .max)
  }

  /// One of 40 actors (the builder stores an edit's actors in a table that turns into a
  /// dictionary past 16).
  private static let actors = (1...40).map { try! ActorID(hex: String(repeating: "0", count: 22) + String(format: "%02x", $0)) }

  private static func ticket(_ n: Int, actor: Int) -> TimeTicket {
    TimeTicket(lamport: Int64(n) << 20, delimiter: UInt32(n % 11), actorID: actors[actor % actors.count])
  }

  private static func operation(_ n: Int, edit: Bool) -> CRDT.Operation {
    let at = ticket(n)
    if edit {
      // Every part varies: the text (one of 20), the actors of the three tickets, offsets,
      // the range (an insertion or not), attributes now and then.
      let from = TextPosition(id: TextNodeID(createdAt: ticket(n / 2, actor: n / 7), offset: Int32(n % 3)),
                              relativeOffset: Int32(n % 5))
      let to = n % 4 == 0 ? from
        : TextPosition(id: TextNodeID(createdAt: ticket(n / 3, actor: n / 5 + 1), offset: Int32(n % 13)), relativeOffset: 1)
      let text = n % 9 == 0 ? TimeTicket.initial : ticket(n % 20, actor: n % 3)
      return .edit(parentCreatedAt: text, from: from, to: to, content: n % 6 == 0 ? "" : "c\(n)🌷",
                   attributes: n % 10 == 0 ? ["bold": "true", "n": "\(n)"] : nil, executedAt: ticket(n, actor: n / 11))
    }
    return n % 2 == 0
      ? .increase(parentCreatedAt: .initial, value: .integer(Int32(n)), executedAt: at)
      : .remove(parentCreatedAt: .initial, createdAt: ticket(n - 1), executedAt: at)
  }

  @Test("appending any mix of text edits and other operations reads back in order", arguments: SeededRandom.seeds(4, base: 700))
  func mixedOrder(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    // Runs of one kind, long enough to cross the chunk sizes of both stores.
    var list = OperationList()
    var model: [CRDT.Operation] = []
    var n = 0
    for _ in 0..<12 {
      let edit = Bool.random(using: &random)
      let run = [1, 3, 600, 5_000].randomElement(using: &random)!
      for _ in 0..<run {
        let op = Self.operation(n, edit: edit)
        list.append(op)
        model.append(op)
        n += 1
      }
      #expect(list.count == model.count)
    }
    var mismatches = 0
    for index in model.indices where list[index] != model[index] { mismatches += 1 }
    #expect(mismatches == 0, "seed \(seed)")
    #expect(list == OperationList(model))
    #expect(list.elementsEqual(model))
  }

  @Test("a list of one kind compares equal to the same operations built another way")
  func singleKinds() {
    let edits = (0..<5_000).map { Self.operation($0, edit: true) }
    let others = (0..<1_100).map { Self.operation($0, edit: false) }
    #expect(OperationList(edits).elementsEqual(edits))
    #expect(OperationList(others).elementsEqual(others))
    #expect(OperationList(edits) != OperationList(others))
    #expect(OperationList().isEmpty)
  }

  @Test("appending to a copy leaves the original as it was (copy on write)")
  func copyOnWrite() {
    var original = OperationList()
    for n in 0..<700 { original.append(Self.operation(n, edit: n % 3 == 0)) }
    let snapshot = Array(original)
    var copy = original
    for n in 700..<1_500 { copy.append(Self.operation(n, edit: n % 2 == 0)) }
    #expect(original.elementsEqual(snapshot))
    #expect(copy.count == 1_500)
    #expect(copy.prefix(700).elementsEqual(snapshot))
    original.append(Self.operation(9_999, edit: false))
    #expect(original.count == 701)
    #expect(copy.count == 1_500)
  }
}
