import Foundation
import YorkieClient

/// What one client sees of the others, logged as it happens: remote changes with their
/// operations, peers joining and leaving, cursor moves, broadcasts, and any retry or stop of
/// the client's connection.
actor PeerObserver {
  /// The observing client's name.
  nonisolated let name: String
  /// Where lines go.
  private let log: DemoLog
  /// A remote change waiting for its author's presence (a scripted change carries both; the
  /// two are logged as one line).
  private var pending: (author: ActorID, line: String)?
  /// The names of the peers this client sees online.
  private(set) var peersOnline: Set<String> = []
  /// The broadcasts received.
  private(set) var broadcasts: [BroadcastMessage] = []
  /// The highest session count of the channel seen so far. The latest count is not used: it
  /// can fall back to a stale value for a while (see `counted(_:)`).
  private(set) var mostSessionsSeen = 0
  /// When the last event arrived, in the log's seconds.
  private(set) var lastEventAt = 0.0
  /// The loops reading the streams.
  private var tasks: [Task<Void, Never>] = []

  /// An observer for the client `name`.
  init(name: String, log: DemoLog) {
    self.name = name
    self.log = log
  }

  /// Starts reading `document`'s events (subscribed before this returns, so nothing is missed).
  func watch(_ document: Document) async {
    let stream = await document.events()
    tasks.append(Task { [weak self] in
      for await event in stream { await self?.handle(event) }
    })
  }

  /// Starts reading `channel`'s broadcasts and session counts (call it before attaching).
  func listen(to channel: Channel) {
    let stream = channel.broadcasts
    tasks.append(Task { [weak self] in
      for await message in stream { await self?.received(message) }
    })
    let counts = channel.sessionCounts
    tasks.append(Task { [weak self] in
      for await count in counts { await self?.counted(count) }
    })
  }

  /// Starts reading `client`'s connection events; only trouble is logged.
  func listen(to client: Client) {
    let stream = client.events()
    tasks.append(Task { [weak self] in
      for await event in stream { await self?.handle(event) }
    })
  }

  /// Logs what is still pending.
  func flush() {
    guard let waiting = pending else { return }
    pending = nil
    log.event(name, waiting.line)
  }

  /// Stops reading.
  func stop() {
    flush()
    for task in tasks { task.cancel() }
    tasks = []
  }

  // MARK: - Events

  /// Logs a document event.
  private func handle(_ event: DocEvent) {
    lastEventAt = log.elapsed
    switch event {
    case .remoteChange(let change):
      flush()
      let kinds = change.operations.map(\.type.rawValue).reduce(into: [String]()) { kinds, kind in
        if !kinds.contains(kind) { kinds.append(kind) }
      }
      let count = change.operations.count
      var line = "◂ \(log.name(of: change.actorID))"
      if let message = change.message { line += " \(message)" }
      line += ": \(count) op\(count == 1 ? "" : "s") (\(kinds.joined(separator: ", ")))"
      pending = (change.actorID, line)
    case .presenceChanged(let peer):
      let author = log.name(of: peer.actorID)
      guard author != name else { return }
      let cursor = peer.presence["cursor"].map(\.jsonString) ?? "none"
      if let waiting = pending, waiting.author == peer.actorID {
        pending = nil
        log.event(name, waiting.line + ", cursor \(cursor)")
      } else {
        flush()
        log.event(name, "◂ \(author) moved the cursor to \(cursor)")
      }
    case .initialized(let peers):
      flush()
      peersOnline = Set(peers.map { log.name(of: $0.actorID) }.filter { $0 != name })
    case .watched(let peer):
      flush()
      let peerName = log.name(of: peer.actorID)
      peersOnline.insert(peerName)
      let color = peer.presence["color"]?.string ?? "no color"
      log.event(name, "◂ \(peerName) joined (\(color), cursor \(peer.presence["cursor"].map(\.jsonString) ?? "none"))")
    case .unwatched(let peer):
      flush()
      let peerName = log.name(of: peer.actorID)
      peersOnline.remove(peerName)
      log.event(name, "◂ \(peerName) left")
    case .snapshot:
      flush()
      log.event(name, "◂ received a snapshot of the document")
    case .overwritten(let notice):
      flush()
      log.event(name, "◂ \(log.name(of: notice.actorID)) replaced \(notice.path), losing this client's \(notice.lostContent.jsonString)")
    case .localChange, .statusChanged, .historyChanged:
      flush()
    }
  }

  /// Logs a broadcast.
  private func received(_ message: BroadcastMessage) {
    lastEventAt = log.elapsed
    flush()
    broadcasts.append(message)
    log.event(name, "◂ broadcast \(JSONValue.string(message.topic).jsonString) from \(message.publisher.map(log.name(of:)) ?? "an unnamed client"): \(message.payload.jsonString)")
  }

  /// Records a session count. Past the count of its own attach, a count comes from the
  /// channel's Watch stream (or from a heartbeat, every 5 s), so a count above that one means
  /// the stream is up and broadcasts will arrive. (`Channel.sessionCount` itself can go back to
  /// a stale count: a heartbeat's answer, computed before a newer stream event, may be applied
  /// after it.)
  private func counted(_ count: Int) {
    mostSessionsSeen = max(mostSessionsSeen, count)
  }

  /// Logs a client event that means trouble (retries, stops, auth errors, store damage, resets).
  private func handle(_ event: ClientEvent) {
    switch event {
    case .retrying, .stopped, .authError, .storeDamaged, .documentReset:
      flush()
      log.event(name, "! \(event)")
    case .statusChanged, .connectionChanged, .syncStatusChanged, .channelAttached:
      break
    }
  }
}
