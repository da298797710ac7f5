/// The body of one auth webhook call: `{"token":…,"method":…,"attributes":[{"key":…,"verb":…}]}`.
///
/// ``body`` is serialized by hand so that its bytes are fixed (field order, escapes): they are
/// both what the webhook receives and the cache key. They match what Yorkie's Go server sends:
/// fields in this order, `attributes` as `null` when there are none (a nil Go slice), and
/// Go's escapes (`<`, `>`, `&`, U+2028 and U+2029 as `\u` sequences).
///
/// The request holds the caller's token, so its textual forms (`description`, `dump`, the
/// debugger) show `<redacted>` instead.
struct AuthWebhookRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The `authorization` header of the RPC, verbatim ("" when absent).
  var token: String
  /// The method being authorized.
  var method: AuthMethod
  /// What the RPC touches.
  var attributes: [AccessAttribute]

  /// The JSON body, UTF-8.
  var body: [UInt8] {
    var output: [UInt8] = []
    output.append(contentsOf: #"{"token":"#.utf8)
    Self.appendJSONString(token, to: &output)
    output.append(contentsOf: #","method":"#.utf8)
    Self.appendJSONString(method.rawValue, to: &output)
    output.append(contentsOf: #","attributes":"#.utf8)
    if attributes.isEmpty {
      output.append(contentsOf: "null".utf8)
    } else {
      output.append(UInt8(ascii: "["))
      for (index, attribute) in attributes.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        output.append(contentsOf: #"{"key":"#.utf8)
        Self.appendJSONString(attribute.key, to: &output)
        output.append(contentsOf: #","verb":"#.utf8)
        Self.appendJSONString(attribute.verb.rawValue, to: &output)
        output.append(UInt8(ascii: "}"))
      }
      output.append(UInt8(ascii: "]"))
    }
    output.append(UInt8(ascii: "}"))
    return output
  }

  /// The request with its token hidden.
  var description: String {
    let attributeList = attributes.map { "\($0.key):\($0.verb.rawValue)" }.joined(separator: ",")
    return "AuthWebhookRequest(token: <redacted>, method: \(method.rawValue), attributes: [\(attributeList)])"
  }

  /// The same as ``description``.
  var debugDescription: String { description }

  /// A mirror without the token, for `dump` and debuggers.
  var customMirror: Mirror {
    Mirror(self, children: ["token": "<redacted>", "method": method, "attributes": attributes])
  }

  /// Appends `text` as a quoted JSON string with Go's `encoding/json` escapes.
  static func appendJSONString(_ text: String, to output: inout [UInt8]) {
    let hexDigits = Array("0123456789abcdef".utf8)
    output.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: output.append(contentsOf: #"\""#.utf8)
      case 0x5C: output.append(contentsOf: #"\\"#.utf8)
      case 0x0A: output.append(contentsOf: #"\n"#.utf8)
      case 0x0D: output.append(contentsOf: #"\r"#.utf8)
      case 0x09: output.append(contentsOf: #"\t"#.utf8)
      case 0x08: output.append(contentsOf: #"\b"#.utf8)
      case 0x0C: output.append(contentsOf: #"\f"#.utf8)
      case 0x00..<0x20, 0x3C, 0x3E, 0x26, 0x2028, 0x2029:
        output.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
          output.append(hexDigits[Int((scalar.value >> UInt32(shift)) & 0xF)])
        }
      default:
        output.append(contentsOf: String(scalar).utf8)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
