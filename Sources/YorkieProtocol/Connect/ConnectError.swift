import CRDT
import Foundation

/// A Connect error: the JSON body of a failed unary call (sent with the code's
/// ``ConnectCode/httpStatus``), or the `error` of an end-of-stream message.
///
/// ```swift
/// if status != 200 {
///   let error = try ConnectError(jsonData: body)
///   if error.yorkieCode == "ErrDocumentNotAttached" { … }
/// }
/// ```
public struct ConnectError: Error, WireMessage, CustomStringConvertible {
  /// The error's code.
  public var code: ConnectCode
  /// A sentence for humans; compare ``code`` and ``yorkieCode`` instead of reading it.
  public var message: String
  /// Typed details, such as Yorkie's ``ErrorInfo``.
  public var details: [ConnectErrorDetail]

  /// Creates an error.
  public init(code: ConnectCode, message: String = "", details: [ConnectErrorDetail] = []) {
    self.code = code
    self.message = message
    self.details = details
  }

  /// Yorkie's name for the error (`ErrDocumentNotAttached`), from the first ``ErrorInfo``
  /// detail that has one; nil when no detail carries it.
  public var yorkieCode: String? {
    details.lazy.compactMap { $0.errorInfo?.metadata["code"] }.first
  }

  /// `code: message`.
  public var description: String { message.isEmpty ? code.rawValue : "\(code.rawValue): \(message)" }

  /// Decodes the error from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    let codeName = try r.string("code")
    guard let code = ConnectCode(rawValue: codeName) else { throw r.error("code", "unknown Connect code \(codeName.debugDescription)") }
    self.init(code: code, message: try r.string("message"), details: try r.repeated("details"))
  }

  /// The error as JSON.
  public var json: WireJSON {
    var members: [WireJSON.Member] = [.init("code", .string(code.rawValue))]
    if !message.isEmpty { members.append(.init("message", .string(message))) }
    if !details.isEmpty { members.append(.init("details", .array(details.map(\.json)))) }
    return .object(members)
  }
}

/// One `details` entry of a ``ConnectError``: a protobuf message in binary, by type name.
public struct ConnectErrorDetail: WireMessage {
  /// The detail's protobuf type without a URL prefix, such as `google.rpc.ErrorInfo`.
  public var type: String
  /// The binary message.
  public var value: Data
  /// The server's JSON rendering of the same message, when it sends one (connect-go does).
  public var debug: WireJSON?

  /// Creates a detail.
  public init(type: String, value: Data, debug: WireJSON? = nil) {
    self.type = type
    self.value = value
    self.debug = debug
  }

  /// A detail carrying `info`.
  public init(_ info: ErrorInfo) {
    self.init(type: "google.rpc.ErrorInfo", value: info.binary)
  }

  /// The detail as an ``ErrorInfo``, when it is one and decodes.
  public var errorInfo: ErrorInfo? {
    guard type == "google.rpc.ErrorInfo" else { return nil }
    return try? ErrorInfo(binary: value)
  }

  /// Decodes the detail from parsed JSON; `path` names it in errors.
  public init(json: WireJSON, path: String) throws(YorkieError) {
    let r = try ProtoJSONReader(json, path: path)
    // Connect writes the value as unpadded base64; the lenient decoder accepts it.
    self.init(type: try r.string("type"), value: try r.bytes("value"), debug: r.value("debug"))
  }

  /// The detail as JSON, its value in unpadded base64 as Connect writes it.
  public var json: WireJSON {
    var entry: [WireJSON.Member] = [.init("type", .string(type))]
    var encoded = value.base64EncodedString()
    while encoded.hasSuffix("=") { encoded.removeLast() }
    entry.append(.init("value", .string(encoded)))
    if let debug { entry.append(.init("debug", debug)) }
    return .object(entry)
  }
}
