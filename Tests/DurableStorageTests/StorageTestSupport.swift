import CRDT
import Foundation
import Testing

@testable import DurableStorage

/// Helpers of the storage tests, in a namespace of their own (the test target is shared).
enum StorageFixture {
  // Seeded randomness: the server's own `SplitMix64` (ResourceID.swift).

  /// Runs `body` with a new empty folder under the system's temporary directory, then deletes it.
  static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yorkie-storage-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
  }

  /// The bytes of the file at `url`.
  static func fileBytes(_ url: URL) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url))
  }

  /// Replaces the file at `url` with `bytes`.
  static func writeFile(_ url: URL, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: url)
  }

  /// Whether a file or folder exists at `url`.
  static func exists(_ url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
  }

  /// A payload of `count` bytes whose content depends on `seed`, so that no two test records look
  /// alike.
  static func payload(_ seed: Int, count: Int) -> [UInt8] {
    var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: seed) &* 0x1000_0001 &+ UInt64(count))
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
  }

  /// The byte offset of each record in a log holding records of these payload sizes, and the
  /// offset after the last one.
  static func recordOffsets(_ sizes: [Int]) -> (starts: [Int], end: Int) {
    var starts: [Int] = []
    var offset = LogFormat.magic.count
    for size in sizes {
      starts.append(offset)
      offset += LogFormat.headerLength + size
    }
    return (starts, offset)
  }

  /// Creates a log at `url` holding `payloads` (each appended and synced), and closes it.
  static func makeLog(_ url: URL, _ payloads: [[UInt8]]) throws {
    let (log, recovery) = try DurableLog.open(at: url)
    #expect(recovery.records.isEmpty)
    try log.sync(through: try log.append(payloads))
    log.close()
  }

  /// The error that opening the log at `url` throws; `nil` (after recording a test failure) if it
  /// opens.
  static func openError(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) -> StorageError? {
    do {
      let (log, _) = try DurableLog.open(at: url)
      log.close()
      Issue.record("the log opened; expected it to refuse", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// Starts `count` threads running `body(index)` at once and waits for all of them.
  static func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      let thread = Thread {
        body(index)
        group.leave()
      }
      thread.start()
    }
    group.wait()
  }
}
