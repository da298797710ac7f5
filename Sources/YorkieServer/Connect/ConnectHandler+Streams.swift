import CRDT
import Foundation
import YorkieProtocol

// The server streams: Watch, WatchDocument and WatchChannel.

extension ConnectHandler {
  /// Answers a streaming call: `200` at once, then the initialization and the events, until the
  /// peer leaves, the `Connect-Timeout-Ms` deadline passes or the server stops (both end with
  /// `canceled`, as Yorkie's streams do). Errors before the first message end the stream at once.
  func startStream(_ rpc: YorkieRPC, request: HTTPRequest, context: RequestContext, writer: ResponseWriter) {
    writer.startStream(status: .ok, headers: ["Content-Type": "application/connect+json"])
    let call = StreamCall(writer: writer)
    let callID = streams.add(call)
    call.setCleanup { [streams] in streams.remove(callID) }
    writer.onConnectionClose { call.connectionClosed() }
    if let text = request.headers["Connect-Timeout-Ms"], let milliseconds = Self.timeoutMilliseconds(text) {
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
        call.finish(ServiceError.canceled.connectError)
      }
    }
    let body = request.body
    let service = self.service
    let log = self.log
    serverTask { [self] in
      let opened: (client: String, resources: [YorkieService.WatchedResource], shape: WatchStream.Shape)
      do throws(YorkieError) {
        opened = try Self.decodeStreamRequest(rpc, body: body)
      } catch {
        return call.finish(ConnectResponses.unmarshalError(error))
      }
      do throws(ServiceError) {
        let id = try await service.openWatch(
          client: opened.client, resources: opened.resources, shape: opened.shape, context: context, sink: { call.send($0) })
        call.setCleanup { [streams] in
          streams.remove(callID)
          service.closeWatch(id)
        }
      } catch {
        log.debug("\(rpc.rawValue) refused: \(error)")
        call.finish(error.connectError)
      }
    }
  }

  /// The single request envelope of a stream, decoded.
  private static func decodeStreamRequest(_ rpc: YorkieRPC, body: [UInt8]) throws(YorkieError)
    -> (client: String, resources: [YorkieService.WatchedResource], shape: WatchStream.Shape)
  {
    var decoder = ConnectEnvelopeDecoder(maximumLength: 1 << 20)
    let envelopes = try decoder.feed(body)
    try decoder.finish()
    guard envelopes.count == 1, let envelope = envelopes.first, envelope.flags.isEmpty else {
      throw YorkieError(.invalidWireData, "a stream request is exactly one message envelope, got \(envelopes.count)")
    }
    switch rpc {
    case .watch:
      let request = try envelope.decode(WatchRequest.self)
      let resources: [YorkieService.WatchedResource] = request.resources.map { resource in
        switch resource {
        case .document(let document): return .document(document.documentID)
        case .channel(let channel): return .channel(channel.channelKey)
        }
      }
      return (request.clientID, resources, .watch)
    case .watchDocument:
      let request = try envelope.decode(WatchDocumentRequest.self)
      return (request.clientID, [.document(request.documentID)], .watchDocument)
    default:
      let request = try envelope.decode(WatchChannelRequest.self)
      return (request.clientID, [.channel(request.channelKey)], .watchChannel)
    }
  }

  /// Ends every open stream with `canceled` (the server is stopping).
  package func cancelAllStreams() {
    for call in streams.removeAll() { call.finish(ServiceError.canceled.connectError) }
  }
}
