import CRDT
import Foundation

/// A message of Yorkie's API in Connect's JSON codec (protobuf's canonical JSON mapping).
///
/// Every request and response of `yorkie.v1.YorkieService` conforms, as do the messages they
/// contain and Connect's own ``ConnectError`` and ``ConnectEndOfStream``. Encode a message with
/// ``jsonData`` and decode one with ``init(jsonData:)``:
///
/// ```swift
/// let body = request.jsonData                        // the HTTP request body
/// let response = try PushPullChangesResponse(jsonData: responseBody)
/// ```
///
/// Decoding follows Go's `protojson` (what the server uses) with one deliberate difference:
/// an enum *name* this SDK does not know is an error, not silently 0. Names are accepted in
/// lowerCamelCase and in the proto's snake_case; `null` reads as the default; 64-bit integers
/// as strings or numbers; bytes as standard or URL-safe base64, padded or not; enums by name or
/// number; unknown members are ignored. Encoding is canonical: lowerCamelCase, default values
/// omitted, 64-bit integers as strings, bytes as padded standard base64, enums by name.
///
/// Errors are `YorkieError`s with code `invalidWireData` whose
/// `YorkieError.field` is the path of the offending member, starting with the message's
/// type name (`PushPullChangesRequest.changePack.checkpoint.serverSeq`); malformed JSON text
/// names the byte offset instead.
public protocol WireMessage: Sendable, Equatable {
  /// Decodes the message from a parsed JSON value.
  ///
  /// - Parameters:
  ///   - json: The value; `null` reads as the message with every field at its default.
  ///   - path: Where the value sits, the start of every error's field path.
  /// - Throws: `YorkieError` `invalidWireData`, naming the offending field.
  init(json: WireJSON, path: String) throws(YorkieError)

  /// The message in canonical JSON.
  var json: WireJSON { get }
}

extension WireMessage {
  /// Decodes the message from a parsed JSON value; errors name fields from the type's name.
  ///
  /// - Throws: `YorkieError` `invalidWireData`, naming the offending field.
  public init(json: WireJSON) throws(YorkieError) {
    try self.init(json: json, path: String(describing: Self.self))
  }

  /// Decodes the message from UTF-8 JSON text, such as an HTTP body or an envelope's payload.
  ///
  /// - Throws: `YorkieError` `invalidWireData`: for malformed JSON the message names
  ///   the byte offset; otherwise `YorkieError.field` is the offending field's path.
  /// - Complexity: O(*n*) in the size of the text.
  public init(jsonData bytes: some Collection<UInt8>) throws(YorkieError) {
    let text = Array(bytes)
    // The messages of pushes and pulls in canonical form are read straight from the text
    // (CanonicalDecoder.swift); anything else, and every error, through the tree.
    if let message = WireJSONParser.decodeCanonical(Self.self, text) {
      self = message
      return
    }
    try self.init(json: try WireJSON.parse(text))
  }

  /// Decodes the message from JSON text.
  ///
  /// - Throws: `YorkieError` `invalidWireData`, as ``init(jsonData:)`` does.
  public init(jsonText text: String) throws(YorkieError) { try self.init(jsonData: Array(text.utf8)) }

  /// The message as compact, canonical UTF-8 JSON text: an HTTP body or an envelope's payload.
  public var jsonData: Data { Data(jsonBytes) }

  /// The message as compact, canonical UTF-8 JSON text. This package's messages write it
  /// straight from their fields; others go through ``json``.
  package var jsonBytes: [UInt8] {
    if let message = self as? any ProtoJSONMessage { return message.protoJSONBytes }
    return json.bytes
  }

  /// The message as compact, canonical JSON text.
  public var jsonText: String { json.text }
}
