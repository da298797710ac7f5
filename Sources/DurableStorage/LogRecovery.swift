extension DurableLog {
  /// What ``DurableLog/open(at:)`` found in the file: every record, in order, and the torn tail it
  /// cut away, if any.
  ///
  /// Every record listed here is durable when `open` returns (it flushes the file before
  /// returning), so a caller may treat them as acknowledged.
  package struct Recovery: Sendable, Hashable {
    /// The payload of every record, in file order.
    package var records: [[UInt8]]
    /// The unfinished write at the end of the file that was truncated away; `nil` if the file
    /// ended exactly after a record.
    package var tornTail: TornTail?
    /// Whether a leftover `<log>.tmp` of an interrupted ``DurableLog/rewrite(with:)`` was deleted.
    package var removedTemporaryFile: Bool
  }

  /// The end of a log file that a crash left unfinished, cut away when the log was opened.
  ///
  /// Only a write that never completed can leave one: the file ends inside a record header, or
  /// inside a payload (its length runs past the end of the file), or everything from a record
  /// boundary to the end is zero bytes (the file was extended but the data never reached the
  /// disk). No record that was ever synced can be in it, with one exception the format cannot
  /// rule out: damage to the length field of the very last record that makes it point past the
  /// end of the file looks exactly like a cut, and that record is dropped (reported here, not
  /// silently). Damage anywhere before the last record is refused (see ``LaterRecordSearch``).
  package struct TornTail: Sendable, Hashable, CustomStringConvertible {
    /// How the tail was unfinished.
    package enum Kind: Sendable, Hashable {
      /// Fewer bytes than a record header remained.
      case cutInHeader
      /// A header whose payload runs past the end of the file.
      case cutInPayload
      /// Only zero bytes remained.
      case zeroFilled
    }

    /// The byte offset where the file was cut: the start of the unfinished record, which is the
    /// file's length after recovery.
    package var offset: Int
    /// How many bytes were dropped (the file's length before recovery minus ``offset``).
    package var droppedBytes: Int
    /// How the tail was unfinished.
    package var kind: Kind

    /// `"torn tail at offset 1234: 17 bytes dropped (file ends inside a payload)"`.
    package var description: String {
      let why =
        switch kind {
        case .cutInHeader: "file ends inside a record header"
        case .cutInPayload: "file ends inside a payload"
        case .zeroFilled: "zero bytes to the end of the file"
        }
      return "torn tail at offset \(offset): \(droppedBytes) bytes dropped (\(why))"
    }
  }
}
