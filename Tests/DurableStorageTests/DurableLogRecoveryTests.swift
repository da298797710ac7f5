import CRDT
import Foundation
import Testing

@testable import DurableStorage

/// Opening damaged files: a torn tail is cut and reported, anything else is refused with the file
/// and the offset of the damaged record.
@Suite("Storage: durable log recovery")
struct StorageDurableLogRecoveryTests {
  /// The payloads of the test logs: the last one is the record the torn-tail tests cut.
  private static let payloads = [StorageFixture.payload(1, count: 30), StorageFixture.payload(2, count: 0), StorageFixture.payload(3, count: 30), StorageFixture.payload(4, count: 17), StorageFixture.payload(5, count: 40)]

  /// Writes the test log and returns its bytes and record offsets.
  private func makeTestLog(_ url: URL) throws -> (bytes: [UInt8], starts: [Int]) {
    try StorageFixture.makeLog(url, Self.payloads)
    let bytes = try StorageFixture.fileBytes(url)
    let (starts, end) = StorageFixture.recordOffsets(Self.payloads.map(\.count))
    #expect(bytes.count == end)
    return (bytes, starts)
  }

  /// Expects opening `url` to refuse as corrupt at `offset`, naming the file and the offset.
  private func expectCorrupt(_ url: URL, at offset: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error = StorageFixture.openError(url, sourceLocation: sourceLocation) else { return }
    let path = url.path(percentEncoded: false)
    guard case .corrupt(let file, let found, _) = error else {
      Issue.record("\(what): expected corrupt, got \(error)", sourceLocation: sourceLocation)
      return
    }
    #expect(file == path, "\(what)", sourceLocation: sourceLocation)
    #expect(found == offset, "\(what): \(error)", sourceLocation: sourceLocation)
    #expect(error.description.contains(path) && error.description.contains("offset \(offset)"), "\(what)", sourceLocation: sourceLocation)
  }

  @Test("A cut anywhere inside the last record (header or payload) is cut exactly, reported, and appends go on")
  func everyCutPoint() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, starts) = try makeTestLog(url)
      let last = starts.last!
      let earlier = Array(Self.payloads.dropLast())
      for cut in (last + 1)..<bytes.count {
        try StorageFixture.writeFile(url, Array(bytes[..<cut]))
        let (log, recovery) = try DurableLog.open(at: url)
        let kind: DurableLog.TornTail.Kind = cut - last < 8 ? .cutInHeader : .cutInPayload
        #expect(recovery.tornTail == DurableLog.TornTail(offset: last, droppedBytes: cut - last, kind: kind), "cut at \(cut)")
        #expect(recovery.records == earlier, "cut at \(cut)")
        #expect(log.end.offset == last)
        #expect(try StorageFixture.fileBytes(url) == Array(bytes[..<last]), "cut at \(cut)")
        try log.sync(through: try log.append([[0xAB, UInt8(cut & 0xFF)]]))
        log.close()
        let (again, next) = try DurableLog.open(at: url)
        #expect(next.tornTail == nil)
        #expect(next.records == earlier + [[0xAB, UInt8(cut & 0xFF)]], "cut at \(cut)")
        again.close()
      }
    }
  }

  @Test("A cut inside a multi-record append keeps the records of it that are complete")
  func cutInsideOneCall() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, starts) = try makeTestLog(url)
      try StorageFixture.writeFile(url, Array(bytes[..<(starts[3] + 5)]))
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == Array(Self.payloads[..<3]))
      #expect(recovery.tornTail == DurableLog.TornTail(offset: starts[3], droppedBytes: 5, kind: .cutInHeader))
      log.close()
    }
  }

  @Test("Zero bytes from a record boundary to the end are a torn tail, whatever their length")
  func zeroFilledTail() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, _) = try makeTestLog(url)
      for zeros in [1, 7, 8, 9, 100, 4096, 70_000] {
        try StorageFixture.writeFile(url, bytes + [UInt8](repeating: 0, count: zeros))
        let (log, recovery) = try DurableLog.open(at: url)
        #expect(recovery.tornTail == DurableLog.TornTail(offset: bytes.count, droppedBytes: zeros, kind: .zeroFilled), "\(zeros) zeros")
        #expect(recovery.records == Self.payloads)
        log.close()
        #expect(try StorageFixture.fileBytes(url) == bytes)
      }
      // Right after the magic header, too.
      try StorageFixture.writeFile(url, LogFormat.magic + [UInt8](repeating: 0, count: 512))
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery.tornTail == DurableLog.TornTail(offset: 8, droppedBytes: 512, kind: .zeroFilled))
      log.close()
    }
  }

  @Test("Zero bytes followed by anything else are damage, not a tail")
  func zerosThenData() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, _) = try makeTestLog(url)
      try StorageFixture.writeFile(url, bytes + [UInt8](repeating: 0, count: 64) + [1])
      expectCorrupt(url, at: bytes.count, "zeros then a byte")
      try StorageFixture.writeFile(url, bytes + [UInt8](repeating: 0, count: 8) + LogFormat.encode([[1, 2, 3]]))
      expectCorrupt(url, at: bytes.count, "zeros then a record")
    }
  }

  @Test("A flipped byte in the length, checksum or payload of a record before the tail is refused at that record's offset")
  func flippedByte() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, starts) = try makeTestLog(url)
      // Record 0 (first), 2 (middle) and 3 (just before the tail); record 1 has no payload.
      for (record, size) in [(0, 30), (1, 0), (2, 30), (3, 17)] {
        let start = starts[record]
        let payloadBytes = size == 0 ? [] : [8, 8 + size / 2, 8 + size - 1]
        for index in [0, 1, 2, 3, 4, 5, 6, 7] + payloadBytes {
          for flip: UInt8 in [0xFF, 0x01, 0x80] {
            var damaged = bytes
            damaged[start + index] ^= flip
            try StorageFixture.writeFile(url, damaged)
            expectCorrupt(url, at: start, "record \(record), byte \(index) ^ \(flip)")
          }
        }
      }
      // The file was never changed by the refusals.
      try StorageFixture.writeFile(url, bytes)
      let (log, recovery) = try DurableLog.open(at: url)
      #expect(recovery.records == Self.payloads)
      log.close()
    }
  }

  @Test("A damaged length pointing past the end is still refused when intact records follow it up to a zero-filled end")
  func damagedLengthThenZeroTail() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      var (bytes, starts) = try makeTestLog(url)
      bytes[starts[2] + 2] ^= 0x01  // + 64 KiB: past the end of this small file
      try StorageFixture.writeFile(url, bytes + [UInt8](repeating: 0, count: 100))
      expectCorrupt(url, at: starts[2], "damaged length, zero tail")
    }
  }

  @Test("A complete last record with a wrong checksum is refused too: only incomplete records are a tail")
  func badChecksumAtTail() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      var (bytes, starts) = try makeTestLog(url)
      bytes[bytes.count - 1] ^= 0x20
      try StorageFixture.writeFile(url, bytes)
      expectCorrupt(url, at: starts.last!, "last payload byte")
    }
  }

  @Test("A length above 64 MiB is refused, even in the last header")
  func lengthAboveLimit() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, _) = try makeTestLog(url)
      var header: [UInt8] = []
      LogFormat.append(UInt32(64 << 20) + 1, to: &header)
      LogFormat.append(0x1234_5678, to: &header)
      try StorageFixture.writeFile(url, bytes + header + [1, 2, 3])
      expectCorrupt(url, at: bytes.count, "length above the limit")
    }
  }

  @Test("A bad magic header, a short file and an empty file are refused at offset 0")
  func badMagic() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let (bytes, _) = try makeTestLog(url)
      for index in 0..<8 {
        var damaged = bytes
        damaged[index] ^= 0x01
        try StorageFixture.writeFile(url, damaged)
        expectCorrupt(url, at: 0, "magic byte \(index)")
      }
      try StorageFixture.writeFile(url, Array(LogFormat.magic.prefix(3)))
      expectCorrupt(url, at: 0, "short file")
      try StorageFixture.writeFile(url, [])
      expectCorrupt(url, at: 0, "empty file")
      // A newer format version is not read as this one.
      try StorageFixture.writeFile(url, Array(LogFormat.magic.dropLast()) + [2])
      expectCorrupt(url, at: 0, "version 2")
    }
  }

  @Test("A torn payload that happens to hold zeros or record-like bytes is still a torn tail")
  func tornPayloadContents() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let zeros = [UInt8](repeating: 0, count: 200)
      let nested = LogFormat.encode([[1, 2, 3]]) + [UInt8](repeating: 0xAA, count: 40)
      for last in [zeros, nested] {
        try StorageFixture.makeLog(url, [[5, 5], last])
        let bytes = try StorageFixture.fileBytes(url)
        let start = StorageFixture.recordOffsets([2]).end
        for cut in [start + 8, start + 9, start + 30, bytes.count - 1] {
          try StorageFixture.writeFile(url, Array(bytes[..<cut]))
          let (log, recovery) = try DurableLog.open(at: url)
          #expect(recovery.records == [[5, 5]], "cut at \(cut)")
          #expect(recovery.tornTail == DurableLog.TornTail(offset: start, droppedBytes: cut - start, kind: .cutInPayload))
          log.close()
        }
        try FileManager.default.removeItem(at: url)
      }
    }
  }

  @Test("A torn payload that holds a complete record of this format ending exactly at the cut is refused (the safe side)")
  func tornPayloadHoldingALog() throws {
    try StorageFixture.withTemporaryDirectory { folder in
      let url = folder.appendingPathComponent("log")
      let inner = LogFormat.encode([[1, 2, 3]])
      try StorageFixture.makeLog(url, [[5, 5], inner + [0xAA, 0xAA]])
      let bytes = try StorageFixture.fileBytes(url)
      let start = StorageFixture.recordOffsets([2]).end
      // Cut right after the inner record: indistinguishable from a damaged length followed by it.
      try StorageFixture.writeFile(url, Array(bytes[..<(start + 8 + inner.count)]))
      expectCorrupt(url, at: start, "nested record")
    }
  }
}
