#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX file calls of the storage layer, the same on Glibc and Darwin, each retrying `EINTR`
/// and throwing a ``StorageError`` that names the call and the file.
///
/// Descriptors are plain `Int32`s; whoever receives one owns it and must ``close(_:)`` it exactly
/// once. Every descriptor is opened with `O_CLOEXEC`.
package enum FileIO {
  /// Opens an existing file for reading and writing; `nil` if it does not exist.
  static func openExisting(_ path: String) throws(StorageError) -> Int32? {
    while true {
      let fd = open(path, O_RDWR | O_CLOEXEC)
      if fd >= 0 { return fd }
      if errno == EINTR { continue }
      if errno == ENOENT { return nil }
      throw StorageError.current("open", path)
    }
  }

  /// Creates `path` (mode 0644), replacing any file already there, opened for reading and writing.
  static func create(_ path: String) throws(StorageError) -> Int32 {
    while true {
      let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      if fd >= 0 { return fd }
      if errno == EINTR { continue }
      throw StorageError.current("open(O_CREAT)", path)
    }
  }

  /// Takes an exclusive `flock` on `fd`; ``StorageError/locked(file:)`` if another open file
  /// description still holds one after ``lockPatience`` milliseconds. The lock goes with the
  /// descriptor's last close.
  ///
  /// Why wait at all: a process that spawns a child (Foundation's `Process`, a test starting a
  /// server) shares every descriptor with the child between its fork and its exec; `O_CLOEXEC`
  /// closes them only at the exec. A log closed and reopened at that instant finds its own old
  /// description still locked in the child for a moment (seen once in a parallel test run). A
  /// real second owner holds the lock far longer than the wait, and is still refused.
  static func lockExclusively(_ fd: Int32, _ path: String) throws(StorageError) {
    var waited = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK else { throw StorageError.current("flock", path) }
      guard waited < lockPatience else { throw StorageError.locked(file: path) }
      usleep(1_000)
      waited += 1
    }
  }

  /// How long, in milliseconds, ``lockExclusively(_:_:)`` waits for a lock held elsewhere.
  static let lockPatience = 250

  /// Writes all of `bytes` at `offset` with `pwrite`, looping over partial writes and `EINTR`.
  ///
  /// The pointer handed to `pwrite` is `bytes`' own storage advanced by `written`, which stays
  /// below `bytes.count`, with the count of what remains — never past the array's end.
  static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int, _ path: String) throws(StorageError) {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        pwrite(fd, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
      }
      if result > 0 {
        written += result
      } else if result < 0 && errno == EINTR {
        continue
      } else {
        // pwrite returns 0 for a non-empty regular-file write only on a failure it did not name.
        if result == 0 { errno = EIO }
        throw StorageError.current("pwrite", path, offset: offset + written)
      }
    }
  }

  /// Reads the whole file from offset 0 to its end (its size by `fstat`, or less if it shrinks
  /// meanwhile). `pread` fills the array's own storage from `filled`, never past its count.
  static func readAll(_ fd: Int32, _ path: String) throws(StorageError) -> [UInt8] {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw StorageError.current("fstat", path) }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var filled = 0
    while filled < bytes.count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
      }
      if result > 0 {
        filled += result
      } else if result == 0 {
        bytes.removeSubrange(filled...)
      } else if errno != EINTR {
        throw StorageError.current("pread", path, offset: filled)
      }
    }
    return bytes
  }

  /// Makes the file's data durable (and the metadata needed to read it back, such as its size):
  /// `fdatasync` on Linux; on Darwin `F_FULLFSYNC`, which also flushes the drive's cache, falling
  /// back to `fsync` where the file system does not support it.
  static func flush(_ fd: Int32, _ path: String) throws(StorageError) {
    #if canImport(Glibc)
      while fdatasync(fd) != 0 {
        if errno != EINTR { throw StorageError.current("fdatasync", path) }
      }
    #else
      if fcntl(fd, F_FULLFSYNC) == 0 { return }
      while fsync(fd) != 0 {
        if errno != EINTR { throw StorageError.current("fsync", path) }
      }
    #endif
  }

  /// Cuts the file to `length` bytes.
  static func truncate(_ fd: Int32, to length: Int, _ path: String) throws(StorageError) {
    while ftruncate(fd, off_t(length)) != 0 {
      if errno != EINTR { throw StorageError.current("ftruncate", path, offset: length) }
    }
  }

  /// Renames `source` over `destination` (atomically replacing it, on the same file system).
  package static func rename(_ source: String, over destination: String) throws(StorageError) {
    #if canImport(Glibc)
      let result = Glibc.rename(source, destination)
    #else
      let result = Darwin.rename(source, destination)
    #endif
    guard result == 0 else { throw StorageError.current("rename", "\(source) -> \(destination)") }
  }

  /// Deletes `path`; `false` if there was no such file.
  @discardableResult
  package static func removeIfPresent(_ path: String) throws(StorageError) -> Bool {
    if unlink(path) == 0 { return true }
    if errno == ENOENT { return false }
    throw StorageError.current("unlink", path)
  }

  /// Makes the directory entries of the folder holding `path` durable (a creation, rename or
  /// deletion in it), by flushing the folder itself.
  package static func syncDirectory(containing path: String) throws(StorageError) {
    let folder = directory(of: path)
    var fd: Int32
    repeat { fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw StorageError.current("open(O_DIRECTORY)", folder) }
    defer { close(fd) }
    try flush(fd, folder)
  }

  /// The folder part of `path`: everything before its last `/` (`"/"` for a top-level file, `"."`
  /// for a bare name).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Closes `fd`. Called exactly once per descriptor, by its owner; a failed close is not retried
  /// (on Linux the descriptor is released even then, and durability never rests on close).
  static func close(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }
}
