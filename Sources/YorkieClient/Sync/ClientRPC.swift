import CRDT
import Foundation
import YorkieProtocol

/// The client's calls: the transport, plus Yorkie's auth rule (a call refused as
/// `unauthenticated` is retried once with a fresh token; a second refusal, or a provider
/// that fails, is reported as ``ClientEvent/authError(reason:method:)``).
final class ClientRPC: Sendable {
  /// The Connect transport.
  let transport: ConnectTransport
  /// The auth token.
  let tokens: AuthTokenStore
  /// Where auth errors are reported.
  let events: EventHub<ClientEvent>
  /// Where each call is logged (debug).
  let log: ClientLog

  /// Calls through `transport`, with `tokens`, reporting to `events` and logging to `log`.
  init(transport: ConnectTransport, tokens: AuthTokenStore, events: EventHub<ClientEvent>, log: ClientLog = .off) {
    self.transport = transport
    self.tokens = tokens
    self.events = events
    self.log = log
  }

  /// Calls the unary RPC `method`; see the type's description for the auth retry. Logs the
  /// call at debug: method, `shardKey` (the document's, channel's or client's key), duration
  /// and outcome.
  func call<Request: WireMessage, Response: WireMessage>(
    _ method: String, _ request: Request, shardKey: String, as type: Response.Type = Response.self
  ) async throws -> Response {
    let start = ContinuousClock.now
    do {
      let response: Response = try await callRefreshingToken(method, request, shardKey: shardKey)
      log.call(method, key: shardKey, since: start, failure: nil)
      return response
    } catch {
      log.call(method, key: shardKey, since: start, failure: error)
      throw error
    }
  }

  /// The call, retried once with a fresh token when the server refused the token.
  private func callRefreshingToken<Request: WireMessage, Response: WireMessage>(
    _ method: String, _ request: Request, shardKey: String
  ) async throws -> Response {
    do {
      return try await transport.unary(method, request, shardKey: shardKey)
    } catch let error as YorkieError where error.code == .unauthenticated && tokens.hasProvider {
      try await refreshToken(after: error, method: method)
      do {
        return try await transport.unary(method, request, shardKey: shardKey)
      } catch let again as YorkieError {
        reportIfAuth(again, method: method)
        throw again
      }
    } catch let error as YorkieError {
      reportIfAuth(error, method: method)
      throw error
    }
  }

  /// Asks for a new token after `error` refused one; reports and throws when the provider fails.
  func refreshToken(after error: YorkieError, method: String) async throws {
    log.info("\(method): the server refused the auth token (\(Self.authReason(error))); asking the token provider for a new one")
    do {
      _ = try await tokens.refresh(.tokenExpired(Self.authReason(error)))
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      let failure = YorkieError(.authTokenUnavailable, "\(method): the auth token provider failed", underlying: error)
      events.send(.authError(reason: failure.message, method: method))
      throw failure
    }
  }

  /// Reports an auth error event for `error` when it is one.
  func reportIfAuth(_ error: YorkieError, method: String) {
    if error.code == .unauthenticated || error.code == .authTokenUnavailable {
      events.send(.authError(reason: Self.authReason(error), method: method))
    }
  }

  /// Why the server refused the credentials: the webhook's reason (the `reason` metadata of
  /// the ErrorInfo, such as "token expired"), else the error's message.
  static func authReason(_ error: YorkieError) -> String {
    let metadata = error.connectError?.details.lazy.compactMap { $0.errorInfo?.metadata["reason"] }.first
    return metadata ?? error.connectError?.message ?? error.message
  }
}
