import Foundation
import YorkieProtocol

/// One recorded scenario of `Tests/YorkieProtocolTests/Fixtures/wire` (format in that folder's
/// README), read from the source tree so that a recording dropped into the folder is replayed
/// without any other change. Parsed with `WireJSON`, which keeps int64 values exact.
struct ReplayRecording: Sendable, CustomStringConvertible {
  /// The file name (`13-watch.json`).
  let name: String
  /// The whole file.
  let root: WireJSON
  /// The calls, in the order they were made.
  let exchanges: [RecordedExchange]
  /// Every id of the recording with its role.
  let ids: [RecordedID]
  /// What happened outside the recorded calls, by the exchange it followed.
  let notes: [RecordedNote]

  var description: String { name }

  /// The fixture folder, found from this source file (the tests read the recordings in place).
  static let folder: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Replay
    .deletingLastPathComponent()  // YorkieServerTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("YorkieProtocolTests/Fixtures/wire")

  /// The names of every `*.json` file of the folder, sorted.
  static var names: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }

  /// Reads and parses the recording `name`.
  static func load(_ name: String) throws -> ReplayRecording {
    let data = try Data(contentsOf: folder.appendingPathComponent(name))
    return try ReplayRecording(name: name, root: WireJSON.parse(Array(data)))
  }

  /// Interprets a parsed recording.
  init(name: String, root: WireJSON) throws {
    self.name = name
    self.root = root
    let exchanges = root["exchanges"]?.replayArray ?? []
    self.exchanges = try exchanges.enumerated().map { try RecordedExchange(index: $0.offset, json: $0.element, file: name) }
    self.ids = (root["ids"]?.replayMembers ?? []).compactMap { member in
      guard let hex = member.value["hex"]?.replayString else { return nil }
      return RecordedID(role: member.key, kind: member.value["kind"]?.replayString ?? "", hex: hex)
    }
    self.notes = (root["notes"]?.replayArray ?? []).compactMap { $0.replayString }.map(RecordedNote.init)
  }

  /// The id with role `role`.
  func id(role: String) -> RecordedID? { ids.first { $0.role == role } }

  /// The hex ids of the clients this recording activated itself (ActivateClient, RefreshChannel).
  var activatedClientIDs: Set<String> {
    var result: Set<String> = []
    for exchange in exchanges {
      guard exchange.rpc == "ActivateClient" || exchange.rpc == "RefreshChannel",
            case .json(let body) = exchange.response, let id = body["clientId"]?.replayString else { continue }
      result.insert(id)
    }
    return result
  }
}

/// One id of a recording: `ids.<role>`.
struct RecordedID: Sendable, Equatable {
  /// `clientA`, `document`, `goWriter.writer`, …
  let role: String
  /// `client`, `document`, `session`.
  let kind: String
  /// 24 lower-case hex characters.
  let hex: String
  /// The base64 spelling of the same 12 bytes (actor ids, version-vector keys).
  var base64: String { ReplayBytes.base64(ReplayBytes.fromHex(hex) ?? []) }
}

/// One recorded call.
struct RecordedExchange: Sendable {
  /// Its position in the recording.
  let index: Int
  /// The method name (`PushPullChanges`, `health`, `NoSuchMethod`).
  let rpc: String
  /// `POST` unless the recording says otherwise.
  let httpMethod: String
  /// The request path.
  let path: String
  /// The request header fields, as sent.
  let requestHeaders: [(name: String, value: String)]
  /// The request body.
  let request: Body
  /// The HTTP status.
  let status: Int
  /// The protocol-relevant response header fields.
  let responseHeaders: [String: String]
  /// The response: a body, or the frames of a stream.
  let response: Body
  /// For streams: the frames, in arrival order.
  let frames: [RecordedFrame]
  /// For streams: how the stream ended.
  let streamEnd: String?
  /// What the call demonstrates.
  let note: String?

  /// A request or response body.
  enum Body: Sendable {
    /// No body (`null`).
    case none
    /// A JSON body.
    case json(WireJSON)
    /// A body that is not JSON, as text.
    case raw(String)
  }

  /// Whether this is a server stream (Watch, WatchDocument, WatchChannel).
  var isStream: Bool { streamEnd != nil }

  /// The `Connect-Timeout-Ms` the request carried, in milliseconds.
  var timeoutMilliseconds: Int? {
    requestHeaders.first { $0.name.lowercased() == "connect-timeout-ms" }.flatMap { Int($0.value) }
  }

  /// Reads exchange `index` of recording `file`.
  init(index: Int, json: WireJSON, file: String) throws {
    self.index = index
    guard let rpc = json["rpc"]?.replayString else { throw ReplayError("\(file): exchange \(index) has no rpc") }
    self.rpc = rpc
    httpMethod = json["httpMethod"]?.replayString ?? "POST"
    path = json["path"]?.replayString ?? "/yorkie.v1.YorkieService/\(rpc)"
    requestHeaders = (json["requestHeaders"]?.replayMembers ?? []).compactMap { member in
      member.value.replayString.map { (member.key, $0) }
    }
    if let raw = json["requestRaw"]?.replayString {
      request = .raw(raw)
    } else if let body = json["request"], body != .null {
      request = .json(body)
    } else {
      request = .none
    }
    status = Int(json["status"]?.replayInt ?? 0)
    var headers: [String: String] = [:]
    for member in json["responseHeaders"]?.replayMembers ?? [] {
      if let value = member.value.replayString { headers[member.key.lowercased()] = value }
    }
    responseHeaders = headers
    streamEnd = json["streamEnd"]?.replayString
    note = json["note"]?.replayString
    if streamEnd != nil {
      frames = try (json["response"]?.replayArray ?? []).map { frame in
        guard let flags = frame["flags"]?.replayInt, let body = frame["json"],
              let after = frame["receivedAfterExchange"]?.replayInt else {
          throw ReplayError("\(file): exchange \(index) has a frame without flags, json or receivedAfterExchange")
        }
        return RecordedFrame(flags: Int(flags), json: body, receivedAfterExchange: Int(after))
      }
      response = .none
    } else {
      frames = []
      if let raw = json["responseRaw"]?.replayString {
        response = .raw(raw)
      } else if let body = json["response"], body != .null {
        response = .json(body)
      } else {
        response = .none
      }
    }
  }
}

/// One envelope of a recorded stream.
struct RecordedFrame: Sendable {
  /// 0 = message, 2 = end of stream.
  let flags: Int
  /// The payload.
  let json: WireJSON
  /// The index of the last exchange that had completed when the frame arrived.
  let receivedAfterExchange: Int
}

/// A line of the recording's `notes`: something that happened between two recorded calls.
struct RecordedNote: Sendable {
  /// The exchange the event followed, when the note names one (`after exchange 7: …`).
  let afterExchange: Int?
  /// What happened, as the harness understands it.
  let event: Event
  /// The note as written.
  let text: String

  /// The events the harness knows how to reproduce.
  enum Event: Sendable, Equatable {
    /// A Go SDK client (role `ids.<role>`) attached, pushed what the later pulls show, and detached.
    case foreignClient(role: String)
    /// The recorder closed the stream that client `role` had opened.
    case streamClosed(clientRole: String)
    /// The server process was stopped.
    case serverStopped
    /// Anything else: the replay refuses to guess.
    case unknown
  }

  /// Interprets a note.
  init(_ text: String) {
    self.text = text
    afterExchange = RecordedNote.capture(#"^after exchange (\d+):"#, in: text).flatMap { Int($0) }
    if text.contains("SIGTERM") {
      event = .serverStopped
    } else if let role = RecordedNote.capture(#"closed its Watch connection \(exchange '\w+' of ([\w.]+)\)"#, in: text) {
      event = .streamClosed(clientRole: role)
    } else if text.contains("Go SDK client"), let role = RecordedNote.capture(#"\(ids\.([\w.]+)\)"#, in: text) {
      event = .foreignClient(role: role)
    } else {
      event = .unknown
    }
  }

  /// The first capture group of `pattern` in `text`.
  private static func capture(_ pattern: String, in text: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
          let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), match.numberOfRanges > 1,
          let range = Range(match.range(at: 1), in: text) else { return nil }
    return String(text[range])
  }
}
