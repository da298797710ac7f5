// A DEFLATE (RFC 1951) decoder and gzip (RFC 1952) reader, written from the two RFCs: Foundation
// on Linux has no zlib, and the editing traces in Benchmarks/traces are gzipped JSON.
//
// Structure: `gunzip` walks the gzip members (header, DEFLATE data, CRC-32 and ISIZE trailer);
// `Inflater` decodes the DEFLATE data. Huffman codes are decoded with two-level lookup tables
// (a primary table indexed by the next `root` input bits, subtables for the rarer longer codes),
// bits come from a 64-bit buffer refilled eight bytes at a time. Every read is bounds-checked
// against the input, so truncated or corrupt input ends in an `InflateError`, never a crash or
// a read past the buffer.
import Foundation

/// Why gzip or DEFLATE data could not be decoded. Offsets count bytes from the start of the input
/// (for a bit-level error, the byte holding the next unread bit).
enum InflateError: Error, Equatable, CustomStringConvertible {
  /// The input ended inside `context` (a header, a block, the trailer…).
  case truncated(offset: Int, context: String)
  /// No gzip magic number (1f 8b) where a member should start.
  case notGzip(offset: Int)
  case unsupportedMethod(offset: Int, method: UInt8)
  case reservedFlags(offset: Int, flags: UInt8)
  case headerChecksumMismatch(offset: Int, stored: UInt16, computed: UInt16)
  /// Block type 11, which RFC 1951 reserves.
  case reservedBlockType(offset: Int)
  case storedLengthMismatch(offset: Int, length: UInt16, complement: UInt16)
  /// A dynamic block's code lengths do not describe a usable Huffman code.
  case invalidCodeLengths(offset: Int, reason: String)
  /// A bit pattern that the block's code does not assign, or a reserved symbol (286, 287 or
  /// distance 30, 31 in a fixed block).
  case invalidCode(offset: Int, alphabet: String)
  /// A back-reference before the start of the output.
  case distanceTooFar(offset: Int, distance: Int, available: Int)
  case checksumMismatch(offset: Int, stored: UInt32, computed: UInt32)
  case sizeMismatch(offset: Int, stored: UInt32, computed: UInt32)

  var description: String {
    switch self {
    case let .truncated(offset, context):
      return "truncated input: it ends in the \(context) (at byte \(offset))"
    case let .notGzip(offset):
      return "not gzip data: no 1f 8b magic number at byte \(offset)"
    case let .unsupportedMethod(offset, method):
      return "unsupported gzip compression method \(method) at byte \(offset) (only 8, deflate, exists)"
    case let .reservedFlags(offset, flags):
      return "gzip header at byte \(offset) sets reserved flag bits (FLG = 0x\(String(flags, radix: 16)))"
    case let .headerChecksumMismatch(offset, stored, computed):
      return "gzip header CRC-16 at byte \(offset) is 0x\(hex(stored)), the header's is 0x\(hex(computed))"
    case let .reservedBlockType(offset):
      return "deflate block at byte \(offset) has the reserved block type 3"
    case let .storedLengthMismatch(offset, length, complement):
      return "stored block at byte \(offset): LEN 0x\(hex(length)) and NLEN 0x\(hex(complement)) are not complements"
    case let .invalidCodeLengths(offset, reason):
      return "dynamic block header before byte \(offset): \(reason)"
    case let .invalidCode(offset, alphabet):
      return "invalid \(alphabet) code at byte \(offset)"
    case let .distanceTooFar(offset, distance, available):
      return "back-reference at byte \(offset) reaches \(distance) bytes back, but only \(available) bytes were produced"
    case let .checksumMismatch(offset, stored, computed):
      return "gzip trailer at byte \(offset) stores CRC-32 0x\(hex(stored)), the data's is 0x\(hex(computed))"
    case let .sizeMismatch(offset, stored, computed):
      return "gzip trailer at byte \(offset) stores ISIZE \(stored), the member decoded to \(computed) (mod 2^32)"
    }
  }
}

private func hex<T: FixedWidthInteger>(_ value: T) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: max(0, T.bitWidth / 4 - digits.count)) + digits
}

// MARK: - gzip

/// Decodes gzip data: one member or several concatenated (their outputs are concatenated, as
/// RFC 1952 specifies). Zero bytes after the last member are ignored, as gzip(1) and Python do;
/// anything else there must be another member.
func gunzip(_ bytes: [UInt8]) throws(InflateError) -> [UInt8] {
  try bytes.withUnsafeBufferPointer { (input) throws(InflateError) -> [UInt8] in
    try gunzip(input)
  }
}

func gunzip(_ input: UnsafeBufferPointer<UInt8>) throws(InflateError) -> [UInt8] {
  try gunzipMembers(input).output()
}

/// `gunzip` into a `Data` that takes over the decoder's buffer: no copy of the output.
func gunzipData(_ input: UnsafeBufferPointer<UInt8>) throws(InflateError) -> Data {
  try gunzipMembers(input).takeOutput()
}

private func gunzipMembers(_ input: UnsafeBufferPointer<UInt8>) throws(InflateError) -> Inflater {
  let count = input.count
  guard count > 0 else { throw .truncated(offset: 0, context: "gzip header") }
  // The last member's ISIZE is a good guess at the output size; never trust it beyond the
  // largest size the input could possibly produce (DEFLATE expands at most 1032:1 or so).
  var capacity = 4 * count + 1024
  if count >= 18 {
    let isize = Int(input[count - 4]) | Int(input[count - 3]) << 8 | Int(input[count - 2]) << 16 | Int(input[count - 1]) << 24
    if isize <= 1040 * count { capacity = isize + 1024 }
  }
  var inflater = Inflater(input: input, capacity: capacity)
  var position = 0
  repeat {
    let start = inflater.outputCount
    let dataStart = try gzipHeaderEnd(input, at: position)
    let dataEnd = try inflater.inflate(from: dataStart)
    guard count - dataEnd >= 8 else { throw .truncated(offset: count, context: "gzip trailer") }
    let stored = UInt32(input[dataEnd]) | UInt32(input[dataEnd + 1]) << 8 | UInt32(input[dataEnd + 2]) << 16 | UInt32(input[dataEnd + 3]) << 24
    let storedSize = UInt32(input[dataEnd + 4]) | UInt32(input[dataEnd + 5]) << 8 | UInt32(input[dataEnd + 6]) << 16 | UInt32(input[dataEnd + 7]) << 24
    let computed = inflater.crc32(from: start)
    guard stored == computed else { throw .checksumMismatch(offset: dataEnd, stored: stored, computed: computed) }
    let size = UInt32(truncatingIfNeeded: inflater.outputCount - start)
    guard storedSize == size else { throw .sizeMismatch(offset: dataEnd + 4, stored: storedSize, computed: size) }
    position = dataEnd + 8
    while position < count && input[position] == 0 { position += 1 }
  } while position < count
  return inflater
}

/// Checks the gzip member header at `start` and returns where its DEFLATE data begins.
private func gzipHeaderEnd(_ input: UnsafeBufferPointer<UInt8>, at start: Int) throws(InflateError) -> Int {
  let count = input.count
  guard count - start >= 10 else {
    // A header cut short: only call it "not gzip" when what is there is already wrong.
    if count > start && input[start] != 0x1F || count > start + 1 && input[start + 1] != 0x8B {
      throw .notGzip(offset: start)
    }
    throw .truncated(offset: count, context: "gzip header")
  }
  guard input[start] == 0x1F && input[start + 1] == 0x8B else { throw .notGzip(offset: start) }
  guard input[start + 2] == 8 else { throw .unsupportedMethod(offset: start + 2, method: input[start + 2]) }
  let flags = input[start + 3]
  guard flags & 0xE0 == 0 else { throw .reservedFlags(offset: start + 3, flags: flags) }
  var position = start + 10  // MTIME (4), XFL, OS follow FLG
  if flags & 0x04 != 0 {  // FEXTRA: XLEN, then XLEN bytes
    guard count - position >= 2 else { throw .truncated(offset: count, context: "gzip header's extra field") }
    let length = Int(input[position]) | Int(input[position + 1]) << 8
    position += 2
    guard count - position >= length else { throw .truncated(offset: count, context: "gzip header's extra field") }
    position += length
  }
  for (flag, field) in [(UInt8(0x08), "file name"), (0x10, "comment")] where flags & flag != 0 {
    // FNAME, FCOMMENT: zero-terminated
    while position < count && input[position] != 0 { position += 1 }
    guard position < count else { throw .truncated(offset: count, context: "gzip header's \(field)") }
    position += 1
  }
  if flags & 0x02 != 0 {  // FHCRC: the low 16 bits of the CRC-32 of the header so far
    guard count - position >= 2 else { throw .truncated(offset: count, context: "gzip header's CRC-16") }
    let stored = UInt16(input[position]) | UInt16(input[position + 1]) << 8
    let computed = UInt16(truncatingIfNeeded: CRC32.checksum(UnsafeBufferPointer(rebasing: input[start..<position])))
    guard stored == computed else { throw .headerChecksumMismatch(offset: position, stored: stored, computed: computed) }
    position += 2
  }
  return position
}

// MARK: - CRC-32

/// The CRC-32 of gzip, zip and PNG (reflected polynomial 0xEDB88320), eight bytes per step with
/// eight lookup tables ("slicing by 8").
enum CRC32 {
  /// `tables[k * 256 + b]` is the CRC contribution of byte `b` followed by `k` zero bytes.
  static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      tables[byte] = crc
    }
    for k in 1..<8 {
      for byte in 0..<256 {
        let previous = tables[(k - 1) * 256 + byte]
        tables[k * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress else { return previous }
    return tables.withUnsafeBufferPointer { table in
      let t = table.baseAddress!
      var crc = ~previous
      var p = base
      var remaining = bytes.count
      while remaining >= 8 {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let low = UInt32(truncatingIfNeeded: word) ^ crc
        let high = UInt32(truncatingIfNeeded: word >> 32)
        crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        p += 8
        remaining -= 8
      }
      while remaining > 0 {
        crc = (crc >> 8) ^ t[Int((crc ^ UInt32(p.pointee)) & 0xFF)]
        p += 1
        remaining -= 1
      }
      return ~crc
    }
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { checksum($0) }
  }
}

// MARK: - DEFLATE

/// Decodes raw DEFLATE data (no zlib or gzip wrapper).
func inflate(_ bytes: [UInt8]) throws(InflateError) -> [UInt8] {
  try bytes.withUnsafeBufferPointer { (input) throws(InflateError) -> [UInt8] in
    guard !input.isEmpty else { throw .truncated(offset: 0, context: "block header") }
    var inflater = Inflater(input: input, capacity: 4 * input.count + 1024)
    _ = try inflater.inflate(from: 0)
    return inflater.output()
  }
}

/// A lookup-table entry (UInt32):
///   bits 0…4    the code's length in bits; for a link, the width of the subtable's index
///   bit 8       literal: `value` is the byte
///   bit 9       link to a subtable starting at `value`
///   bit 10      end of block
///   bit 11      invalid: no code (incomplete code) or a reserved symbol
///   bits 12…15  extra bits to read after the code, for a length or distance base
///   bits 16…31  value: the literal, the length or distance base, or the subtable's offset
/// An entry with none of bits 8…11 is a length (literal/length table) or distance base.
private enum Entry {
  static let literalFlag: UInt32 = 0x100
  static let linkFlag: UInt32 = 0x200
  static let endFlag: UInt32 = 0x400
  static let invalidFlag: UInt32 = 0x800
  static let kindMask: UInt32 = 0xF00

  static func literal(_ byte: Int) -> UInt32 { UInt32(byte) << 16 | literalFlag }
  static func base(_ value: Int, extra: Int) -> UInt32 { UInt32(value) << 16 | UInt32(extra) << 12 }
  static func link(offset: Int, bits: Int) -> UInt32 { UInt32(offset) << 16 | linkFlag | UInt32(bits) }
  static let end: UInt32 = endFlag
  static let invalid: UInt32 = invalidFlag  // length 0

  /// The literal/length alphabet (RFC 1951 §3.2.5): 0…255 literals, 256 end of block,
  /// 257…285 length bases; 286 and 287 only occur in the fixed code and are invalid.
  static func literalLength(_ symbol: Int) -> UInt32 {
    switch symbol {
    case 0..<256: return literal(symbol)
    case 256: return end
    case 257..<265: return base(symbol - 254, extra: 0)  // lengths 3…10
    case 265..<285:
      let index = symbol - 261  // 4…23: four codes per number of extra bits, 1…5
      let extra = index / 4
      return base(((4 + index % 4) << extra) + 3, extra: extra)
    case 285: return base(258, extra: 0)
    default: return invalid
    }
  }

  /// The distance alphabet: 0…29; 30 and 31 only occur in the fixed code and are invalid.
  static func distance(_ symbol: Int) -> UInt32 {
    switch symbol {
    case 0..<4: return base(symbol + 1, extra: 0)  // distances 1…4
    case 4..<30:
      let extra = symbol / 2 - 1  // two codes per number of extra bits, 1…13
      return base(((2 + symbol % 2) << extra) + 1, extra: extra)
    default: return invalid
    }
  }

  /// The code-length alphabet: the symbol itself (0…18).
  static func codeLength(_ symbol: Int) -> UInt32 { literal(symbol) }
}

/// Sizes of the lookup tables. A subtable holds at most 2^(15 − root) entries and there is at
/// most one per code longer than `root` bits, which bounds each table.
private enum TableSize {
  static let literalRoot = 10
  static let distanceRoot = 8
  static let codeLengthRoot = 7  // code-length codes are at most 7 bits: no subtables
  static let literal = (1 << literalRoot) + 286 * (1 << (15 - literalRoot))
  static let distance = (1 << distanceRoot) + 30 * (1 << (15 - distanceRoot))
  static let codeLength = 1 << codeLengthRoot
  static let total = literal + distance + codeLength
}

/// The order in which a dynamic block lists the code-length code's lengths (RFC 1951 §3.2.7).
private let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/// The DEFLATE decoder: reads from a borrowed input buffer, appends to an output buffer it owns.
struct Inflater: ~Copyable {
  private let input: UnsafePointer<UInt8>
  private let inputCount: Int
  /// The next input byte not yet in `bitBuffer`.
  private var position = 0
  /// Input bits not consumed yet, the next one in bit 0. The bits above `bitCount` are either
  /// zero or the input's next bits, never anything else.
  private var bitBuffer: UInt64 = 0
  private var bitCount = 0
  private var out: UnsafeMutablePointer<UInt8>
  private var outCapacity: Int
  private(set) var outputCount = 0
  private let tables: UnsafeMutablePointer<UInt32>
  private var fixedTablesLoaded = false

  /// Room every match copy may need past `outputCount`: a maximal match, plus the up to
  /// seven bytes by which an eight-byte copy may overshoot it.
  private static let slack = 258 + 8

  /// `input` must not be empty.
  init(input: UnsafeBufferPointer<UInt8>, capacity: Int) {
    self.input = input.baseAddress!
    inputCount = input.count
    outCapacity = max(capacity, 1024) + Inflater.slack
    // malloc, so that `takeOutput` can hand the buffer to `Data` (which frees it) and `grow`
    // can realloc in place.
    out = Inflater.allocateOutput(outCapacity)
    tables = .allocate(capacity: TableSize.total)
  }

  deinit {
    free(out)
    tables.deallocate()
  }

  private static func allocateOutput(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
    guard let raw = malloc(capacity) else { fatalError("out of memory allocating \(capacity) bytes") }
    return raw.bindMemory(to: UInt8.self, capacity: capacity)
  }

  /// A copy of everything decoded so far.
  func output() -> [UInt8] {
    Array(UnsafeBufferPointer(start: out, count: outputCount))
  }

  /// Everything decoded, in a `Data` that takes over the buffer.
  consuming func takeOutput() -> Data {
    let data = Data(bytesNoCopy: out, count: outputCount, deallocator: .free)
    tables.deallocate()
    discard self
    return data
  }

  /// The CRC-32 of the output from `start` on.
  func crc32(from start: Int) -> UInt32 {
    CRC32.checksum(UnsafeBufferPointer(start: out + start, count: outputCount - start))
  }

  /// The byte holding the next unread bit, for error messages.
  private var offset: Int { position - bitCount / 8 }

  /// Decodes one DEFLATE stream starting at input byte `start`, appending to the output, and
  /// returns the offset of the first byte after it (the stream ends on a byte boundary).
  mutating func inflate(from start: Int) throws(InflateError) -> Int {
    position = start
    bitBuffer = 0
    bitCount = 0
    while true {
      let header = try bits(3, "block header")
      switch header >> 1 {
      case 0: try copyStoredBlock()
      case 1:
        if !fixedTablesLoaded { loadFixedTables() }
        try decodeCompressedBlock()
      case 2:
        fixedTablesLoaded = false
        try readDynamicTables()
        try decodeCompressedBlock()
      default: throw .reservedBlockType(offset: offset)
      }
      if header & 1 != 0 { break }  // BFINAL
    }
    // Give back the whole bytes still in the buffer: the stream ends at the byte boundary.
    position -= bitCount / 8
    bitBuffer = 0
    bitCount = 0
    return position
  }

  // MARK: Bits

  /// Tops the bit buffer up to at least 56 bits, or as far as the input goes.
  @inline(__always)
  private mutating func refill() {
    if inputCount - position >= 8 {
      let word = UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self).littleEndian
      bitBuffer |= word &<< UInt64(bitCount)
      position += (63 - bitCount) >> 3
      bitCount |= 56
    } else {
      while bitCount <= 56 && position < inputCount {
        bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
        position += 1
        bitCount += 8
      }
    }
  }

  /// The next `count` bits (at most 32), least significant first.
  private mutating func bits(_ count: Int, _ context: @autoclosure () -> String) throws(InflateError) -> Int {
    if bitCount < count {
      refill()
      guard bitCount >= count else { throw .truncated(offset: inputCount, context: context()) }
    }
    let value = Int(truncatingIfNeeded: bitBuffer) & ((1 << count) - 1)
    bitBuffer >>= UInt64(count)
    bitCount -= count
    return value
  }

  // MARK: Stored blocks

  private mutating func copyStoredBlock() throws(InflateError) {
    // Skip to the byte boundary, then hand the buffered whole bytes back to the input.
    bitBuffer >>= UInt64(bitCount & 7)
    bitCount &= ~7
    position -= bitCount / 8
    bitBuffer = 0
    bitCount = 0
    guard inputCount - position >= 4 else { throw .truncated(offset: inputCount, context: "stored block header") }
    let length = UInt16(input[position]) | UInt16(input[position + 1]) << 8
    let complement = UInt16(input[position + 2]) | UInt16(input[position + 3]) << 8
    guard length == ~complement else {
      throw .storedLengthMismatch(offset: position, length: length, complement: complement)
    }
    position += 4
    let count = Int(length)
    guard inputCount - position >= count else { throw .truncated(offset: inputCount, context: "stored block data") }
    reserve(count)
    (out + outputCount).update(from: input + position, count: count)
    outputCount += count
    position += count
  }

  /// Makes room for `count` more output bytes plus the copy slack.
  @inline(__always)
  private mutating func reserve(_ count: Int) {
    if outCapacity - outputCount < count + Inflater.slack { grow(count) }
  }

  @inline(never)
  private mutating func grow(_ count: Int) {
    let capacity = max(2 * outCapacity, outputCount + count + Inflater.slack)
    guard let bigger = realloc(out, capacity) else { fatalError("out of memory allocating \(capacity) bytes") }
    out = bigger.bindMemory(to: UInt8.self, capacity: capacity)
    outCapacity = capacity
  }

  // MARK: Huffman tables

  private mutating func loadFixedTables() {
    // RFC 1951 §3.2.6: literal/length 0…143 8 bits, 144…255 9, 256…279 7, 280…287 8;
    // distances 0…31 5 bits.
    var lengths = [UInt8](repeating: 8, count: 288 + 32)
    for symbol in 144..<256 { lengths[symbol] = 9 }
    for symbol in 256..<280 { lengths[symbol] = 7 }
    for symbol in 288..<320 { lengths[symbol] = 5 }
    lengths.withUnsafeBufferPointer { lengths in
      // The fixed codes are complete, so building cannot fail.
      _ = Inflater.buildTable(UnsafeBufferPointer(rebasing: lengths[0..<288]), root: TableSize.literalRoot,
                              into: tables, capacity: TableSize.literal, allowSingleCode: false, Entry.literalLength)
      _ = Inflater.buildTable(UnsafeBufferPointer(rebasing: lengths[288...]), root: TableSize.distanceRoot,
                              into: tables + TableSize.literal, capacity: TableSize.distance,
                              allowSingleCode: false, Entry.distance)
    }
    fixedTablesLoaded = true
  }

  private mutating func readDynamicTables() throws(InflateError) {
    let literalCount = try bits(5, "dynamic block header") + 257
    let distanceCount = try bits(5, "dynamic block header") + 1
    let codeLengthCount = try bits(4, "dynamic block header") + 4
    // 5 bits could announce 288 literal/length or 32 distance codes; the last two of each
    // alphabet are reserved.
    guard literalCount <= 286 else {
      throw .invalidCodeLengths(offset: offset, reason: "\(literalCount) literal/length codes (at most 286)")
    }
    guard distanceCount <= 30 else {
      throw .invalidCodeLengths(offset: offset, reason: "\(distanceCount) distance codes (at most 30)")
    }

    var codeLengthLengths = [UInt8](repeating: 0, count: 19)
    for index in 0..<codeLengthCount {
      codeLengthLengths[codeLengthOrder[index]] = UInt8(try bits(3, "dynamic block header"))
    }
    let codeLengthTable = tables + TableSize.literal + TableSize.distance
    if let problem = codeLengthLengths.withUnsafeBufferPointer({
      Inflater.buildTable($0, root: TableSize.codeLengthRoot, into: codeLengthTable, capacity: TableSize.codeLength,
                          allowSingleCode: false, Entry.codeLength)
    }) {
      throw .invalidCodeLengths(offset: offset, reason: "code-length code: " + problem)
    }

    let total = literalCount + distanceCount
    var lengths = [UInt8](repeating: 0, count: total)
    var index = 0
    while index < total {
      if bitCount < 7 { refill() }
      let entry = codeLengthTable[Int(truncatingIfNeeded: bitBuffer) & (TableSize.codeLength - 1)]
      let length = Int(entry & 31)
      guard entry & Entry.invalidFlag == 0 else {
        if position == inputCount && bitCount < 7 { throw .truncated(offset: inputCount, context: "dynamic block header") }
        throw .invalidCode(offset: offset, alphabet: "code-length")
      }
      guard length <= bitCount else { throw .truncated(offset: inputCount, context: "dynamic block header") }
      bitBuffer >>= UInt64(length)
      bitCount -= length
      let symbol = Int(entry >> 16)
      var value: UInt8 = 0
      var repeats = 1
      switch symbol {
      case 0..<16: value = UInt8(symbol)
      case 16:
        guard index > 0 else {
          throw .invalidCodeLengths(offset: offset, reason: "code 16 repeats the previous length, but there is none")
        }
        value = lengths[index - 1]
        repeats = 3 + (try bits(2, "dynamic block header"))
      case 17: repeats = 3 + (try bits(3, "dynamic block header"))
      default: repeats = 11 + (try bits(7, "dynamic block header"))
      }
      guard index + repeats <= total else {
        throw .invalidCodeLengths(offset: offset, reason: "code lengths run past the \(total) announced")
      }
      for _ in 0..<repeats {
        lengths[index] = value
        index += 1
      }
    }
    guard lengths[256] != 0 else {
      throw .invalidCodeLengths(offset: offset, reason: "no code for end-of-block (256)")
    }
    let problem: String? = lengths.withUnsafeBufferPointer { lengths in
      if let problem = Inflater.buildTable(UnsafeBufferPointer(rebasing: lengths[0..<literalCount]),
                                           root: TableSize.literalRoot, into: tables, capacity: TableSize.literal,
                                           allowSingleCode: true, Entry.literalLength) {
        return "literal/length code: " + problem
      }
      if let problem = Inflater.buildTable(UnsafeBufferPointer(rebasing: lengths[literalCount...]),
                                           root: TableSize.distanceRoot, into: tables + TableSize.literal,
                                           capacity: TableSize.distance, allowSingleCode: true, Entry.distance) {
        return "distance code: " + problem
      }
      return nil
    }
    if let problem { throw .invalidCodeLengths(offset: offset, reason: problem) }
  }

  /// Builds the lookup table of the canonical Huffman code with these code lengths (0 = symbol
  /// unused; RFC 1951 §3.2.2) into `table`, the primary table of 2^`root` entries followed by the
  /// subtables. `entry(symbol)` gives the entry bits other than the length. Returns what is wrong
  /// with the lengths, or nil.
  ///
  /// An over-subscribed code is always rejected, an incomplete one too unless `allowSingleCode`
  /// and it is a single one-bit code (which RFC 1951 allows for distances, and which zlib also
  /// accepts for literal/length codes). With `allowSingleCode`, a code with no symbols at all
  /// is accepted too: every bit pattern then decodes as invalid (the distance code of a block
  /// of literals only).
  private static func buildTable(_ lengths: UnsafeBufferPointer<UInt8>, root: Int, into table: UnsafeMutablePointer<UInt32>,
                                 capacity: Int, allowSingleCode: Bool, _ entry: (Int) -> UInt32) -> String? {
    var counts = [Int](repeating: 0, count: 16)
    for length in lengths { counts[Int(length)] += 1 }
    counts[0] = 0
    var left = 1  // unassigned codes of the current length
    for length in 1...15 {
      left = 2 * left - counts[length]
      if left < 0 { return "over-subscribed (more codes of \(length) bits or less than fit)" }
    }
    let used = lengths.count - lengths.reduce(0) { $1 == 0 ? $0 + 1 : $0 }
    if left > 0 && used > 0 && !(allowSingleCode && used == 1 && counts[1] == 1) {
      return "incomplete (the lengths leave bit patterns unassigned)"
    }

    let primarySize = 1 << root
    table.update(repeating: Entry.invalid, count: primarySize)
    if used == 0 { return allowSingleCode ? nil : "no codes at all" }

    // Symbols in canonical order (by length, then by symbol) and their codes.
    var starts = [Int](repeating: 0, count: 16)
    for length in 1..<15 { starts[length + 1] = starts[length] + counts[length] }
    var symbols = [Int](repeating: 0, count: used)
    for (symbol, length) in lengths.enumerated() where length != 0 {
      symbols[starts[Int(length)]] = symbol
      starts[Int(length)] += 1
    }
    var codes = [Int](repeating: 0, count: used)
    var code = 0
    var previousLength = Int(lengths[symbols[0]])
    for (index, symbol) in symbols.enumerated() {
      let length = Int(lengths[symbol])
      code <<= length - previousLength
      previousLength = length
      codes[index] = code
      code += 1
    }

    /// `code`'s `length` bits in reverse order: the stream sends codes most significant bit
    /// first, but the bit buffer holds the first bit at the bottom.
    func reversed(_ code: Int, _ length: Int) -> Int {
      var code = code
      var result = 0
      for _ in 0..<length {
        result = result << 1 | code & 1
        code >>= 1
      }
      return result
    }

    var next = primarySize  // where the next subtable goes
    var index = 0
    while index < used {
      let length = Int(lengths[symbols[index]])
      if length <= root {
        let value = entry(symbols[index]) | UInt32(length)
        var slot = reversed(codes[index], length)
        while slot < primarySize {
          table[slot] = value
          slot += 1 << length
        }
        index += 1
        continue
      }
      // Codes longer than `root` bits that start with the same `root` bits share a subtable
      // wide enough for the longest of them; in canonical order they are consecutive and
      // the longest comes last.
      let prefix = codes[index] >> (length - root)
      var end = index
      var longest = length
      while end < used {
        let endLength = Int(lengths[symbols[end]])
        guard codes[end] >> (endLength - root) == prefix else { break }
        longest = endLength
        end += 1
      }
      let subBits = longest - root
      let subSize = 1 << subBits
      guard next + subSize <= capacity else { return "needs more table space than expected" }  // cannot happen
      table.advanced(by: next).update(repeating: Entry.invalid, count: subSize)
      table[reversed(prefix, root)] = Entry.link(offset: next, bits: subBits)
      for member in index..<end {
        let memberLength = Int(lengths[symbols[member]])
        let value = entry(symbols[member]) | UInt32(memberLength)
        var slot = reversed(codes[member], memberLength) >> root
        while slot < subSize {
          table[next + slot] = value
          slot += 1 << (memberLength - root)
        }
      }
      next += subSize
      index = end
    }
    return nil
  }

  // MARK: Compressed blocks

  /// The error for an unassigned code or reserved symbol: zero bits past the end of the input
  /// can look like one, so near the end it is a truncation.
  private static func invalid(_ alphabet: String, position: Int, bitCount: Int, inputCount: Int) -> InflateError {
    if position == inputCount && bitCount < 15 { return .truncated(offset: inputCount, context: "compressed block") }
    return .invalidCode(offset: position - bitCount / 8, alphabet: alphabet)
  }

  /// Decodes a block compressed with the current tables, up to and including its end-of-block.
  private mutating func decodeCompressedBlock() throws(InflateError) {
    let literalTable = UnsafePointer(tables)
    let distanceTable = UnsafePointer(tables + TableSize.literal)
    let literalMask = (1 << TableSize.literalRoot) - 1
    let distanceMask = (1 << TableSize.distanceRoot) - 1
    let input = self.input
    let inputCount = self.inputCount
    // The hot state lives in locals (registers) and goes back to `self` on the way out.
    var position = self.position
    var bitBuffer = self.bitBuffer
    var bitCount = self.bitCount
    var out = self.out
    var outCapacity = self.outCapacity
    var outputCount = self.outputCount
    defer {
      self.position = position
      self.bitBuffer = bitBuffer
      self.bitCount = bitCount
      self.outputCount = outputCount
    }

    while true {
      if outCapacity - outputCount < Inflater.slack {
        self.outputCount = outputCount
        grow(Inflater.slack)
        out = self.out
        outCapacity = self.outCapacity
      }
      // Refill: afterwards the buffer holds at least 56 bits unless the input is nearly
      // exhausted, enough for a literal/length code with its extra bits (≤ 20) and a distance
      // code with its extra bits (≤ 28). Near the end every consumption checks `bitCount`.
      if inputCount - position >= 8 {
        let word = UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self).littleEndian
        bitBuffer |= word &<< UInt64(bitCount)
        position += (63 - bitCount) >> 3
        bitCount |= 56
      } else {
        while bitCount <= 56 && position < inputCount {
          bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
          position += 1
          bitCount += 8
        }
      }

      var entry = literalTable[Int(truncatingIfNeeded: bitBuffer) & literalMask]
      if entry & Entry.linkFlag != 0 {
        let index = Int(truncatingIfNeeded: bitBuffer >> UInt64(TableSize.literalRoot)) & ((1 << Int(entry & 31)) - 1)
        entry = literalTable[Int(entry >> 16) + index]
      }
      var length = Int(entry & 31)
      if entry & Entry.literalFlag != 0 {
        guard length <= bitCount else { throw .truncated(offset: inputCount, context: "compressed block") }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        out[outputCount] = UInt8(truncatingIfNeeded: entry >> 16)
        outputCount += 1
        // A second literal when the buffer surely holds its code (at most 15 bits).
        if bitCount >= 15 {
          let second = literalTable[Int(truncatingIfNeeded: bitBuffer) & literalMask]
          if second & Entry.literalFlag != 0 {
            let secondLength = Int(second & 31)
            bitBuffer >>= UInt64(secondLength)
            bitCount -= secondLength
            out[outputCount] = UInt8(truncatingIfNeeded: second >> 16)
            outputCount += 1
          }
        }
        continue
      }
      if entry & Entry.kindMask != 0 {
        if entry & Entry.endFlag != 0 {
          guard length <= bitCount else { throw .truncated(offset: inputCount, context: "compressed block") }
          bitBuffer >>= UInt64(length)
          bitCount -= length
          return
        }
        throw Inflater.invalid("literal/length", position: position, bitCount: bitCount, inputCount: inputCount)
      }

      // A length base with extra bits, then a distance.
      var extra = Int((entry >> 12) & 15)
      guard length + extra <= bitCount else { throw .truncated(offset: inputCount, context: "compressed block") }
      bitBuffer >>= UInt64(length)
      let matchLength = Int(entry >> 16) + (Int(truncatingIfNeeded: bitBuffer) & ((1 << extra) - 1))
      bitBuffer >>= UInt64(extra)
      bitCount -= length + extra

      entry = distanceTable[Int(truncatingIfNeeded: bitBuffer) & distanceMask]
      if entry & Entry.linkFlag != 0 {
        let index = Int(truncatingIfNeeded: bitBuffer >> UInt64(TableSize.distanceRoot)) & ((1 << Int(entry & 31)) - 1)
        entry = distanceTable[Int(entry >> 16) + index]
      }
      if entry & Entry.kindMask != 0 {
        throw Inflater.invalid("distance", position: position, bitCount: bitCount, inputCount: inputCount)
      }
      length = Int(entry & 31)
      extra = Int((entry >> 12) & 15)
      guard length + extra <= bitCount else { throw .truncated(offset: inputCount, context: "compressed block") }
      bitBuffer >>= UInt64(length)
      let distance = Int(entry >> 16) + (Int(truncatingIfNeeded: bitBuffer) & ((1 << extra) - 1))
      bitBuffer >>= UInt64(extra)
      bitCount -= length + extra
      guard distance <= outputCount else {
        throw .distanceTooFar(offset: position - bitCount / 8, distance: distance, available: outputCount)
      }

      // Copy. The source may overlap the destination (distance < length): bytes repeat.
      let destination = out + outputCount
      let source = UnsafePointer(destination - distance)
      if distance >= 8 {
        // Eight bytes at a time; each word read lies entirely before the one being written,
        // and the slack absorbs the overshoot past `matchLength`.
        var copied = 0
        repeat {
          UnsafeMutableRawPointer(destination + copied).storeBytes(
            of: UnsafeRawPointer(source + copied).loadUnaligned(as: UInt64.self), as: UInt64.self)
          copied += 8
        } while copied < matchLength
      } else if distance == 1 {
        destination.update(repeating: source.pointee, count: matchLength)
      } else {
        for index in 0..<matchLength { destination[index] = source[index] }
      }
      outputCount += matchLength
    }
  }
}
