import CRDT
import Foundation
import YorkieProtocol

// Channels and broadcasts (Yorkie v0.6.36+: per channel key, not per document).

extension Client {
  /// Attaches `channel`: this client is counted in its sessions and receives its broadcasts
  /// until ``detach(_:)-(Channel)``. A heartbeat keeps the session alive. Returns once the
  /// channel's stream is up (a broadcast sent after that arrives), or after the request
  /// timeout if the stream cannot open (it keeps trying).
  ///
  /// - Throws: `clientNotActivated`, `documentAlreadyAttached` when a channel with the same
  ///   key is attached already, or the server's error.
  public func attach(_ channel: Channel) async throws {
    let clientID = try requireActive()
    guard channels[channel.key] == nil else {
      throw YorkieError(.documentAlreadyAttached, "a channel with key \"\(channel.key)\" is attached to this client already")
    }
    let session = ChannelSession(
      channel: channel, clientID: clientID, rpc: rpc, environment: options.environment,
      policy: options.reconnect, heartbeat: options.channelHeartbeatInterval, events: hub)
    channels[channel.key] = session
    do {
      try await session.attach(timeout: options.timeouts.request)
    } catch {
      if channels[channel.key] === session { channels[channel.key] = nil }
      session.halt()
      throw error
    }
  }

  /// Ends this client's session on `channel`.
  public func detach(_ channel: Channel) async throws {
    _ = try requireActive()
    guard let session = channels[channel.key], session.channel === channel else {
      throw YorkieError(.documentNotAttached, "channel \"\(channel.key)\" is not attached to this client")
    }
    channels[channel.key] = nil
    await session.stop()
  }

  /// Sends `payload` on the channel `key` to every other client attached to it (the client
  /// need not be attached itself). A failure is thrown, not retried.
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
