import Foundation
import YorkieProtocol

/// Replays one recording against a running server and collects every mismatch.
///
/// In order: the foreign changes the recording pulls are seeded (``ReplaySeedPlan``); each
/// recorded request is sent with its ids mapped to the server's (``ReplayIDMap``), unary answers
/// are compared at once, streams stay open and collect frames on their connection's reader;
/// after each exchange the replay waits (a few seconds at most) until every open stream has
/// delivered the frames the recording says arrived by then, reproduces what the notes say
/// happened next (a Go client's pushes, a closed stream, a server stop), and closes the streams
/// the recorder closed there (``ReplayStreamSchedule``). At the end every stream's frames are
/// compared with the recorded ones, in order (``ReplayFrameMatcher``).
final class ReplayRunner {
  /// The recording being replayed.
  let recording: ReplayRecording
  /// The server's HTTP side.
  let transport: ReplayTransport
  /// Stops the server (for a recording that stopped its server).
  let stopServer: () -> Void

  private let plan: ReplaySeedPlan
  private var ids = ReplayIDMap()
  private var mismatches: [ReplayMismatch] = []
  private var answered = 0
  private var matchedFrames = 0
  private var toleratedRepeats = 0

  /// What a replay found: the mismatches, and how much was compared (so that a replay that
  /// compared nothing cannot pass unnoticed).
  struct Outcome {
    /// Every mismatch; empty when the server answered as recorded.
    let mismatches: [ReplayMismatch]
    /// Exchanges that got an answer (a unary response, or a stream's response head).
    let answeredExchanges: Int
    /// Recorded stream frames the replay expected (deliberately unsent ones left out).
    let expectedFrames: Int
    /// Expected frames matched by delivered ones.
    let matchedFrames: Int
    /// Delivered DOCUMENT_CHANGED repeats tolerated (no batching).
    let toleratedRepeats: Int
  }
  private var streams: [OpenStream] = []
  private var seedClients: [String: SeedClient] = [:]
  private var serverStopped = false

  /// A stream the replay opened.
  private final class OpenStream {
    let exchange: RecordedExchange
    let connection: ReplayConnection
    let expected: [ReplayFrame]
    let closeAfter: Int?
    var closed = false

    /// A stream opened for `exchange`.
    init(exchange: RecordedExchange, connection: ReplayConnection, expected: [ReplayFrame], closeAfter: Int?) {
      self.exchange = exchange
      self.connection = connection
      self.expected = expected
      self.closeAfter = closeAfter
    }
  }

  /// A seed client: our id, the seeded document's id, its last known serverSeq.
  private struct SeedClient {
    var clientID: String
    var documentID: String?
    var serverSeq: Int64
  }

  /// A runner for `recording` against the server on `port`.
  ///
  /// - Throws: ``ReplayError`` when the recording's foreign changes cannot be seeded.
  init(recording: ReplayRecording, port: Int, stopServer: @escaping () -> Void) throws {
    self.recording = recording
    self.transport = ReplayTransport(port: port)
    self.stopServer = stopServer
    self.plan = try ReplaySeedPlan(recording)
  }

  /// Runs the replay.
  func run() -> Outcome {
    for note in recording.notes where note.event == .unknown || note.afterExchange == nil {
      report(nil, "note", "the replay does not know how to reproduce this note: \(note.text)")
    }
    for episode in plan.episodes(after: nil) { seed(episode, actor: nil, exchange: nil) }
    for exchange in recording.exchanges {
      if serverStopped {
        report(exchange.index, exchange.rpc, "not replayed: the recording stopped the server before it")
        continue
      }
      perform(exchange)
      afterExchange(exchange.index)
    }
    finish()
    return Outcome(mismatches: mismatches, answeredExchanges: answered,
                   expectedFrames: streams.reduce(0) { $0 + $1.expected.count }, matchedFrames: matchedFrames, toleratedRepeats: toleratedRepeats)
  }

  // MARK: Exchanges

  /// Sends one recorded request and compares a unary answer (streams are compared at the end).
  private func perform(_ exchange: RecordedExchange) {
    let entry = ReplayDeliberateDifferences.entry(file: recording.name, exchange: exchange.index)
    var body: [UInt8]?
    switch exchange.request {
    case .json(let json): body = ids.mapRequest(json).bytes
    case .raw(let text): body = Array(text.utf8)
    case .none: body = nil
    }
    if exchange.isStream {
      openStream(exchange, message: body ?? [])
      return
    }
    do {
      var response = try transport.unary(method: exchange.httpMethod, path: exchange.path, headers: exchange.requestHeaders, body: body)
      if case .refusedThenSubstitute(let status, let code, let substitute)? = entry?.rule, case .json(let request) = exchange.request {
        let answeredCode = (try? WireJSON.parse(response.body))?["code"]?.replayString
        if response.status != status || answeredCode != code {
          report(exchange.index, exchange.rpc, "deliberate difference not observed (\(entry!.reason)): expected HTTP \(status) \(code) got HTTP \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))")
          if response.status == exchange.status { compareUnary(exchange, response, entry) }
          return
        }
        response = try transport.unary(method: exchange.httpMethod, path: exchange.path, headers: exchange.requestHeaders,
                                       body: ids.mapRequest(substitute(request)).bytes)
      }
      compareUnary(exchange, response, entry)
    } catch {
      report(exchange.index, exchange.rpc, "no answer: \(error)")
    }
  }

  /// Compares a unary answer with the recorded one; binds the ids it introduces.
  private func compareUnary(_ exchange: RecordedExchange, _ response: ReplayHTTPResponse, _ entry: ReplayDeliberateDifferences.Entry?) {
    answered += 1
    let ourText = String(decoding: response.body.prefix(400), as: UTF8.self)
    guard response.status == exchange.status else {
      report(exchange.index, exchange.rpc, "HTTP status: expected \(exchange.status) got \(response.status) (body: \(ourText))")
      return
    }
    compareHeaders(exchange, response.headers)
    switch exchange.response {
    case .none:
      if !response.body.isEmpty { report(exchange.index, exchange.rpc, "body: expected none got \(ourText)") }
    case .raw(let text):
      if String(decoding: response.body, as: UTF8.self) != text {
        report(exchange.index, exchange.rpc, "body: expected \(text.debugDescription) got \(ourText.debugDescription)")
      }
    case .json(let recorded):
      guard let ours = try? WireJSON.parse(response.body) else {
        report(exchange.index, exchange.rpc, "body: expected JSON got \(ourText.debugDescription)")
        return
      }
      for key in ["clientId", "documentId", "sessionId"] {
        guard let recordedID = recorded[key]?.replayString, recordedID.count == 24, let ourID = ours[key]?.replayString else { continue }
        if let conflict = ids.bind(recordedHex: recordedID, ourHex: ourID) { report(exchange.index, exchange.rpc, "\(key): \(conflict)") }
      }
      var expected = ReplayNormalizer.unaryBody(recorded, status: exchange.status)
      var actual = ids.mapResponse(ReplayNormalizer.unaryBody(ours, status: response.status))
      if case .snapshotLiveContent(let ignoring)? = entry?.rule {
        expected = ReplayRunner.liveSnapshot(expected, ignoring: ignoring)
        actual = ReplayRunner.liveSnapshot(actual, ignoring: ignoring)
      }
      if case .nestedMovedAtEqualToCreatedAt? = entry?.rule {
        let drop: ([WireJSON.Member]) -> [WireJSON.Member] = { members in
          guard let created = members.first(where: { $0.key == "createdAt" })?.value else { return members }
          return members.filter { !($0.key == "movedAt" && $0.value == created) }
        }
        expected = expected.replayMappingObjects(drop)
        actual = actual.replayMappingObjects(drop)
      }
      for difference in ReplayComparator.differences(expected: expected, actual: actual) {
        report(exchange.index, exchange.rpc, difference.description)
      }
    }
  }

  /// Compares the protocol-relevant response header fields the recording kept, except
  /// `Accept-Encoding` and `Connect-Accept-Encoding`: the dev server implements no compression
  /// and rightly advertises none (a deliberate difference, see the fixture README).
  private func compareHeaders(_ exchange: RecordedExchange, _ headers: [String: String]) {
    let deliberate = ReplayDeliberateDifferences.entry(file: recording.name, exchange: exchange.index)?.rule
    for name in exchange.responseHeaders.keys.sorted() where !["accept-encoding", "connect-accept-encoding"].contains(name) {
      guard var expected = exchange.responseHeaders[name] else { continue }
      if case .header(name, let value)? = deliberate { expected = value }
      let normalize = { (value: String) in value.lowercased().replacingOccurrences(of: " ", with: "") }
      guard let actual = headers[name] else {
        report(exchange.index, exchange.rpc, "header \(name): expected \(expected.debugDescription) got (absent)")
        continue
      }
      if normalize(actual) != normalize(expected) {
        report(exchange.index, exchange.rpc, "header \(name): expected \(expected.debugDescription) got \(actual.debugDescription)")
      }
    }
  }

  /// `json` with its decoded `changePack.snapshot` replaced by its live content and the
  /// `ignoring` paths (dotted) removed.
  static func liveSnapshot(_ json: WireJSON, ignoring: [String]) -> WireJSON {
    var result = json
    if let pack = json["changePack"], let decoded = pack["snapshot"]?[ReplayNormalizer.decodedKey("Snapshot")] {
      let live = WireJSON.object([.init("(live content of Snapshot)", ReplaySnapshotContent.live(decoded))])
      result = result.replaySetting("changePack", pack.replaySetting("snapshot", live))
    }
    for path in ignoring { result = removing(path.split(separator: ".").map(String.init)[...], from: result) }
    return result
  }

  /// `json` without the member at `path`.
  private static func removing(_ path: ArraySlice<String>, from json: WireJSON) -> WireJSON {
    guard let first = path.first else { return json }
    if path.count == 1 { return json.replaySetting(first, nil) }
    guard let child = json[first] else { return json }
    return json.replaySetting(first, removing(path.dropFirst(), from: child))
  }

  // MARK: Streams

  /// Opens a recorded stream and checks its response head.
  private func openStream(_ exchange: RecordedExchange, message: [UInt8]) {
    var notSent: [Int] = []
    if case .framesNotSent(let frames)? = ReplayDeliberateDifferences.entry(file: recording.name, exchange: exchange.index)?.rule {
      notSent = frames
    }
    let expected = exchange.frames.enumerated().filter { !notSent.contains($0.offset) }.map { _, frame -> ReplayFrame in
      let normalized = ReplayNormalizer.frame(frame.json)
      return ReplayFrame(flags: frame.flags, json: normalized.json, seq: normalized.seq, receivedAfterExchange: frame.receivedAfterExchange)
    }
    do {
      let connection = try transport.openStream(path: exchange.path, headers: exchange.requestHeaders, message: message)
      var head: ReplayHTTPResponse?
      connection.wait(timeout: 5) { bytes, eof in
        head = try? ReplayHTTPResponse.parse(bytes, endOfFile: eof)
        return head != nil
      }
      if let head {
        answered += 1
        if head.status != exchange.status {
          report(exchange.index, exchange.rpc, "HTTP status: expected \(exchange.status) got \(head.status) (body: \(String(decoding: head.body.prefix(300), as: UTF8.self)))")
        } else {
          compareHeaders(exchange, head.headers)
        }
      } else {
        report(exchange.index, exchange.rpc, "no response head within 5 s")
      }
      streams.append(OpenStream(exchange: exchange, connection: connection, expected: expected,
                                closeAfter: ReplayStreamSchedule.closeAfter(exchange, in: recording)))
    } catch {
      report(exchange.index, exchange.rpc, "could not open the stream: \(error)")
    }
  }

  /// The frames delivered on a stream so far, normalized and mapped to recorded ids.
  private func frames(_ bytes: [UInt8], _ endOfFile: Bool) -> [ReplayFrame] {
    guard let response = try? ReplayHTTPResponse.parse(bytes, endOfFile: endOfFile), response.status == 200 else { return [] }
    return response.envelopes.frames.map { envelope in
      let payload = (try? WireJSON.parse(envelope.payload)) ?? .string("(not JSON) " + String(decoding: envelope.payload, as: UTF8.self))
      let normalized = ReplayNormalizer.frame(payload)
      return ReplayFrame(flags: Int(envelope.flags), json: ids.mapResponse(normalized.json), seq: normalized.seq, receivedAfterExchange: nil)
    }
  }

  /// Waits until every open stream has delivered the frames recorded up to exchange `index`
  /// (or delivered something else, or the time is up; the final comparison reports it).
  private func waitForFrames(upTo index: Int) {
    for stream in streams where !stream.closed {
      let expected = stream.expected.filter { ($0.receivedAfterExchange ?? 0) <= index }
      guard !expected.isEmpty else { continue }
      var timeout = 3.0
      if let milliseconds = stream.exchange.timeoutMilliseconds, expected.contains(where: { $0.flags & 2 != 0 }) {
        timeout += Double(milliseconds) / 1000
      }
      stream.connection.wait(timeout: timeout) { bytes, eof in
        if case .incomplete = ReplayFrameMatcher.match(expected: expected, actual: frames(bytes, eof)) { return false }
        return true
      }
    }
  }

  /// Closes a stream on the client side (the server sees the connection go away).
  private func close(_ stream: OpenStream) {
    guard !stream.closed else { return }
    stream.closed = true
    // What arrived is kept: the connection's buffer outlives the socket.
    stream.connection.close()
  }

  /// What happens after exchange `index`: waiting for frames, the notes, closing streams.
  private func afterExchange(_ index: Int) {
    waitForFrames(upTo: index)
    for note in recording.notes where note.afterExchange == index {
      switch note.event {
      case .foreignClient(let role):
        guard let id = recording.id(role: role) else {
          report(index, "note", "the note names ids.\(role), which the recording does not list")
          continue
        }
        for episode in plan.episodes(after: index) { seed(episode, actor: id.hex, exchange: index) }
      case .streamClosed(let role):
        let hex = recording.id(role: role)?.hex
        for stream in streams where stream.closeAfter == index && ReplayRunner.clientID(of: stream.exchange) == hex { close(stream) }
      case .serverStopped:
        stopServer()
        serverStopped = true
      case .unknown:
        break  // reported at the start
      }
      waitForFrames(upTo: index)
    }
    for stream in streams where stream.closeAfter == index { close(stream) }
  }

  /// Compares every stream's frames with the recording and closes what is still open.
  private func finish() {
    if streams.contains(where: { !$0.closed }) { Thread.sleep(forTimeInterval: 0.3) }
    for stream in streams {
      let received = stream.connection.received
      let delivered = frames(received.bytes, received.endOfFile)
      close(stream)
      let exchange = stream.exchange
      switch ReplayFrameMatcher.match(expected: stream.expected, actual: delivered) {
      case .complete(let extra):
        matchedFrames += stream.expected.count
        toleratedRepeats += extra
      case .incomplete(let next):
        let missing = stream.expected[next...].prefix(3).map { "after exchange \($0.receivedAfterExchange ?? -1): \($0.json.replayShort)" }
        report(exchange.index, exchange.rpc, "frames[\(next)...]: expected \(stream.expected.count - next) more frame(s) (\(missing.joined(separator: "; "))) got none (\(delivered.count) delivered)")
      case .failed(let actual, let expected, let differences):
        let when = expected.map { "recorded frame \($0), received after exchange \(stream.expected[$0].receivedAfterExchange ?? -1)" } ?? "beyond the recorded frames"
        for difference in differences {
          report(exchange.index, exchange.rpc, "frames[\(actual)] (\(when)): \(difference)")
        }
      }
      let seqs = delivered.compactMap(\.seq)
      if zip(seqs, seqs.dropFirst()).contains(where: { $0 >= $1 }) {
        report(exchange.index, exchange.rpc, "channel event seq: expected increasing got \(seqs)")
      }
    }
  }

  /// The `clientId` of a recorded request.
  private static func clientID(of exchange: RecordedExchange) -> String? {
    if case .json(let body) = exchange.request { return body["clientId"]?.replayString }
    return nil
  }

  // MARK: Seeding

  /// Pushes the steps of `episode` (only those of `actor`, when given) through seed clients.
  private func seed(_ episode: ReplaySeedPlan.Episode, actor: String?, exchange: Int?) {
    for step in episode.steps where actor == nil || step.actorHex == actor {
      let key = episode.documentKey + "/" + step.actorHex
      do {
        var client: SeedClient
        if step.call == .attach || seedClients[key] == nil {
          let activation = try transport.post("ActivateClient", .object([.init("clientKey", .string("replay-seed-\(step.actorHex.prefix(8))"))]))
          guard activation.status == 200, let clientID = activation.body?["clientId"]?.replayString else {
            report(exchange, "seed", "ActivateClient for actor \(step.actorHex) failed: HTTP \(activation.status) \(activation.body?.replayShort ?? "")")
            return
          }
          if let conflict = ids.bind(recordedHex: step.actorHex, ourHex: clientID) { report(exchange, "seed", conflict) }
          client = SeedClient(clientID: clientID, documentID: nil, serverSeq: 0)
        } else {
          client = seedClients[key]!
        }
        let vector = WireJSON.object(step.versionVector.map { WireJSON.Member($0.actor, .string(String($0.lamport))) })
        let pack = WireJSON.object([
          .init("documentKey", .string(episode.documentKey)),
          .init("checkpoint", .object([.init("serverSeq", .string(String(client.serverSeq))), .init("clientSeq", .number(String(step.clientSeq)))])),
          .init("changes", .array([step.change])),
          .init("versionVector", .object([.init("vector", vector)])),
        ])
        var request: [WireJSON.Member] = [.init("clientId", .string(client.clientID))]
        if step.call != .attach { request.append(.init("documentId", .string(client.documentID ?? ""))) }
        request.append(.init("changePack", pack))
        let rpc = step.call == .attach ? "AttachDocument" : step.call == .pushPull ? "PushPullChanges" : "DetachDocument"
        let answer = try transport.post(rpc, ids.mapRequest(.object(request)))
        guard answer.status == 200, let body = answer.body else {
          report(exchange, "seed", "\(rpc) of the change the recording has as serverSeq \(step.recordedServerSeq) (actor \(step.actorHex), document \(episode.documentKey)): HTTP \(answer.status) \(answer.body?.replayShort ?? "")")
          return
        }
        if let documentID = body["documentId"]?.replayString { client.documentID = documentID }
        client.serverSeq = body["changePack"]?["checkpoint"]?["serverSeq"]?.replayInt ?? client.serverSeq
        if client.serverSeq != step.recordedServerSeq {
          report(exchange, "seed", "the change the recording has as serverSeq \(step.recordedServerSeq) (actor \(step.actorHex), document \(episode.documentKey)) was stored as serverSeq \(client.serverSeq)")
        }
        seedClients[key] = client
      } catch {
        report(exchange, "seed", "pushing the change recorded as serverSeq \(step.recordedServerSeq): \(error)")
        return
      }
    }
  }

  /// Records a mismatch.
  private func report(_ exchange: Int?, _ rpc: String, _ detail: String) {
    mismatches.append(ReplayMismatch(file: recording.name, exchange: exchange, rpc: rpc, detail: detail))
  }
}
