import YorkieProtocol

// Watch, WatchDocument and WatchChannel (yorkie-protocol.md sections 3.7, 3.8, 5.5).

extension YorkieService {
  /// What a stream asks to watch, in request order.
  package enum WatchedResource: Sendable {
    /// A document, by id.
    case document(String)
    /// A channel, by key.
    case channel(String)
  }

  /// Opens a stream for `client` on `resources`: checks them, registers the stream, sends its
  /// initialization through `sink` and tells the other watchers. Returns the stream's id for
  /// ``closeWatch(_:)``.
  package func openWatch(
    client clientText: String, resources: [WatchedResource], shape: WatchStream.Shape, context: RequestContext,
    sink: @escaping @Sendable ([UInt8]) -> Bool
  ) async throws(ServiceError) -> Int {
    let client = try RequestValidation.clientID(clientText)
    var documents: [ResourceID] = []
    var channels: [String] = []
    for resource in resources {
      switch resource {
      case .document(let id): documents.append(try RequestValidation.objectID(id))
      case .channel(let key): channels.append(try RequestValidation.channelKey(key))
      }
    }
    try await authorize(context.project, .watch, context.token, [])
    let project = context.project.publicKey
    let counts: [String: Int64] = try state.withLock { (state) throws(ServiceError) -> [String: Int64] in
      _ = try state.activeClient(client, project: project, now: now())
      for document in documents where state.documents[document]?.project != project {
        throw .documentNotFound(document.hex)
      }
      var counts: [String: Int64] = [:]
      for channel in channels { counts[channel] = state.channels.count(ChannelRegistry.ChannelPath(project: project, key: channel)) }
      return counts
    }
    let stream = WatchStream(
      id: hub.makeStreamID(), client: client, project: project, documents: documents, channels: channels, shape: shape, sink: sink)
    try hub.subscribe(stream, limit: context.project.maxSubscribersPerDocument) { watchers in
      Self.initialization(resources: resources, watchers: watchers, counts: counts, shape: shape)
    }
    log.info("client \(client.hex) watches \(documents.count) document(s), \(channels.count) channel(s)")
    return stream.id
  }

  /// Ends stream `id` (its client stopped watching).
  package func closeWatch(_ id: Int) {
    hub.unsubscribe(id)
  }

  /// The first message of a stream.
  private static func initialization(resources: [WatchedResource], watchers: [[ResourceID]], counts: [String: Int64], shape: WatchStream.Shape)
    -> [UInt8]
  {
    var inits: [WireResourceInit] = []
    var documentIndex = 0
    for resource in resources {
      switch resource {
      case .document(let id):
        let ids = watchers[documentIndex].map(\.hex)
        documentIndex += 1
        inits.append(.document(WireDocumentInit(documentID: ResourceID(hex: id)!.hex, clientIDs: ids)))
      case .channel(let key):
        inits.append(.channel(WireChannelInit(channelKey: key, sessionCount: counts[key] ?? 0)))
      }
    }
    switch shape {
    case .watch:
      return ConnectEnvelope(message: WatchResponse.initialization(inits)).bytes
    case .watchDocument:
      guard case .document(let first)? = inits.first else { return [] }
      return ConnectEnvelope(message: WatchDocumentResponse.initialization(WireWatchDocumentInitialization(clientIDs: first.clientIDs))).bytes
    case .watchChannel:
      guard case .channel(let first)? = inits.first else { return [] }
      return ConnectEnvelope(message: WatchChannelResponse.initialized(WireWatchChannelInitialized(sessionCount: first.sessionCount, seq: first.seq))).bytes
    }
  }
}
