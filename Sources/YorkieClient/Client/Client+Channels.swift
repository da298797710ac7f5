import CRDT
import Foundation
import YorkieProtocol

// Channels and broadcasts (Yorkie v0.6.36+: per channel key, not per document).

extension Client {
  /// Attaches `channel`: this client is counted in its sessions and receives its broadcasts
  /// until ``detach(_:)-(Channel)``. A heartbeat keeps the session alive. Returns once the
  /// channel's stream is up (a broadcast sent after that arrives), or after the request
  /// timeout if the stream cannot open (it keeps trying); the channel is then
  /// ``ChannelStatus/attached``.
  ///
  /// When the server cannot be reached (no answer, or a busy or restarting server), this
  /// returns at once with the channel ``ChannelStatus/pending``, as a document is attached
  /// offline: the client retries AttachChannel with the ``ClientOptions/reconnect`` backoff
  /// (each failure a ``ClientEvent/retrying(_:)`` event for ``SyncResource/channel(_:)``), then
  /// opens the stream and sends ``ClientEvent/channelAttached(_:)``. A failure retrying cannot
  /// fix, or the policy's last attempt, ends it: ``ClientEvent/stopped(_:)``, and the channel
  /// is detached.
  ///
  /// - Throws: `clientNotActivated`; `channelAlreadyAttached` when a channel with the same key
  ///   is attached to this client already (pending ones included), or this `Channel` object is
  ///   attached to another client; or the server's error when retrying cannot help (such as
  ///   `permissionDenied`).
  public func attach(_ channel: Channel) async throws {
    let clientID = try requireActive()
    guard channels[channel.key] == nil else {
      throw YorkieError(.channelAlreadyAttached, "a channel with key \"\(channel.key)\" is attached to this client already")
    }
    let session = ChannelSession(
      channel: channel, clientID: clientID, rpc: rpc, environment: options.environment,
      policy: options.reconnect, heartbeat: options.channelHeartbeatInterval, streamTimeout: options.timeouts.request,
      events: hub, onHalt: { [weak self] session in await self?.channelHalted(session) })
    channels[channel.key] = session
    guard await channel.claim(for: session.id) else {
      if channels[channel.key] === session { channels[channel.key] = nil }
      throw YorkieError(
        .channelAlreadyAttached, "this Channel object (key \"\(channel.key)\") is attached to another client, or still detaching: attach a new Channel")
    }
    do {
      try await session.attach()
    } catch {
      if channels[channel.key] === session { channels[channel.key] = nil }
      session.halt()
      await channel.release(from: session.id)
      throw error
    }
  }

  /// Ends this client's session on `channel`. A pending channel (never attached on the
  /// server) ends locally: its retries stop, nothing is sent.
  ///
  /// - Throws: `clientNotActivated`; `channelNotAttached` when this client does not hold
  ///   `channel` (never attached, detached already, or its attach gave up).
  public func detach(_ channel: Channel) async throws {
    _ = try requireActive()
    guard let session = channels[channel.key], session.channel === channel else {
      throw YorkieError(.channelNotAttached, "channel \"\(channel.key)\" is not attached to this client")
    }
    channels[channel.key] = nil
    await session.stop()
  }

  /// A channel session ended on its own (its deferred attach gave up): forget it, so that
  /// the channel can be attached again.
  func channelHalted(_ session: ChannelSession) {
    if channels[session.channel.key] === session { channels[session.channel.key] = nil }
  }

  /// Sends `payload` on the channel `key` to every other client attached to it (the client
  /// need not be attached itself). A failure is thrown, not retried, and nothing is queued: a
  /// broadcast is of the moment. While the server is unreachable (a ``ChannelStatus/pending``
  /// channel among others) it throws `unavailable`; it does not wait for a pending attach.
  public func broadcast(channel key: String, topic: String, payload: JSONValue) async throws {
    let clientID = try requireActive()
    let request = BroadcastRequest(clientID: clientID, channelKey: key, topic: topic, payload: Data(payload.jsonString.utf8))
    let _: BroadcastResponse = try await rpc.call("Broadcast", request, shardKey: key)
  }

  /// The number of sessions on the channel `key`, asked of the server (no attachment needed).
  public func sessionCount(ofChannel key: String) async throws -> Int {
    let response: PeekChannelResponse = try await rpc.call(
      "PeekChannel", PeekChannelRequest(channelKey: key), shardKey: key)
    return Int(clamping: response.sessionCount)
  }
}
