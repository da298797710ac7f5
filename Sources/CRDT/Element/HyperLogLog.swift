import Foundation

/// The HyperLogLog of Yorkie's deduplicating counters (Go `pkg/document/crdt/hll.go`): 2^14
/// one-byte registers, fed with the XXH64 hash of each actor string.
///
/// - A value's register is the top 14 bits of its hash; its rank is the number of leading
///   zeros of the remaining 50 bits (the hash shifted left by 14) plus one, so 1…51, or 65 when
///   those bits are all zero. A register keeps the largest rank it saw (merging is a max, so
///   replicas converge whatever the order).
/// - The estimate is `α·m²/Σ2^-register` with `α = 0.7213 / (1 + 1.079/m)`; when it is at most
///   `2.5·m` and some register is zero, linear counting `m·ln(m/zeros)` replaces it. The result
///   is rounded half away from zero.
package enum HyperLogLog {
  /// Bits of the hash that choose the register.
  package static let precision = 14
  /// The number of registers (and bytes on the wire, `hll_registers`).
  package static let registerCount = 1 << precision

  /// `2^-rank` for every rank a register can hold (exact powers of two, as Go's `math.Pow`).
  private static let inversePowers: [Double] = (0...255).map { Double(sign: .plus, exponent: -$0, significand: 1) }

  /// The register a value lands in and the rank it offers.
  package static func slot(of value: String) -> (index: Int, rank: UInt8) {
    let hash = XXHash64.hash(value)
    let index = Int(hash >> UInt64(64 - precision))
    let rest = hash << UInt64(precision)
    return (index, UInt8(rest.leadingZeroBitCount + 1))
  }

  /// The estimated number of distinct values behind `registers`.
  package static func estimate(_ registers: [UInt8]) -> UInt64 {
    let m = Double(registerCount)
    let alpha = 0.7213 / (1.0 + 1.079 / m)
    var sum = 0.0
    var zeros = 0
    for register in registers {
      sum += inversePowers[Int(register)]
      if register == 0 { zeros += 1 }
    }
    var estimate = alpha * m * m / sum
    if estimate <= 2.5 * m && zeros > 0 {
      estimate = m * log(m / Double(zeros))
    }
    return UInt64(estimate.rounded())
  }

  /// Registers of the right size from wire bytes: copied over zeros (as Go's `copy`), so a
  /// shorter or longer payload cannot overrun. Decoders reject wrong sizes before this.
  package static func registers(from bytes: [UInt8]) -> [UInt8] {
    if bytes.count == registerCount { return bytes }
    var registers = [UInt8](repeating: 0, count: registerCount)
    for (i, byte) in bytes.prefix(registerCount).enumerated() { registers[i] = byte }
    return registers
  }
}
