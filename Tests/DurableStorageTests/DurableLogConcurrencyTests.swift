import CRDT
import Foundation
import Testing

@testable import DurableStorage

/// A test record of the concurrency tests: who wrote it, in which call, and its place in the call.
private struct Stamp: Hashable {
  /// The writing thread.
  var thread: Int
  /// The thread's append call, counted from 0.
  var call: Int
  /// The record's index within its call.
  var index: Int
  /// How many records the call wrote.
  var count: Int

  /// The payload: the four numbers, then filler bytes derived from them (a variable length).
  var payload: [UInt8] {
    var bytes: [UInt8] = []
    for value in [thread, call, index, count] { LogFormat.append(UInt32(value), to: &bytes) }
    return bytes + StorageDurableLogConcurrencyTests.filler(self)
  }

  /// The stamp of `payload`, if it is exactly the payload of a stamp.
  init?(_ payload: [UInt8]) {
    guard payload.count >= 16 else { return nil }
    let values = (0..<4).map { Int(LogFormat.readUInt32(payload, at: 4 * $0)) }
    self.init(thread: values[0], call: values[1], index: values[2], count: values[3])
    guard payload == self.payload else { return nil }
  }

  /// A stamp.
  init(thread: Int, call: Int, index: Int, count: Int) {
    self.thread = thread
    self.call = call
    self.index = index
    self.count = count
  }
}

/// Many threads at once: nothing interleaves, everything synced is there, syncs are grouped, and
/// appends do not wait for flushes.
@Suite("Storage: durable log under concurrency")
struct StorageDurableLogConcurrencyTests {
  /// The filler of a stamp's payload: 0 to 300 bytes that depend on the stamp.
  fileprivate static func filler(_ stamp: Stamp) -> [UInt8] {
    let seed = stamp.thread * 1_000_003 + stamp.call * 31 + stamp.index
    return StorageFixture.payload(seed, count: (seed * 7919) % 301)
  }

  @Test("8 threads append (1 to 3 records a call) and sync concurrently; after reopen every call is whole, in order, and every synced one is there")
  func manyThreads() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      let threads = 8
      let calls = 150
      let synced = Locked<Set<Stamp>>([])
      let positions = Locked<[DurableLog.Position]>([])
      let failures = Locked<[String]>([])
      StorageFixture.runThreads(threads) { thread in
        var last = DurableLog.Position(generation: 0, offset: 0)
        for call in 0..<calls {
          let count = 1 + (thread + call) % 3
          let stamps = (0..<count).map { Stamp(thread: thread, call: call, index: $0, count: count) }
          do {
            let position = try log.append(stamps.map(\.payload))
            if position <= last { failures.withLock { $0.append("thread \(thread): position \(position) after \(last)") } }
            last = position
            positions.withLock { $0.append(position) }
            // Two calls in three are synced; the third is left to a later sync to cover.
            if call % 3 != 2 {
              try log.sync(through: position)
              synced.withLock { $0.formUnion(stamps) }
            }
          } catch {
            failures.withLock { $0.append("thread \(thread), call \(call): \(error)") }
          }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
      let syncs = synced.withLock { $0.count }
      #expect(log.flushCount <= threads * calls)
      #expect(Set(positions.withLock { $0 }).count == threads * calls, "every call ends at its own position")
      log.close()

      let (reopened, recovery) = try DurableLog.open(at: url)
      defer { reopened.close() }
      #expect(recovery.tornTail == nil)
      var found: Set<Stamp> = []
      var nextCall = [Int](repeating: 0, count: threads)
      var index = 0
      while index < recovery.records.count {
        guard let first = Stamp(recovery.records[index]), first.index == 0 else {
          Issue.record("record \(index) is not the first of a call: \(recovery.records[index].prefix(16))")
          return
        }
        for offset in 0..<first.count {
          let expected = Stamp(thread: first.thread, call: first.call, index: offset, count: first.count)
          #expect(index + offset < recovery.records.count && Stamp(recovery.records[index + offset]) == expected, "call interleaved at record \(index + offset)")
          found.insert(expected)
        }
        #expect(first.call == nextCall[first.thread], "thread \(first.thread)'s calls out of order")
        nextCall[first.thread] = first.call + 1
        index += first.count
      }
      #expect(synced.withLock { $0 }.isSubset(of: found))
      #expect(syncs > 0 && found.count == (0..<threads).reduce(0) { total, thread in total + (0..<calls).reduce(0) { $0 + 1 + (thread + $1) % 3 } })
    }
  }

  @Test("Group commit: 8 syncs arriving while a flush is in flight share it — one flush in all")
  func groupsSyncs() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      defer { log.close() }
      let threads = 8
      // Every record is appended before any sync starts.
      let positions = try (0..<threads).map { try log.append([StorageFixture.payload($0, count: 100)]) }
      let flushes = Locked(0)
      let allWaited = Locked(false)
      // The hook captures the log: cleared at the end, or the two would keep each other alive.
      defer { log.beforeFlush.withLock { $0 = nil } }
      log.beforeFlush.withLock {
        $0 = {
          // The first leader holds its flush until the seven others are asleep waiting for it.
          guard flushes.withLock({ count in
            count += 1
            return count == 1
          }) else { return }
          let deadline = Date().addingTimeInterval(10)
          while log.sleepingSyncCount < threads - 1 && Date() < deadline { usleep(1000) }
          allWaited.withLock { $0 = log.sleepingSyncCount == threads - 1 }
        }
      }
      let failures = Locked<[String]>([])
      StorageFixture.runThreads(threads) { thread in
        do { try log.sync(through: positions[thread]) } catch { failures.withLock { $0.append("\(error)") } }
      }
      #expect(failures.withLock { $0 }.isEmpty)
      #expect(allWaited.withLock { $0 })
      #expect(log.flushCount == 1)
      #expect(flushes.withLock { $0 } == 1)
    }
  }

  @Test("Appends go on while a flush is in flight: the write lock is not held during fsync")
  func appendsDuringFlush() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      defer { log.close() }
      let appended = DispatchSemaphore(value: 0)
      let appendedInTime = Locked(false)
      // The hook captures the log: cleared at the end, or the two would keep each other alive.
      defer { log.beforeFlush.withLock { $0 = nil } }
      log.beforeFlush.withLock {
        $0 = {
          // Inside the flush: another thread's append must complete.
          Thread { _ = try? log.append([[42]]); appended.signal() }.start()
          appendedInTime.withLock { $0 = appended.wait(timeout: .now() + 10) == .success }
        }
      }
      try log.sync(through: try log.append([[1]]))
      #expect(appendedInTime.withLock { $0 })
      log.beforeFlush.withLock { $0 = nil }  // The next sync flushes normally.
      try log.sync(through: log.end)
      log.close()
      let (again, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == [[1], [42]])
      again.close()
    }
  }

  @Test("A rewrite waits for a flush in flight, and syncs during a rewrite wait for it")
  func rewriteWithSyncs() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      let failures = Locked<[String]>([])
      // Two threads append and sync in a loop while a third rewrites the log several times with
      // a fixed content; the log ends as the last rewrite plus the appends made after it.
      StorageFixture.runThreads(3) { thread in
        do {
          if thread == 2 {
            for round in 0..<20 { try log.rewrite(with: [[UInt8(round)]]) }
          } else {
            for call in 0..<200 { try log.sync(through: try log.append([[UInt8(thread), UInt8(call & 0xFF)]])) }
          }
        } catch {
          failures.withLock { $0.append("thread \(thread): \(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
      let end = log.end
      #expect(end.generation == 20)
      log.close()
      let (again, recovery) = try DurableLog.open(at: url)
      defer { again.close() }
      #expect(recovery.records.first == [19])
      #expect(recovery.records.dropFirst().allSatisfy { $0.count == 2 && $0[0] < 2 })
      #expect(try StorageFixture.fileBytes(url).count == end.offset)
    }
  }

  @Test("A failed flush fails its waiters too and makes the log unusable; what was durable stays so")
  func failedFlush() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      defer { log.close() }
      let durable = try log.append([[1]])
      try log.sync(through: durable)
      let threads = 4
      let positions = try (0..<threads).map { try log.append([[UInt8(2 + $0)]]) }
      let failure = StorageError.system(file: log.path, call: "fdatasync", offset: nil, errno: EIO)
      // The hook captures the log: cleared at the end, or the two would keep each other alive.
      defer { log.beforeFlush.withLock { $0 = nil } }
      log.beforeFlush.withLock {
        $0 = { () throws(StorageError) in
          // Fail once every other sync is waiting for this flush.
          let deadline = Date().addingTimeInterval(10)
          while log.sleepingSyncCount < threads - 1 && Date() < deadline { usleep(1000) }
          throw failure
        }
      }
      let errors = Locked<[StorageError?]>([])
      StorageFixture.runThreads(threads) { thread in
        do throws(StorageError) {
          try log.sync(through: positions[thread])
          errors.withLock { $0.append(nil) }
        } catch {
          errors.withLock { $0.append(error) }
        }
      }
      #expect(errors.withLock { $0 } == [StorageError?](repeating: failure, count: threads))
      #expect(log.flushCount == 2, "the first sync's, and the one failed flush shared by all")
      log.beforeFlush.withLock { $0 = nil }
      #expect(throws: failure) { try log.append([[9]]) }
      #expect(throws: failure) { try log.sync(through: positions[0]) }
      try log.sync(through: durable)
      #expect(throws: failure) { try log.rewrite(with: []) }
    }
  }
}
