import CRDT
import Foundation
import Testing

@testable import DurableStorage

/// `DurableLog` on its own: writing, reading back, compaction and the life cycle of the file.
@Suite("Storage: durable log")
struct StorageDurableLogTests {
  @Test("A new log is created with only its magic header, and an empty recovery")
  func create() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery == DurableLog.Recovery(records: [], tornTail: nil, removedTemporaryFile: false))
      #expect(log.end == DurableLog.Position(generation: 0, offset: 8))
      #expect(try StorageFixture.fileBytes(url) == Array("YKLOG".utf8) + [0, 0, 1])
      #expect(!StorageFixture.exists(folder.appendingPathComponent("log.tmp")))
      log.close()
    }
  }

  @Test("Records of 0 bytes, 1 byte, 1 MiB and sizes in between survive close and reopen, twice")
  func roundTrip() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let calls: [[Int]] = [[0], [1], [2, 7, 8, 9], [1 << 20], [], [255, 0, 4096], [3]]
      var expected: [[UInt8]] = []
      do {
        let (log, _) = try DurableLog.open(at: url)
        for (index, sizes) in calls.enumerated() {
          let payloads = sizes.enumerated().map { StorageFixture.payload(index * 10 + $0.offset, count: $0.element) }
          let position = try log.append(payloads)
          expected += payloads
          #expect(position == DurableLog.Position(generation: 0, offset: StorageFixture.recordOffsets(expected.map(\.count)).end))
          try log.sync(through: position)
        }
        log.close()
      }
      #expect(try StorageFixture.fileBytes(url).count == StorageFixture.recordOffsets(expected.map(\.count)).end)
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery.tornTail == nil)
      #expect(recovery.records == expected)
      let more = [StorageFixture.payload(99, count: 5), StorageFixture.payload(100, count: 0)]
      try log.sync(through: try log.append(more))
      log.close()
      let (again, secondRecovery) = try DurableLog.open(at: url)
      #expect(secondRecovery.records == expected + more)
      again.close()
    }
  }

  @Test("The bytes on disk are exactly the documented format")
  func format() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      try StorageFixture.makeLog(url, [Array("hi".utf8)])
      let crc = CRC32C.checksum([2, 0, 0, 0, 0x68, 0x69])
      let crcBytes = (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
      #expect(try StorageFixture.fileBytes(url) == Array("YKLOG".utf8) + [0, 0, 1] + [2, 0, 0, 0] + crcBytes + [0x68, 0x69])
    }
  }

  @Test("A payload above 64 MiB is refused and nothing is written")
  func payloadTooLarge() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      defer { log.close() }
      let big = [UInt8](repeating: 1, count: DurableLog.maximumPayloadLength + 1)
      #expect(throws: StorageError.payloadTooLarge(file: url.path(percentEncoded: false), length: big.count, limit: 64 << 20)) {
        try log.append([[1], big])
      }
      #expect(log.end.offset == 8)
      #expect(try StorageFixture.fileBytes(url).count == 8)
    }
  }

  @Test("A second DurableLog on the same file is refused while the first is open")
  func exclusive() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      #expect(StorageFixture.openError(url) == .locked(file: url.path(percentEncoded: false)))
      log.close()
      let (again, _) = try DurableLog.open(at: url)
      again.close()
    }
  }

  @Test("After close, appends throw, syncs of durable positions return, others throw")
  func closed() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      let durable = try log.append([[1]])
      try log.sync(through: durable)
      let pending = try log.append([[2]])
      log.close()
      log.close()
      let closed = StorageError.closed(file: url.path(percentEncoded: false))
      #expect(throws: closed) { try log.append([[3]]) }
      try log.sync(through: durable)
      #expect(throws: closed) { try log.sync(through: pending) }
      // Closing does not drop what was written: a reopen reads (and flushes) it.
      let (again, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == [[1], [2]])
      again.close()
    }
  }

  @Test("Rewrite replaces the content durably, starts a generation, and appends continue after it")
  func rewrite() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (log, _) = try DurableLog.open(at: url)
      let old = try log.append((0..<20).map { StorageFixture.payload($0, count: 50) })
      let compacted = [StorageFixture.payload(1000, count: 3), StorageFixture.payload(1001, count: 0), StorageFixture.payload(1002, count: 70_000)]
      try log.rewrite(with: compacted)
      #expect(log.end == DurableLog.Position(generation: 1, offset: StorageFixture.recordOffsets(compacted.map(\.count)).end))
      #expect(!StorageFixture.exists(folder.appendingPathComponent("log.tmp")))
      // Never synced, but superseded by the rewrite, which is durable.
      try log.sync(through: old)
      #expect(log.flushCount == 0)
      let after = try log.append([StorageFixture.payload(2000, count: 9)])
      #expect(after.generation == 1)
      try log.sync(through: after)
      log.close()
      let (again, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == compacted + [StorageFixture.payload(2000, count: 9)])
      #expect(recovery.tornTail == nil)
      try again.rewrite(with: [])
      again.close()
      #expect(try StorageFixture.fileBytes(url) == LogFormat.magic)
    }
  }

  @Test("A rewrite that fails before its rename leaves the log as it was, and usable")
  func failedRewrite() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let temporary = folder.appendingPathComponent("log.tmp")
      let (log, _) = try DurableLog.open(at: url)
      try log.sync(through: try log.append([[1], [2]]))
      // A folder where the temporary file should go: creating it fails.
      try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
      #expect(throws: StorageError.self) { try log.rewrite(with: [[9]]) }
      try FileManager.default.removeItem(at: temporary)
      try log.sync(through: try log.append([[3]]))
      log.close()
      let (again, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == [[1], [2], [3]])
      again.close()
    }
  }

  @Test("A leftover .tmp of an interrupted rewrite is deleted on open, the log untouched")
  func leftoverTemporaryFile() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let temporary = folder.appendingPathComponent("log.tmp")
      try StorageFixture.makeLog(url, [[1, 2, 3]])
      // What a crash before the rename leaves: a complete new log, or any prefix of one.
      try StorageFixture.writeFile(temporary, LogFormat.magic + LogFormat.encode([[7, 7]]))
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery == DurableLog.Recovery(records: [[1, 2, 3]], tornTail: nil, removedTemporaryFile: true))
      #expect(!StorageFixture.exists(temporary))
      log.close()
      // A damaged log keeps it: it may be what a repair needs.
      var damaged = try StorageFixture.fileBytes(url)
      damaged[damaged.count - 1] ^= 1
      try StorageFixture.writeFile(url, damaged)
      try StorageFixture.writeFile(temporary, [1])
      #expect(StorageFixture.openError(url) != nil)
      #expect(StorageFixture.exists(temporary))
      try StorageFixture.writeFile(url, LogFormat.magic)
      // And when the log itself is missing (a crash during its creation), the log starts empty.
      try FileManager.default.removeItem(at: url)
      try StorageFixture.writeFile(temporary, Array(LogFormat.magic.prefix(5)))
      let (fresh, freshRecovery) = try DurableLog.open(at: url)
      #expect(freshRecovery == DurableLog.Recovery(records: [], tornTail: nil, removedTemporaryFile: true))
      #expect(!StorageFixture.exists(temporary))
      fresh.close()
    }
  }

  @Test("Errors describe the file, the offset and the system's text")
  func descriptions() {
    #expect(
      StorageError.system(file: "/data/log", call: "pwrite", offset: 4096, errno: ENOSPC).description
        == "pwrite /data/log at offset 4096: No space left on device (errno \(ENOSPC))")
    #expect(
      StorageError.corrupt(file: "/data/log", offset: 1234, reason: "bad").description == "/data/log is corrupt at byte offset 1234: bad")
    #expect(StorageError.closed(file: "/data/log").file == "/data/log")
    #expect(
      DurableLog.TornTail(offset: 20, droppedBytes: 3, kind: .cutInHeader).description
        == "torn tail at offset 20: 3 bytes dropped (file ends inside a record header)")
  }
}
