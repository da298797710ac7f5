import Foundation
import Testing

@testable import YorkieClient

/// ``OpeningLine``: one turn at a time, in arrival order; a cancelled waiter leaves the line.
@Suite("Opening line", .timeLimit(.minutes(1)))
struct OpeningLineTests {
  @Test("turns begin one at a time, in the order the openings came")
  func order() async throws {
    let line = OpeningLine()
    let first = try #require(await line.enter())
    let started = LockedValue<[Int]>([])
    var waiters: [Task<Void, Never>] = []
    for index in 1...3 {
      waiters.append(
        Task {
          guard let turn = await line.enter() else { return }
          started.withLock { $0.append(index) }
          turn.end()
        })
      // The next one comes only once this one waits.
      #expect(await eventually { line.waitingCount == index })
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    #expect(started.withLock { $0 }.isEmpty)
    first.end()
    for waiter in waiters { await waiter.value }
    #expect(started.withLock { $0 } == [1, 2, 3])
    // Free again: the next opening goes at once.
    let again = try #require(await line.enter())
    again.end()
  }

  @Test("a waiter cancelled before its turn leaves the line; the others keep their order")
  func cancelledWaiter() async throws {
    let line = OpeningLine()
    let first = try #require(await line.enter())
    let cancelled = Task { await line.enter() }
    #expect(await eventually { line.waitingCount == 1 })
    let next = Task { () -> Bool in
      guard let turn = await line.enter() else { return false }
      turn.end()
      return true
    }
    #expect(await eventually { line.waitingCount == 2 })
    cancelled.cancel()
    #expect(await cancelled.value == nil)
    #expect(line.waitingCount == 1)
    first.end()
    #expect(await next.value)
  }

  @Test("a task cancelled before it comes gets no turn, and holds nobody up")
  func alreadyCancelled() async throws {
    let line = OpeningLine()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await line.enter()
    }
    #expect(await task.value == nil)
    let turn = try #require(await line.enter())
    turn.end()
  }

  @Test("ending a turn twice ends it once; end(after:) ends it when nothing else did")
  func endOnce() async throws {
    let line = OpeningLine()
    let first = try #require(await line.enter())
    let second = Task { await line.enter() }
    let third = Task { await line.enter() }
    #expect(await eventually { line.waitingCount == 2 })
    first.end()
    first.end()  // must not end the turn the second waiter now has
    let secondTurn = try #require(await second.value)
    try await Task.sleep(nanoseconds: 50_000_000)
    #expect(line.waitingCount == 1)
    secondTurn.end(after: 0.05)
    let thirdTurn = try #require(await third.value)
    thirdTurn.end()
  }
}
