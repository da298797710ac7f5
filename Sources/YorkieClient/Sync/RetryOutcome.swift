import CRDT
import Foundation

/// What a retrying loop (a document's stream, a channel's heartbeat or stream) does after a
/// failure: try again after a delay, or stop, each with the notice the app gets.
enum RetryOutcome {
  /// Wait the notice's delay, then try again.
  case retry(RetryNotice)
  /// Stop: retrying cannot fix the failure, or the policy's attempts are spent.
  case stop(StopNotice)

  /// Sorts `failure` of `resource` and, when it may be retried, draws the next delay of
  /// `backoff`. `giveUp` is the remedy told when the attempts are spent. (An `unauthenticated`
  /// failure is retried like any other here: the caller asked for a fresh token first.)
  static func after(
    _ failure: YorkieError, of resource: SyncResource, backoff: inout ReconnectBackoff, random: SharedRandom, giveUp: String
  ) -> RetryOutcome {
    if case .fatal(let remedy) = FailureKind(failure) {
      return .stop(StopNotice(resource: resource, error: failure, remedy: remedy, recovery: FailureKind.recovery(for: failure)))
    }
    guard let delay = random.delayAfterFailure(of: &backoff) else {
      return .stop(StopNotice(
        resource: resource, error: failure,
        remedy: "gave up after \(backoff.failures) failed attempts (ReconnectPolicy.maxAttempts): \(giveUp)"))
    }
    return .retry(RetryNotice(resource: resource, error: failure, attempt: backoff.failures, delay: delay))
  }
}
