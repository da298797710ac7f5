import CRDT
import Foundation

/// `google.rpc.ErrorInfo`, the detail Yorkie attaches to its errors.
///
/// Its `metadata["code"]` is Yorkie's name for the error, such as `ErrDocumentNotAttached`.
public struct ErrorInfo: Sendable, Equatable {
  /// The error's reason, a constant identifier.
  public var reason: String
  /// The error's domain, such as the service's name.
  public var domain: String
  /// Further facts; Yorkie puts its error name under `code`.
  public var metadata: [String: String]

  /// Creates an error info.
  public init(reason: String = "", domain: String = "", metadata: [String: String] = [:]) {
    self.reason = reason
    self.domain = domain
    self.metadata = metadata
  }

  /// The binary protobuf encoding (metadata entries in key order).
  public var binary: Data {
    var w = ProtoWriter()
    w.string(1, reason)
    w.string(2, domain)
    for key in metadata.keys.sorted() {
      w.message(3) { w in
        w.string(1, key)
        w.string(2, metadata[key]!)
      }
    }
    return w.data
  }

  /// Decodes the binary protobuf encoding.
  ///
  /// - Throws: `YorkieError` `invalidWireData` for malformed bytes.
  public init(binary: Data) throws(YorkieError) {
    var info = ErrorInfo()
    // The binary reader lives in CRDT and throws untyped; every error it raises is a YorkieError.
    do {
      try ProtoReader.withReader(binary, context: "ErrorInfo") { r in
        while let (field, type) = try r.nextField() {
          switch field {
          case 1: try r.expect(type, .lengthDelimited, field: field); info.reason = try r.string()
          case 2: try r.expect(type, .lengthDelimited, field: field); info.domain = try r.string()
          case 3:
            try r.expect(type, .lengthDelimited, field: field)
            var entry = try r.message()
            var key = ""
            var value = ""
            while let (field, type) = try entry.nextField() {
              switch field {
              case 1: try entry.expect(type, .lengthDelimited, field: field); key = try entry.string()
              case 2: try entry.expect(type, .lengthDelimited, field: field); value = try entry.string()
              default: try entry.skip(type)
              }
            }
            info.metadata[key] = value
          default: try r.skip(type)
          }
        }
      }
    } catch {
      throw error as? YorkieError ?? YorkieError(.invalidWireData, "ErrorInfo: \(error)", underlying: error)
    }
    self = info
  }
}
