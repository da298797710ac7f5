import Testing
@testable import CRDT

/// The log behind `DocEvent.overwritten`: a suffix by lamport, trimmed by what every replica
/// has seen and by its capacity.
@Suite("Local edit log")
struct LocalEditLogTests {
  private func change(lamport: Int64, targets: [TimeTicket]) -> Change {
    let id = ChangeID(clientSeq: UInt32(lamport), lamport: lamport, actorID: actor(1), versionVector: VersionVector([actor(1): lamport]))
    let operations = targets.map { Operation.increase(parentCreatedAt: $0, value: .integer(1), executedAt: TimeTicket(lamport: lamport, delimiter: 1, actorID: actor(1))) }
    return Change(id: id, operations: operations, message: nil, presenceChange: nil)
  }

  private func ticket(_ n: Int64) -> TimeTicket { TimeTicket(lamport: n, delimiter: 0, actorID: actor(9)) }

  @Test("targets after a lamport are the later changes' containers, runs on one container logged once")
  func suffix() {
    var log = LocalEditLog()
    #expect(log.newestLamport == 0)
    log.record(change(lamport: 3, targets: [ticket(1), ticket(1), ticket(2)]))
    log.record(change(lamport: 5, targets: [ticket(2)]))
    log.record(change(lamport: 8, targets: [ticket(3), ticket(1)]))
    #expect(log.newestLamport == 8)
    #expect(Array(log.targets(after: 0)) == [ticket(1), ticket(2), ticket(2), ticket(3), ticket(1)])
    #expect(Array(log.targets(after: 3)) == [ticket(2), ticket(3), ticket(1)])
    #expect(Array(log.targets(after: 7)) == [ticket(3), ticket(1)])
    #expect(Array(log.targets(after: 8)).isEmpty)
    log.forget(seenThrough: 5)
    #expect(Array(log.targets(after: 0)) == [ticket(3), ticket(1)])
    log.forget(seenThrough: 100)
    #expect(log.newestLamport == 0)
  }

  @Test("past twice its capacity the log keeps the newest entries, so a replica that never syncs stays bounded")
  func capacity() {
    var log = LocalEditLog()
    let total = 2 * LocalEditLog.capacity + 1
    for lamport in 1...Int64(total) { log.record(change(lamport: lamport, targets: [ticket(lamport)])) }
    let kept = Array(log.targets(after: 0))
    #expect(kept.count == LocalEditLog.capacity)
    #expect(kept.last == ticket(Int64(total)))
    #expect(kept.first == ticket(Int64(total - LocalEditLog.capacity + 1)))
  }
}
