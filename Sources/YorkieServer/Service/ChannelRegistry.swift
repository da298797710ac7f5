import YorkieProtocol

/// The channel sessions of the server (yorkie-protocol.md section 3.10): lightweight rooms that
/// count live sessions and relay broadcasts. Nothing here is durable, as in Yorkie.
///
/// A session lives until it is detached or until it has not been refreshed for the TTL. Each
/// change of a channel's count makes a PRESENCE event with the new count and the channel's next
/// sequence number (1, 2, 3, … per channel), so that watchers can drop stale counts.
package struct ChannelRegistry: Sendable {
  /// One session.
  package struct Session: Sendable, Equatable {
    /// Its id.
    package var id: ResourceID
    /// The client that holds it.
    package var client: ResourceID
    /// Its channel.
    package var channel: ChannelPath
    /// When it expires unless refreshed (service clock).
    package var expiresAt: Double
  }

  /// A channel key within its project.
  package struct ChannelPath: Hashable, Sendable {
    /// The project's public key.
    package var project: String
    /// The channel key.
    package var key: String
  }

  /// One channel's sessions and sequence.
  private struct Channel: Sendable {
    /// The sessions, by id.
    var sessions: Set<ResourceID> = []
    /// The last PRESENCE sequence number used.
    var seq: Int64 = 0
  }

  /// Every live session, by id.
  private var sessions: [ResourceID: Session] = [:]
  /// Each client's session of each channel.
  private var sessionOfClient: [ChannelPath: [ResourceID: ResourceID]] = [:]
  /// The channels with their counts.
  private var channels: [ChannelPath: Channel] = [:]

  /// An empty registry.
  package init() {}

  /// The number of live sessions of `channel`.
  package func count(_ channel: ChannelPath) -> Int64 {
    Int64(channels[channel]?.sessions.count ?? 0)
  }

  /// The session `id`, if it is live.
  package func session(_ id: ResourceID) -> Session? { sessions[id] }

  /// Attaches `client` to `channel` with a new session `newID` (or returns the session it
  /// already has, refreshed); returns the session, and the PRESENCE event if the count changed.
  package mutating func attach(client: ResourceID, channel: ChannelPath, newID: ResourceID, now: Double, ttl: Double)
    -> (session: Session, event: ChannelEvent?)
  {
    if let existing = sessionOfClient[channel]?[client], var session = sessions[existing] {
      session.expiresAt = now + ttl
      sessions[existing] = session
      return (session, nil)
    }
    let session = Session(id: newID, client: client, channel: channel, expiresAt: now + ttl)
    sessions[newID] = session
    sessionOfClient[channel, default: [:]][client] = newID
    channels[channel, default: Channel()].sessions.insert(newID)
    return (session, presenceEvent(channel))
  }

  /// Ends session `id`; returns the PRESENCE event, or `nil` if there is no such live session.
  package mutating func detach(_ id: ResourceID) -> ChannelEvent? {
    guard let session = sessions.removeValue(forKey: id) else { return nil }
    sessionOfClient[session.channel]?[session.client] = nil
    if sessionOfClient[session.channel]?.isEmpty == true { sessionOfClient[session.channel] = nil }
    channels[session.channel]?.sessions.remove(id)
    // An empty channel keeps its entry: its sequence must keep increasing if it fills again.
    return presenceEvent(session.channel)
  }

  /// Extends session `id` by the TTL; `false` if it is not live.
  package mutating func refresh(_ id: ResourceID, now: Double, ttl: Double) -> Bool {
    guard sessions[id] != nil else { return false }
    sessions[id]!.expiresAt = now + ttl
    return true
  }

  /// Ends every session that expired by `now`; returns their PRESENCE events.
  package mutating func expire(now: Double) -> [ChannelEvent] {
    let expired = sessions.values.filter { $0.expiresAt <= now }.map(\.id).sorted()
    return expired.compactMap { detach($0) }
  }

  /// Ends every session of `client` (it was deactivated); returns the PRESENCE events.
  package mutating func detachAll(of client: ResourceID) -> [ChannelEvent] {
    let owned = sessions.values.filter { $0.client == client }.map(\.id).sorted()
    return owned.compactMap { detach($0) }
  }

  /// The next PRESENCE event of `channel`, with its current count.
  private mutating func presenceEvent(_ channel: ChannelPath) -> ChannelEvent {
    channels[channel, default: Channel()].seq += 1
    let state = channels[channel]!
    return ChannelEvent(
      channel: channel.key, project: channel.project,
      event: WireChannelEvent(type: .presence, sessionCount: Int64(state.sessions.count), seq: state.seq), excluded: nil)
  }
}
