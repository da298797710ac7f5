import Foundation
import YorkieProtocol

/// Brings a response body or stream frame (recorded or received) into the form the comparison
/// works on, applying the README's exceptions and nothing else:
///
/// - binary protobuf values are decoded (`JSONElementSimple.value` of object/array/tree type,
///   `ChangePack.snapshot`, the `google.rpc.ErrorInfo` of error details): the server re-encodes
///   them and their bytes are not stable;
/// - the `message` of an error is dropped (human text that embeds ids; Go even varies its
///   spaces), while `code`, `details[].value` and `details[].debug` stay;
/// - the `seq` of channel events is taken out (a server-wide counter: only its order is
///   compared, by the caller).
enum ReplayNormalizer {
  /// The member name that holds a decoded binary value in place of its base64 text.
  static func decodedKey(_ message: String) -> String { "(binary \(message))" }

  /// A unary response body with status `status`.
  static func unaryBody(_ body: WireJSON, status: Int) -> WireJSON {
    let decoded = decodingBinaryValues(body)
    return status == 200 ? decoded : withoutErrorMessage(decoded)
  }

  /// A stream frame's payload, and the `seq` of the channel event it carries (if any).
  static func frame(_ payload: WireJSON) -> (json: WireJSON, seq: Int64?) {
    var json = decodingBinaryValues(payload)
    if let error = json["error"] { json = json.replaySetting("error", withoutErrorMessage(error)) }
    var seq: Int64?
    if let channelEvent = json["event"]?["channelEvent"], let event = channelEvent["event"], let value = event["seq"] {
      seq = value.replayInt
      let stripped = channelEvent.replaySetting("event", event.replaySetting("seq", nil))
      json = json.replaySetting("event", json["event"]!.replaySetting("channelEvent", stripped))
    }
    return (json, seq)
  }

  /// An error body without its human-readable `message`.
  static func withoutErrorMessage(_ error: WireJSON) -> WireJSON { error.replaySetting("message", nil) }

  /// `json` with each binary value replaced by `{"(binary <Message>)": <decoded>}`; a value
  /// that does not decode becomes `{"(undecodable <Message>)": "<reason>"}`.
  static func decodingBinaryValues(_ json: WireJSON) -> WireJSON {
    json.replayMappingObjects { members in
      var result = members
      for (index, member) in members.enumerated() {
        guard case .string(let text) = member.value else { continue }
        let message: String?
        switch member.key {
        case "snapshot" where !text.isEmpty: message = "Snapshot"
        case "value":
          let type = members.first { $0.key == "type" }?.value
          if type == .string("google.rpc.ErrorInfo") {
            message = "ErrorInfo"
          } else if let type, ReplayIDMap.carriesBinaryElement(type) {
            message = "JSONElement"
          } else {
            message = nil
          }
        default: message = nil
        }
        guard let message else { continue }
        result[index].value = decode(text, as: message)
      }
      return result
    }
  }

  /// The decoded form of base64 `text` holding message `message`.
  static func decode(_ text: String, as message: String) -> WireJSON {
    guard let bytes = ReplayBytes.fromBase64(text) else {
      return .object([WireJSON.Member("(undecodable \(message))", .string("not base64: \(text.prefix(40))"))])
    }
    do {
      return .object([WireJSON.Member(decodedKey(message), try ReplayProtoDecoder.decode(bytes, as: message))])
    } catch {
      return .object([WireJSON.Member("(undecodable \(message))", .string("\(error)"))])
    }
  }
}
