#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a storage operation failed. Every case names the file it concerns.
package enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A system call failed: which call, on which file, at which byte offset when it has one, and
  /// `errno`.
  case system(file: String, call: String, offset: Int?, errno: Int32)
  /// The file holds something no crash can explain — a complete record whose checksum does not
  /// match, a length above the record limit, a bad magic header — at this byte offset (the start
  /// of the damaged record, or 0 for the header). Opening refuses rather than drop data.
  case corrupt(file: String, offset: Int, reason: String)
  /// A payload above ``DurableLog/maximumPayloadLength`` was offered; nothing was written.
  case payloadTooLarge(file: String, length: Int, limit: Int)
  /// Another open file description holds the file's `flock`: another ``DurableLog`` (in this
  /// process or another) is using it.
  case locked(file: String)
  /// The log was closed.
  case closed(file: String)

  /// The file the error concerns.
  package var file: String {
    switch self {
    case .system(let file, _, _, _), .corrupt(let file, _, _), .payloadTooLarge(let file, _, _), .locked(let file),
      .closed(let file):
      return file
    }
  }

  /// `"pwrite /data/log at offset 4096: No space left on device"`, `"/data/log is corrupt at byte
  /// offset 1234: …"`.
  package var description: String {
    switch self {
    case .system(let file, let call, let offset, let code):
      let at = offset.map { " at offset \($0)" } ?? ""
      return "\(call) \(file)\(at): \(String(cString: strerror(code))) (errno \(code))"
    case .corrupt(let file, let offset, let reason):
      return "\(file) is corrupt at byte offset \(offset): \(reason)"
    case .payloadTooLarge(let file, let length, let limit):
      return "a record of \(length) bytes is above the limit of \(limit) bytes for \(file)"
    case .locked(let file):
      return "\(file) is already open in another DurableLog (flock held)"
    case .closed(let file):
      return "\(file) is closed"
    }
  }

  /// The failure of `call` on `file` with the current `errno`.
  static func current(_ call: String, _ file: String, offset: Int? = nil) -> StorageError {
    .system(file: file, call: call, offset: offset, errno: errno)
  }
}
