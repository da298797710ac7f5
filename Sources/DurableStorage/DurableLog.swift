// DurableLog: an append-only file of checksummed records, safe from any number of threads.
//
// File format (all integers little-endian; implemented by LogFormat and LogScanner):
//
//   file     = magic record*
//   magic    = "YKLOG" 0x00 0x00 0x01          8 bytes; the last byte is the format version
//   record   = length checksum payload         no padding between records
//   length   = UInt32                          payload bytes, at most 64 MiB
//   checksum = UInt32                          CRC-32C over the 4 length bytes, then the payload
//   payload  = length bytes                    opaque to the log
//
// Example: a file holding one record "hi" is the 8 magic bytes, then 02 00 00 00 (length 2), the
// CRC-32C of 02 00 00 00 68 69 as 4 bytes, then 68 69.
//
// Recovery (DurableLog.open): the records are read from the start. The only thing ever dropped is
// a torn tail — what a crash in the middle of an unsynced append leaves: the file ends inside a
// record header, or inside a payload (its length runs past the end of the file), or it is zero
// bytes from a record boundary to its end (extended, never written). It is truncated away and
// reported. Anything else — a complete record whose checksum does not match, a length above the
// limit, a bad magic, a length running past the end when a valid record chain follows it — is
// damage, and open refuses with StorageError.corrupt naming the file and the record's offset:
// acknowledged data is never dropped silently.
//
// Compaction (DurableLog.rewrite): the new content goes to "<log>.tmp", which is flushed, renamed
// over the log, and the folder flushed; a crash at any moment leaves the old log or the new one
// complete, and open deletes a leftover "<log>.tmp".

import CRDT
import Foundation

/// An append-only log of records (byte arrays) in one file, with checksums, torn-tail recovery,
/// group commit and compaction. The format and recovery rules are at the top of this file.
///
/// Writing is two steps: ``append(_:)`` writes the records of one call with one write loop and
/// returns the ``Position`` after them (not yet durable); ``sync(through:)`` returns once
/// everything up to a position is on disk. Concurrent syncs share flushes (see ``GroupCommit``),
/// and appends go on while a flush runs, so many threads appending and syncing pay for far fewer
/// flushes than syncs.
///
/// Thread safety: the descriptor, the end offset and the generation live under one lock (held for
/// the write of one append call, so calls never interleave); what is durable lives in the
/// ``GroupCommit``. A flush runs with neither lock held, under the group commit's leader role,
/// which ``rewrite(with:)`` and ``close()`` must also take before touching the descriptor — so a
/// flush never runs on a descriptor that is being closed.
///
/// A failed flush makes the log unusable: after `fsync` fails, Linux may have dropped the dirty
/// pages it could not write, so no later flush could vouch for them. Every later append and sync
/// (of a position not yet durable) throws the same error; reopen the file to recover what is on
/// disk. A failed write that cannot be undone (the file cannot be cut back) does the same.
///
/// One log per file: `open` takes an exclusive `flock` on it (and a rewrite on its replacement),
/// so a second `DurableLog` on the same file, in this process or another, gets
/// ``StorageError/locked(file:)``. (Not covered: two processes creating the same missing log at
/// the same moment.)
package final class DurableLog: Sendable {
  /// The largest payload of one record: 64 MiB.
  package static let maximumPayloadLength = LogFormat.maximumPayloadLength

  /// What the writer side owns: guarded by ``state``.
  private struct WriterState: Sendable {
    /// The open descriptor, or -1 once closed.
    var fd: Int32
    /// The file's length: the end of the last record written.
    var end: Int
    /// Rewrites since the log was opened.
    var generation: Int
    /// Why no more appends are possible (closed, or a failure that left the file in doubt); sticky.
    var failure: StorageError?

    /// The position of ``end`` in the current generation.
    var position: Position { Position(generation: generation, offset: end) }
  }

  /// The file's path.
  package let path: String
  /// The descriptor, end and generation, held during each append's write.
  private let state: Locked<WriterState>
  /// What is durable, and who flushes next.
  private let commit: GroupCommit
  /// Called by a sync leader as the first step of its flush, in the same context as the flush;
  /// what it throws counts as the flush's failure (tests use it to hold a flush in flight, or to
  /// make one fail).
  let beforeFlush = Locked<(@Sendable () throws(StorageError) -> Void)?>(nil)

  /// A log writing to `fd`, whose content ends at `end` and is durable.
  private init(path: String, fd: Int32, end: Int) {
    self.path = path
    let start = WriterState(fd: fd, end: end, generation: 0, failure: nil)
    state = Locked(start)
    commit = GroupCommit(durable: start.position)
  }

  /// Closes the descriptor if ``close()`` was not called (no other thread can be using the log).
  deinit {
    state.withLock { state in
      if state.fd >= 0 { FileIO.close(state.fd) }
    }
  }

  /// Opens the log at `url`, creating it (and flushing its folder) if it does not exist, and reads
  /// back every record.
  ///
  /// A torn tail is truncated away (and the truncation flushed) and reported in the ``Recovery``;
  /// any other damage throws ``StorageError/corrupt(file:offset:reason:)``. A leftover `.tmp` of an
  /// interrupted rewrite is deleted once the log has read back without damage (a refusal leaves it
  /// for whoever repairs the log). The file and its folder are flushed before returning, so every
  /// record in the recovery is durable. The whole file is read into memory at once (and the
  /// payloads copied out of it: about twice the file's size at the peak).
  package static func open(at url: URL) throws(StorageError) -> (DurableLog, Recovery) {
    let path = url.path(percentEncoded: false)
    let temporary = temporaryPath(path)
    guard let fd = try FileIO.openExisting(path) else {
      // Nothing to recover. A leftover temporary file is an interrupted first creation.
      let removed = try FileIO.removeIfPresent(temporary)
      let (fd, end) = try writeReplacement(of: path, with: [])
      do throws(StorageError) {
        try FileIO.syncDirectory(containing: path)
      } catch {
        FileIO.close(fd)
        throw error
      }
      return (DurableLog(path: path, fd: fd, end: end), Recovery(records: [], tornTail: nil, removedTemporaryFile: removed))
    }
    do throws(StorageError) {
      try FileIO.lockExclusively(fd, path)
      let scan = try LogScanner.scan(try FileIO.readAll(fd, path), file: path)
      // Only once the log is known good: were it damaged, a complete replacement could help.
      let removed = try FileIO.removeIfPresent(temporary)
      if scan.tornTail != nil { try FileIO.truncate(fd, to: scan.validLength, path) }
      try FileIO.flush(fd, path)
      // The file's name may not be durable yet either: a rewrite may have crashed between its
      // rename and its folder flush. Appends must not be acknowledged on a name that could revert.
      try FileIO.syncDirectory(containing: path)
      let recovery = Recovery(records: scan.records, tornTail: scan.tornTail, removedTemporaryFile: removed)
      return (DurableLog(path: path, fd: fd, end: scan.validLength), recovery)
    } catch {
      FileIO.close(fd)
      throw error
    }
  }

  /// Writes `payloads` as records at the end of the log, all with one write loop and never
  /// interleaved with another call's records, and returns the position after them. Not durable
  /// until ``sync(through:)`` returns for that position (or a later one).
  ///
  /// If the write fails, the file is cut back to where it was and flushed (with the write lock
  /// held: this is the one flush under it, on a failure path), so nothing of the call remains,
  /// even after a crash; if even that fails, the log becomes unusable. A crash, on the other hand,
  /// may keep any prefix of the call's records, as each record is checked on its own. An empty
  /// `payloads` writes nothing and returns the current end.
  package func append(_ payloads: [[UInt8]]) throws(StorageError) -> Position {
    for payload in payloads where payload.count > LogFormat.maximumPayloadLength {
      throw .payloadTooLarge(file: path, length: payload.count, limit: LogFormat.maximumPayloadLength)
    }
    let bytes = LogFormat.encode(payloads)  // Checksums are computed before taking the lock.
    return try state.withLock { state throws(StorageError) in
      if let failure = state.failure { throw failure }
      guard !bytes.isEmpty else { return state.position }
      do throws(StorageError) {
        try FileIO.write(state.fd, bytes, at: state.end, path)
      } catch {
        // Some of the call's records may be complete on disk (a concurrent flush may even have
        // made them durable): cut them off, durably, so that the failed call leaves nothing.
        do throws(StorageError) {
          try FileIO.truncate(state.fd, to: state.end, path)
          try FileIO.flush(state.fd, path)
        } catch {
          state.failure = error
        }
        throw error
      }
      state.end += bytes.count
      return state.position
    }
  }

  /// Returns once everything up to `position` (from ``append(_:)``) is durable.
  ///
  /// Group commit: if a flush is in flight, the caller waits for it and, if that did not cover its
  /// position, for the next one, which one of the waiters leads for them all; appends continue
  /// meanwhile. A position of an earlier generation is covered by the rewrite that ended it.
  /// Throws if the log is closed or a flush failed before `position` became durable.
  package func sync(through position: Position) throws(StorageError) {
    guard try commit.turn(for: position) == .lead else { return }
    let target: Position
    let fd: Int32
    do throws(StorageError) {
      (fd, target) = try state.withLock { state throws(StorageError) in
        if let failure = state.failure { throw failure }
        return (state.fd, state.position)
      }
    } catch {
      commit.finishFlush(failure: error)
      throw error
    }
    do throws(StorageError) {
      try flush(fd)
    } catch {
      state.withLock { state in
        if state.failure == nil { state.failure = error }
      }
      commit.finishFlush(failure: error)
      throw error
    }
    commit.finishFlush(reached: target)
    // The caller's append returned before it called sync, so the end read above covers it.
    precondition(position <= target, "sync(through: \(position)): not a position of this log, whose end is \(target)")
  }

  /// Replaces the whole content of the log with `payloads` (compaction), durably, and goes on
  /// appending after them.
  ///
  /// The records go to `<log>.tmp`, which is flushed and renamed over the log, and then the
  /// folder is flushed: a crash at any moment leaves the old log or the new one, complete. Appends
  /// and syncs wait while it runs. It starts a new generation: when it returns, the new file is
  /// durable, so positions taken before it are covered. If it fails before the rename, the log is
  /// unchanged and usable; if the folder flush after the rename fails, the log becomes unusable.
  package func rewrite(with payloads: [[UInt8]]) throws(StorageError) {
    for payload in payloads where payload.count > LogFormat.maximumPayloadLength {
      throw .payloadTooLarge(file: path, length: payload.count, limit: LogFormat.maximumPayloadLength)
    }
    commit.beginExclusive()
    var durable: Position?
    var failure: StorageError?
    defer { commit.endExclusive(durable: durable, failure: failure) }
    try state.withLock { state throws(StorageError) in
      if let failure = state.failure { throw failure }
      let (fd, end) = try Self.writeReplacement(of: path, with: payloads)
      FileIO.close(state.fd)
      state.fd = fd
      state.end = end
      state.generation += 1
      do throws(StorageError) {
        try FileIO.syncDirectory(containing: path)
      } catch {
        state.failure = error
        failure = error
        throw error
      }
      durable = state.position
    }
  }

  /// Closes the file, waiting for a flush in flight. It does not flush: sync first what must be
  /// durable (a reopen flushes whatever it finds). Later appends throw
  /// ``StorageError/closed(file:)``, and so do syncs of positions not already durable. Calling it
  /// again does nothing.
  package func close() {
    commit.beginExclusive()
    let closed = StorageError.closed(file: path)
    state.withLock { state in
      if state.fd >= 0 { FileIO.close(state.fd) }
      state.fd = -1
      state.failure = closed
    }
    commit.endExclusive(durable: nil, failure: closed)
  }

  /// The position after the last record appended (not necessarily durable).
  package var end: Position {
    state.withLock { $0.position }
  }

  /// How many flushes syncs have made (for tests of group commit).
  var flushCount: Int { commit.flushCount }

  /// How many syncs are asleep waiting for a flush in flight (for tests of group commit).
  var sleepingSyncCount: Int { commit.sleepingCount }

  /// A sync leader's flush of `fd`: the ``beforeFlush`` hook, then the flush itself.
  private func flush(_ fd: Int32) throws(StorageError) {
    try beforeFlush.withLock { $0 }?()
    try FileIO.flush(fd, path)
  }

  /// `<path>.tmp`: where ``rewrite(with:)`` builds the new file.
  private static func temporaryPath(_ path: String) -> String { path + ".tmp" }

  /// Writes a complete log of `payloads` to `<path>.tmp`, locks it, flushes it and renames it over
  /// `path`; returns its descriptor and length. On failure before the rename the temporary file is
  /// deleted and `path` is untouched. The caller flushes the folder.
  private static func writeReplacement(of path: String, with payloads: [[UInt8]]) throws(StorageError) -> (Int32, Int) {
    let temporary = temporaryPath(path)
    let bytes = LogFormat.magic + LogFormat.encode(payloads)
    let fd = try FileIO.create(temporary)
    do throws(StorageError) {
      try FileIO.lockExclusively(fd, temporary)
      try FileIO.write(fd, bytes, at: 0, temporary)
      try FileIO.flush(fd, temporary)
      try FileIO.rename(temporary, over: path)
      return (fd, bytes.count)
    } catch {
      FileIO.close(fd)
      _ = try? FileIO.removeIfPresent(temporary)
      throw error
    }
  }
}
