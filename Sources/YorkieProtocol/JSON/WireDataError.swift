import CRDT
import Foundation

/// An `invalidWireData` error about the input field at `field` (a path such as
/// `changePack.changes[0].id`): the sentence starts with the path, and ``YorkieError/field``
/// holds it for code to match on.
package func wireDataError(_ field: String, _ what: String) -> YorkieError {
  YorkieError(.invalidWireData, "\(field): \(what)", field: field)
}

/// Decodes base64 in the standard or URL-safe alphabet, padded or not (``Base64``).
package func decodeBase64Leniently(_ text: String) -> Data? {
  Base64.decode(text).map { Data($0) }
}
