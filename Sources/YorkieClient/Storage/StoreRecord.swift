import CRDT
import Foundation

/// One record of a ``FileDocumentStore`` generation file (a `DurableLog`): the first record of a
/// generation is its base, the others add pending changes or acknowledge some.
///
/// Payload layout (integers little-endian): a kind byte, then
/// - base (1): actor length (u8, 0 or 12) and bytes; serverSeq (i64); clientSeq (u32);
///   version vector count (u32) and that many (12-byte actor, i64 lamport); presence flag (u8)
///   with, when 1, its length (u32) and bytes; the snapshot (the rest of the payload);
/// - change (2): the change's bytes (the rest of the payload);
/// - acknowledged (3): how many pending changes the server acknowledged (u32).
///
/// The log checks every record's CRC-32C; a record that passes it yet does not decode here is
/// damage all the same (``decode(_:)`` throws, naming what is wrong).
enum StoreRecord: Equatable {
  case base(StoredDocument.Base)
  case change(Data)
  case acknowledged(count: Int)

  /// Why a payload does not decode.
  struct Malformed: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
  }

  /// The payload of this record.
  var encoded: [UInt8] {
    var writer = Writer()
    switch self {
    case .base(let base):
      writer.byte(1)
      let actor = base.actorID.map { [UInt8]($0.bytes) } ?? []
      writer.byte(UInt8(actor.count))
      writer.bytes(actor)
      writer.integer(UInt64(bitPattern: base.checkpoint.serverSeq))
      writer.integer(base.checkpoint.clientSeq)
      let entries = base.versionVector.entries.sorted { $0.key < $1.key }
      writer.integer(UInt32(entries.count))
      for (actor, lamport) in entries {
        writer.bytes([UInt8](actor.bytes))
        writer.integer(UInt64(bitPattern: lamport))
      }
      if let presence = base.presence {
        writer.byte(1)
        writer.integer(UInt32(presence.count))
        writer.bytes([UInt8](presence))
      } else {
        writer.byte(0)
      }
      writer.bytes([UInt8](base.snapshot))
    case .change(let change):
      writer.byte(2)
      writer.bytes([UInt8](change))
    case .acknowledged(let count):
      writer.byte(3)
      writer.integer(UInt32(clamping: count))
    }
    return writer.output
  }

  /// The record a payload encodes.
  static func decode(_ payload: [UInt8]) throws(Malformed) -> StoreRecord {
    var reader = Reader(payload)
    switch try reader.byte("kind") {
    case 1:
      let actorLength = Int(try reader.byte("actor length"))
      var actorID: ActorID?
      switch actorLength {
      case 0: actorID = nil
      case 12:
        do {
          actorID = try ActorID(bytes: Data(try reader.bytes(12, "actor")))
        } catch let error as Malformed {
          throw error
        } catch {
          throw Malformed(description: "actor: \(error)")
        }
      default: throw Malformed(description: "actor length \(actorLength) (0 or 12 expected)")
      }
      let serverSeq = Int64(bitPattern: try reader.uint64("serverSeq"))
      let clientSeq = try reader.uint32("clientSeq")
      let count = Int(try reader.uint32("version vector count"))
      guard count <= reader.remaining / 20 else { throw Malformed(description: "version vector count \(count) runs past the record") }
      var entries: [ActorID: Int64] = [:]
      for _ in 0..<count {
        let bytes = try reader.bytes(12, "version vector actor")
        let lamport = Int64(bitPattern: try reader.uint64("version vector lamport"))
        guard let actor = try? ActorID(bytes: Data(bytes)) else { throw Malformed(description: "version vector actor") }
        entries[actor] = lamport
      }
      var presence: Data?
      switch try reader.byte("presence flag") {
      case 0: presence = nil
      case 1:
        let length = Int(try reader.uint32("presence length"))
        presence = Data(try reader.bytes(length, "presence"))
      case let flag: throw Malformed(description: "presence flag \(flag) (0 or 1 expected)")
      }
      let snapshot = Data(reader.rest())
      return .base(
        StoredDocument.Base(
          actorID: actorID, checkpoint: Checkpoint(serverSeq: serverSeq, clientSeq: clientSeq),
          versionVector: VersionVector(entries), snapshot: snapshot, presence: presence))
    case 2:
      return .change(Data(reader.rest()))
    case 3:
      let count = Int(try reader.uint32("acknowledged count"))
      guard reader.remaining == 0 else { throw Malformed(description: "\(reader.remaining) bytes after an acknowledgement") }
      return .acknowledged(count: count)
    case let kind:
      throw Malformed(description: "unknown record kind \(kind)")
    }
  }

  /// Appends little-endian fields.
  private struct Writer {
    var output: [UInt8] = []
    mutating func byte(_ value: UInt8) { output.append(value) }
    mutating func bytes(_ value: [UInt8]) { output.append(contentsOf: value) }
    mutating func integer<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }
  }

  /// Reads little-endian fields, throwing when one runs past the end.
  private struct Reader {
    let input: [UInt8]
    var offset = 0
    init(_ input: [UInt8]) { self.input = input }
    var remaining: Int { input.count - offset }
    mutating func bytes(_ count: Int, _ field: String) throws(Malformed) -> ArraySlice<UInt8> {
      guard count >= 0, count <= remaining else { throw Malformed(description: "\(field) runs past the record") }
      defer { offset += count }
      return input[offset..<offset + count]
    }
    mutating func byte(_ field: String) throws(Malformed) -> UInt8 { try bytes(1, field).first! }
    mutating func uint32(_ field: String) throws(Malformed) -> UInt32 { UInt32(truncatingIfNeeded: try little(4, field)) }
    mutating func uint64(_ field: String) throws(Malformed) -> UInt64 { try little(8, field) }
    private mutating func little(_ count: Int, _ field: String) throws(Malformed) -> UInt64 {
      var value: UInt64 = 0
      for (index, byte) in try bytes(count, field).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
      return value
    }
    mutating func rest() -> ArraySlice<UInt8> {
      defer { offset = input.count }
      return input[offset...]
    }
  }
}
