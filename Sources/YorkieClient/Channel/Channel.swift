import CRDT
import Foundation

/// A message broadcast on a channel.
public struct BroadcastMessage: Sendable, Equatable, CustomStringConvertible {
  /// The topic the publisher chose.
  public var topic: String
  /// The payload (JSON; `null` when the bytes were not JSON).
  public var payload: JSONValue
  /// The publishing client, as presences and ``Client/id`` name it; nil when the server named
  /// no valid client ID (the message is delivered all the same).
  public var publisher: ActorID?

  /// A message.
  public init(topic: String, payload: JSONValue, publisher: ActorID?) {
    self.topic = topic
    self.payload = payload
    self.publisher = publisher
  }

  /// `"chat" {"msg":"hi"} from …a1b2c3`.
  public var description: String {
    "\(JSONValue.string(topic).jsonString) \(payload.jsonString) from \(publisher.map(\.abbreviated) ?? "an unnamed client")"
  }
}

/// Where a ``Channel`` stands with the client it was attached to.
public enum ChannelStatus: Sendable, Hashable, CustomStringConvertible {
  /// Not attached: never attached, detached, or its attach gave up.
  case detached
  /// Attached by ``Client/attach(_:)-(Channel)`` but not yet counted by the server: the first
  /// AttachChannel is in flight, or the server was unreachable and the client retries it with
  /// backoff (each failure a ``ClientEvent/retrying(_:)`` event, the success a
  /// ``ClientEvent/channelAttached(_:)`` event). No session counts or broadcasts arrive yet.
  case pending
  /// Counted by the server; session counts and broadcasts arrive.
  case attached

  /// `detached`, `pending` or `attached`.
  public var description: String {
    switch self {
    case .detached: return "detached"
    case .pending: return "pending"
    case .attached: return "attached"
    }
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
///
/// Attaching while the server is unreachable does not fail: the channel is ``ChannelStatus/pending``
/// and attached when the server answers (see ``Client/attach(_:)-(Channel)``).
public actor Channel {
  /// The channel's key.
  public nonisolated let key: String
  /// Whether the channel is attached (see ``ChannelStatus``).
  public private(set) var status = ChannelStatus.detached
  /// The session that attached this channel, while it is pending or attached: a session that
  /// was stopped (or superseded) cannot change the status any more.
  private var owner: ObjectIdentifier?
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

  /// Takes the channel for the session `owner` (it becomes pending); false when it is pending
  /// or attached already (for another client, or not yet detached).
  func claim(for owner: ObjectIdentifier) -> Bool {
    guard status == .detached else { return false }
    self.owner = owner
    status = .pending
    return true
  }

  /// The session `owner` is counted by the server and its stream is up: the channel is
  /// attached, unless that session was released meanwhile.
  func settle(for owner: ObjectIdentifier) {
    guard self.owner == owner, status == .pending else { return }
    status = .attached
  }

  /// The session `owner` ended (detached, stopped, or its attach failed or gave up): the
  /// channel is detached and counts no sessions. Nothing when another session owns it.
  func release(from owner: ObjectIdentifier) {
    guard self.owner == owner else { return }
    self.owner = nil
    status = .detached
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
