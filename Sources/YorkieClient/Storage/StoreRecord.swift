import CRDT
import Foundation

/// One record of a ``FileDocumentStore`` generation file (a `DurableLog`): the first record of a
/// generation is its base, the others the entries after it; a store's identity file holds
/// identity records.
///
/// Payload layout (integers little-endian): a kind byte, then
/// - base (1): actor length (u8, always 12) and bytes; document ID length (u8) and UTF-8 bytes
///   (0: none); serverSeq (i64); clientSeq (u32); local clientSeq (u32); version vector count
///   (u32) and that many (12-byte actor, i64 lamport); the snapshot (the rest of the payload);
/// - entry (2): the entry's bytes (the rest of the payload);
/// - identity (3): a flag (u8: 0 none, 1 one follows); client key length (u32) and UTF-8
///   bytes; client ID length (u32) and UTF-8 bytes. Only in a store's identity file;
/// - seal (4): clientSeq (u32); lamport (i64). Only in a document's seal file.
///
/// The log checks every record's CRC-32C; a record that passes it yet does not decode here is
/// damage all the same (``decode(_:)`` throws, naming what is wrong).
enum StoreRecord: Equatable {
  case base(StoredDocument.Base)
  case entry(Data)
  case identity(StoredIdentity?)
  case seal(StoreSeal)

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
      let replica = base.replica
      let actor = [UInt8](replica.actorID.bytes)
      writer.byte(UInt8(actor.count))
      writer.bytes(actor)
      let document = [UInt8]((base.documentID ?? "").utf8.prefix(255))
      writer.byte(UInt8(document.count))
      writer.bytes(document)
      writer.integer(UInt64(bitPattern: replica.checkpoint.serverSeq))
      writer.integer(replica.checkpoint.clientSeq)
      writer.integer(replica.localClientSeq)
      let entries = replica.versionVector.entries.sorted { $0.key < $1.key }
      writer.integer(UInt32(entries.count))
      for (actor, lamport) in entries {
        writer.bytes([UInt8](actor.bytes))
        writer.integer(UInt64(bitPattern: lamport))
      }
      writer.bytes([UInt8](replica.snapshot))
    case .entry(let entry):
      writer.byte(2)
      writer.bytes([UInt8](entry))
    case .identity(let identity):
      writer.byte(3)
      guard let identity else {
        writer.byte(0)
        break
      }
      writer.byte(1)
      for text in [identity.clientKey, identity.clientID] {
        let bytes = [UInt8](text.utf8)
        writer.integer(UInt32(bytes.count))
        writer.bytes(bytes)
      }
    case .seal(let seal):
      writer.byte(4)
      writer.integer(seal.clientSeq)
      writer.integer(UInt64(bitPattern: seal.lamport))
    }
    return writer.output
  }

  /// The record a payload encodes.
  static func decode(_ payload: [UInt8]) throws(Malformed) -> StoreRecord {
    var reader = Reader(payload)
    switch try reader.byte("kind") {
    case 1:
      let actorLength = Int(try reader.byte("actor length"))
      guard actorLength == 12 else { throw Malformed(description: "actor length \(actorLength) (12 expected)") }
      let actorID: ActorID
      do {
        actorID = try ActorID(bytes: Data(try reader.bytes(12, "actor")))
      } catch let error as Malformed {
        throw error
      } catch {
        throw Malformed(description: "actor: \(error)")
      }
      let documentLength = Int(try reader.byte("document ID length"))
      let documentID = documentLength == 0 ? nil : String(decoding: try reader.bytes(documentLength, "document ID"), as: UTF8.self)
      let serverSeq = Int64(bitPattern: try reader.uint64("serverSeq"))
      let clientSeq = try reader.uint32("clientSeq")
      let localClientSeq = try reader.uint32("local clientSeq")
      let count = Int(try reader.uint32("version vector count"))
      guard count <= reader.remaining / 20 else { throw Malformed(description: "version vector count \(count) runs past the record") }
      var entries: [ActorID: Int64] = [:]
      for _ in 0..<count {
        let bytes = try reader.bytes(12, "version vector actor")
        let lamport = Int64(bitPattern: try reader.uint64("version vector lamport"))
        guard let actor = try? ActorID(bytes: Data(bytes)) else { throw Malformed(description: "version vector actor") }
        entries[actor] = lamport
      }
      let snapshot = Data(reader.rest())
      let replica = ReplicaBase(
        actorID: actorID, checkpoint: Checkpoint(serverSeq: serverSeq, clientSeq: clientSeq), localClientSeq: localClientSeq,
        versionVector: VersionVector(entries), snapshot: snapshot)
      return .base(StoredDocument.Base(replica, documentID: documentID))
    case 2:
      return .entry(Data(reader.rest()))
    case 3:
      switch try reader.byte("identity flag") {
      case 0:
        guard reader.remaining == 0 else { throw Malformed(description: "\(reader.remaining) bytes after an empty identity") }
        return .identity(nil)
      case 1:
        var texts: [String] = []
        for field in ["client key", "client ID"] {
          let length = Int(try reader.uint32("\(field) length"))
          texts.append(String(decoding: try reader.bytes(length, field), as: UTF8.self))
        }
        guard reader.remaining == 0 else { throw Malformed(description: "\(reader.remaining) bytes after an identity") }
        return .identity(StoredIdentity(clientKey: texts[0], clientID: texts[1]))
      case let flag:
        throw Malformed(description: "identity flag \(flag) (0 or 1 expected)")
      }
    case 4:
      let clientSeq = try reader.uint32("seal clientSeq")
      let lamport = Int64(bitPattern: try reader.uint64("seal lamport"))
      guard reader.remaining == 0 else { throw Malformed(description: "\(reader.remaining) bytes after a seal") }
      return .seal(StoreSeal(clientSeq: clientSeq, lamport: lamport))
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
