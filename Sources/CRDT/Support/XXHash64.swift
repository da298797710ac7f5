/// XXH64, the 64-bit xxHash of Yann Collet, with seed 0 unless given: the hash Yorkie's
/// deduplicating counters feed their HyperLogLog with (Go's `xxhash.Sum64String`).
///
/// Implemented from the published algorithm (the xxHash specification, `XXH64`): 32-byte
/// stripes into four accumulators, then 8-, 4- and 1-byte tails, then the avalanche.
package enum XXHash64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The hash of a string's UTF-8 bytes.
  package static func hash(_ string: String, seed: UInt64 = 0) -> UInt64 {
    var string = string
    return string.withUTF8 { hash($0, seed: seed) }
  }

  /// The hash of `bytes`.
  package static func hash(_ bytes: some Collection<UInt8>, seed: UInt64 = 0) -> UInt64 {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { hash($0, seed: seed) }
  }

  /// The hash of the bytes in `input`.
  ///
  /// Reads `input` without bounds checks in release builds: every read is of `offset..<offset + 8`
  /// (or `+ 4`, `+ 1`) after a test that this many bytes remain before `input.count`.
  package static func hash(_ input: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> UInt64 {
    let length = input.count
    var offset = 0
    var h: UInt64
    if length >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while offset + 32 <= length {
        v1 = round(v1, read64(input, offset))
        v2 = round(v2, read64(input, offset + 8))
        v3 = round(v3, read64(input, offset + 16))
        v4 = round(v4, read64(input, offset + 24))
        offset += 32
      }
      h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ prime5
    }
    h = h &+ UInt64(length)
    while offset + 8 <= length {
      h ^= round(0, read64(input, offset))
      h = rotate(h, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= length {
      h ^= UInt64(read32(input, offset)) &* prime1
      h = rotate(h, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < length {
      h ^= UInt64(input[offset]) &* prime5
      h = rotate(h, 11) &* prime1
      offset += 1
    }
    h ^= h >> 33
    h = h &* prime2
    h ^= h >> 29
    h = h &* prime3
    h ^= h >> 32
    return h
  }

  @inline(__always) private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always) private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    rotate(accumulator &+ lane &* prime2, 31) &* prime1
  }

  @inline(__always) private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
    (accumulator ^ round(0, value)) &* prime1 &+ prime4
  }

  @inline(__always) private static func read64(_ input: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<8 { value |= UInt64(input[offset + i]) << (8 * UInt64(i)) }
    return value
  }

  @inline(__always) private static func read32(_ input: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
    var value: UInt32 = 0
    for i in 0..<4 { value |= UInt32(input[offset + i]) << (8 * UInt32(i)) }
    return value
  }
}
