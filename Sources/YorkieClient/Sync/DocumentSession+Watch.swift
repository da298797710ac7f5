import CRDT
import Foundation
import YorkieProtocol

// The Watch stream of a document: online peers and their presences, DOCUMENT_CHANGED → pull,
// reconnection with backoff.

extension DocumentSession {
  /// Opens the stream and keeps it open until the session stops or the mode drops it.
  func runWatch() async {
    // Started once the document is attached on the server (``startTimers(for:)``).
    guard let documentID else { return }
    var backoff = ReconnectBackoff(policy: state.withLock { $0.syncBackoff.policy })
    var refreshedToken = false
    while !Task.isCancelled {
      do {
        let request = WatchRequest(clientID: clientID, resources: [.document(WireDocumentResource(documentID: documentID))])
        for try await message in rpc.transport.stream("Watch", request, shardKey: key, as: WatchResponse.self) {
          if try await handle(message) {
            backoff.succeeded()
            refreshedToken = false
          }
        }
        throw YorkieError(.unavailable, "Watch: the server ended the stream")
      } catch {
        if Task.isCancelled || error is CancellationError { return }
        await watchEnded()
        watchSettled.open()
        let failure = YorkieError.wrapping(error, "Watch")
        if FailureKind(failure) == .unauthenticated && rpc.tokens.hasProvider && !refreshedToken {
          // Once per failure streak: a fresh token, then at once again.
          refreshedToken = true
          if (try? await rpc.refreshToken(after: failure, method: "Watch")) != nil { continue }
        }
        rpc.reportIfAuth(failure, method: "Watch")
        if Task.isCancelled { return }
        let outcome = RetryOutcome.after(
          failure, of: .documentWatch(key), backoff: &backoff, random: environment.random,
          giveUp: "change the sync mode or attach again")
        guard case .retry(let notice) = outcome else {
          if case .stop(let notice) = outcome { halt(notice) }
          return
        }
        events.send(.retrying(notice))
        let delay = notice.delay
        do { try await environment.clock.sleep(for: delay) } catch { return }
      }
    }
  }

  /// Applies one message of the stream; returns true for the initialization (the stream is up).
  private func handle(_ message: WatchResponse) async throws -> Bool {
    let documentID = self.documentID
    switch message {
    case .initialization(let inits):
      var online: Set<ActorID> = []
      for case .document(let resource) in inits where resource.documentID == documentID || resource.documentID.isEmpty {
        for id in resource.clientIDs { if let actor = try? ActorID(hex: id) { online.insert(actor) } }
      }
      await document.setOnlineClients(online)
      let peers = await document.presences.map { PeerPresence(actorID: $0.actorID, presence: $0.presence) }
      await document.emit([.initialized(peers)])
      state.withLock { state in
        state.watchConnected = true
        // Changes may have been made while the stream was down: pull them.
        state.loop.pullWanted = true
      }
      watchSettled.open()
      events.send(.connectionChanged(document: key, .connected))
      signal.notify()
      return true
    case .documentEvent(let event):
      guard let body = event.event else { return false }
      switch body.type {
      case .documentChanged:
        state.withLock { $0.loop.pullWanted = true }
        signal.notify()
      case .documentWatched:
        guard let actor = try? ActorID(hex: body.publisher) else { return false }
        guard await !document.onlineClients.contains(actor) else { return false }
        await document.setOnline(actor, true)
        // Without a presence yet, the peer shows up when its presence arrives with a pull.
        if let presence = await document.presence(of: actor) {
          await document.emit([.watched(PeerPresence(actorID: actor, presence: presence))])
        }
      case .documentUnwatched:
        guard let actor = try? ActorID(hex: body.publisher) else { return false }
        guard await document.onlineClients.contains(actor) else { return false }
        let presence = await document.presence(of: actor)
        await document.setOnline(actor, false)
        if let presence {
          await document.emit([.unwatched(PeerPresence(actorID: actor, presence: presence))])
        }
      case .documentBroadcast:
        // Document broadcasts ended with Yorkie v0.6.36; broadcasts travel on channels.
        break
      }
      return false
    case .channelEvent:
      return false
    }
  }

  /// The stream is down: no peer is known online until it is back.
  func watchEnded() async {
    let wasConnected = state.withLock { state in
      defer { state.watchConnected = false }
      return state.watchConnected
    }
    guard wasConnected else { return }
    await document.setOnlineClients([])
    events.send(.connectionChanged(document: key, .disconnected))
  }
}
