import Foundation

/// Keeps the auth token: asks the app's ``AuthTokenProvider`` before the first call and again
/// when the server refuses the token, and shares one pending request among callers that need a
/// token at the same moment.
actor AuthTokenStore {
  /// The app's provider; nil sends no token.
  private let provider: AuthTokenProvider?
  /// The token of the last successful request.
  private var token: String?
  /// The request in flight, shared by every caller that waits for a token.
  private var pending: Task<String, any Error>?

  /// A store asking `provider`.
  init(provider: AuthTokenProvider?) {
    self.provider = provider
  }

  /// Whether there is a provider to ask.
  nonisolated var hasProvider: Bool { provider != nil }

  /// The token to send: the kept one, or a new one (reason ``AuthTokenReason/initial``).
  func current() async throws -> String? {
    guard provider != nil else { return nil }
    if let token { return token }
    return try await fetch(.initial)
  }

  /// Forgets the kept token and asks for a new one.
  func refresh(_ reason: AuthTokenReason) async throws -> String {
    token = nil
    return try await fetch(reason)
  }

  /// Asks the provider, or joins the request in flight.
  private func fetch(_ reason: AuthTokenReason) async throws -> String {
    guard let provider else { return "" }
    if let pending { return try await pending.value }
    let task = Task { try await provider(reason) }
    pending = task
    defer { pending = nil }
    let fresh = try await task.value
    token = fresh
    return fresh
  }
}
