import Foundation

/// Builds JSON text exactly as Yorkie's JS SDK prints documents: no whitespace, JS string
/// escaping, JS number formatting, base64 bytes and ISO-8601 dates with milliseconds.
package struct JSONWriter {
  package private(set) var output = ""

  package init() {}

  @inline(__always) package mutating func raw(_ text: String) { output += text }

  /// Appends `"text"` with the JS SDK's escaping: `"` `\` LF CR FF BS TAB, U+2028 and U+2029 are
  /// escaped; everything else (other control characters and `'` included) is written as is.
  package mutating func string(_ text: String) {
    output.append("\"")
    var needsEscape = false
    for unit in text.utf8 where unit == 0x22 || unit == 0x5C || unit < 0x20 || unit == 0xE2 {
      needsEscape = true
      break
    }
    if !needsEscape {
      output += text
    } else {
      for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x22: output += "\\\""
        case 0x5C: output += "\\\\"
        case 0x0A: output += "\\n"
        case 0x0D: output += "\\r"
        case 0x0C: output += "\\f"
        case 0x08: output += "\\b"
        case 0x09: output += "\\t"
        case 0x2028: output += "\\u2028"
        case 0x2029: output += "\\u2029"
        default: output.unicodeScalars.append(scalar)
        }
      }
    }
    output.append("\"")
  }

  /// Appends a double as JavaScript's `Number.prototype.toString` prints it.
  package mutating func double(_ value: Double) {
    output += JSONWriter.formatDouble(value)
  }

  /// Appends a value; `sorted` sorts object keys at every level except inside arrays, as the
  /// JS SDK's `toSortedJSON` does.
  package mutating func write(_ value: JSONValue, sorted: Bool) {
    switch value {
    case .null: raw("null")
    case .bool(let b): raw(b ? "true" : "false")
    case .integer(let i): raw(String(i))
    case .long(let l): raw(String(l))
    case .double(let d): double(d)
    case .string(let s): string(s)
    case .bytes(let data): string(data.base64EncodedString())
    case .date(let date):
      // As JSON.stringify prints a date JavaScript cannot hold (NaN, or past 8.64e15 ms).
      if (try? PrimitiveValue.milliseconds(date)) != nil { string(JSONWriter.formatDate(date)) } else { raw("null") }
    case .array(let items):
      raw("[")
      for (index, item) in items.enumerated() {
        if index > 0 { raw(",") }
        write(item, sorted: false)
      }
      raw("]")
    case .object(let object):
      raw("{")
      let members = sorted ? object.members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) } : object.members
      for (index, member) in members.enumerated() {
        if index > 0 { raw(",") }
        string(member.key)
        raw(":")
        write(member.value, sorted: sorted)
      }
      raw("}")
    }
  }

  /// JavaScript's `Number.prototype.toString` for finite doubles: the shortest digits that
  /// round-trip, in plain notation for decimal exponents from -6 to 20 and `d.ddde±x` otherwise.
  package static func formatDouble(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    if value == 0 { return "0" }
    // Swift's description is also shortest round-trip; only the layout differs from JS.
    let text = "\(value.magnitude)"
    var digits: [Character] = []
    var pointPosition: Int? = nil
    var exponent = 0
    var index = text.startIndex
    while index < text.endIndex {
      let c = text[index]
      if c == "." {
        pointPosition = digits.count
      } else if c == "e" || c == "E" {
        exponent = Int(text[text.index(after: index)...]) ?? 0
        break
      } else {
        digits.append(c)
      }
      index = text.index(after: index)
    }
    // n = position of the decimal point relative to the digit string.
    var n = (pointPosition ?? digits.count) + exponent
    while digits.count > 1 && digits.first == "0" {
      digits.removeFirst()
      n -= 1
    }
    while digits.count > 1 && digits.last == "0" { digits.removeLast() }
    let k = digits.count
    let d = String(digits)
    var result: String
    if k <= n && n <= 21 {
      result = d + String(repeating: "0", count: n - k)
    } else if 0 < n && n <= 21 {
      result = String(digits[0..<n]) + "." + String(digits[n...])
    } else if -6 < n && n <= 0 {
      result = "0." + String(repeating: "0", count: -n) + d
    } else {
      let e = n - 1
      let mantissa = k == 1 ? d : String(digits[0]) + "." + String(digits[1...])
      result = mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
    }
    return value < 0 ? "-" + result : result
  }

  /// `2024-01-02T03:04:05.678Z`: ISO-8601 in UTC with milliseconds, as JS `Date#toISOString`.
  package static func formatDate(_ date: Date) -> String {
    let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
    var msOfDay = millis - days * 86_400_000
    let hour = msOfDay / 3_600_000
    msOfDay %= 3_600_000
    let minute = msOfDay / 60_000
    msOfDay %= 60_000
    let second = msOfDay / 1000
    let ms = msOfDay % 1000
    // Civil-from-days (proleptic Gregorian), valid for all Int64 day counts in range.
    days += 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let doe = days - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    var year = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    if month <= 2 { year += 1 }
    func pad(_ v: Int64, _ width: Int) -> String {
      let s = String(v)
      return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
    let yearText: String
    if year >= 0 && year <= 9999 {
      yearText = pad(year, 4)
    } else {
      yearText = (year < 0 ? "-" : "+") + pad(abs(year), 6)
    }
    return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
  }
}
