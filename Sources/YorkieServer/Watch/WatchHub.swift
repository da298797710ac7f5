import CRDT
import YorkieProtocol

/// The open Watch streams, by document and channel, and the delivery of events to them
/// (yorkie-protocol.md section 5.5).
///
/// Unlike Yorkie, events are not held for a 100 ms batch window: each is sent as soon as it is
/// published (after what caused it is durable), so a watcher hears of a change within the
/// loopback's latency. An event never reaches the streams of its publisher.
///
/// Thread safety: every method takes the hub's lock for its whole run, and streams send only
/// under it, so each stream's envelopes keep the order of the hub's calls.
package final class WatchHub: Sendable {
  /// The registry of streams.
  private struct Registry: Sendable {
    /// Every stream by id.
    var streams: [Int: WatchStream] = [:]
    /// The streams of each document, in subscription order.
    var byDocument: [ResourceID: [Int]] = [:]
    /// The streams of each channel (project, key), in subscription order.
    var byChannel: [ChannelRegistry.ChannelPath: [Int]] = [:]
    /// The next stream id.
    var nextID = 1
  }

  /// The registry, under the hub's lock.
  private let registry = Locked(Registry())

  /// An empty hub.
  package init() {}

  /// A new stream id.
  package func makeStreamID() -> Int {
    registry.withLock { registry in
      defer { registry.nextID += 1 }
      return registry.nextID
    }
  }

  /// How many streams watch `document`.
  package func subscriberCount(_ document: ResourceID) -> Int {
    registry.withLock { $0.byDocument[document]?.count ?? 0 }
  }

  /// How many Watch streams are open, on every document and channel (tests check that
  /// clients leave none behind).
  package var streamCount: Int {
    registry.withLock { $0.streams.count }
  }

  /// Registers `stream`, sends it `initialization(documentWatchers)` — the envelope made from
  /// the list of clients watching each of its documents, the caller included — and tells the
  /// other watchers of each document that its client now watches. `limit` (> 0) bounds the
  /// streams per document.
  package func subscribe(
    _ stream: WatchStream, limit: Int, initialization: ([[ResourceID]]) -> [UInt8]
  ) throws(ServiceError) {
    try registry.withLock { (registry) throws(ServiceError) in
      if limit > 0 {
        for document in stream.documents where (registry.byDocument[document]?.count ?? 0) >= limit {
          throw .tooManySubscribers(limit)
        }
      }
      registry.streams[stream.id] = stream
      for document in stream.documents { registry.byDocument[document, default: []].append(stream.id) }
      for channel in stream.channels {
        registry.byChannel[ChannelRegistry.ChannelPath(project: stream.project, key: channel), default: []].append(stream.id)
      }
      let watchers = stream.documents.map { document in
        (registry.byDocument[document] ?? []).compactMap { registry.streams[$0]?.client }
      }
      stream.send(initialization(watchers))
      for document in stream.documents {
        Self.deliver(DocumentEvent(document: document, type: .documentWatched, publisher: stream.client), in: registry)
      }
    }
  }

  /// Removes stream `id` and tells the other watchers of its documents that its client stopped
  /// watching. Does nothing for an unknown id (the stream already ended).
  package func unsubscribe(_ id: Int) {
    registry.withLock { registry in
      guard let stream = registry.streams.removeValue(forKey: id) else { return }
      for document in stream.documents {
        registry.byDocument[document]?.removeAll { $0 == id }
        if registry.byDocument[document]?.isEmpty == true { registry.byDocument[document] = nil }
      }
      for channel in stream.channels {
        let path = ChannelRegistry.ChannelPath(project: stream.project, key: channel)
        registry.byChannel[path]?.removeAll { $0 == id }
        if registry.byChannel[path]?.isEmpty == true { registry.byChannel[path] = nil }
      }
      for document in stream.documents {
        Self.deliver(DocumentEvent(document: document, type: .documentUnwatched, publisher: stream.client), in: registry)
      }
    }
  }

  /// Removes every stream and returns them (the server is stopping; the caller ends them).
  package func removeAll() -> [WatchStream] {
    registry.withLock { registry in
      defer { registry = Registry(nextID: registry.nextID) }
      return registry.streams.keys.sorted().compactMap { registry.streams[$0] }
    }
  }

  /// Sends `events` to the watchers of their documents.
  package func publish(_ events: [DocumentEvent]) {
    guard !events.isEmpty else { return }
    registry.withLock { registry in
      for event in events { Self.deliver(event, in: registry) }
    }
  }

  /// Sends `events` to the watchers of their channels.
  package func publish(_ events: [ChannelEvent]) {
    guard !events.isEmpty else { return }
    registry.withLock { registry in
      for event in events {
        let path = ChannelRegistry.ChannelPath(project: event.project, key: event.channel)
        var encoded: [WatchStream.Shape: [UInt8]] = [:]
        for id in registry.byChannel[path] ?? [] {
          guard let stream = registry.streams[id], stream.client != event.excluded else { continue }
          let bytes = encoded[stream.shape] ?? WatchStream.envelope(event.event, channel: event.channel, shape: stream.shape)
          encoded[stream.shape] = bytes
          stream.send(bytes)
        }
      }
    }
  }

  /// Sends one document event to every watcher of its document except the publisher's streams.
  private static func deliver(_ event: DocumentEvent, in registry: Registry) {
    let wire = WireDocEvent(type: event.type, publisher: event.publisher.hex, body: WireDocEventBody())
    var encoded: [WatchStream.Shape: [UInt8]] = [:]
    for id in registry.byDocument[event.document] ?? [] {
      guard let stream = registry.streams[id], stream.client != event.publisher else { continue }
      let bytes = encoded[stream.shape] ?? WatchStream.envelope(wire, document: event.document, shape: stream.shape)
      encoded[stream.shape] = bytes
      stream.send(bytes)
    }
  }
}
