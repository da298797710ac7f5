import Foundation
import YorkieProtocol

// The channel RPCs (yorkie-protocol.md section 3.10) over ``ChannelRegistry``.

extension ServiceState {
  /// AttachChannel: a session of `client` in `key` (the existing one if it has one).
  package mutating func attachChannel(client clientID: ResourceID, project: String, key: String, now: Double)
    throws(ServiceError) -> (session: ResourceID, count: Int64, effects: ServiceEffects)
  {
    let key = try RequestValidation.channelKey(key)
    _ = try activeClient(clientID, project: project, now: now)
    let path = ChannelRegistry.ChannelPath(project: project, key: key)
    let newID = newSessionID()
    let (session, event) = channels.attach(client: clientID, channel: path, newID: newID, now: now, ttl: settings.channelSessionTTL)
    var effects = ServiceEffects()
    if let event { effects.channelEvents.append(event) }
    return (session.id, channels.count(path), effects)
  }

  /// DetachChannel: ends the client's session.
  package mutating func detachChannel(client clientID: ResourceID, project: String, key: String, session: String, now: Double)
    throws(ServiceError) -> (count: Int64, effects: ServiceEffects)
  {
    let key = try RequestValidation.channelKey(key)
    let sessionID = try RequestValidation.objectID(session)
    _ = try activeClient(clientID, project: project, now: now)
    let path = ChannelRegistry.ChannelPath(project: project, key: key)
    guard let found = channels.session(sessionID), found.channel == path, found.client == clientID,
      let event = channels.detach(sessionID)
    else { throw .sessionNotFound(session, action: "detach") }
    var effects = ServiceEffects()
    effects.channelEvents.append(event)
    return (channels.count(path), effects)
  }

  /// RefreshChannel: keeps a session alive, or, without a session id, activates a new client
  /// and attaches it in one call (Yorkie's "first call").
  package mutating func refreshChannel(
    client clientText: String, project: String, key: String, session: String, clientKey: String, metadata: [String: String], now: Double
  ) throws(ServiceError) -> (count: Int64, client: ResourceID?, session: ResourceID?, effects: ServiceEffects) {
    let key = try RequestValidation.channelKey(key)
    let path = ChannelRegistry.ChannelPath(project: project, key: key)
    if session.isEmpty {
      var (clientID, effects) = try activateClient(key: clientKey, metadata: metadata, project: project, now: now)
      let attached = try attachChannel(client: clientID, project: project, key: key, now: now)
      effects.append(attached.effects)
      return (attached.count, clientID, attached.session, effects)
    }
    let clientID = try RequestValidation.clientID(clientText)
    let sessionID = try RequestValidation.objectID(session)
    _ = try activeClient(clientID, project: project, now: now)
    guard channels.session(sessionID)?.channel == path, channels.refresh(sessionID, now: now, ttl: settings.channelSessionTTL) else {
      throw .sessionNotFound(session, action: "refresh")
    }
    return (channels.count(path), nil, nil, ServiceEffects())
  }

  /// PeekChannel: the channel's session count; no client needed.
  package func peekChannel(project: String, key: String) throws(ServiceError) -> Int64 {
    let key = try RequestValidation.channelKey(key)
    return channels.count(ChannelRegistry.ChannelPath(project: project, key: key))
  }

  /// Broadcast: checks the client and the key; the event goes to the channel's watchers
  /// except the publisher's streams.
  package mutating func broadcast(client clientID: ResourceID, project: String, key: String, topic: String, payload: Data, now: Double)
    throws(ServiceError) -> ServiceEffects
  {
    let key = try RequestValidation.channelKey(key)
    _ = try activeClient(clientID, project: project, now: now)
    var effects = ServiceEffects()
    effects.channelEvents.append(ChannelEvent(
      channel: key, project: project,
      event: WireChannelEvent(type: .broadcast, publisher: clientID.hex, topic: topic, payload: payload), excluded: clientID))
    return effects
  }

  /// Ends expired sessions.
  package mutating func expireChannelSessions(now: Double) -> ServiceEffects {
    var effects = ServiceEffects()
    effects.channelEvents = channels.expire(now: now)
    return effects
  }

  /// A fresh session id.
  private mutating func newSessionID() -> ResourceID {
    while true {
      let id = ids.next()
      if channels.session(id) == nil { return id }
    }
  }
}

