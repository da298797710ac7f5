import YorkieProtocol

/// One open Watch stream (or a WatchDocument / WatchChannel stream of the older API): who holds
/// it, what it watches, and where its envelopes go.
///
/// Envelopes are handed to the sink in the order the hub sends them; the hub sends only while
/// holding its lock, so the initialization message always precedes the events.
package final class WatchStream: Sendable {
  /// Which RPC opened the stream: it decides the shape of each message.
  package enum Shape: Sendable {
    /// `Watch`: documents and channels, `WatchResponse` messages.
    case watch
    /// `WatchDocument`: one document, `WatchDocumentResponse` messages.
    case watchDocument
    /// `WatchChannel`: one channel, `WatchChannelResponse` messages.
    case watchChannel
  }

  /// The hub's id of the stream.
  package let id: Int
  /// The client holding it.
  package let client: ResourceID
  /// The project.
  package let project: String
  /// The documents it watches, in request order.
  package let documents: [ResourceID]
  /// The channels it watches, in request order.
  package let channels: [String]
  /// The message shape.
  package let shape: Shape
  /// Where envelope bytes go (the HTTP response's chunks); returns `false` once the peer is gone.
  private let sink: @Sendable ([UInt8]) -> Bool

  /// A stream with the given parts.
  package init(
    id: Int, client: ResourceID, project: String, documents: [ResourceID], channels: [String], shape: Shape,
    sink: @escaping @Sendable ([UInt8]) -> Bool
  ) {
    self.id = id
    self.client = client
    self.project = project
    self.documents = documents
    self.channels = channels
    self.shape = shape
    self.sink = sink
  }

  /// Sends one envelope.
  @discardableResult
  func send(_ envelope: [UInt8]) -> Bool { sink(envelope) }

  /// The envelope of a document event in this stream's shape.
  static func envelope(_ event: WireDocEvent, document: ResourceID, shape: Shape) -> [UInt8] {
    switch shape {
    case .watch:
      return ConnectEnvelope(message: WatchResponse.documentEvent(WireWatchDocumentEvent(documentID: document.hex, event: event))).bytes
    case .watchDocument:
      return ConnectEnvelope(message: WatchDocumentResponse.event(event)).bytes
    case .watchChannel:
      return []
    }
  }

  /// The envelope of a channel event in this stream's shape.
  static func envelope(_ event: WireChannelEvent, channel: String, shape: Shape) -> [UInt8] {
    switch shape {
    case .watch:
      return ConnectEnvelope(message: WatchResponse.channelEvent(WireWatchChannelEvent(channelKey: channel, event: event))).bytes
    case .watchChannel:
      return ConnectEnvelope(message: WatchChannelResponse.event(event)).bytes
    case .watchDocument:
      return []
    }
  }
}
