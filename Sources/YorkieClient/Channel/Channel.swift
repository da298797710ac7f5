import CRDT
import Foundation

/// A message broadcast on a channel.
public struct BroadcastMessage: Sendable, Equatable, CustomStringConvertible {
  /// The topic the publisher chose.
  public var topic: String
  /// The payload (JSON; `null` when the bytes were not JSON).
  public var payload: JSONValue
  /// The publishing client's ID (24 hex characters).
  public var publisher: String

  /// A message.
  public init(topic: String, payload: JSONValue, publisher: String) {
    self.topic = topic
    self.payload = payload
    self.publisher = publisher
  }

  /// `"chat" {"msg":"hi"} from …a1b2c3`.
  public var description: String {
    "\(JSONValue.string(topic).jsonString) \(payload.jsonString) from …\(publisher.suffix(6))"
  }
}

/// A lightweight room on the server: it counts the clients present and relays broadcasts.
/// Nothing in it is stored. Attach it with ``Client/attach(_:)-(Channel)`` to be counted and
/// to receive its broadcasts; send with ``Client/broadcast(channel:topic:payload:)``.
///
/// ```swift
/// let room = Channel(key: "room-1")
/// try await client.attach(room)
/// await room.sessionCount                          // clients present
/// for await message in room.broadcasts { … }       // topic, payload, publisher
/// ```
public actor Channel {
  /// The channel's key.
  public nonisolated let key: String
  /// The number of sessions on the channel, as the server last said (0 while not attached).
  public private(set) var sessionCount = 0
  /// The sequence number of the count's last update (counts arrive out of order otherwise).
  private var countSeq: Int64 = -1
  /// Broadcast subscribers.
  private nonisolated let broadcastHub = EventHub<BroadcastMessage>()
  /// Session count subscribers.
  private nonisolated let countHub = EventHub<Int>()

  /// A channel with `key` (slash-separated paths such as `"room-1/table-2"` are allowed).
  public init(key: String) {
    self.key = key
  }

  /// The broadcasts received from now on (each access makes a new subscription, which ends
  /// when the consuming task is cancelled). Broadcasts from this client are not echoed.
  public nonisolated var broadcasts: AsyncStream<BroadcastMessage> { broadcastHub.subscribe() }

  /// The session count each time it changes, from now on.
  public nonisolated var sessionCounts: AsyncStream<Int> { countHub.subscribe() }

  /// Takes a count from the server. `seq` orders the counts of the Watch stream; a count from
  /// a call's answer (`seq` nil: AttachChannel, RefreshChannel) is taken only while the stream
  /// has given none, since it may have been computed before a newer count the stream already
  /// delivered.
  func updateSessionCount(_ count: Int64, seq: Int64?) {
    if let seq {
      guard seq > countSeq else { return }
      countSeq = seq
    } else if countSeq >= 0 {
      return
    }
    let value = Int(clamping: count)
    guard value != sessionCount else { return }
    sessionCount = value
    countHub.send(value)
  }

  /// The Watch stream is down: counts from calls (heartbeats) are taken again, and the next
  /// stream's counts start a new sequence.
  func streamEnded() {
    countSeq = -1
  }

  /// The channel is no longer attached.
  func reset() {
    countSeq = -1
    if sessionCount != 0 {
      sessionCount = 0
      countHub.send(0)
    }
  }

  /// Delivers a broadcast to the subscribers.
  nonisolated func deliver(_ message: BroadcastMessage) {
    broadcastHub.send(message)
  }
}
