import Foundation

/// Protobuf's binary wire types, the subset proto3 still uses.
package enum ProtoWireType: UInt8, Sendable {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5
}

/// Writes protobuf binary (proto3): tags, varints and length-delimited fields.
///
/// Scalar helpers omit default values, as proto3 does; ``message(_:_:)`` always writes the
/// field, so an empty message that is set still appears (zero length).
package struct ProtoWriter {
  package private(set) var bytes: [UInt8] = []

  package init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

  /// The bytes written so far.
  package var data: Data { Data(bytes) }

  @inline(__always) package mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  @inline(__always) package mutating func appendRaw(_ byte: UInt8) { bytes.append(byte) }

  @inline(__always) package mutating func appendRaw(contentsOf raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

  @inline(__always) package mutating func tag(_ field: Int, _ type: ProtoWireType) {
    varint(UInt64(field) << 3 | UInt64(type.rawValue))
  }

  /// An `int64` field (two's complement: negative values take ten bytes).
  package mutating func int64(_ field: Int, _ value: Int64) {
    guard value != 0 else { return }
    tag(field, .varint)
    varint(UInt64(bitPattern: value))
  }

  /// An `int32` field (negative values are sign-extended to ten bytes, as protobuf requires).
  package mutating func int32(_ field: Int, _ value: Int32) {
    guard value != 0 else { return }
    tag(field, .varint)
    varint(UInt64(bitPattern: Int64(value)))
  }

  package mutating func uint32(_ field: Int, _ value: UInt32) {
    guard value != 0 else { return }
    tag(field, .varint)
    varint(UInt64(value))
  }

  package mutating func bool(_ field: Int, _ value: Bool) {
    guard value else { return }
    tag(field, .varint)
    bytes.append(1)
  }

  package mutating func string(_ field: Int, _ value: String) {
    guard !value.isEmpty else { return }
    tag(field, .lengthDelimited)
    var value = value
    value.withUTF8 { utf8 in
      varint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// A string field from UTF-16 code units, transcoded to UTF-8 as it is written. Unpaired
  /// surrogates become U+FFFD.
  package mutating func string(_ field: Int, utf16 units: UnsafeBufferPointer<UInt16>) {
    guard !units.isEmpty else { return }
    tag(field, .lengthDelimited)
    if units.allSatisfy({ $0 < 0x80 }) {
      varint(UInt64(units.count))
      for unit in units { bytes.append(UInt8(truncatingIfNeeded: unit)) }
      return
    }
    var encoded: [UInt8] = []
    encoded.reserveCapacity(units.count * 3)
    _ = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) { encoded.append($0) }
    varint(UInt64(encoded.count))
    bytes.append(contentsOf: encoded)
  }

  package mutating func bytes<C: Collection>(_ field: Int, _ value: C) where C.Element == UInt8 {
    guard !value.isEmpty else { return }
    tag(field, .lengthDelimited)
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  /// A nested message, written by `body`. The field is written even when the body is empty.
  package mutating func message(_ field: Int, _ body: (inout ProtoWriter) -> Void) {
    tag(field, .lengthDelimited)
    let lengthAt = bytes.count
    bytes.append(0)
    body(&self)
    let length = bytes.count - lengthAt - 1
    if length < 0x80 {
      bytes[lengthAt] = UInt8(length)
      return
    }
    // Make room for a longer length prefix, then write it in place.
    var prefix: [UInt8] = []
    var value = UInt64(length)
    while value >= 0x80 {
      prefix.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    prefix.append(UInt8(value))
    bytes.replaceSubrange(lengthAt..<lengthAt + 1, with: prefix)
  }
}

/// Reads protobuf binary over a byte buffer, one field at a time. Every read is bounds-checked:
/// truncated input, overlong varints and lengths past the end throw, never trap.
///
/// Nested messages are read by sub-readers over the same buffer (no copies); readers are valid
/// only inside ``withReader(_:_:)``.
package struct ProtoReader {
  private let base: UnsafeBufferPointer<UInt8>
  private(set) var position: Int
  private let end: Int
  /// What is being read, for error messages (`"Snapshot"`, `"JSONElement"`).
  package var context: StaticString

  private init(base: UnsafeBufferPointer<UInt8>, position: Int, end: Int, context: StaticString) {
    self.base = base
    self.position = position
    self.end = end
    self.context = context
  }

  /// Runs `body` with a reader over `data`.
  package static func withReader<R>(_ data: Data, context: StaticString, _ body: (inout ProtoReader) throws -> R) throws -> R {
    try data.withUnsafeBytes { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      var reader = ProtoReader(base: buffer, position: 0, end: buffer.count, context: context)
      return try body(&reader)
    }
  }

  package var isAtEnd: Bool { position >= end }

  /// An error at the current position: `invalidWireData` unless `code` names a more precise one.
  package func error(_ what: String, code: YorkieError.Code = .invalidWireData) -> YorkieError {
    YorkieError(code, "\(context): \(what) at byte \(position)")
  }

  /// The next field's number and wire type, or nil at the end of the message.
  package mutating func nextField() throws -> (number: Int, type: ProtoWireType)? {
    guard position < end else { return nil }
    let key = try varint()
    let number = key >> 3
    guard number >= 1, number <= 536_870_911 else { throw error("invalid field number \(number)") }
    guard let type = ProtoWireType(rawValue: UInt8(key & 7)) else {
      throw error("unsupported wire type \(key & 7) for field \(number)")
    }
    return (Int(number), type)
  }

  @inline(__always) package mutating func varint() throws -> UInt64 {
    // Most varints (field keys, small numbers) are one byte.
    if position < end, base[position] < 0x80 {
      defer { position += 1 }
      return UInt64(base[position])
    }
    return try longVarint()
  }

  private mutating func longVarint() throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else { throw error("truncated varint") }
      let byte = base[position]
      position += 1
      if shift == 63 && byte > 1 { throw error("varint overflows 64 bits") }
      result |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return result }
      shift += 7
      if shift > 63 { throw error("varint longer than ten bytes") }
    }
  }

  package mutating func int64() throws -> Int64 { Int64(bitPattern: try varint()) }

  /// An `int32`: protobuf writes negative values sign-extended; anything else out of range is
  /// an error.
  package mutating func int32() throws -> Int32 {
    let value = Int64(bitPattern: try varint())
    guard let result = Int32(exactly: value) else { throw error("int32 out of range (\(value))") }
    return result
  }

  package mutating func uint32() throws -> UInt32 {
    let value = try varint()
    guard let result = UInt32(exactly: value) else { throw error("uint32 out of range (\(value))") }
    return result
  }

  package mutating func bool() throws -> Bool { try varint() != 0 }

  private mutating func length() throws -> Int {
    let length = try varint()
    guard length <= UInt64(end - position) else { throw error("length \(length) runs past the end") }
    return Int(length)
  }

  /// A length-delimited field's bytes.
  package mutating func bytes() throws -> Data {
    let count = try length()
    defer { position += count }
    return Data(UnsafeBufferPointer(rebasing: base[position..<position + count]))
  }

  /// A length-delimited field as UTF-8 text (invalid UTF-8 is an error).
  package mutating func string() throws -> String {
    let count = try length()
    let slice = UnsafeBufferPointer(rebasing: base[position..<position + count])
    // ASCII (keys, types, most short values) cannot be invalid, and `String(decoding:as:)`
    // over bytes is specialized here, where `String(validating:as:)` instantiated generic
    // metadata on every call: 10% of loading a tree snapshot of 60,001 nodes, two strings each
    // (`crdt-bench tree_snapshot_30000`, perf).
    let text: String
    if slice.allSatisfy({ $0 < 0x80 }) {
      text = String(decoding: slice, as: UTF8.self)
    } else {
      guard let valid = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
      text = valid
    }
    position += count
    return text
  }

  /// A length-delimited field holding a 12-byte actor ID (`invalidActorID` for another length).
  package mutating func actorID() throws -> ActorID {
    let count = try length()
    guard count == 12 else { throw error("an actor id has \(count) bytes, not 12", code: .invalidActorID) }
    var high: UInt64 = 0
    var low: UInt32 = 0
    for i in 0..<8 { high = high << 8 | UInt64(base[position + i]) }
    for i in 8..<12 { low = low << 8 | UInt32(base[position + i]) }
    position += 12
    return ActorID(high: high, low: low)
  }

  /// Runs `body` with the bytes from the current position to the end of this message.
  package func withRemainingBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(rebasing: base[position..<end]))
  }

  /// A reader over a nested message.
  package mutating func message(_ context: StaticString? = nil) throws -> ProtoReader {
    let count = try length()
    defer { position += count }
    return ProtoReader(base: base, position: position, end: position + count, context: context ?? self.context)
  }

  /// Skips a field of `type` (unknown fields are skipped, as proto3 requires).
  package mutating func skip(_ type: ProtoWireType) throws {
    switch type {
    case .varint: _ = try varint()
    case .fixed64: try advance(8)
    case .fixed32: try advance(4)
    case .lengthDelimited: try advance(try length())
    }
  }

  private mutating func advance(_ count: Int) throws {
    guard count <= end - position else { throw error("truncated fixed-width field") }
    position += count
  }

  /// Throws unless the field has the wire type its schema gives.
  @inline(__always) package func expect(_ type: ProtoWireType, _ expected: ProtoWireType, field: Int) throws {
    guard type == expected else { throw error("field \(field) has wire type \(type.rawValue), expected \(expected.rawValue)") }
  }
}
