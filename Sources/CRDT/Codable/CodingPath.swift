// What the encoder and the decoder share: the coding key of an array index or a dictionary
// key, and how a coding path is written in errors.

/// A coding key made at run time: an array index, a dictionary key, or `super`.
struct DynamicCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key `encoder.superEncoder()` and `decoder.superDecoder()` use, as Foundation's coders do.
  static let superKey = DynamicCodingKey(stringValue: "super")
}

enum CodingPath {
  /// `base` followed by each key in Yorkie's dot notation, as events and
  /// ``Document/value(atPath:)`` write paths: `$.todos.2.due`. An array element's key is its
  /// index (the unkeyed containers give keys with an `intValue`).
  static func describe(_ base: String, _ path: [any CodingKey]) -> String {
    var text = base
    for key in path {
      text += "."
      if let index = key.intValue, key.stringValue == String(index) {
        text += String(index)
      } else {
        text += key.stringValue
      }
    }
    return text
  }
}
