import CRDT
import Foundation

/// The payload of a stream's end-of-stream envelope: `{}` for success, or an error, with
/// trailers.
public struct ConnectEndOfStream: WireMessage {
  /// Why the stream ended, or nil when it ended normally.
  public var error: ConnectError?
  /// Trailers: each name with its values.
  public var metadata: [String: [String]]

  /// Creates an end-of-stream message.
  public init(error: ConnectError? = nil, metadata: [String: [String]] = [:]) {
    self.error = error
    self.metadata = metadata
  }

  /// Decodes the message from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    var metadata: [String: [String]] = [:]
    if let trailers = r.value("metadata") {
      guard case .object(let members) = trailers else { throw r.error("metadata", "expected an object, found \(trailers.kind)") }
      for member in members {
        guard case .array(let values) = member.value else { throw r.error("metadata.\(member.key)", "expected an array of strings") }
        metadata[member.key] = try values.map { (value) throws(YorkieError) in
          guard case .string(let s) = value else { throw r.error("metadata.\(member.key)", "expected a string") }
          return s
        }
      }
    }
    self.init(error: try r.message("error"), metadata: metadata)
  }

  /// The message as JSON (trailers in name order).
  public var json: WireJSON {
    var members: [WireJSON.Member] = []
    if let error { members.append(.init("error", error.json)) }
    if !metadata.isEmpty {
      members.append(.init("metadata", .object(metadata.keys.sorted().map { .init($0, .array(metadata[$0]!.map { .string($0) })) })))
    }
    return .object(members)
  }
}
