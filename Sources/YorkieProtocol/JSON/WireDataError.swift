import CRDT
import Foundation

/// An `invalidWireData` error about the input field at `field` (a path such as
/// `changePack.changes[0].id`): the sentence starts with the path, and ``YorkieError/field``
/// holds it for code to match on.
package func wireDataError(_ field: String, _ what: String) -> YorkieError {
  YorkieError(.invalidWireData, "\(field): \(what)", field: field)
}

/// Decodes base64 in the standard or URL-safe alphabet, padded or not.
package func decodeBase64Leniently(_ text: String) -> Data? {
  // Standard, padded base64 (what protobuf JSON writes) decodes directly.
  if text.utf8.count % 4 == 0, !text.utf8.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) {
    return Data(base64Encoded: text)
  }
  var normalized = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
  if normalized.hasSuffix("=") {
    return Data(base64Encoded: normalized)
  }
  let remainder = normalized.utf8.count % 4
  if remainder == 1 { return nil }
  if remainder > 0 { normalized += String(repeating: "=", count: 4 - remainder) }
  return Data(base64Encoded: normalized)
}
