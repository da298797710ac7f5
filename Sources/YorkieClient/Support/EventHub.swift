import CRDT
import Foundation

/// Fans values out to any number of `AsyncStream` subscribers. Yielding never blocks (each
/// stream buffers without bound), so a slow consumer never holds up the sender; cancelling
/// a consuming task ends its subscription.
package final class EventHub<Value: Sendable>: Sendable {
  /// Subscribers by id, and the next id.
  private let state = Locked(State())

  private struct State: Sendable {
    var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
    var finished = false
  }

  /// Sees every value before the subscribers do (the client's log); nil for none.
  private let observer: (@Sendable (Value) -> Void)?

  /// An empty hub; `observer`, when given, sees every value sent, subscribed to or not.
  package init(observer: (@Sendable (Value) -> Void)? = nil) {
    self.observer = observer
  }

  /// A new subscription; it ends when the hub finishes or the consumer stops.
  package func subscribe() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    let id: Int? = state.withLock { state in
      guard !state.finished else { return nil }
      let id = state.nextID
      state.nextID += 1
      state.continuations[id] = continuation
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// Delivers `value` to every subscriber.
  package func send(_ value: Value) {
    observer?(value)
    let continuations = state.withLock { Array($0.continuations.values) }
    for continuation in continuations { continuation.yield(value) }
  }

  /// Ends every subscription; later subscriptions end at once.
  package func finish() {
    let continuations = state.withLock { state in
      state.finished = true
      defer { state.continuations = [:] }
      return Array(state.continuations.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}
