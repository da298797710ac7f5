/// What reading a whole log file found: its records, how many bytes to keep, and the torn tail
/// beyond them.
struct LogScan: Sendable, Hashable {
  /// The payload of every record, in file order.
  var records: [[UInt8]]
  /// The length of the file once the torn tail (if any) is cut: the end of the last record.
  var validLength: Int
  /// The unfinished tail, if the file had one.
  var tornTail: DurableLog.TornTail?
}

/// Reads the bytes of a log file (see ``LogFormat``) into records, deciding for any bad spot
/// whether it is a torn tail — to be cut — or damage — to refuse.
///
/// A pure function of the bytes: no file access, so every byte pattern can be tested directly.
///
/// The rules, record by record from the end of the magic header:
/// - fewer than 8 bytes left: a header cut short — torn (zero-filled if they are all zero);
/// - an all-zero header with only zero bytes after it: a zero-filled tail — torn;
/// - a length above ``LogFormat/maximumPayloadLength``: damage, wherever it is (the writer never
///   writes one);
/// - a length that runs past the end of the file: torn — unless a valid record can be found
///   further on (see ``LaterRecordSearch``), which proves the length itself is damaged;
/// - a complete record whose checksum does not match: damage, wherever it is.
enum LogScanner {
  /// Scans `bytes`, the whole content of the log at `file` (named in errors).
  ///
  /// Throws ``StorageError/corrupt(file:offset:reason:)`` with the offset of the damaged record
  /// (0 for a bad magic header).
  static func scan(_ bytes: [UInt8], file: String) throws(StorageError) -> LogScan {
    let header = LogFormat.headerLength
    let magic = LogFormat.magic
    guard bytes.count >= magic.count else {
      throw .corrupt(file: file, offset: 0, reason: "the file is \(bytes.count) bytes, shorter than its \(magic.count)-byte magic header")
    }
    guard bytes[0..<magic.count].elementsEqual(magic) else {
      throw .corrupt(file: file, offset: 0, reason: "bad magic header \(hex(bytes[0..<magic.count])), expected \(hex(magic[...]))")
    }
    var records: [[UInt8]] = []
    var offset = magic.count
    let end = bytes.count
    while offset < end {
      let remaining = end - offset
      if remaining < header || (LogFormat.readUInt32(bytes, at: offset) == 0 && LogFormat.readUInt32(bytes, at: offset + 4) == 0) {
        if isZero(bytes[offset...]) {
          return torn(records, at: offset, end: end, .zeroFilled)
        }
        if remaining < header {
          return torn(records, at: offset, end: end, .cutInHeader)
        }
      }
      let length = Int(LogFormat.readUInt32(bytes, at: offset))
      let stored = LogFormat.readUInt32(bytes, at: offset + 4)
      guard length <= LogFormat.maximumPayloadLength else {
        throw .corrupt(
          file: file, offset: offset,
          reason: "record length \(length) is above the limit of \(LogFormat.maximumPayloadLength) bytes")
      }
      let payloadStart = offset + header
      guard length <= end - payloadStart else {
        if let later = LaterRecordSearch.validRecord(in: bytes, from: payloadStart) {
          throw .corrupt(
            file: file, offset: offset,
            reason: "record length \(length) runs past the end of the file, yet a valid record follows at offset \(later): the length is damaged")
        }
        return torn(records, at: offset, end: end, .cutInPayload)
      }
      let computed = LogFormat.checksum(length: UInt32(length), payload: bytes[payloadStart..<payloadStart + length])
      guard computed == stored else {
        throw .corrupt(
          file: file, offset: offset,
          reason: "checksum mismatch in the record of \(length) bytes: stored \(hex(stored)), computed \(hex(computed))")
      }
      records.append(Array(bytes[payloadStart..<payloadStart + length]))
      offset = payloadStart + length
    }
    return LogScan(records: records, validLength: end, tornTail: nil)
  }

  /// The scan of a file whose records end at `offset`, with a torn tail from there to `end`.
  private static func torn(_ records: [[UInt8]], at offset: Int, end: Int, _ kind: DurableLog.TornTail.Kind) -> LogScan {
    LogScan(records: records, validLength: offset, tornTail: DurableLog.TornTail(offset: offset, droppedBytes: end - offset, kind: kind))
  }

  /// Whether every byte of `bytes` is zero.
  static func isZero(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy { $0 == 0 }
  }

  /// `0x1a2b3c4d`.
  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// `"59 4b 4c 4f 47 00 00 01"`.
  private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
  }
}
